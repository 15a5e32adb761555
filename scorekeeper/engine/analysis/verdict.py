"""What an analysis means at the table: the games a value is worth, and the card that changed them.

RULES.md, "Exact analysis": a card that turned a hand from winning to losing, or from 2 games
to 1 (across 61, 91 or the bandeira), is the one a table argues about; the cards that cost the
most come next.
"""

from __future__ import annotations

from ..games import base_games
from ..hands import Hand
from ..rules import RuleSet
from .replay import CardAnalysis, RecordAnalysis


def games_of(points: tuple[int, int], rules: RuleSet) -> tuple[int | None, int]:
    """The team a played hand of these card points goes to, and its games before any carry.

    A tie (60-60) is ``(None, 0)``. The value says nothing of the tricks, so a bandeira is
    counted only where the rules make it one by points.

    >>> games_of((91, 29), RuleSet()), games_of((52, 68), RuleSet()), games_of((60, 60), RuleSet())
    ((0, 2), (1, 1), (None, 0))
    """
    if points[0] == points[1]:
        return None, 0
    winner = 0 if points[0] > points[1] else 1
    return winner, base_games(Hand.played(points[0], points[1]), rules)


def turning_card(analysis: RecordAnalysis, rules: RuleSet) -> CardAnalysis | None:
    """The first card, in play order, after which the hand is worth other games than before it.

    None when no card changed them (every costly card, if any, stayed within the same games).
    """
    for card in analysis.cards:
        if games_of(card.value, rules) != games_of(card.best, rules):
            return card
    return None


COSTLIEST = 3
"""How many of the costliest cards a summary of the hand names."""


def costliest(analysis: RecordAnalysis, count: int = COSTLIEST) -> tuple[CardAnalysis, ...]:
    """The ``count`` cards that cost their team the most, the most first, then in play order.

    Only cards that cost something: none when every card analysed was one of the best.
    """
    costly = [card for card in analysis.cards if card.cost]
    return tuple(sorted(costly, key=lambda card: -card.cost)[:count])  # stable: play order
