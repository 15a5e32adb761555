"""Why a bidding game refuses a value: the errors of :mod:`.bidding`, and their codes.

Each error has a ``code`` (the kind, as the API names it), a ``value`` (what was refused) and a
``fault`` (:class:`BiddingFault`), which web pages and the API word in the reader's language.

>>> OutcomeError(70, "disagrees", "...").fault
<BiddingFault.OUTCOME_DISAGREES: 'outcome_disagrees'>
"""

from __future__ import annotations

import enum


class BiddingFault(enum.StrEnum):
    """What exactly a bidding game refused: one sentence each in bidding/phrases.py."""

    PLAYERS = "players"
    """Fewer than 4 or more than 6 players."""
    REPEATED_PLAYER = "repeated_player"
    """One name twice at a table (:class:`.names.RepeatedPlayerError`)."""
    UNNAMED_PLAYERS = "unnamed_players"
    """More than one player without a name (:class:`.names.UnnamedPlayersError`)."""
    TARGET = "target"
    """A target outside 50..2000."""
    BIDDER_SEAT = "bidder_seat"
    """A bidder not at the table."""
    PARTNER_SEAT = "partner_seat"
    """A partner not at the table."""
    FIRST_DEALER_SEAT = "first_dealer_seat"
    """A first dealer not at the table."""
    BID = "bid"
    """A bid that is not a whole number from 61 to 120."""
    POINTS_VALUE = "points_value"
    """Card points that are not a whole number."""
    POINTS_RANGE = "points_range"
    """Card points outside 0..120."""
    POINTS_ONE = "points_one"
    """1 or 119 card points: no set of cards is worth exactly 1."""
    OUTCOME_MISSING = "outcome_missing"
    """A bid with neither its card points nor whether it was made."""
    OUTCOME_DISAGREES = "outcome_disagrees"
    """Card points and a made or failed that disagree."""
    OUTCOME_PASSED = "outcome_passed"
    """A hand everyone passed, given a bid."""
    GAME_FINISHED = "game_finished"
    """A hand after the game was won."""
    TOO_MANY_HANDS = "too_many_hands"
    """More hands than any game needs."""


class BiddingError(ValueError):
    """A value a bidding game cannot take.

    ``code`` names the kind for translation, ``value`` is the offending value."""

    code = "bidding"
    fault: BiddingFault

    def __init__(self, value: object, message: str) -> None:
        self.value = value
        super().__init__(message)


class PlayersError(BiddingError):
    """A table of fewer than 4 or more than 6 players."""

    code = "players"
    fault = BiddingFault.PLAYERS


class TargetError(BiddingError):
    """A target outside 50..2000."""

    code = "target"
    fault = BiddingFault.TARGET


class SeatRole(enum.StrEnum):
    """Whose seat a hand or a game names: an :class:`UnknownSeatError` says which."""

    BIDDER = "bidder"
    """The player who won the auction."""
    PARTNER = "partner"
    """The holder of the called card (the bidder again, playing alone)."""
    FIRST_DEALER = "first_dealer"
    """Who deals the game's first hand."""


class UnknownSeatError(BiddingError):
    """A seat not at the table, as the :class:`SeatRole` ``role``."""

    code = "seat"

    def __init__(self, value: object, players: int, role: SeatRole) -> None:
        self.players = players
        self.role = SeatRole(role)
        self.fault = BiddingFault(f"{role}_seat")
        super().__init__(
            value, f"The {role} must be a seat from 0 to {players - 1}, not {value!r}."
        )


class BidError(BiddingError):
    """A bid that is not a whole number from 61 to 120."""

    code = "bid"
    fault = BiddingFault.BID


class CardPointsError(BiddingError):
    """Card points no side can take; ``reason`` is ``value``, ``range`` or ``one``."""

    code = "impossible_points"

    def __init__(self, value: object, reason: str, message: str) -> None:
        self.reason = reason
        self.fault = BiddingFault(f"points_{reason}")
        super().__init__(value, message)


class OutcomeError(BiddingError):
    """A hand's outcome that cannot be scored with its bid.

    It is a bid without its outcome (``reason`` ``missing``), card points and a made/failed that
    disagree (``disagrees``), or a passed hand with a bid (``passed``)."""

    code = "outcome"

    def __init__(self, value: object, reason: str, message: str) -> None:
        self.reason = reason
        self.fault = BiddingFault(f"outcome_{reason}")
        super().__init__(value, message)


class GameFinishedError(BiddingError):
    """A hand after the game was won."""

    code = "game_finished"
    fault = BiddingFault.GAME_FINISHED


class TooManyHandsError(BiddingError):
    """More hands than any game needs."""

    code = "too_many_hands"
    fault = BiddingFault.TOO_MANY_HANDS
