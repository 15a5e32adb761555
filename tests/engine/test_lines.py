"""The best line from a position: legal play, each card keeping the value, the minimax's value."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Card, RuleSet, rank_order, trick_winner, verify_record
from scorekeeper.engine.analysis import (
    FAST,
    Options,
    Position,
    RecordAnalysis,
    analyse_record,
    best_line,
    play_out,
    record_line,
    record_lines,
    record_search,
)
from scorekeeper.engine.tricks import trick_points
from tests.engine.minimax import best
from tests.engine.test_analysis import PYTHON, _played_out, positions, reference
from tests.support.records import FULL_RECORD


def _deck_order(cards: frozenset[Card], rules: RuleSet) -> list[Card]:
    order = rank_order(rules)
    suits = ["C", "D", "H", "S"]
    return sorted(cards, key=lambda c: (suits.index(c.suit.value), order.index(c.rank)))


@settings(max_examples=500, deadline=None)
@given(positions(), st.sampled_from([FAST, PYTHON]))
def test_the_best_line_is_legal_play_worth_the_minimax_value(
    position: Position, options: Options
) -> None:
    line = best_line(position, position.search(options))
    value = reference(position)
    # Played out by hand: each card legal, each keeping the minimax value (the first best card
    # in the deck's order), and the points taken along the way are the value.
    walk, taken, left = position, 0, value
    for card in line:
        if len(walk.trick) == 4:
            winner = (walk.leader + trick_winner(walk.trick, walk.trump, walk.rules)) % 4
            if winner % 2 == 0:
                taken += trick_points(walk.trick, walk.rules)
                left -= trick_points(walk.trick, walk.rules)
            walk = Position(walk.trump, winner, walk.hands, walk.rules)
        assert card in walk.legal()
        kept_value, kept = best(walk.hands, walk.leader, walk.trick, walk.trump, walk.rules)
        assert kept_value == left
        assert card == _deck_order(kept, walk.rules)[0]
        walk = walk.play(card)
    assert walk.over
    tricks = play_out(position, line)
    assert tricks[-1].taken[0] == value
    assert sum(tricks[-1].taken) == position.points()


@settings(max_examples=200, deadline=None)
@given(positions(most=4))
def test_the_line_s_tricks_say_who_wins_and_the_points(position: Position) -> None:
    line = best_line(position)
    tricks = play_out(position, line, taken=(5, 7), number=3)
    assert [trick.number for trick in tricks] == list(range(3, 3 + len(tricks)))
    assert tricks[0].before == len(position.trick)
    cards = [card for trick in tricks for card in trick.cards[trick.before :]]
    assert cards == list(line)
    running = [5, 7]
    for trick in tricks:
        assert len(trick.cards) == 4
        assert (
            trick.winner
            == (trick.leader + trick_winner(trick.cards, position.trump, position.rules)) % 4
        )
        assert trick.points == trick_points(trick.cards, position.rules)
        running[trick.winner % 2] += trick.points
        assert trick.taken == tuple(running)
    assert tricks[-1].taken[0] == 5 + reference(position)


def test_a_line_that_is_not_legal_play_or_stops_early_is_refused() -> None:
    rules = RuleSet()
    hands = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]
    position = Position.from_hands("C", 0, hands, rules)
    assert [str(card) for card in best_line(position)] == "2H 3H 4H AH JS AS KS 7S".split()
    with pytest.raises(ValueError, match="3H"):
        play_out(position, [Card.parse("AS"), Card.parse("3H")])
    with pytest.raises(ValueError, match="end"):
        play_out(position, [Card.parse("AS"), Card.parse("KS")])


@pytest.mark.parametrize("seed", [7, 3])
def test_each_card_of_a_record_has_its_best_line(seed: int) -> None:
    rules = RuleSet()
    trump, leader, tricks = _played_out(seed, rules)
    record = verify_record(trump, leader, tricks, rules)
    search = record_search(record)
    analysis = analyse_record(record, rules, search=search)
    lines = record_lines(record, rules, analysis)
    assert len(lines) == 40
    # The analysis' table shared changes no line.
    assert record_lines(record, rules, analysis, search) == lines
    for index, (item, line) in enumerate(zip(analysis.cards, lines, strict=True)):
        assert line is not None and len(line) == 40 - index
        # The card played when it was one of the best, else the first best card instead.
        assert line[0] == (item.card if item.cost == 0 else item.best_cards[0])
        shown = record_line(record, rules, index, line)
        assert shown[0].number == item.trick
        assert shown[0].cards[: shown[0].before] == record.tricks[item.trick - 1].cards[: index % 4]
        assert shown[-1].number == 10
        assert shown[-1].taken == item.best
    # A best card played is followed by the next card's line.
    for index, item in enumerate(analysis.cards[:-1]):
        if item.cost == 0:
            assert lines[index] == (item.card, *lines[index + 1])


def test_the_full_record_s_line_from_its_costly_card() -> None:
    rules = RuleSet()
    record = verify_record("H", 1, FULL_RECORD, rules)
    analysis = analyse_record(record, rules)
    lines = record_lines(record, rules, analysis)
    index = next(i for i, item in enumerate(analysis.cards) if item.cost)
    item = analysis.cards[index]
    line = lines[index]
    assert line is not None and line[0] in item.best_cards
    shown = record_line(record, rules, index, line)
    assert shown[-1].taken == item.best != item.value


def test_lines_past_their_deadline_are_those_known() -> None:
    rules = RuleSet()
    trump, leader, tricks = _played_out(7, rules)
    record = verify_record(trump, leader, tricks, rules)
    analysis = analyse_record(record, rules)
    lines = record_lines(record, rules, analysis, deadline=time.monotonic() - 1)
    assert len(lines) == 40
    # The last card's line needs no search: it is the card itself.
    assert lines[-1] == (analysis.cards[-1].card,)
    assert None in lines
    known = [line is not None for line in lines]
    assert known == sorted(known)  # known from the end back


def test_an_analysis_cut_short_has_the_lines_of_its_last_cards() -> None:
    """Past its budget an analysis keeps its last cards: their lines are the full one's."""
    rules = RuleSet()
    trump, leader, tricks = _played_out(3, rules)
    record = verify_record(trump, leader, tricks, rules)
    analysis = analyse_record(record, rules)
    full = record_lines(record, rules, analysis)
    cut = RecordAnalysis(None, analysis.played, analysis.cards[-13:])
    assert record_lines(record, rules, cut) == full[-13:]
    assert record_lines(record, rules, RecordAnalysis(None, analysis.played, ())) == ()
