"""What one hand is worth: the games a played hand earns, and the record of what it added."""

from __future__ import annotations

from dataclasses import dataclass

from .hands import TOTAL_POINTS, Hand, HandKind
from .rules import Bandeira, RuleSet

CAPOTE_FROM = 91
BANDEIRA_GAMES = 4


@dataclass(frozen=True)
class HandResult:
    """What one hand added to the rubber, and why.

    ``reasons`` are short codes the interface translates: ``one_game``, ``capote``,
    ``bandeira``; ``tie`` with ``tie_carry``, ``tie_double`` or ``tie_void`` on a tied hand;
    ``tie_carried``, ``tie_doubled`` on the hand that takes what ties left pending;
    ``revoke_penalty``, ``revoke_minus_two``, ``revoke_loses_rubber``, ``spoiled``,
    ``bandeira_wins_rubber``, ``rubber_won``.
    """

    number: int
    hand: Hand
    dealer: int
    leader: int
    games: tuple[int, int]
    games_after: tuple[int, int]
    reasons: tuple[str, ...]
    winner: int | None = None
    base_games: int = 0
    carried_extra: int = 0
    multiplier: int = 1
    bandeira: bool = False


def is_bandeira(hand: Hand, rules: RuleSet) -> bool:
    """Whether a played hand is a bandeira under the rules.

    >>> is_bandeira(Hand.played(120), RuleSet()), is_bandeira(Hand.played(120, all_tricks=True), RuleSet())
    (False, True)
    """
    if hand.kind is not HandKind.PLAYED or hand.points is None:
        return False
    if rules.bandeira is Bandeira.POINTS:
        return TOTAL_POINTS in hand.points
    return hand.all_tricks


def base_games(hand: Hand, rules: RuleSet) -> int:
    """The games a played hand earns its winner before any tie carry.

    >>> [base_games(Hand.played(p), RuleSet()) for p in (61, 90, 91, 120)]
    [1, 1, 2, 2]
    """
    if hand.points is None or hand.kind is not HandKind.PLAYED:
        return 0
    if is_bandeira(hand, rules):
        return BANDEIRA_GAMES
    return 2 if max(hand.points) >= CAPOTE_FROM else 1
