"""Who meets whom: the knockout's bracket, the round robin's circle and the Swiss pairings.

The choices the rules leave open are in docs/decisions/tournaments.md."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

import networkx as nx

from .matches import Pairing
from .settings import bracket_size


def bracket_order(size: int) -> tuple[int, ...]:
    """Return the seeds of a bracket of ``size`` places from top to bottom (the standard order).

    >>> bracket_order(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seat for seed in order for seat in (seed, places + 1 - seed)]
    return tuple(order)


def first_round_tables(pairs: int) -> tuple[int, ...]:
    """Return the table of each first-round place of a knockout of ``pairs`` (top to bottom).

    The matches of two pairs play at tables 1, 2, ... from the top of the bracket, and the byes
    take the numbers after them: no table stands empty for a bye.

    >>> first_round_tables(6)  # seeds (1, 8) bye, (4, 5), (2, 7) bye, (3, 6)
    (3, 1, 4, 2)
    """
    size = bracket_size(pairs)
    order = bracket_order(size)
    played = [order[2 * place + 1] <= pairs for place in range(size // 2)]
    tables = [0] * len(played)
    numbers = iter(range(1, len(played) + 1))
    for wanted in (True, False):
        for place, plays in enumerate(played):
            if plays is wanted:
                tables[place] = next(numbers)
    return tuple(tables)


def part_groups(
    slots: list[int | None], group_of: Mapping[int, str], tier_of: Mapping[int, int]
) -> None:
    """Swap pairs of one tier between first-round matches so no match is within one group.

    ``slots`` is the bracket's first round, two places a match; a match whose two pairs come
    from one group has its second pair swapped with the first pair of the same tier (place in
    its group) elsewhere whose swap leaves both matches between groups.

    >>> slots = [1, None, 4, 5, 2, None, 3, 6]  # A1, B1, C1, A2, B2, C2 as 1 to 6
    >>> groups = {1: "A", 2: "B", 3: "C", 4: "A", 5: "B", 6: "C"}
    >>> part_groups(slots, groups, {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}); slots
    [1, None, 6, 5, 2, None, 3, 4]
    """

    def apart(first: int | None, second: int | None) -> bool:
        return first is None or second is None or group_of[first] != group_of[second]

    for match in range(0, len(slots), 2):
        first, second = slots[match], slots[match + 1]
        if apart(first, second) or second is None:
            continue
        for place, other in enumerate(slots):
            if place in (match, match + 1) or other is None or tier_of[other] != tier_of[second]:
                continue
            partner = slots[place ^ 1]
            if apart(first, other) and apart(partner, second):
                slots[match + 1], slots[place] = other, second
                break


def circle_rounds(members: Sequence[int]) -> tuple[tuple[Pairing, ...], ...]:
    """Return a round robin of ``members`` by the circle method: every two meet once.

    With an odd number one rests each round, each once; the bye is listed last. In a match the
    lower seed comes first.

    >>> circle_rounds([1, 2, 3])
    (((2, 3), (1, None)), ((1, 2), (3, None)), ((1, 3), (2, None)))
    """
    seats: list[int | None] = [*members]
    if len(seats) % 2:
        seats.append(None)
    fixed, rest = seats[0], seats[1:]
    rounds: list[tuple[Pairing, ...]] = []
    for turn in range(len(rest)):
        line = [fixed, *rest[turn:], *rest[:turn]]
        games: list[Pairing] = []
        byes: list[Pairing] = []
        for index in range(len(line) // 2):
            first, second = line[index], line[-1 - index]
            if first is None or second is None:
                resting = first if second is None else second
                assert resting is not None
                byes.append((resting, None))
            else:
                games.append((min(first, second), max(first, second)))
        rounds.append((*games, *byes))
    return tuple(rounds)


def swiss_first_round(pairs: Sequence[int]) -> tuple[Pairing, ...]:
    """Return Swiss round 1: the lowest seed rests if odd, then the top half meets the bottom.

    >>> swiss_first_round([1, 2, 3, 4, 5, 6, 7, 8, 9])
    ((1, 5), (2, 6), (3, 7), (4, 8), (9, None))
    """
    seeds = sorted(pairs)
    bye: tuple[Pairing, ...] = ()
    if len(seeds) % 2:
        bye = ((seeds.pop(), None),)
    half = len(seeds) // 2
    return (*((seeds[index], seeds[half + index]) for index in range(half)), *bye)


def swiss_pairings(
    ranked: Sequence[int],
    wins: Mapping[int, int],
    met: Collection[frozenset[int]],
    had_bye: Collection[int],
) -> tuple[Pairing, ...]:
    """Return a later Swiss round: the bye, then the pairings of least sum of squared wins gaps.

    ``ranked`` are the pairs to draw, best first. The bye goes to the lowest-ranked pair that
    has not had one. The rest are matched by networkx over every two pairs, a rematch costing
    more than any pairing without one could, so a rematch happens only when no pairing avoids
    it, and then as few as can be. Matches are listed by their higher-ranked pair, which comes
    first; the bye last.

    >>> swiss_pairings([1, 2, 3, 4, 5], {1: 1, 2: 1, 3: 0, 4: 0, 5: 1},
    ...                {frozenset({1, 3}), frozenset({2, 5})}, {5})
    ((1, 5), (2, 3), (4, None))
    """
    players = list(ranked)
    bye: tuple[Pairing, ...] = ()
    if len(players) % 2:
        resting = next((pair for pair in reversed(players) if pair not in had_bye), players[-1])
        players.remove(resting)
        bye = ((resting, None),)
    position = {pair: index for index, pair in enumerate(ranked)}
    matched = sorted(
        (tuple(sorted(edge, key=position.__getitem__)) for edge in _least_gaps(players, wins, met)),
        key=lambda edge: position[edge[0]],
    )
    return (*((first, second) for first, second in matched), *bye)


def _least_gaps(
    players: Sequence[int], wins: Mapping[int, int], met: Collection[frozenset[int]]
) -> set[tuple[int, int]]:
    # Exact, and fast on big rounds: match over the pairs at most `reach` wins apart first, then
    # widen only as far as a cheaper pairing could reach (docs/decisions/tournaments.md, "Speed").
    levels = [wins.get(pair, 0) for pair in players]
    spread = max(levels, default=0) - min(levels, default=0)
    odd_cuts = _odd_cuts(levels)
    reach = 1
    while True:
        matching = _matching(players, wins, met, reach)
        if len(matching) * 2 == len(players):
            cost = sum(
                (wins.get(first, 0) - wins.get(second, 0)) ** 2 for first, second in matching
            )
            widest = _widest_useful(cost, odd_cuts)
            if widest <= reach:
                return matching
            reach = widest
        elif reach >= spread:
            return _matching(players, wins, met, spread, rematches=True)
        else:
            reach += 1


def _odd_cuts(levels: Sequence[int]) -> int:
    """Return the wins levels t with an odd number of pairs at t or below.

    A pairing crosses each such cut at least once, and a match d wins apart crosses d cuts.

    >>> _odd_cuts([0, 1, 1, 2])  # 1 pair at 0 or below, 3 at 1 or below
    2
    """
    if not levels:
        return 0
    return sum(sum(level <= cut for level in levels) % 2 for cut in range(min(levels), max(levels)))


def _widest_useful(cost: int, odd_cuts: int) -> int:
    """Return the widest gap a pairing cheaper than ``cost`` could use.

    A match d wins apart costs d² and leaves at least (odd cuts − d) cuts for the others to
    cross, each at 1 or more: d² + odd cuts − d <= cost.

    >>> _widest_useful(4, 4), _widest_useful(9, 1)
    (1, 3)
    """
    widest = 0
    while (widest + 1) ** 2 <= cost and (widest + 1) ** 2 - (widest + 1) <= cost - odd_cuts:
        widest += 1
    return widest


def _matching(
    players: Sequence[int],
    wins: Mapping[int, int],
    met: Collection[frozenset[int]],
    reach: int,
    rematches: bool = False,
) -> set[tuple[int, int]]:
    """Return the least-cost matching of the most pairs over the edges within ``reach``.

    With ``rematches``, pairs that met are edges too, each costing more than any round's gaps,
    so the fewest rematches come first.
    """
    rematch = len(players) * reach * reach + 1
    ceiling = reach * reach + (rematch if rematches else 0) + 1
    # In seed order: networkx's blossoms grow several times slower over pairs sorted by wins.
    nodes = sorted(players)
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(nodes)
    for index, first in enumerate(nodes):
        for second in nodes[index + 1 :]:
            gap = abs(wins.get(first, 0) - wins.get(second, 0))
            if gap > reach:
                continue
            cost = gap * gap
            if frozenset((first, second)) in met:
                if not rematches:
                    continue
                cost += rematch
            # With maxcardinality the matching is as big as can be, and among those the
            # greatest weight is the least cost.
            graph.add_edge(first, second, weight=ceiling - cost)
    matching: set[tuple[int, int]] = nx.max_weight_matching(graph, maxcardinality=True)
    return matching
