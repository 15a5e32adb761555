"""A tournament as its TV, its paper and its downloads show it: read once, with its ETag.

Every one of those pages is the engine's fold of the stored tournament and of its matches'
rubbers; what it shows changes only with the tournament's row (a round drawn, a walkover, a
withdrawal) or one of those rubbers (a hand, an edit, an undo), so its ETag is a hash of their
versions, and of the language and address the page's words and links are in."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable

from flask import Response, current_app, request

from scorekeeper.tournaments import bracket, store
from scorekeeper.web.i18n import select_locale


def read(tournament_id: str) -> store.Standing:
    """The tournament synced and folded; 404 if there is none."""
    found = store.GRANTS.or_404(tournament_id)
    return store.synced(found)


def facts(standing: store.Standing) -> tuple[Hashable, ...]:
    """What a page of the tournament depends on: its row's and its rubbers' versions."""
    tournament = standing.tournament
    return (
        tournament.id,
        tournament.version,
        tuple(
            (rubber.id, rubber.version)
            for _, rows in sorted(standing.rubbers.items())
            for rubber in rows
        ),
        select_locale(),
    )


def etag_of(tournament_id: str, kind: str) -> str | None:
    """The weak ETag of one kind of page of the tournament, from its fingerprint's one query.

    The fingerprint (store.fingerprint) moves with every write of the tournament or of one of
    its rubbers, so a follower's poll is answered 304 before anything is folded. None for a
    tournament that is none."""
    seen = store.fingerprint(tournament_id)
    if seen is None:
        return None
    key = (
        kind,
        tournament_id,
        seen.state,
        select_locale(),
        request.scheme,
        request.host,
        current_app.extensions["build_id"],
    )
    return hashlib.sha256(repr(key).encode()).hexdigest()[:20]


def etag(standing: store.Standing, kind: str) -> str:
    """The weak ETag of one kind of page of the tournament, at its state now."""
    return etag_of(standing.tournament.id, kind) or ""


def unchanged(tournament_id: str, kind: str) -> Response | None:
    """The 304 to an If-None-Match that still holds, from one query; else None."""
    if "HTTP_IF_NONE_MATCH" not in request.environ:
        return None
    tag = etag_of(tournament_id, kind)
    if tag is None or not request.if_none_match.contains_weak(tag):
        return None
    return _validated(Response(status=304), tag)


def answer(etag_value: str, render: Callable[[], str], mimetype: str) -> Response:
    """304 to an If-None-Match that holds, else the page rendered; its ETag either way."""
    if request.if_none_match.contains_weak(etag_value):
        return _validated(Response(status=304), etag_value)
    return _validated(Response(render(), mimetype=mimetype), etag_value)


def _validated(response: Response, etag_value: str) -> Response:
    """The answer with its ETag and what a cache may do with it."""
    response.set_etag(etag_value, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response


def drawing(standing: store.Standing) -> bracket.Bracket | None:
    """The tournament's bracket, its pairs by their labels; None without a knockout."""
    return bracket.build(standing.fold, lambda number: standing.pair(number).label)
