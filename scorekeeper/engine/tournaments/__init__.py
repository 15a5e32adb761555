"""Tournaments of pairs (RULES.md, "Tournaments"): settings, draws, matches, standings, the end.

Pure values in, pure values out: :func:`fold` makes a :class:`Tournament` from its settings,
the stored Swiss draws, the results by (round, table) and the withdrawals. The decisions the
rules leave open are in docs/decisions/tournaments.md.
"""

from .fold import Tournament, fold
from .matches import Match, MatchResult, Pairing, Round, RubberResult, Standing
from .pairs import PairEntry, check_pairs, parse_pairs, random_draw
from .settings import (
    BEST_OF,
    ERROR_CODES,
    FORMATS,
    MAX_PAIRS,
    MIN_PAIRS,
    Settings,
    TournamentError,
    bracket_size,
    group_name,
    snake_groups,
)

__all__ = [
    "BEST_OF",
    "ERROR_CODES",
    "FORMATS",
    "MAX_PAIRS",
    "MIN_PAIRS",
    "Match",
    "MatchResult",
    "PairEntry",
    "Pairing",
    "Round",
    "RubberResult",
    "Settings",
    "Standing",
    "Tournament",
    "TournamentError",
    "bracket_size",
    "check_pairs",
    "fold",
    "group_name",
    "parse_pairs",
    "random_draw",
    "snake_groups",
]
