"""The exact analysis equals the plain minimax of tests/engine/minimax.py, speed-ups on or off."""

from __future__ import annotations

import dataclasses
import random
import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    PRESETS,
    Card,
    Manilha,
    RuleSet,
    Suit,
    deck,
    legal_cards,
    trick_winner,
    verify_record,
)
from scorekeeper.engine.analysis import (
    FAST,
    PLAIN,
    AnalysisCode,
    AnalysisError,
    CardAnalysis,
    Options,
    OutOfTime,
    Position,
    RecordAnalysis,
    analyse_record,
    best_cards,
    compiled_core,
    costliest,
    solve,
)
from scorekeeper.engine.analysis import options as options_module
from scorekeeper.engine.analysis import search as search_module
from tests.engine.minimax import best, minimax

RULES = [
    PRESETS["portugal"],
    PRESETS["acores"],
    RuleSet(queen_over_jack=True),
    RuleSet(manilha=Manilha.TEN, queen_over_jack=True),
]
SWITCHES = [field.name for field in dataclasses.fields(Options)]


@st.composite
def positions(
    draw: st.DrawFn, most: int = 3, rules: RuleSet | None = None, trump: Suit | None = None
) -> Position:
    """A random deal of 1 to ``most`` cards a hand, some cards of its first trick played."""
    rules = rules or draw(st.sampled_from(RULES))
    size = draw(st.integers(1, most))
    cards = draw(st.permutations(deck(rules)))[: 4 * size]
    hands = tuple(frozenset(cards[seat * size : seat * size + size]) for seat in range(4))
    trump = trump or draw(st.sampled_from(list(Suit)))
    position = Position(trump, draw(st.integers(0, 3)), hands, rules)
    for _ in range(draw(st.integers(0, 4))):
        position = position.play(draw(st.sampled_from(sorted(position.legal(), key=str))))
    return position


def reference(position: Position) -> int:
    return minimax(position.hands, position.leader, position.trick, position.trump, position.rules)


PYTHON = dataclasses.replace(Options(), compiled=False)
"""Every speed-up on, in pure Python: the fallback where the C core was not built."""


def test_the_compiled_core_is_built() -> None:
    """``pip install`` builds it where a C compiler is (CI has one): the budgets need it."""
    assert compiled_core()


def test_the_core_has_a_switch_for_each_speed_up_of_its_search() -> None:
    """Its bits come from the core by the names of Options' fields: none kept equal by hand.

    The three others are the Python side's: the bisection, the table kept between positions,
    and the core itself."""
    fields = {field.name for field in dataclasses.fields(Options)}
    assert set(options_module.SWITCHES) == fields - {"zero_window", "reuse", "compiled"}
    assert sorted(options_module.SWITCHES.values()) == [1 << bit for bit in range(8)]
    assert options_module.POINTS[:10] == (11, 10, 4, 3, 2, 0, 0, 0, 0, 0)
    assert sum(options_module.POINTS) == 120


def _nodes(position: Position, options: Options) -> tuple[int, int, int]:
    """The position's value, its value after its first legal card, and the nodes searched.

    The second value is asked of the same search, where the table kept between them counts."""
    search = position.search(options)
    value = solve(position, search, time.monotonic() + 600)
    after = position.play(sorted(position.legal(), key=str)[0])
    return value, solve(after, search, time.monotonic() + 600), search.nodes


# A deal of 6 cards a hand where each switch has work to do (seed 1000 of bench/analysis.py).
SIX_CARDS = Position.from_hands(
    "H",
    1,
    [
        ["2C", "4D", "5D", "JS", "KC", "KD"],
        ["2D", "3D", "7S", "AC", "JC", "QH"],
        ["4S", "5S", "6S", "7C", "AH", "JD"],
        ["3H", "5H", "6C", "JH", "KS", "QD"],
    ],
    RuleSet(),
)


# Rank classes close the gaps of every card played, the blanks' among them: the nodes blank
# classes save are counted with rank classes off.
UNDER = {"blank_classes": {"rank_classes": False}}


@pytest.mark.parametrize("engine", [FAST, PYTHON], ids=["compiled", "python"])
@pytest.mark.parametrize("switch", [name for name in SWITCHES if name != "compiled"])
def test_each_switch_changes_the_node_count(engine: Options, switch: str) -> None:
    """Each switch reaches the search it names: off, the same values from other work."""
    engine = dataclasses.replace(engine, **UNDER.get(switch, {}))
    on = _nodes(SIX_CARDS, engine)
    off = _nodes(SIX_CARDS, dataclasses.replace(engine, **{switch: False}))
    assert off[:2] == on[:2]
    assert off[2] != on[2]


@settings(max_examples=2000, deadline=None)
@given(positions(), st.sampled_from([FAST, PYTHON]))
def test_the_value_is_the_minimax_value(position: Position, options: Options) -> None:
    assert solve(position, position.search(options)) == reference(position)


@settings(max_examples=20, deadline=None)
@given(positions(most=6))
def test_the_compiled_core_and_python_agree_on_larger_deals(position: Position) -> None:
    assert solve(position, position.search(FAST)) == solve(position, position.search(PYTHON))


