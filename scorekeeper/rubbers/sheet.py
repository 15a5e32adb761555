"""The rubber's score sheet: its hands as a CSV file a person reads, in the reader's language.

The API's CSV (``/api/v1/rubbers/<id>/export.csv``) is a contract for programs: English field
names, seat numbers, ``played`` and ``true``. This one is for a spreadsheet at home: the
headers in the page's language, the teams' and players' names, what each hand gave in the
words of the rubber page (docs/decisions/rubber-page.md, "The score sheet")."""

from __future__ import annotations

from typing import Any

from flask import Response
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.rubbers import bp
from scorekeeper.rubbers.access import player_names, rubber_or_404
from scorekeeper.rubbers.models import Rubber
from scorekeeper.rubbers.sharing import side_name
from scorekeeper.web import downloads, wording
from scorekeeper.web.i18n import select_locale


def header(teams: tuple[str, str]) -> list[str]:
    """Return the sheet's first row, in the reader's language, naming the teams."""
    return [
        _("Hand"),
        _("Dealer"),
        _("Trump"),
        _("Card points: %(team)s", team=teams[0]),
        _("Card points: %(team)s", team=teams[1]),
        _("What the hand gave"),
        _("Games: %(team)s", team=teams[0]),
        _("Games: %(team)s", team=teams[1]),
    ]


def sheet_rows(rubber: Rubber) -> list[list[Any]]:
    """Return the header and one row per hand of the engine's fold, the games after each.

    A team is named as the share sheet names it: its players, where nobody named the team."""
    teams = (side_name(rubber, 0), side_name(rubber, 1))
    names = player_names(rubber)
    trumps = {row.number: row.trump for row in rubber.hands}
    table: list[list[Any]] = [header(teams)]
    for result in rubber.state().hands:
        points = result.hand.points or (None, None)
        trump = trumps.get(result.number)
        table.append(
            [
                result.number,
                names[result.dealer],
                wording.suit_name(engine.Suit(trump)) if trump else None,
                points[0],
                points[1],
                wording.hand_summary(result, teams),
                result.games_after[0],
                result.games_after[1],
            ]
        )
    return table


@bp.get("/r/<rubber_id>/sheet.csv")
def sheet(rubber_id: str) -> Response:
    """The score sheet to download, built once per version of the rubber and language."""
    rubber = rubber_or_404(rubber_id)
    key = ("sheet.csv", rubber.id, rubber.version, select_locale())
    return downloads.send(
        key,
        lambda: [("\ufeff" + downloads.csv_text(sheet_rows(rubber))).encode()],
        mimetype="text/csv",
        filename=f"sueca-{rubber.id}.csv",
        text=True,
    )
