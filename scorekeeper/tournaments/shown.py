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
    return store.sync(found.id) or store.standing(found)


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


def etag(standing: store.Standing, kind: str) -> str:
    """The weak ETag of one kind of page of the tournament, at its state now."""
    key = (kind, facts(standing), request.scheme, request.host, current_app.extensions["build_id"])
    return hashlib.sha256(repr(key).encode()).hexdigest()[:20]


def answer(etag_value: str, render: Callable[[], str], mimetype: str) -> Response:
    """304 to an If-None-Match that holds, else the page rendered; its ETag either way."""
    if request.if_none_match.contains_weak(etag_value):
        response = Response(status=304)
    else:
        response = Response(render(), mimetype=mimetype)
    response.set_etag(etag_value, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response


def drawing(standing: store.Standing) -> bracket.Bracket | None:
    """The tournament's bracket, its pairs by their labels; None without a knockout."""
    return bracket.build(standing.fold, lambda number: standing.pair(number).label)
