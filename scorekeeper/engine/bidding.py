"""Bidding Sueca (RULES.md, "Bidding Sueca"): 4 to 6 players, each on their own score.

A hand is bid for: the highest bidder names trump and calls a card, whose holder is the secret
partner (or nobody: the bidder alone). Made, the bidder's side adds the bid; failed, it loses
the bid and every other player adds it. The worked example of RULES.md, 5 players to 200:

>>> game = new_game(5)
>>> game = play_hand(game, BidHand.played(bidder=2, bid=75, partner=4, points=80))
>>> game.hands[-1].changes
(0, 0, 75, 0, 75)
>>> game = play_hand(game, BidHand.played(bidder=0, bid=90, partner=0, points=85))
>>> game.hands[-1].changes, game.scores
((-90, 90, 90, 90, 90), (-90, 90, 165, 90, 165))
>>> game.dealer, game.opener, game.leaders
(2, 3, (2, 4))
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field

from .bidding_deck import deck
from .bidding_faults import BiddingError as BiddingError
from .bidding_faults import BiddingFault as BiddingFault
from .bidding_faults import BidError as BidError
from .bidding_faults import CardPointsError as CardPointsError
from .bidding_faults import GameFinishedError as GameFinishedError
from .bidding_faults import OutcomeError as OutcomeError
from .bidding_faults import PlayersError as PlayersError
from .bidding_faults import SeatRole as SeatRole
from .bidding_faults import TargetError as TargetError
from .bidding_faults import TooManyHandsError as TooManyHandsError
from .bidding_faults import UnknownSeatError as UnknownSeatError

MIN_PLAYERS = 4
MAX_PLAYERS = 6
"""Seats at a table: 6 play with 48 cards (:mod:`.bidding_deck`)."""
MIN_BID = 61
MAX_BID = 120
QUICK_BIDS = (61, 70, 80, 90, 100, 120)
"""The bids the table's page offers at one tap; any other from 61 to 120 is typed."""
TOTAL_POINTS = 120
IMPOSSIBLE_POINTS = frozenset({1, TOTAL_POINTS - 1})
DEFAULT_TARGET = 200
LONG_TARGET = 500
MIN_TARGET = 50
MAX_TARGET = 2000
MAX_HANDS = 500
"""No game comes near this (a 2000-point game takes a few dozen hands); it bounds a game."""


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _check_players(players: object) -> int:
    if not _whole(players, MIN_PLAYERS, MAX_PLAYERS):
        raise PlayersError(players, f"Bidding Sueca takes 4 to 6 players, not {players!r}.")
    assert isinstance(players, int)
    return players


def _check_seat(seat: object, players: int, role: SeatRole) -> int:
    if not _whole(seat, 0, players - 1):
        raise UnknownSeatError(seat, players, role)
    assert isinstance(seat, int)
    return seat


def _check_points(points: object) -> int:
    if not _whole(points, -(2**63), 2**63):
        raise CardPointsError(points, "value", f"Card points are a whole number, not {points!r}.")
    assert isinstance(points, int)
    if not 0 <= points <= TOTAL_POINTS:
        raise CardPointsError(points, "range", f"{points} card points is outside 0 to 120.")
    if points in IMPOSSIBLE_POINTS:
        raise CardPointsError(
            points, "one", f"{points} card points is impossible: no cards add up to 1."
        )
    return points


class HandKind(enum.Enum):
    """How a hand of bidding Sueca went."""

    BID = "bid"
    """Someone bid: the hand was played for the bid."""
    PASSED = "passed"
    """Everyone passed: no score, the deal passes on."""