@settings(max_examples=40, deadline=None)
@given(
    positions(most=6),
    st.sampled_from(
        [
            "lookahead",
            "lookahead_values",
            "rank_classes",
            "ordering",
            "table",
            "bounds",
        ]
    ),
)
def test_each_compiled_speed_up_off_keeps_the_value_on_larger_deals(
    position: Position, switch: str
) -> None:
    """Where the lookahead and the lead ordering have tricks to work on: up to 6 cards a hand.

    The minimax is too slow there: each switched off, the compiled search gives the same value.
    """
    off = dataclasses.replace(FAST, **{switch: False})
    assert solve(position, position.search(off)) == solve(position, position.search(FAST))


@settings(max_examples=150, deadline=None)
@given(positions(most=4))
def test_the_value_is_the_minimax_value_with_four_cards_a_hand(position: Position) -> None:
    assert solve(position) == reference(position)


@settings(max_examples=1000, deadline=None)
@given(positions(), st.sampled_from(SWITCHES), st.sampled_from([FAST, PYTHON]))
def test_each_speed_up_off_keeps_the_value(position: Position, switch: str, on: Options) -> None:
    off = dataclasses.replace(on, **{switch: False})
    expected = reference(position)
    assert solve(position, position.search(off)) == expected
    assert solve(position, position.search(PLAIN)) == expected


@settings(max_examples=600, deadline=None)
@given(positions(), st.sampled_from([FAST, PYTHON]))
def test_the_best_cards_are_the_minimax_best_cards(position: Position, options: Options) -> None:
    assume(position.legal())
    if len(position.trick) == 4:
        position = position.play(sorted(position.legal(), key=str)[0])
    value, cards = best_cards(position, position.search(options))
    assert (value, frozenset(cards)) == best(
        position.hands, position.leader, position.trick, position.trump, position.rules
    )


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_one_table_serves_many_positions(first: Position, data: st.DataObject) -> None:
    """The table keeps points still to come, so one search serves any position of the deal.

    Here even two unrelated deals with the same trump, one after the other.
    """
    second = data.draw(positions(rules=first.rules, trump=first.trump))
    search = first.search()
    assert solve(first, search) == reference(first)
    assert solve(second, search) == reference(second)


def _played_out(seed: int, rules: RuleSet) -> tuple[str, int, list[list[str]]]:
    """A full deal played out at random, every card legal: trump, leader, the 10 tricks."""
    rnd = random.Random(seed)
    cards = list(deck(rules))
    rnd.shuffle(cards)
    hands = [set(cards[10 * seat : 10 * seat + 10]) for seat in range(4)]
    trump = rnd.choice(list(Suit))
    leader = first = rnd.randrange(4)
    tricks = []
    for _ in range(10):
        trick: list[Card] = []
        for step in range(4):
            seat = (leader + step) % 4
            allowed = legal_cards(hands[seat], trick[0].suit if trick else None)
            card = rnd.choice(sorted(allowed, key=str))
            hands[seat].discard(card)
            trick.append(card)
        tricks.append([str(card) for card in trick])
        leader = (leader + trick_winner(trick, trump, rules)) % 4
    return str(trump), first, tricks


@pytest.mark.parametrize("seed", [7, 3])
def test_a_record_is_analysed_card_by_card(seed: int) -> None:
    rules = RuleSet()
    trump, leader, tricks = _played_out(seed, rules)
    record = verify_record(trump, leader, tricks, rules)
    analysis = analyse_record(record, rules)
    assert analysis.complete and len(analysis.cards) == 40
    assert analysis.played == record.points
    assert analysis.value == analysis.cards[0].best
    # Each card's value after is the next card's best; the last is what was played.
    for card, following in zip(analysis.cards, analysis.cards[1:], strict=False):
        assert card.value == following.best
    assert analysis.cards[-1].value == record.points
    for item in analysis.cards:
        assert sum(item.value) == sum(item.best) == 120
        mine = item.seat % 2
        assert item.cost == item.best[mine] - item.value[mine] >= 0
        assert (item.cost == 0) == (item.card in item.best_cards)
    # The last three tricks against the reference, from the position before each card.
    taken = [0]
    hands: list[set[Card]] = [set() for _ in range(4)]
    for trick in record.tricks:
        for step, card in enumerate(trick.cards):
            hands[(trick.leader + step) % 4].add(card)
    for number, trick in enumerate(record.tricks, start=1):
        for step, card in enumerate(trick.cards):
            item = analysis.cards[4 * (number - 1) + step]
            assert (item.trick, item.seat, item.card) == (number, (trick.leader + step) % 4, card)
            if number >= 8:
                frozen = tuple(frozenset(hand) for hand in hands)
                value, kept = best(frozen, trick.leader, trick.cards[:step], record.trump, rules)
                assert item.best[0] == taken[0] + value
                assert frozenset(item.best_cards) == kept
            hands[(trick.leader + step) % 4].discard(card)
        if trick.winner % 2 == 0:
            taken[0] += trick.points


