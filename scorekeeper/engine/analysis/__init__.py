"""Exact (double-dummy) analysis of a hand: every card visible, all four playing perfectly.

``options.py`` holds the search's switches and its numbering of cards, ``search.py`` the
search on cards as bits, ``positions.py`` a position of a hand and its
best cards, ``replay.py`` the analysis of a whole record of tricks, card by card,
``verdict.py`` the games a value is worth and the card that changed them, ``lines.py`` the
best line from a position to the end, trick by trick.
"""

from .lines import Line, LineTrick, best_line, play_out, record_line, record_lines, record_search
from .options import FAST, PLAIN, Options, OutOfTime, compiled_core
from .positions import AnalysisCode, AnalysisError, Position, best_cards, solve
from .replay import CardAnalysis, RecordAnalysis, analysable, analyse_record
from .search import Search
from .verdict import costliest, games_of, turning_card

__all__ = [
    "FAST",
    "PLAIN",
    "AnalysisCode",
    "AnalysisError",
    "CardAnalysis",
    "Line",
    "LineTrick",
    "Options",
    "OutOfTime",
    "Position",
    "RecordAnalysis",
    "Search",
    "analysable",
    "analyse_record",
    "best_cards",
    "best_line",
    "compiled_core",
    "costliest",
    "games_of",
    "play_out",
    "record_line",
    "record_lines",
    "record_search",
    "solve",
    "turning_card",
]