@dataclass(frozen=True)
class BidHand:
    """What was recorded of one hand, the input of the fold.

    Build it with :meth:`played` or :meth:`passed`. ``partner`` equal to ``bidder`` is playing
    alone. The outcome is the card points the bidder's side took, or only whether the bid was made
    (``made``), or both when they agree.

    >>> BidHand.played(bidder=1, bid=70, partner=1, made=False).alone
    True
    >>> BidHand.played(bidder=1, bid=70, partner=3, points=69).made
    False
    """

    kind: HandKind
    bidder: int | None = None
    bid: int | None = None
    partner: int | None = None
    points: int | None = None
    made: bool | None = None

    def __post_init__(self) -> None:
        if self.kind is HandKind.PASSED:
            given = (self.bidder, self.bid, self.partner, self.points, self.made)
            if any(value is not None for value in given):
                raise OutcomeError(given, "passed", "A hand everyone passed has no bid.")
            return
        for role, seat in ((SeatRole.BIDDER, self.bidder), (SeatRole.PARTNER, self.partner)):
            _check_seat(seat, MAX_PLAYERS, role)  # the table's own size is checked in play
        if not _whole(self.bid, MIN_BID, MAX_BID):
            raise BidError(self.bid, f"A bid is a whole number from 61 to 120, not {self.bid!r}.")
        assert isinstance(self.bid, int)
        bid = self.bid
        if self.points is not None:
            made = _check_points(self.points) >= bid
            if self.made is not None and self.made is not made:
                raise OutcomeError(
                    self.points,
                    "disagrees",
                    f"{self.points} card points {'makes' if made else 'fails'} a bid of {bid}.",
                )
            object.__setattr__(self, "made", made)
        elif not isinstance(self.made, bool):
            raise OutcomeError(
                self.made, "missing", "A bid needs its card points, or whether it was made."
            )

    @classmethod
    def played(
        cls,
        bidder: int,
        bid: int,
        partner: int | None = None,
        *,
        points: int | None = None,
        made: bool | None = None,
    ) -> BidHand:
        """A hand played for ``bid``; no ``partner`` is the bidder alone.

        >>> BidHand.played(bidder=0, bid=61, points=61)
        BidHand(kind=<HandKind.BID: 'bid'>, bidder=0, bid=61, partner=0, points=61, made=True)
        """
        return cls(HandKind.BID, bidder, bid, bidder if partner is None else partner, points, made)

    @classmethod
    def passed(cls) -> BidHand:
        """A hand everyone passed.

        >>> BidHand.passed().kind
        <HandKind.PASSED: 'passed'>
        """
        return cls(HandKind.PASSED)

    @property
    def alone(self) -> bool:
        """Whether the bidder played alone (called a card of their own hand)."""
        return self.kind is HandKind.BID and self.partner == self.bidder


def changes(players: int, hand: BidHand) -> tuple[int, ...]:
    """What the hand adds to each seat's score.

    >>> changes(4, BidHand.played(bidder=0, bid=80, partner=2, made=False))
    (-80, 80, -80, 80)
    >>> changes(6, BidHand.passed())
    (0, 0, 0, 0, 0, 0)
    """
    _check_players(players)
    if hand.kind is HandKind.PASSED:
        return (0,) * players
    assert hand.bid is not None and hand.bidder is not None and hand.partner is not None
    side = {
        _check_seat(hand.bidder, players, SeatRole.BIDDER),
        _check_seat(hand.partner, players, SeatRole.PARTNER),
    }
    if hand.made:
        return tuple(hand.bid if seat in side else 0 for seat in range(players))
    return tuple(-hand.bid if seat in side else hand.bid for seat in range(players))


@dataclass(frozen=True)
class Table:
    """Who sits down and to what: the number of players, the target and the first dealer.

    >>> Table(6).deck_size, Table(6).cards_each, Table(4).cards_each
    (48, 8, 10)
    """

    players: int
    target: int = DEFAULT_TARGET
    first_dealer: int = 0

    def __post_init__(self) -> None:
        _check_players(self.players)
        if not _whole(self.target, MIN_TARGET, MAX_TARGET):
            raise TargetError(
                self.target, f"The target is a whole number from 50 to 2000, not {self.target!r}."
            )
        _check_seat(self.first_dealer, self.players, SeatRole.FIRST_DEALER)

    @property
    def deck_size(self) -> int:
        """40 cards, or 48 with the 9s and 8s for six players."""
        return len(deck(self.players))

    @property
    def cards_each(self) -> int:
        """10 each for four players, 8 each for five or six."""
        return self.deck_size // self.players


@dataclass(frozen=True)
class BidResult:
    """What one hand did: who dealt and bid first, and whether the bid was made.

    It also holds each seat's change and the scores after it."""

    number: int
    hand: BidHand
    dealer: int
    opener: int
    made: bool | None
    changes: tuple[int, ...]
    scores: tuple[int, ...]


