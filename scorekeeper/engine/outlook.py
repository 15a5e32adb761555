"""The score the next hands would make: the engine's answers sent ahead to a phone.

A phone with no network keeps the hands it records and sends them later. Its screen still shows
the score those hands make, and it scores nothing itself. The hands a phone can record fall
into a few classes, and two hands of one class change every tally alike (:func:`hand_class`).
From the rubber's tally, :func:`outlook` follows every class for a few hands and lists the
tallies reached. The phone walks that graph along the hands it keeps.
"""

from __future__ import annotations

import functools
from collections.abc import Hashable
from dataclasses import dataclass, replace

from .games import base_games, is_bandeira
from .hands import TOTAL_POINTS, WIN_ABOVE, Hand, HandKind, ScoringError
from .rules import RuleSet
from .scoring import MAX_HANDS, RubberState, Tally, next_hand
from .tricks import SEATS

DEPTH = 10
"""Hands followed ahead of the rubber's tally: more than a table records with no network."""
MAX_NODES = 600
"""The graph stops growing here, so that ties carried without end cannot swell it."""
UNKNOWN = -1
"""An edge the outlook does not follow: the hand is refused there, or lies past the depth."""


def hand_class(hand: Hand, rules: RuleSet) -> Hashable:
    """What of a hand the rest of the rubber depends on.

    Two hands of one class give equal tallies after any tally (a test holds :func:`next_hand`
    to it): the points count only through who won, the games they are worth and the bandeira.

    >>> hand_class(Hand.played(75), RuleSet()) == hand_class(Hand.played(90), RuleSet())
    True
    >>> hand_class(Hand.played(75), RuleSet()) == hand_class(Hand.played(95), RuleSet())
    False
    """
    if hand.kind is not HandKind.PLAYED or hand.points is None:
        return (hand.kind, hand.team)
    winner = 0 if hand.points[0] > WIN_ABOVE else 1
    return (hand.kind, winner, base_games(hand, rules), is_bandeira(hand, rules))


@dataclass(frozen=True)
class Node:
    """One tally the outlook reaches: what the screen shows for it, and where each class leads."""

    games: tuple[int, int]
    pending_extra: int
    pending_multiplier: int
    finished: bool
    winner: int | None
    next: tuple[int, ...]
    """For each class, the index of the node it leads to, or :data:`UNKNOWN`."""


@dataclass(frozen=True)
class Outlook:
    """The classes of the hands a phone records, and the graph of tallies they lead to.

    ``played[all_tricks][p]`` is the class of a played hand with ``p`` card points for the first
    team (with or without "all the tricks"), or :data:`UNKNOWN` where no such hand exists. The
    graph starts at node 0, the rubber's own tally."""

    played: tuple[tuple[int, ...], tuple[int, ...]]
    tie: int
    spoiled: int
    revoke: tuple[int, int]
    deal_steps: tuple[int, ...]
    """For each class, how many seats the deal moves on after such a hand."""
    roles: tuple[tuple[int, int, int], ...]
    """For each dealer, the seats that shuffle, cut and lead the hand that seat deals."""
    nodes: tuple[Node, ...]


def _hands(rules: RuleSet) -> list[Hand]:
    """Every hand a phone can record, one per way of typing it."""
    hands: list[Hand] = []
    for all_tricks in (False, True):
        for points in range(TOTAL_POINTS + 1):
            try:
                hands.append(Hand.played(points, all_tricks=all_tricks))
            except ScoringError:
                continue
    return [*hands, Hand.tie(), Hand.spoiled(), Hand.revoke(0), Hand.revoke(1)]


def _roles(rules: RuleSet, dealer: int) -> tuple[int, int, int]:
    state = RubberState(Tally(rules, dealer=dealer))
    return (state.shuffler, state.cutter, state.leader)


