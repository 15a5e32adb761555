"""The best line from a position: the cards each seat plays with best play, trick by trick.

Where several cards keep the value, the line takes one deterministically: the card actually
played when it was one of them (in a record), else the first in the engine's deck order. So it
is *one of* the best lines, and the line of a best card played is that card, then the next
card's line.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..records import TrickRecord
from ..rules import RuleSet
from ..tricks import SEATS, trick_points, trick_winner
from .options import FAST, Options, OutOfTime
from .positions import SUITS, Position, in_deck_order, solve
from .replay import RecordAnalysis
from .search import Search

Line = tuple[Card, ...]


@dataclass(frozen=True)
class LineTrick:
    """One trick of a line: its cards from its leader, who takes it, and the points so far."""

    number: int
    """The trick's number in the hand (1 to 10)."""
    leader: int
    cards: tuple[Card, ...]
    before: int
    """How many of its cards were on the table before the line starts (0 after the first)."""
    winner: int
    points: int
    taken: tuple[int, int]
    """Each team's card points once this trick is taken (those taken before the line too)."""


def _closed(position: Position) -> tuple[Position, int, int]:
    """A finished trick taken off the table: the next position, its winner and its points."""
    winner = (position.leader + trick_winner(position.trick, position.trump, position.rules)) % 4
    points = trick_points(position.trick, position.rules)
    return Position(position.trump, winner, position.hands, position.rules), winner, points


def best_line(
    position: Position,
    search: Search | None = None,
    value: int | None = None,
    deadline: float | None = None,
) -> Line:
    """Return the cards from ``position`` to the end, each keeping the position's value.

    ``value`` is :func:`solve`'s, when known. Of the cards that keep it, the first in deck
    order. Past ``deadline`` (a ``time.monotonic()`` reading) it raises :class:`OutOfTime`.

    >>> from scorekeeper.engine import RuleSet
    >>> hands = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]
    >>> [str(c) for c in best_line(Position.from_hands("C", 0, hands, RuleSet()))]
    ['2H', '3H', '4H', 'AH', 'JS', 'AS', 'KS', '7S']
    """
    search = search or position.search()
    if value is None:
        value = solve(position, search, deadline)
    line: list[Card] = []
    while not position.over:
        if len(position.trick) == SEATS:
            position, winner, points = _closed(position)
            value -= points if winner % 2 == 0 else 0
        card = _keeping(position, search, value, deadline)
        line.append(card)
        position = position.play(card)
    return tuple(line)


def _keeping(position: Position, search: Search, value: int, deadline: float | None) -> Card:
    """The first card in deck order after which the value stays ``value``."""
    cards = in_deck_order(position.legal(), position.rules)
    maximising = position.to_play % 2 == 0
    for card in cards[:-1]:
        if deadline is not None and time.monotonic() > deadline:
            raise OutOfTime
        search.deadline = deadline
        hands, leader, trick = position.play(card).encoded()
        if maximising:
            keeps = search.at_least(hands, leader, trick, value)
        else:
            keeps = not search.at_least(hands, leader, trick, value + 1)
        if keeps:
            return card
    return cards[-1]  # the value is some card's: when no other keeps it, the last does


def play_out(
    position: Position, line: Sequence[Card], taken: tuple[int, int] = (0, 0), number: int = 1
) -> tuple[LineTrick, ...]:
    """The tricks ``line`` plays from ``position`` to the end, the first one numbered ``number``.

    ``taken`` are each team's points before the position; a finished trick still on the table
    is the first shown, with all its cards ``before``. A card that is not legal there, or a
    line that stops before the end, is a :class:`ValueError`.

    >>> from scorekeeper.engine import RuleSet
    >>> hands = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]
    >>> start = Position.from_hands("C", 0, hands, RuleSet())
    >>> [(t.winner, t.points, t.taken) for t in play_out(start, best_line(start))]
    [(3, 11, (0, 11)), (0, 28, (28, 11))]
    """
    tricks: list[LineTrick] = []
    running = list(taken)
    before = len(position.trick)
    for card in (*line, None):
        if len(position.trick) == SEATS:
            following, winner, points = _closed(position)
            running[winner % 2] += points
            tricks.append(
                LineTrick(
                    number + len(tricks),
                    position.leader,
                    position.trick,
                    before,
                    winner,
                    points,
                    (running[0], running[1]),
                )
            )
            position, before = following, 0
        if card is None:
            break
        if card not in position.legal():
            raise ValueError(f"{card} cannot be played here.")
        position = position.play(card)
    if not position.over:
        raise ValueError("The line stops before the end of the hand.")
    return tuple(tricks)


def _record_positions(
    record: TrickRecord, rules: RuleSet
) -> list[tuple[Position, tuple[int, int]]]:
    """The position before each card of the record, and each team's points taken before it."""
    hands: list[set[Card]] = [set() for _ in range(SEATS)]
    for trick in record.tricks:
        for place, card in enumerate(trick.cards):
            hands[(trick.leader + place) % SEATS].add(card)
    position = Position(
        record.trump, record.tricks[0].leader, tuple(frozenset(h) for h in hands), rules
    )
    found = []
    taken = [0, 0]
    for trick in record.tricks:
        for card in trick.cards:
            if len(position.trick) == SEATS:
                position, _, _ = _closed(position)
            found.append((position, (taken[0], taken[1])))
            position = position.play(card)
        taken[trick.winner % 2] += trick.points
    return found


def record_line(
    record: TrickRecord, rules: RuleSet, index: int, line: Sequence[Card]
) -> tuple[LineTrick, ...]:
    """The tricks of ``line`` from before card ``index`` (0 to 39, in play order) of ``record``.

    The first trick shows the cards already on the table; the points count from the first lead.
    """
    position, taken = _record_positions(record, rules)[index]
    return play_out(position, line, taken, index // SEATS + 1)


def record_search(record: TrickRecord, options: Options = FAST) -> Search:
    """A search of the record's deal, for its analysis and then its lines.

    One table serves both: the lines' positions are mostly the analysis' endgames.
    """
    return Search(SUITS.index(record.trump), options)


def record_lines(
    record: TrickRecord,
    rules: RuleSet,
    analysis: RecordAnalysis,
    search: Search | None = None,
    deadline: float | None = None,
) -> tuple[Line | None, ...]:
    """The best line from before each card of ``analysis`` (the record's analysis), in order.

    Worked from the last card back: a best card played is followed by the next card's line, a
    costly one replaced by its first best card. Past ``deadline`` the cards not reached have None.
    """
    positions = _record_positions(record, rules)[40 - len(analysis.cards) :]
    lines: list[Line | None] = [None] * len(analysis.cards)
    following: Line = ()
    try:
        for index in range(len(analysis.cards) - 1, -1, -1):
            item = analysis.cards[index]
            position, taken = positions[index]
            if item.cost == 0:
                following = (item.card, *following)
            else:
                if deadline is not None and time.monotonic() > deadline:
                    raise OutOfTime
                search = search or position.search()
                first = item.best_cards[0]
                rest = best_line(position.play(first), search, item.best[0] - taken[0], deadline)
                following = (first, *rest)
            lines[index] = following
    except OutOfTime:
        pass
    return tuple(lines)
