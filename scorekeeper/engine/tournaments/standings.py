"""The standings: a table's tie-breaks (round robin, Swiss) and how far a knockout took each pair."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import groupby

from .matches import Match, Standing


@dataclass
class _Line:
    played: int = 0
    won: int = 0
    lost: int = 0
    games_won: int = 0
    games_lost: int = 0
    met: list[int] = field(default_factory=list)


def _tally(pairs: Iterable[int], matches: Iterable[Match]) -> dict[int, _Line]:
    lines = {pair: _Line() for pair in pairs}
    for match in matches:
        first, second = match.pairs
        if second is None:
            if match.decided and first in lines:
                lines[first].played += 1
                lines[first].won += 1
            continue
        for side, (pair, other) in enumerate(((first, second), (second, first))):
            line = lines.get(pair)
            if line is None:
                continue
            if not match.walkover:  # a walkover has no games (RULES.md)
                line.games_won += match.games[side]
                line.games_lost += match.games[1 - side]
            if match.decided:
                line.played += 1
                line.met.append(other)
                line.won += match.winner == pair
                line.lost += match.winner != pair
    return lines


def table_standings(
    pairs: Sequence[int], matches: Sequence[Match], buchholz: bool, group: str | None = None
) -> tuple[Standing, ...]:
    """Return the standings of a round robin or a Swiss tournament, with every tie-break.

    By match wins, then (Swiss) Buchholz, games difference and games marked; two pairs still
    level who met are ordered by their match, any more share the rank. Pairs sharing a rank
    are listed by seed.

    >>> from .matches import Match
    >>> matches = [Match(1, 1, (1, 2), (1, 0), (4, 1), 1, False, "round_robin"),
    ...            Match(1, 2, (3, None), (0, 0), (0, 0), 3, False, "round_robin")]
    >>> [(line.rank, line.pair, line.won) for line in table_standings([1, 2, 3], matches, False)]
    [(1, 1, 1), (2, 3, 1), (3, 2, 0)]
    """
    lines = _tally(pairs, matches)
    wins = {pair: line.won for pair, line in lines.items()}
    points: dict[int, int | None] = {
        pair: sum(wins.get(other, 0) for other in line.met) if buchholz else None
        for pair, line in lines.items()
    }

    def key(pair: int) -> tuple[int, int, int, int]:
        line = lines[pair]
        return (-line.won, -(points[pair] or 0), line.games_lost - line.games_won, -line.games_won)

    order = sorted(lines, key=lambda pair: (key(pair), pair))
    standings: list[Standing] = []
    for _, level in groupby(order, key=key):
        tied = list(level)
        settled = _head_to_head(tied, matches)
        rank = len(standings) + 1
        for index, pair in enumerate(settled or tied):
            line = lines[pair]
            standings.append(
                Standing(
                    rank + index if settled else rank,
                    pair,
                    line.played,
                    line.won,
                    line.lost,
                    line.games_won,
                    line.games_lost,
                    points[pair],
                    group,
                )
            )
    return tuple(standings)


def _winners_between(tied: Sequence[int], matches: Iterable[Match]) -> set[int]:
    return {
        match.winner
        for match in matches
        if match.winner is not None and set(match.pairs) == set(tied)
    }


def _head_to_head(tied: list[int], matches: Iterable[Match]) -> list[int] | None:
    """Return two level pairs who met, their match's winner first; None when that does not apply."""
    if len(tied) != 2:
        return None
    winners = _winners_between(tied, matches)
    if len(winners) != 1:
        return None
    (winner,) = winners
    return [winner, *(pair for pair in tied if pair != winner)]


def knockout_standings(pairs: Sequence[int], matches: Sequence[Match]) -> tuple[Standing, ...]:
    """Return a knockout's standings: by how far each pair got (docs/decisions/tournaments.md).

    A pair still in is ahead of those out in its round; the losers of one round share a rank,
    but for the match for third place. The final's winner is first, its loser second.

    >>> from .matches import Match
    >>> matches = [Match(1, 1, (1, 4), (1, 0), (4, 0), 1, False, "knockout"),
    ...            Match(1, 2, (2, 3), (0, 0), (0, 0), None, False, "knockout")]
    >>> [(line.rank, line.pair) for line in knockout_standings([1, 2, 3, 4], matches)]
    [(1, 1), (2, 2), (2, 3), (4, 4)]
    """
    lines = _tally(pairs, matches)
    reached = dict.fromkeys(lines, 1)
    out: set[int] = set()
    third: set[int] = set()
    for match in matches:
        if match.stage == "third_place":
            third.update({match.winner} if match.winner is not None else set())
            continue
        if match.winner in reached:
            reached[match.winner] += 1
        if match.loser is not None:
            out.add(match.loser)

    def key(pair: int) -> tuple[int, int, int]:
        return (-reached[pair], pair in out, pair not in third)

    order = sorted(lines, key=lambda pair: (key(pair), pair))
    standings: list[Standing] = []
    for _, level in groupby(order, key=key):
        rank = len(standings) + 1
        for pair in level:
            line = lines[pair]
            standings.append(
                Standing(
                    rank,
                    pair,
                    line.played,
                    line.won,
                    line.lost,
                    line.games_won,
                    line.games_lost,
                    None,
                )
            )
    return tuple(standings)