def outlook(tally: Tally) -> Outlook:
    """Follow every class of hand from ``tally`` for :data:`DEPTH` hands.

    What it gives depends only on what the screen shows of ``tally``, so rubbers at the same
    score share one answer, computed once.

    >>> view = outlook(Tally(RuleSet()))
    >>> won = view.nodes[0].next[view.played[0][95]]
    >>> view.nodes[won].games, view.deal_steps[view.played[0][95]]
    ((2, 0), 1)
    >>> view.nodes[view.nodes[won].next[view.played[0][95]]].finished
    True
    """
    return _outlook(_shown(tally, far=tally.hand_count + DEPTH <= MAX_HANDS))


def _shown(tally: Tally, *, far: bool) -> Tally:
    """``tally`` as the screen shows it: its score, and its hand count only near the bound.

    Tallies that differ in the hand count (far from its bound), the dealer or what a finished
    rubber will be called show the same and lead alike."""
    return replace(
        tally,
        hand_count=0 if far else tally.hand_count,
        dealer=0,
        brink=(False, False),
        outcome=None,
    )


@functools.lru_cache(maxsize=64)  # about 200 KB each; rubbers mostly stand at a few scores
def _outlook(tally: Tally) -> Outlook:
    rules = tally.rules
    classes: dict[Hashable, Hand] = {}
    for hand in _hands(rules):
        classes.setdefault(hand_class(hand, rules), hand)
    index = {key: number for number, key in enumerate(classes)}
    representatives = list(classes.values())

    def class_of(hand: Hand) -> int:
        return index[hand_class(hand, rules)]

    played: list[list[int]] = [[UNKNOWN] * (TOTAL_POINTS + 1) for _ in range(2)]
    for hand in _hands(rules):
        if hand.points is not None:
            played[int(hand.all_tricks)][hand.points[0]] = class_of(hand)

    tallies, edges, steps = _graph(tally, representatives)
    nodes = tuple(
        Node(
            games=t.games,
            pending_extra=t.pending_extra,
            pending_multiplier=t.pending_multiplier,
            finished=t.finished,
            winner=t.winner,
            next=tuple(edge),
        )
        for t, edge in zip(tallies, edges, strict=True)
    )
    return Outlook(
        played=(tuple(played[0]), tuple(played[1])),
        tie=class_of(Hand.tie()),
        spoiled=class_of(Hand.spoiled()),
        revoke=(class_of(Hand.revoke(0)), class_of(Hand.revoke(1))),
        deal_steps=tuple(steps),
        roles=tuple(_roles(rules, dealer) for dealer in range(SEATS)),
        nodes=nodes,
    )


def _graph(
    tally: Tally, representatives: list[Hand]
) -> tuple[list[Tally], list[list[int]], list[int]]:
    """The tallies :data:`DEPTH` hands lead to from ``tally``, breadth first, one per score shown.

    With them, each tally's edges (the node each class of hand leads to, :data:`UNKNOWN` where
    it is refused or the graph is full) and how many seats each class moves the deal on."""
    far = tally.hand_count + DEPTH <= MAX_HANDS
    found: dict[Tally, int] = {_shown(tally, far=far): 0}
    tallies = [tally]
    edges: list[list[int]] = [[UNKNOWN] * len(representatives)]
    steps = [0] * len(representatives)
    frontier = [tally]
    for _ in range(DEPTH):
        reached: list[Tally] = []
        for source in frontier:
            for number, hand in enumerate(representatives):
                try:
                    after, _result = next_hand(source, hand)
                except ScoringError:
                    continue  # refused there: the phone shows no score past it
                steps[number] = (after.dealer - source.dealer) % SEATS
                key = _shown(after, far=far)
                if key not in found:
                    if len(tallies) >= MAX_NODES:
                        continue
                    found[key] = len(tallies)
                    tallies.append(after)
                    edges.append([UNKNOWN] * len(representatives))
                    reached.append(after)
                edges[found[_shown(source, far=far)]][number] = found[key]
        frontier = reached
    return tallies, edges, steps
