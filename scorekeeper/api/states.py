"""The API's answers as JSON: a rubber's state, a group, its statistics.

Their shapes are the answer models of ``schemas/`` (the document), which the tests hold these to."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from flask import Response, jsonify, url_for

from scorekeeper import engine
from scorekeeper.groups import statistics
from scorekeeper.groups.models import Group
from scorekeeper.rubbers.models import Hand as HandRow
from scorekeeper.rubbers.models import Rubber
from scorekeeper.tournaments import store as tournament_store
from scorekeeper.web import wording


def _hand_json(
    result: engine.HandResult, row: HandRow | None, teams: tuple[str, str]
) -> dict[str, Any]:
    hand = result.hand
    data: dict[str, Any] = {
        "number": result.number,
        "kind": hand.kind.value,
        "points": list(hand.points) if hand.points is not None else None,
        "all_tricks": hand.all_tricks,
        "team": hand.team,
        "games": list(result.games),
        "dealer": result.dealer,
        "trump": row.trump if row is not None else None,
        "leader": result.leader,
        "games_after": list(result.games_after),
        "winner": result.winner,
        "bandeira": result.bandeira,
        "reasons": list(result.reasons),
        "summary": wording.hand_summary(result, teams),
    }
    if row is not None and row.tricks is not None:
        data["tricks"] = row.tricks
    data["edited_at"] = moment_json(row.edited_at if row is not None else None)
    return data


def moment_json(when: datetime | None) -> str | None:
    """A stored time (UTC) as the API writes it, to the second; None as null.

    >>> moment_json(datetime(2026, 12, 2, 1, 49, 7, 250)), moment_json(None)
    ('2026-12-02T01:49:07Z', None)
    """
    return None if when is None else when.isoformat(timespec="seconds") + "Z"


def rubber_json(rubber: Rubber, state: engine.RubberState) -> dict[str, Any]:
    """The rubber state of API.md, with a few fields more."""
    rows = {row.number: row for row in rubber.hands}
    return {
        "id": rubber.id,
        "url": url_for("rubbers.rubber", rubber_id=rubber.id, _external=True),
        "teams": list(rubber.teams),
        "players": list(rubber.players) if rubber.players is not None else None,
        "rules": state.rules.to_dict(),
        "games": list(state.games),
        "finished": state.finished,
        "winner": state.winner,
        "outcome": state.outcome.value if state.outcome is not None else None,
        "pending": {"extra_games": state.pending_extra, "multiplier": state.pending_multiplier},
        "dealer": state.dealer,
        "leader": state.leader,
        "shuffler": state.shuffler,
        "cutter": state.cutter,
        "first_dealer": state.first_dealer,
        "version": rubber.version,
        "group": rubber.group_id,
        "tournament": tournament_store.place(rubber),
        "paper_games": rubber.paper_games,
        "hands": [
            _hand_json(result, rows.get(result.number), rubber.teams) for result in state.hands
        ],
    }


def exported_rubber(rubber: Rubber) -> dict[str, Any]:
    """A rubber state of the export: the API's state, with when it started and its origin."""
    data = rubber_json(rubber, rubber.state())
    data["created_at"] = rubber.created_at.isoformat() + "Z"
    data["origin"] = rubber.origin_id or rubber.id
    return data


def group_json(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "url": url_for("groups.group", group_id=group.id, _external=True),
        "name": group.name,
        "stats_url": url_for("api.groups.stats", group_id=group.id, _external=True),
        "export_url": url_for("api.export.export_json", group_id=group.id, _external=True),
    }


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def stats_json(group: Group, stats: statistics.GroupStats) -> dict[str, Any]:
    """The statistics of API.md, with a few fields more."""
    players = []
    for player in stats.ranking():
        partner = stats.best_partner(player.key)
        partner_key = None
        if partner is not None:
            partner_key = partner.keys[1] if partner.keys[0] == player.key else partner.keys[0]
        players.append(
            {
                "name": player.name,
                "rubbers": player.rubbers,
                "won": player.won,
                "lost": player.lost,
                "games_won": player.games_won,
                "games_lost": player.games_lost,
                "pentes": player.pentes,
                "pentes_taken": player.pentes_taken,
                "chapeus": player.chapeus,
                "chapeus_taken": player.chapeus_taken,
                "arrepios": player.arrepios,
                "arrepios_taken": player.arrepios_taken,
                "bandeiras": player.bandeiras,
                "card_points_per_hand": _rounded(player.average_points, 2),
                "rating": round(player.rating.ordinal, 3),
                "rating_mu": round(player.rating.mu, 3),
                "rating_sigma": round(player.rating.sigma, 3),
                "rated_rubbers": player.rated,
                "best_partner": stats.name(partner_key) if partner_key is not None else None,
                "toughest_opponents": [
                    stats.name(versus.opponent) for versus in stats.toughest_opponents(player.key)
                ],
            }
        )
    return {
        "id": group.id,
        "name": group.name,
        "rubbers": stats.rubbers,
        "players": players,
        "pairs": [
            {
                "players": [stats.name(pair.keys[0]), stats.name(pair.keys[1])],
                "rubbers": pair.rubbers,
                "won": pair.won,
                "games_won": pair.games_won,
                "games_lost": pair.games_lost,
            }
            for pair in stats.pairs()
        ],
        "outcomes": {
            name: stats.outcomes.get(name, 0)
            for name in ("shutout", *(outcome.value for outcome in engine.Outcome))
        },
        "rating": {
            "library": "openskill",
            "model": "PlackettLuce",
            "rating": "mu - 3 * sigma",
        },
    }


def created(
    data: dict[str, Any], edit_key: str, link: str, state: str, **ids: Any
) -> tuple[Response, int, dict[str, str]]:
    """Answer a start: 201, the new row's ``data`` with its edit key and link, and its Location.

    The edit key and link are given only here. ``link`` is the edit link's endpoint and
    ``state`` the API's read of the row, both of the row's ``ids``."""
    data = {**data, "edit_key": edit_key}
    data["edit_url"] = url_for(link, key=edit_key, _external=True, **ids)
    return jsonify(data), 201, {"Location": url_for(state, _external=True, **ids)}
