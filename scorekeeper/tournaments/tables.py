"""A table's one link for the whole evening (a Bridgemate's table number).

The organizer shows or prints one link and QR code per table, once: ``/t/<id>/tables/<n>/<key>``.
Opened on the table's phone, it goes to whatever that table plays now, across the rubbers of a
best-of-3 and across rounds: the rubber in play at that table in the round in play, which the
phone may then record (it is granted that rubber, and only that table's rubbers as it opens
the link again). When nothing is in play at the table, it says which round and table it is and
what comes next (docs/decisions/tournaments.md, "One link per table")."""

from __future__ import annotations

import hmac

from flask import abort, current_app, redirect, render_template, url_for
from werkzeug.wrappers import Response

from scorekeeper.engine import tournaments as tourney
from scorekeeper.rubbers import store as rubbers
from scorekeeper.rubbers.models import Rubber
from scorekeeper.tournaments import bp, display, store
from scorekeeper.web import security, tokens
from scorekeeper.web.device import ensure_device


def table_key(tournament_id: str, table: int) -> str:
    """The key of a table's link: made from the app's secret, so it is the same all evening."""
    secret = current_app.config["SECRET_KEY"]
    return tokens.derived_key(secret, "tournament table link", tournament_id, str(table))


def table_link(tournament_id: str, table: int) -> str:
    return url_for(
        "tournaments.table",
        tournament_id=tournament_id,
        table=table,
        key=table_key(tournament_id, table),
        _external=True,
    )


def links(standing: store.Standing) -> list[dict[str, object]]:
    """Each table's link (API.md, "Tables for the evening")."""
    tournament_id = standing.tournament.id
    return [
        {"table": number, "edit_url": table_link(tournament_id, number)}
        for number in standing.fold.evening_tables()
    ]


def in_play(standing: store.Standing, table: int) -> tuple[tourney.Match | None, Rubber | None]:
    """The match at ``table`` in the round in play, and its rubber in play if it has one now.

    A later round's match already in play at that table counts too (a knockout's next match)."""
    current = display.round_in_play(standing.fold)
    if current is None:
        return None, None
    found: tourney.Match | None = None
    for drawn in standing.fold.rounds:
        if drawn.number < current.number:
            continue
        for match in drawn.matches:
            if match.table != table or match.is_bye:
                continue
            if found is None:
                found = match  # what the table plays in the round in play, decided or not
            if match.needs_rubber:
                rows = standing.rubbers.get((match.round, match.table), [])
                if rows and not rows[-1].finished:
                    return match, rows[-1]
    return found, None


@bp.get("/t/<tournament_id>/tables/<int:table>/<key>")
def table(tournament_id: str, table: int, key: str) -> Response | str:
    """The table's phone: on to the rubber it plays now, else where the table stands."""
    found = store.GRANTS.or_404(tournament_id)
    if not hmac.compare_digest(key, table_key(found.id, table)):
        abort(404)
    security.holds_edit_key()  # the address carries the table's key: no cache keeps it
    standing = store.standing(found)
    match, rubber = in_play(standing, table)
    if rubber is not None:
        rubbers.grant(ensure_device(), rubber)
        return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
    return render_template(
        "tournaments/table.html",
        standing=standing,
        table=table,
        match=match,
        here=table_link(found.id, table),
    )
