"""A rubber's hands as a CSV file, one row per hand of the engine's fold, for spreadsheets."""

from __future__ import annotations

import csv
import io
from typing import Any

from flask import Blueprint, Response
from flask_babel import gettext as _

from scorekeeper.api.errors import ApiError
from scorekeeper.extensions import db
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber

bp = Blueprint("export", __name__)

HEADER = (
    "number",
    "kind",
    "points_0",
    "points_1",
    "all_tricks",
    "team",
    "games_0",
    "games_1",
    "dealer",
    "trump",
)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet."""


def cell(value: Any) -> str:
    """One CSV cell: numbers as they are, text that a spreadsheet would run defused with a '."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def rows(rubber: Rubber) -> list[list[str]]:
    """The header and one row per hand, from the engine's fold of the stored hands."""
    trumps = {row.number: row.trump for row in rubber.hands}
    table = [list(HEADER)]
    for result in rubber.state().hands:
        hand = result.hand
        points = hand.points or (None, None)
        values = (
            result.number,
            hand.kind.value,
            points[0],
            points[1],
            hand.all_tricks,
            hand.team,
            result.games[0],
            result.games[1],
            result.dealer,
            trumps.get(result.number),
        )
        table.append([cell(value) for value in values])
    return table


@bp.get("/rubbers/<rubber_id>/export.csv")
def rubber_csv(rubber_id: str) -> Response:
    rubber = db.session.get(Rubber, rubber_id) if store.is_token(rubber_id) else None
    if rubber is None:
        raise ApiError(404, _("There is no rubber with this id."), None, "no_rubber")
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows(rubber))
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="sueca-{rubber.id}.csv"',
            "Cache-Control": "no-store",
        },
    )
