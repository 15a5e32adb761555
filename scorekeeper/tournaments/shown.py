"""A tournament as its TV, its paper, its bracket, its files and its API state show it: kept.

Every one of those is the engine's fold of the stored tournament and of its matches' rubbers;
what it shows changes only with the tournament's row (a round drawn, a walkover, a withdrawal)
or one of those rubbers (a hand, an edit, an undo), which the tournament's fingerprint follows
in one query (store.fingerprint). So each document is named by the fingerprint, its kind, and
the language and address its words and links are in; it is built the first time that name is
asked for in a worker, kept (web.downloads) and sent again while the name holds, 304 to a
client that has it. A TV's poll, or a client flooding one, costs one query and no fold
(docs/decisions/limits.md, "Heavy reads")."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from flask import Response, request
from werkzeug.exceptions import NotFound

from scorekeeper.tournaments import bracket, store
from scorekeeper.web import downloads, page_cache
from scorekeeper.web.i18n import pin_locale, select_locale

NONE_KEPT = page_cache.Kept(256)
"""The names of documents that are none (the bracket of a Swiss): their 404 costs no fold."""


def read(tournament_id: str) -> store.Standing:
    """The tournament folded (a read writes nothing); 404 if there is none."""
    return store.standing(store.GRANTS.or_404(tournament_id))


def name_of(tournament_id: str, kind: str, *, tv: bool = False) -> Hashable | None:
    """The name a document of ``kind`` is kept under, from the fingerprint's one query.

    The TV's (``tv``) is in the language the organizer chose for it, if any, whatever the
    reader's: the request speaks it from here on. None for a tournament that is none."""
    seen = store.fingerprint(tournament_id)
    if seen is None:
        return None
    if tv:
        pin_locale(seen.tv_language)
    return (kind, tournament_id, seen.state, select_locale(), request.scheme, request.host)


def kept(  # noqa: PLR0913  what a document is, each named by its caller
    tournament_id: str,
    kind: str,
    build: Callable[[store.Standing, str], str],
    *,
    mimetype: str,
    filename: str | None = None,
    cache_control: str = "private, no-cache",
    missing: Callable[[], Exception] = NotFound,
    tv: bool = False,
) -> Response:
    """The tournament's document of ``kind``: 304 to an If-None-Match that holds, else kept.

    ``build`` makes its text from the tournament and the ETag it is sent with (which a page that
    follows the tournament asks again with); it runs once per change of the tournament in a
    worker. ``missing`` is raised for a tournament that is none; a document that ``build``
    finds is none (404) is remembered as none while the tournament stands. ``tv``: the TV's
    page, in its own language (:func:`name_of`)."""
    name = name_of(tournament_id, kind, tv=tv)
    if name is None:
        raise missing()
    if NONE_KEPT.get(name):
        raise NotFound()
    tag = downloads.etag(name)

    def built() -> list[bytes]:
        standing = read(tournament_id)
        try:
            return [build(standing, tag).encode()]
        except NotFound:
            NONE_KEPT.put(name, True)
            raise

    return downloads.send(
        name,
        built,
        mimetype=mimetype,
        filename=filename,
        text=True,
        cache_control=cache_control,
    )


def drawing(standing: store.Standing) -> bracket.Bracket | None:
    """The tournament's bracket, its pairs by their labels; None without a knockout."""
    return bracket.build(standing.fold, lambda number: standing.pair(number).label)