def test_a_record_with_a_revoke_or_unfinished_is_not_analysed() -> None:
    rules = RuleSet()
    trump, leader, tricks = _played_out(3, rules)
    with pytest.raises(AnalysisError) as raised:
        analyse_record(verify_record(trump, leader, tricks[:9], rules), rules)
    assert raised.value.problem is AnalysisCode.RECORD


@pytest.mark.parametrize(
    ("hands", "code"),
    [
        ([["AS"], ["2S"], ["KS"]], AnalysisCode.HAND_SIZES),
        ([["AS"], ["2S"], ["KS"], ["3S", "4S"]], AnalysisCode.HAND_SIZES),
        ([[], [], [], []], AnalysisCode.HAND_SIZES),
        ([["AS"], ["AS"], ["KS"], ["3S"]], AnalysisCode.REPEATED_CARD),
        ([["AS"], ["10S"], ["KS"], ["3S"]], AnalysisCode.NOT_IN_DECK),
        ([["AS"], ["ZZ"], ["KS"], ["3S"]], AnalysisCode.UNKNOWN_CARD),
    ],
)
def test_open_hands_that_cannot_be_dealt_are_refused(hands: list[list[str]], code: str) -> None:
    with pytest.raises(AnalysisError) as raised:
        Position.from_hands("H", 0, hands, RuleSet())
    assert raised.value.problem is code


@pytest.mark.parametrize(
    ("trump", "leader", "code"),
    [("X", 0, AnalysisCode.TRUMP), (7, 0, AnalysisCode.TRUMP), ("H", 4, AnalysisCode.LEADER)],
)
def test_a_trump_or_leader_that_is_none_is_refused(
    trump: object, leader: object, code: str
) -> None:
    with pytest.raises(AnalysisError) as raised:
        Position.from_hands(trump, leader, [["AS"], ["2S"], ["KS"], ["3S"]], RuleSet())
    assert raised.value.problem is code


def test_the_rule_variants_change_the_value() -> None:
    """Queen over jack: the queen takes the jack's trick; Azores: the 10 is the manilha."""
    hands = [["QS"], ["JS"], ["2H"], ["3H"]]
    plain = Position.from_hands("C", 0, hands, RuleSet())
    turned = Position.from_hands("C", 0, hands, RuleSet(queen_over_jack=True))
    assert solve(plain) == 0  # the jack (3 points) wins: team 1 takes 3 + 2
    assert solve(turned) == 5
    azores = Position.from_hands("C", 1, [["2S"], ["10S"], ["AS"], ["3S"]], PRESETS["acores"])
    assert solve(azores) == 21


@pytest.mark.parametrize("options", [FAST, PYTHON], ids=["C", "Python"])
def test_a_search_past_its_deadline_stops(options: Options) -> None:
    rules = RuleSet()
    cards = list(deck(rules))
    random.Random(2).shuffle(cards)
    hands = tuple(frozenset(cards[10 * seat : 10 * seat + 10]) for seat in range(4))
    position = Position(Suit.HEARTS, 0, hands, rules)
    with pytest.raises(OutOfTime):
        solve(position, position.search(options), deadline=time.monotonic() - 1)


def test_a_record_past_its_deadline_answers_what_is_known() -> None:
    rules = RuleSet()
    trump, leader, tricks = _played_out(7, rules)
    record = verify_record(trump, leader, tricks, rules)
    analysis = analyse_record(record, rules, deadline=time.monotonic() - 1)
    assert (analysis.complete, analysis.value, analysis.cards) == (False, None, ())
    assert analysis.played == record.points


@settings(max_examples=200, deadline=None)
@given(positions(most=4))
def test_the_python_table_emptied_when_full_keeps_the_value(position: Position) -> None:
    """Python's table is a cache bounded in size: starting it over keeps the value.

    Here with room for only three positions (search.TABLE_LIMIT).
    """
    limit = search_module.TABLE_LIMIT
    search_module.TABLE_LIMIT = 3
    try:
        assert solve(position, position.search(PYTHON)) == reference(position)
    finally:
        search_module.TABLE_LIMIT = limit


def test_the_costliest_cards_are_the_dearest_first_then_in_play_order() -> None:
    """Issue 27, item 2: the summary's cards; none when nothing cost, a cost of 0 never."""

    def card(index: int, cost: int) -> CardAnalysis:
        return CardAnalysis(
            index // 4 + 1, index % 4, Card.parse("2H"), (60, 60), (60, 60), cost, ()
        )

    cards = [card(index, cost) for index, cost in enumerate([1, 0, 4, 2, 4, 0, 1, 3])]
    analysis = RecordAnalysis((60, 60), (60, 60), tuple(cards))
    assert costliest(analysis) == (cards[2], cards[4], cards[7])
    assert costliest(analysis, 5) == (cards[2], cards[4], cards[7], cards[3], cards[0])
    assert costliest(RecordAnalysis((60, 60), (60, 60), (card(0, 0),))) == ()
