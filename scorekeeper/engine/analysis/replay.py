"""The analysis of a whole record: the value before and after each of its 40 cards."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..cards import Card
from ..records import TrickRecord
from ..rules import RuleSet
from ..tricks import SEATS, team_of
from .options import FAST, Options, OutOfTime
from .positions import AnalysisCode, AnalysisError, Position, best_cards, solve
from .search import Search


@dataclass(frozen=True)
class CardAnalysis:
    """One card of the record, with its values.

    Values are both teams' card points from the first lead to the end: those taken before, and
    best play by all from there.
    """

    trick: int
    seat: int
    card: Card
    value: tuple[int, int]
    """The value after this card."""
    best: tuple[int, int]
    """The value the best card in this seat's place would have kept (the value before it)."""
    cost: int
    """What this card cost the seat's team: 0 for a best card."""
    best_cards: tuple[Card, ...]


@dataclass(frozen=True)
class RecordAnalysis:
    """A record analysed from its last card back.

    ``cards`` are those analysed, in play order (all 40 unless time ran out, then the last
    ones); ``value`` is None until the first is.
    """

    value: tuple[int, int] | None
    played: tuple[int, int]
    cards: tuple[CardAnalysis, ...]

    @property
    def complete(self) -> bool:
        """Whether every card was analysed."""
        return self.value is not None


def _positions(record: TrickRecord, rules: RuleSet) -> list[tuple[Position, int]]:
    """The position before each card, with the points team 0 took in the tricks before it."""
    hands: list[set[Card]] = [set() for _ in range(SEATS)]
    for trick in record.tricks:
        for position, card in enumerate(trick.cards):
            hands[(trick.leader + position) % SEATS].add(card)
    positions = []
    taken = 0
    for trick in record.tricks:
        for position, card in enumerate(trick.cards):
            frozen = tuple(frozenset(hand) for hand in hands)
            positions.append(
                (Position(record.trump, trick.leader, frozen, rules, trick.cards[:position]), taken)
            )
            hands[(trick.leader + position) % SEATS].discard(card)
        if team_of(trick.winner) == 0:
            taken += trick.points
    return positions


def analysable(record: TrickRecord) -> bool:
    """Whether :func:`analyse_record` takes the record: 10 tricks, no revoke, no problem."""
    return record.complete and not record.revokes and not record.errors


def analyse_record(  # noqa: PLR0913  a record and its rules, then the optional ways to run it
    record: TrickRecord,
    rules: RuleSet,
    options: Options = FAST,
    deadline: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    search: Search | None = None,
) -> RecordAnalysis:
    """Analyse every card of a complete record (its rules are ``rules``), from the last card back.

    So the later positions' table serves the earlier ones. Past ``deadline`` (a
    ``time.monotonic()`` reading) the cards analysed so far are the answer; ``progress`` hears
    (cards analysed, 40) after each. ``search``, a search of this deal, keeps its table for
    later calls (the best lines, ``lines.py``).

    >>> from scorekeeper.engine import verify_record
    >>> analyse_record(verify_record("H", 0, [], RuleSet()), RuleSet())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorekeeper.engine.analysis.positions.AnalysisError: Only a complete record of 10 tricks ...
    """
    if not analysable(record):
        raise AnalysisError(
            AnalysisCode.RECORD,
            "Only a complete record of 10 tricks without a revoke can be analysed.",
        )
    positions = _positions(record, rules)
    total = sum(record.points)
    search = search or positions[0][0].search(options)
    played = (record.points[0], record.points[1])
    after = played[0]
    done: list[CardAnalysis] = []
    value: tuple[int, int] | None = None
    try:
        for index in range(len(positions) - 1, -1, -1):
            position, taken = positions[index]
            if deadline is not None and time.monotonic() > deadline:
                raise OutOfTime
            trick = index // SEATS
            card = record.tricks[trick].cards[index % SEATS]
            # The value after the card bounds the value before it, and is likely it.
            before = taken + solve(position, search, deadline, after - taken)
            known = frozenset({card}) if before == after else frozenset()
            _, kept = best_cards(position, search, before - taken, known)
            seat = position.to_play
            cost = before - after if team_of(seat) == 0 else after - before
            done.append(
                CardAnalysis(
                    trick + 1,
                    seat,
                    card,
                    (after, total - after),
                    (before, total - before),
                    cost,
                    kept,
                )
            )
            after = before
            if progress is not None:
                progress(len(done), len(positions))
        value = (after, total - after)
    except OutOfTime:
        pass
    return RecordAnalysis(value, played, tuple(reversed(done)))
