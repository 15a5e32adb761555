"""What one hand is worth: the games a played hand earns, and the record of what it added."""

from __future__ import annotations

import enum
from dataclasses import dataclass

from .hands import TOTAL_POINTS, Hand, HandKind
from .rules import Bandeira, RuleSet

CAPOTE_FROM = 91
BANDEIRA_GAMES = 4


class HandReason(enum.StrEnum):
    """Why a hand added what it did (:attr:`HandResult.reasons`), for the interface to say."""

    ONE_GAME = "one_game"
    """Won with 61 to 90 card points: 1 game."""
    CAPOTE = "capote"
    """Won with 91 or more card points, short of a bandeira: 2 games."""
    BANDEIRA = "bandeira"
    """All 10 tricks (or all 120 points under ``bandeira: points``): 4 games."""
    TIE = "tie"
    """60-60: nobody scores; one of the three below says what the tie leaves."""
    TIE_CARRY = "tie_carry"
    """``tie: carry``: the next decided hand is worth one more game."""
    TIE_DOUBLE = "tie_double"
    """``tie: double``: the next decided hand is worth double."""
    TIE_VOID = "tie_void"
    """``tie: void``: nothing carries."""
    TIE_CARRIED = "tie_carried"
    """This decided hand took the extra games ties left (:attr:`HandResult.carried_extra`)."""
    TIE_DOUBLED = "tie_doubled"
    """This decided hand was multiplied by what ties left (:attr:`HandResult.multiplier`)."""
    REVOKE_PENALTY = "revoke_penalty"
    """``revoke: opponents_two``: the other team marks 2 games."""
    REVOKE_MINUS_TWO = "revoke_minus_two"
    """``revoke: offender_minus_two``: the offending team loses up to 2 of its games."""
    REVOKE_LOSES_RUBBER = "revoke_loses_rubber"
    """``revoke: lose_rubber``: the other team wins the rubber."""
    SPOILED = "spoiled"
    """A spoiled deal (melar): no score, the same dealer deals again."""
    BANDEIRA_WINS_RUBBER = "bandeira_wins_rubber"
    """``bandeira_wins_rubber``: the bandeira won the rubber at once."""
    RUBBER_WON = "rubber_won"
    """This hand won the rubber (:attr:`HandResult.rubber_winner`)."""


@dataclass(frozen=True)
class HandResult:
    """What one hand added to the rubber, and why.

    ``reasons`` are in the order they apply (:class:`HandReason`), for the interface to say."""

    number: int
    hand: Hand
    dealer: int
    leader: int
    games: tuple[int, int]
    games_after: tuple[int, int]
    reasons: tuple[HandReason, ...]
    winner: int | None = None
    base_games: int = 0
    carried_extra: int = 0
    multiplier: int = 1
    bandeira: bool = False
    rubber_winner: int | None = None
    """The team this hand won the rubber for, if it did."""


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
