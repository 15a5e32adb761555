"""Exact (double-dummy) analysis of a hand: every card visible, all four playing perfectly.

``search.py`` is the search on cards as bits, ``positions.py`` a position of a hand and its
best cards, ``replay.py`` the analysis of a whole record of tricks, card by card.
"""

from .positions import AnalysisCode, AnalysisError, Position, best_cards, solve
from .replay import CardAnalysis, RecordAnalysis, analyse_record
from .search import PLAIN, Options, OutOfTime, Search

__all__ = [
    "PLAIN",
    "AnalysisCode",
    "AnalysisError",
    "CardAnalysis",
    "Options",
    "OutOfTime",
    "Position",
    "RecordAnalysis",
    "Search",
    "analyse_record",
    "best_cards",
    "solve",
]
