"""A tournament as the API and its pages say it: the engine's fold, with its pairs and rubbers."""

from __future__ import annotations

from typing import Any

from flask import url_for

from scorekeeper.engine import tournaments as tourney
from scorekeeper.groups.display import tv_url
from scorekeeper.tournaments.store import Standing


def match_json(standing: Standing, match: tourney.Match) -> dict[str, Any]:
    rubbers = standing.rubbers.get((match.round, match.table), [])
    return {
        "table": match.table,
        "pairs": list(match.pairs),
        "rubbers": [rubber.id for rubber in rubbers],
        "wins": list(match.wins),
        "games": list(match.games),
        "winner": match.winner,
        "walkover": match.walkover,
        "stage": match.stage,
        "group": match.group,
    }


def standing_json(row: tourney.Standing) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "pair": row.pair,
        "played": row.played,
        "won": row.won,
        "lost": row.lost,
        "games_won": row.games_won,
        "games_lost": row.games_lost,
        "buchholz": row.buchholz,
        "group": row.group,
    }


def tournament_json(standing: Standing) -> dict[str, Any]:
    """The tournament state of API.md, with a few fields more."""
    tournament, fold = standing.tournament, standing.fold
    withdrawn = set(tournament.withdrawn)
    return {
        "id": tournament.id,
        "url": url_for("tournaments.tournament", tournament_id=tournament.id, _external=True),
        "name": tournament.name,
        "format": tournament.format,
        "best_of": tournament.best_of,
        "rules": tournament.rule_set().to_dict(),
        "version": tournament.version,
        "finished": fold.finished,
        "winner": fold.winner,
        "current_round": fold.current_round,
        "group": tournament.group_id,
        "tv_url": tv_url(tournament.tv_code),
        "tv_language": tournament.tv_language,
        "pairs": [
            {
                "number": pair.number,
                "name": pair.name,
                "players": list(pair.players),
                "withdrawn": pair.number in withdrawn,
            }
            for pair in tournament.pairs
        ],
        "rounds": [
            {
                "number": drawn.number,
                "matches": [match_json(standing, match) for match in drawn.matches],
            }
            for drawn in fold.rounds
        ],
        "standings": [standing_json(row) for row in fold.standings],
    }
