"""A recorded hand, the input of a rubber's fold: its kind, its card points, and why not."""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import ClassVar

from .records import TrickRecord

TOTAL_POINTS = 120
WIN_ABOVE = 60
IMPOSSIBLE_POINTS = frozenset({1, TOTAL_POINTS - 1})


class ScoringError(ValueError):
    """A hand that cannot be scored.

    ``code`` names the kind for translation, ``value`` holds what was refused (None when nothing
    was)."""

    code: ClassVar[str] = "scoring"
    value: object = None


class PointsFault(enum.StrEnum):
    """What is wrong with a hand's card points (:attr:`ImpossiblePointsError.reason`)."""

    VALUE = "value"
    """Not a whole number (``value`` is what was given; None when the points are missing)."""
    RANGE = "range"
    """Outside 0 to 120 (``value`` is that number)."""
    ONE = "one"
    """1 or 119: no set of cards is worth exactly 1 (``value`` is that number)."""
    SUM = "sum"
    """The two teams' points do not add up to 120 (``value`` is the pair)."""
    TIE = "tie"
    """A tie that is not 60-60, or 60-60 that is not a tie (``value`` is the pair)."""
    ALL_TRICKS = "all_tricks"
    """All the tricks without all 120 points (``value`` is the pair)."""


class ImpossiblePointsError(ScoringError):
    """Card points no hand can produce; ``reason`` says why, and what ``value`` holds."""

    code = "impossible_points"

    def __init__(
        self, value: object, message: str, reason: PointsFault | str = PointsFault.VALUE
    ) -> None:
        self.value = value
        self.reason = PointsFault(reason)
        super().__init__(message)


class UnknownTeamError(ScoringError):
    """A team other than 0 and 1."""

    code = "unknown_team"

    def __init__(self, team: object) -> None:
        self.value = team
        super().__init__(f"There is no team {team!r}: the teams are 0 and 1.")


class HandNotAllowedError(ScoringError):
    """A hand the rubber's rules do not allow (a spoiled deal without melar, ...)."""

    code = "hand_not_allowed"

    def __init__(self, value: object, message: str) -> None:
        self.value = value
        super().__init__(message)


class IncompleteRecordError(ScoringError):
    """A record of tricks that scores no hand yet; ``value`` is the record."""

    code = "incomplete"

    def __init__(self, record: TrickRecord) -> None:
        self.value = record
        if record.errors:
            message = f"The record is wrong: {record.errors[0].error}"
        elif record.unfinished is not None:
            message = f"Trick {record.unfinished.number} is not finished."
        else:
            message = f"The record has {len(record.tricks)} of the 10 tricks and proves no revoke."
        super().__init__(message)


class HandKind(enum.Enum):
    """How a hand ended."""

    PLAYED = "played"
    """Played out and decided: one team took more than 60 points."""
    TIE = "tie"
    """60-60."""
    REVOKE = "revoke"
    """Stopped by a revoke (renúncia) of one team."""
    SPOILED = "spoiled"
    """Spoiled by the leader (melar): the same dealer deals again."""


