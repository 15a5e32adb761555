"""A tournament's matches, rounds and standings as values, and a match settled from its rubbers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .settings import TournamentError

Pairing = tuple[int, int | None]
"""Two pair numbers (the match's first pair is team 0 of its rubbers), or (p, None): a bye."""


@dataclass(frozen=True)
class RubberResult:
    """One rubber of a match, as the store knows it."""

    games: tuple[int, int]
    """Games of the match's first pair and second pair (final once finished)."""
    winner: int | None = None
    """0 or 1, the side within the match, once finished; None while in play."""


@dataclass(frozen=True)
class MatchResult:
    """What was recorded of a match: its rubbers in order, or a walkover."""

    rubbers: tuple[RubberResult, ...] = ()
    walkover: int | None = None
    """The pair number that won by walkover."""


@dataclass(frozen=True)
class Match:
    """A match of a round, settled from what was recorded."""

    round: int
    table: int
    pairs: Pairing
    wins: tuple[int, int]
    """Rubbers won by each side."""
    games: tuple[int, int]
    """Games of each side over its finished rubbers."""
    winner: int | None
    """The winning pair's number, once decided (a bye's pair at once)."""
    walkover: bool
    stage: str
    """"group", "knockout", "third_place", "swiss" or "round_robin"."""
    group: str | None = None

    @property
    def is_bye(self) -> bool:
        """Return whether this is a bye: one pair, no opponent."""
        return self.pairs[1] is None

    @property
    def decided(self) -> bool:
        """Return whether the match has its winner."""
        return self.winner is not None

    @property
    def needs_rubber(self) -> bool:
        """Return whether a rubber is to be kept in play: two pairs, no walkover, undecided."""
        return not self.is_bye and not self.walkover and not self.decided

    @property
    def loser(self) -> int | None:
        """Return the pair that lost, once decided (None for a bye)."""
        if self.winner is None or self.pairs[1] is None:
            return None
        return self.pairs[1] if self.winner == self.pairs[0] else self.pairs[0]


@dataclass(frozen=True)
class Round:
    """A round's matches, by table."""

    number: int
    matches: tuple[Match, ...]


@dataclass(frozen=True)
class Standing:
    """A pair's line in the standings."""

    rank: int
    pair: int
    played: int
    won: int
    lost: int
    games_won: int
    games_lost: int
    buchholz: int | None
    group: str | None = None


def settle(
    where: tuple[int, int, str, str | None],
    pairs: Pairing,
    result: MatchResult | None,
    wins_needed: int,
    withdrawn: Sequence[int],
) -> Match:
    """Return the match at ``where`` (round, table, stage, group) settled from ``result``.

    ``withdrawn`` are the pairs that withdrew, in the order they did.

    >>> rubbers = (RubberResult((4, 2), 0), RubberResult((1, 4), 1), RubberResult((2, 1)))
    >>> match = settle((1, 1, "swiss", None), (3, 6), MatchResult(rubbers), 2, ())
    >>> match.wins, match.games, match.winner, match.needs_rubber
    ((1, 1), (5, 6), None, True)
    """
    round_, table, stage, group = where
    first, second = pairs
    if second is None:
        return Match(round_, table, pairs, (0, 0), (0, 0), first, False, stage, group)
    result = result or MatchResult()
    wins = [0, 0]
    games = [0, 0]
    for rubber in result.rubbers:
        if rubber.winner is None:
            continue
        wins[rubber.winner] += 1
        games[0] += rubber.games[0]
        games[1] += rubber.games[1]
    winner: int | None = None
    walkover = False
    if result.walkover is not None:
        if result.walkover not in pairs:
            raise TournamentError(
                "not_a_pair", result.walkover, f"Pair {result.walkover} is not in this match."
            )
        winner, walkover = result.walkover, True
    elif wins[0] >= wins_needed:
        winner = first
    elif wins[1] >= wins_needed:
        winner = second
    elif first in withdrawn or second in withdrawn:
        # A withdrawn pair gives its undecided matches away; of two withdrawn pairs the one that
        # withdrew last keeps what the first withdrawal gave it (docs/decisions/tournaments.md).
        order = {pair: index for index, pair in enumerate(withdrawn)}
        winner = max((first, second), key=lambda pair: order.get(pair, len(order)))
        walkover = True
    return Match(
        round_,
        table,
        pairs,
        (wins[0], wins[1]),
        (games[0], games[1]),
        winner,
        walkover,
        stage,
        group,
    )
