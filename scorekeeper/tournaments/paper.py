"""A tournament on paper (/t/<id>/print).

The draw, each round's table sheet, the bracket and
the standings, for an A4 printer; type of 14 px or more (static/tournaments.css)."""

from __future__ import annotations

from flask import Response, render_template

from scorekeeper.tournaments import bp, shown, store
from scorekeeper.tournaments.display import bracket_title


@bp.get("/t/<tournament_id>/print")
def print_view(tournament_id: str) -> Response:
    """The tournament to print: everything the organizer pins on the wall or hands to a table."""

    def build(standing: store.Standing, _tag: str) -> str:
        return render_template(
            "tournaments/print.html",
            standing=standing,
            bracket=shown.drawing(standing),
            bracket_title=bracket_title(standing),
        )

    return shown.kept(tournament_id, "print", build, mimetype="text/html")