def _check_points(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ImpossiblePointsError(value, f"Card points must be a whole number, not {value!r}.")
    if not 0 <= value <= TOTAL_POINTS:
        raise ImpossiblePointsError(
            value, f"{value} card points is outside 0 to 120.", PointsFault.RANGE
        )
    if value in IMPOSSIBLE_POINTS:
        raise ImpossiblePointsError(
            value, f"{value} card points is impossible: no cards add up to 1.", PointsFault.ONE
        )
    return value


def _check_team(team: object) -> int:
    if isinstance(team, bool) or team not in (0, 1):
        raise UnknownTeamError(team)
    assert isinstance(team, int)
    return team


@dataclass(frozen=True)
class Hand:
    """What was recorded for one hand: the input of the fold. Build it with the classmethods.

    >>> Hand.played(75, 45)
    Hand(kind=<HandKind.PLAYED: 'played'>, points=(75, 45), all_tricks=False, team=None)
    >>> Hand.played(60, 60).kind
    <HandKind.TIE: 'tie'>
    """

    kind: HandKind
    points: tuple[int, int] | None = None
    all_tricks: bool = False
    team: int | None = None

    def __post_init__(self) -> None:
        if self.kind in (HandKind.PLAYED, HandKind.TIE):
            if self.points is None:
                raise ImpossiblePointsError(None, "A played hand needs both teams' card points.")
            first, second = (_check_points(p) for p in self.points)
            if first + second != TOTAL_POINTS:
                raise ImpossiblePointsError(
                    self.points,
                    f"{first} and {second} add up to {first + second}, not 120.",
                    PointsFault.SUM,
                )
            if (first == second) != (self.kind is HandKind.TIE):
                raise ImpossiblePointsError(self.points, "Only 60-60 is a tie.", PointsFault.TIE)
            if self.all_tricks and TOTAL_POINTS not in self.points:
                raise ImpossiblePointsError(
                    self.points,
                    f"All the tricks means all 120 points, not {max(self.points)}.",
                    PointsFault.ALL_TRICKS,
                )
        elif self.points is not None or self.all_tricks:
            raise HandNotAllowedError(self.kind, f"A {self.kind.value} hand has no card points.")
        if self.kind is HandKind.REVOKE:
            _check_team(self.team)
        elif self.team is not None:
            raise HandNotAllowedError(self.team, "Only a revoke names a team.")

    @classmethod
    def played(cls, first: int, second: int | None = None, all_tricks: bool = False) -> Hand:
        """A played hand from the teams' card points (the second is 120 minus the first if left out).

        >>> Hand.played(91).points
        (91, 29)
        >>> Hand.played(119)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.hands.ImpossiblePointsError: 119 card points is impossible: no cards add up to 1.
        """
        first = _check_points(first)
        if second is None:
            second = TOTAL_POINTS - first
        kind = HandKind.TIE if first == second == WIN_ABOVE else HandKind.PLAYED
        return cls(kind, (first, second), all_tricks)

    @classmethod
    def tie(cls) -> Hand:
        """A 60-60 hand.

        >>> Hand.tie().points
        (60, 60)
        """
        return cls(HandKind.TIE, (WIN_ABOVE, WIN_ABOVE))

    @classmethod
    def revoke(cls, team: int) -> Hand:
        """A hand stopped by a revoke of ``team``.

        >>> Hand.revoke(1).team
        1
        >>> Hand.revoke(2)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.hands.UnknownTeamError: There is no team 2: the teams are 0 and 1.
        """
        return cls(HandKind.REVOKE, team=_check_team(team))

    @classmethod
    def spoiled(cls) -> Hand:
        """A deal spoiled by its leader (melar).

        >>> Hand.spoiled().kind
        <HandKind.SPOILED: 'spoiled'>
        """
        return cls(HandKind.SPOILED)

    @classmethod
    def from_record(cls, record: TrickRecord) -> Hand:
        """Return the hand a record of tricks scores.

        It is the first revoke the record proves (the hand stops there), or else the card points of
        all 10 tricks, and whether one team took them all.

        Raise :class:`IncompleteRecordError` unless :attr:`TrickRecord.scorable`.

        >>> from scorekeeper.engine import RuleSet, verify_record
        >>> tricks = [["AS", "2S", "2H", "JS"], ["KS", "3S", "7S", "QS"]]  # seat 3 had spades
        >>> Hand.from_record(verify_record("H", 1, tricks, RuleSet()))
        Hand(kind=<HandKind.REVOKE: 'revoke'>, points=None, all_tricks=False, team=1)
        >>> Hand.from_record(verify_record("H", 1, [["AS", "2S", "7S", "JS"]], RuleSet()))
        Traceback (most recent call last):
        ...
        scorekeeper.engine.hands.IncompleteRecordError: The record has 1 of the 10 tricks and proves no revoke.
        """
        if not record.scorable:
            raise IncompleteRecordError(record)
        revoke = record.first_revoke
        if revoke is not None:
            return cls.revoke(revoke.team)
        return cls.played(*record.points, all_tricks=record.all_tricks is not None)

    def mirrored(self) -> Hand:
        """The same hand with the teams swapped.

        >>> Hand.played(70).mirrored().points
        (50, 70)
        """
        points = None if self.points is None else (self.points[1], self.points[0])
        team = None if self.team is None else 1 - self.team
        return replace(self, points=points, team=team)