@dataclass(frozen=True)
class BiddingState:
    """A game after some hands: always the fold of its hands by :func:`replay`."""

    table: Table
    scores: tuple[int, ...]
    dealer: int
    hands: tuple[BidResult, ...] = field(default=())
    finished: bool = False
    winner: int | None = None

    @property
    def players(self) -> int:
        return self.table.players

    @property
    def opener(self) -> int:
        """The seat that bids first (and leads) in the next hand: the one after the dealer."""
        return (self.dealer + 1) % self.players

    @property
    def leaders(self) -> tuple[int, ...]:
        """The seats holding the highest score (every seat before the first hand)."""
        top = max(self.scores)
        return tuple(seat for seat, score in enumerate(self.scores) if score == top)

    @property
    def tied_at_target(self) -> bool:
        """Whether the game goes on only because the top score past the target is shared."""
        return not self.finished and len(self.leaders) > 1 and max(self.scores) >= self.table.target

    @property
    def leader(self) -> int | None:
        """The seat ahead alone, if one is.

        >>> new_game(4).leader is None
        True
        """
        leaders = self.leaders
        return leaders[0] if len(leaders) == 1 else None


def new_game(players: int, target: int = DEFAULT_TARGET, first_dealer: int = 0) -> BiddingState:
    """A game with no hands yet (raises :class:`BiddingError` for a table it cannot seat).

    >>> new_game(5, target=500, first_dealer=4).opener
    0
    >>> new_game(7)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bidding_faults.PlayersError: Bidding Sueca takes 4 to 6 players, not 7.
    """
    table = Table(players, target, first_dealer)
    return BiddingState(table, (0,) * players, first_dealer)


def verify_hand(state: BiddingState, hand: BidHand) -> None:
    """Raise a :class:`BiddingError` if ``hand`` cannot be the game's next hand.

    >>> verify_hand(new_game(4), BidHand.played(bidder=4, bid=70, partner=1, made=True))
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bidding_faults.UnknownSeatError: The bidder must be a seat from 0 to 3, not 4.
    """
    number = len(state.hands) + 1
    if state.finished:
        raise GameFinishedError(number, f"Hand {number} comes after the game was already won.")
    if number > MAX_HANDS:
        raise TooManyHandsError(number, f"A game holds at most {MAX_HANDS} hands.")
    changes(state.players, hand)


def can_add_hand(state: BiddingState, hand: BidHand) -> bool:
    """Whether ``hand`` can be the game's next hand.

    >>> can_add_hand(new_game(4), BidHand.passed())
    True
    """
    try:
        verify_hand(state, hand)
    except BiddingError:
        return False
    return True


def play_hand(state: BiddingState, hand: BidHand) -> BiddingState:
    """The game after one more hand (raises a :class:`BiddingError` if it cannot be added).

    The game ends after the hand in which a player reaches the target, if one player alone
    holds the highest score; with the highest shared, play goes on (docs/decisions/bidding.md,
    "The game").

    >>> game = play_hand(new_game(4, target=50), BidHand.played(bidder=1, bid=61, partner=3, made=True))
    >>> game.scores, game.finished, game.winner
    ((0, 61, 0, 61), False, None)
    >>> game = play_hand(game, BidHand.played(bidder=3, bid=70, made=True))
    >>> game.scores, game.finished, game.winner
    ((0, 61, 0, 131), True, 3)
    """
    verify_hand(state, hand)
    added = changes(state.players, hand)
    scores = tuple(score + change for score, change in zip(state.scores, added, strict=True))
    result = BidResult(
        number=len(state.hands) + 1,
        hand=hand,
        dealer=state.dealer,
        opener=state.opener,
        made=hand.made,
        changes=added,
        scores=scores,
    )
    top = max(scores)
    finished = top >= state.table.target and scores.count(top) == 1
    return BiddingState(
        state.table,
        scores,
        (state.dealer + 1) % state.players,
        (*state.hands, result),
        finished,
        scores.index(top) if finished else None,
    )


def replay(table: Table, hands: Iterable[BidHand]) -> BiddingState:
    """Fold a game's hands, in order, into its state. Editing a hand is replaying.

    >>> state = replay(Table(4), [BidHand.passed(), BidHand.played(bidder=2, bid=100, made=False)])
    >>> state.scores, state.dealer
    ((100, 100, -100, 100), 2)
    """
    state = BiddingState(table, (0,) * table.players, table.first_dealer)
    for hand in hands:
        state = play_hand(state, hand)
    return state


def undo_last(state: BiddingState) -> BiddingState:
    """The game without its last hand (raises LookupError when it has none).

    >>> undo_last(play_hand(new_game(4), BidHand.passed())) == new_game(4)
    True
    """
    if not state.hands:
        raise LookupError("no hand to undo")
    return replay(state.table, (result.hand for result in state.hands[:-1]))


def others_points(points: int) -> int:
    """Return the card points of the cards outside a pile of ``points``: the deck holds 120.

    >>> others_points(21)
    99
    """
    return TOTAL_POINTS - points
