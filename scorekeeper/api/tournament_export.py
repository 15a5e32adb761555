"""A tournament's export file (/t/<id>/export.json) and its standings as CSV (standings.csv).

The file is its state as the API says it, and each match's rubbers' states in full, hands
included; the CSV's headers are in the reader's language, its names defused as a rubber's CSV's
(api.export.cell).

Beside the tournament's pages rather than under /api/v1, as a group's is for a rubber's cross;
here, under api/, since a rubber's state is the API's (api.states): a blueprint of its own, as
the tournaments package may not import the API (docs/decisions/tournaments.md, "Its TV, paper
and files")."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response
from flask_babel import gettext as _

from scorekeeper.api.states import exported_rubber
from scorekeeper.tournaments import facts, shown, store
from scorekeeper.web import downloads

bp = Blueprint("tournament_export", __name__)
"""Beside the tournament's pages, at /t/<id>/..., not under /api/v1."""


def export_file(standing: store.Standing) -> dict[str, Any]:
    """The API's tournament state, with each match's rubbers' states by round and table."""
    data = facts.tournament_json(standing)
    data["match_rubbers"] = [
        {"round": number, "table": table, "rubbers": [exported_rubber(rubber) for rubber in rows]}
        for (number, table), rows in sorted(standing.rubbers.items())
    ]
    return data


@bp.get("/t/<tournament_id>/export.json")
def export_json(tournament_id: str) -> Response:
    """The tournament's export file, built once per version of it (web.downloads)."""
    return shown.kept(
        tournament_id,
        "export.json",
        lambda standing, _tag: json.dumps(export_file(standing), ensure_ascii=False),
        mimetype="application/json",
        filename=f"sueca-tournament-{tournament_id}.json",
        cache_control="no-cache",
    )


def standings_rows(standing: store.Standing) -> list[list[Any]]:
    """The header, then a line per pair: in a tournament in groups, each group's, A's first."""
    grouped = bool(standing.fold.groups)
    header: list[Any] = [
        _("Rank"),
        *([_("Group")] if grouped else []),
        _("Pair"),
        _("Players"),
        _("Matches played"),
        _("Matches won"),
        _("Matches lost"),
        _("Games won"),
        _("Games lost"),
        _("Buchholz"),
    ]
    lines = [header]
    for row in standing.fold.standings:
        pair = standing.pair(row.pair)
        lines.append(
            [
                row.rank,
                *([row.group] if grouped else []),
                pair.label,
                f"{pair.player0} & {pair.player1}",
                row.played,
                row.won,
                row.lost,
                row.games_won,
                row.games_lost,
                row.buchholz,
            ]
        )
    return lines


@bp.get("/t/<tournament_id>/standings.csv")
def standings_csv(tournament_id: str) -> Response:
    """The standings as a spreadsheet opens them."""
    return shown.kept(
        tournament_id,
        "standings.csv",
        lambda standing, _tag: downloads.csv_text(standings_rows(standing)),
        mimetype="text/csv",
        filename=f"sueca-{tournament_id}-standings.csv",
        cache_control="no-cache",
    )
