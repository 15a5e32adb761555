"""A record with a trick in play (whose turn, the legal cards), and the hand a record scores."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    PRESETS,
    Card,
    CardError,
    Hand,
    HandKind,
    IncompleteRecordError,
    Manilha,
    ProblemCode,
    ProvenRevoke,
    RuleSet,
    ScoringError,
    Suit,
    TrickRecord,
    deck,
    legal_cards,
    trick_winner,
    verify_record,
)
from tests.support.records import FULL_RECORD

PORTUGAL = RuleSet()
PROPERTY = settings(max_examples=200, deadline=None)
RULES = [
    PRESETS["portugal"],
    PRESETS["acores"],
    RuleSet(queen_over_jack=True),
]


def cards(*texts: str) -> list[Card]:
    return [Card.parse(text) for text in texts]


def in_play(tricks: list[list[str]], trump_card: str | None = None) -> TrickRecord:
    """The record as the card-entry page reads it: hearts trumps, seat 1 leads."""
    return verify_record("H", 1, tricks, PORTUGAL, trump_card, unfinished=True)


# Whose turn it is


def test_the_first_leader_plays_first() -> None:
    record = in_play([])
    assert record.unfinished is None
    assert record.to_play == 1 and record.next_leader == 1


def test_an_empty_last_trick_is_in_play_and_its_leader_plays() -> None:
    record = in_play([FULL_RECORD[0], []])
    assert record.unfinished is not None and record.unfinished.cards == ()
    assert record.to_play == 1


def test_the_seat_after_the_last_card_plays_next() -> None:
    record = in_play([FULL_RECORD[0], FULL_RECORD[1], ["5S", "6S"]])
    assert len(record.tricks) == 2
    assert record.unfinished is not None
    assert (record.unfinished.number, record.unfinished.leader) == (3, 1)
    assert record.unfinished.cards == tuple(cards("5S", "6S"))
    assert record.unfinished.led is Suit.SPADES
    assert record.next_leader == 1 and record.to_play == 3
    assert record.errors == () and record.complete is False


def test_after_a_finished_trick_its_winner_plays() -> None:
    record = in_play(FULL_RECORD[:3])
    assert record.unfinished is None
    assert record.to_play == 3


def test_nobody_plays_after_ten_tricks() -> None:
    record = in_play(FULL_RECORD)
    assert record.complete and record.unfinished is None
    assert record.to_play is None
    assert record.legal_cards(deck(PORTUGAL)) == frozenset()


def test_nobody_plays_after_finished_tricks_that_prove_a_revoke() -> None:
    # Seat 3 trumps trick 1 holding spades, wins it, and leads a spade in trick 2.
    tricks = [["AS", "2S", "2H", "JS"], ["KS", "3S", "7S", "QS"]]
    record = in_play(tricks)
    assert record.first_revoke is not None
    assert record.to_play is None
    # A trick in play after it is played out.
    assert in_play([*tricks, ["5S"]]).to_play == 2


def test_a_short_last_trick_is_a_wrong_size_without_unfinished() -> None:
    record = verify_record("H", 1, [FULL_RECORD[0], ["KS", "3S"]], PORTUGAL)
    assert record.unfinished is None
    assert [(e.code, e.trick) for e in record.errors] == [(ProblemCode.TRICK_SIZE, 2)]
    # Only the last trick may be in play.
    record = in_play([["KS", "3S"], FULL_RECORD[0]])
    assert [(e.code, e.trick) for e in record.errors] == [(ProblemCode.TRICK_SIZE, 1)]
    assert record.to_play is None


def test_a_trick_in_play_after_an_unresolved_trick_has_no_leader() -> None:
    record = in_play([["AS", "XX", "7S", "JS"], ["KS"]])
    assert record.unfinished is not None and record.unfinished.leader is None
    assert record.to_play is None and record.next_leader is None


def test_a_wrong_card_in_play_keeps_its_leader_but_not_the_turn() -> None:
    record = in_play([FULL_RECORD[0], ["KS", "XX"]])
    assert [(e.code, e.trick, e.card) for e in record.errors] == [
        (ProblemCode.UNKNOWN_CARD, 2, "XX")
    ]
    assert record.unfinished is not None
    assert record.unfinished.leader == 1 and record.unfinished.cards is None
    assert record.next_leader == 1 and record.to_play is None


def test_an_eleventh_trick_in_play_is_too_many() -> None:
    record = in_play([*FULL_RECORD, ["AS"]])
    assert [(e.code, e.trick) for e in record.errors] == [(ProblemCode.TOO_MANY_TRICKS, 11)]
    assert record.unfinished is not None and record.unfinished.number == 11
    assert record.to_play is None


# The cards of the trick in play are checked as they come


def test_a_card_of_the_trick_in_play_played_before_is_a_problem() -> None:
    record = in_play([FULL_RECORD[0], ["KS", "AS"]])
    assert [(e.code, e.trick, e.card) for e in record.errors] == [
        (ProblemCode.REPEATED_CARD, 2, "AS")
    ]


def test_the_turned_card_played_in_the_trick_in_play_by_another_seat_is_a_problem() -> None:
    # Dealer seat 0; seat 1 leads the 6H it cannot hold.
    record = in_play([FULL_RECORD[0], ["6H"]], trump_card="6H")
    assert [(e.code, e.trick, e.card) for e in record.errors] == [
        (ProblemCode.TRUMP_CARD_SEAT, 2, "6H")
    ]
    # The dealer plays it: fine.
    assert in_play([FULL_RECORD[0], ["KS", "3S", "QS", "6H"]], trump_card="6H").errors == ()


def test_a_revoke_proven_by_the_trick_in_play_is_its_own() -> None:
    # Seat 3 trumps trick 1 holding spades, wins it, and leads a spade in trick 2.
    record = in_play([["AS", "2S", "2H", "JS"], ["KS", "3S", "7S"]])
    assert record.revokes == ()
    assert record.first_revoke is None
    assert record.unfinished is not None
    assert record.unfinished.revokes == (ProvenRevoke(3, 1, 1, Suit.SPADES, 2),)
    assert record.to_play == 2
    # Once the trick is finished, the revoke is the record's and stops the hand.
    done = in_play([["AS", "2S", "2H", "JS"], ["KS", "3S", "7S", "QS"]])
    assert done.revokes == (ProvenRevoke(3, 1, 1, Suit.SPADES, 2),)


def test_a_revoke_already_proven_is_not_proven_again_in_play() -> None:
    tricks = [["AS", "2S", "2H", "JS"], ["KS", "3S", "7S", "QS"], ["5S", "6S", "4S"]]
    record = in_play(tricks)
    assert len(record.revokes) == 1
    assert record.unfinished is not None and record.unfinished.revokes == ()


# The legal cards


def test_the_seat_to_play_must_follow_the_led_suit() -> None:
    record = in_play([["AS", "2S"]])
    assert record.legal_cards(cards("KS", "3S", "AD")) == frozenset(cards("KS", "3S"))


def test_a_seat_without_the_led_suit_may_play_any_card() -> None:
    record = in_play([["AS", "2S"]])
    assert record.legal_cards(cards("AD", "2H")) == frozenset(cards("AD", "2H"))


def test_the_leader_may_play_any_card_it_still_holds() -> None:
    record = in_play([FULL_RECORD[0]])
    # The AS was played in trick 1: the leader cannot play it again.
    assert record.legal_cards(cards("AS", "KS", "2H")) == frozenset(cards("KS", "2H"))


def test_cards_played_are_not_legal_even_of_the_led_suit() -> None:
    record = in_play([["AS", "2S"]])
    assert record.legal_cards(cards("2S", "7S", "AD")) == frozenset(cards("7S"))


# The hand a record scores


def test_a_full_record_scores_its_points() -> None:
    record = verify_record("H", 1, FULL_RECORD, PORTUGAL)
    assert record.scorable
    assert Hand.from_record(record) == Hand.played(48, 72)


def test_a_record_of_all_tricks_scores_a_bandeira_hand() -> None:
    # Seat 1 leads each trump from the top, then the rest; team 1 takes all 10.
    tricks = [
        ["AH", "2C", "7H", "3C"],
        ["KH", "4C", "JH", "5C"],
        ["QH", "6C", "6H", "7C"],
        ["5H", "KC", "4H", "JC"],
        ["3H", "QC", "2H", "AC"],
        ["AS", "2S", "7S", "3S"],
        ["KS", "4S", "JS", "5S"],
        ["QS", "6S", "AD", "2D"],
        ["7D", "3D", "KD", "4D"],
        ["JD", "5D", "QD", "6D"],
    ]
    record = verify_record("H", 1, tricks, PORTUGAL)
    assert record.errors == () and record.all_tricks == 1
    assert Hand.from_record(record) == Hand.played(0, 120, all_tricks=True)


def test_a_record_that_proves_a_revoke_scores_it_before_all_tricks() -> None:
    record = verify_record("H", 1, [["AS", "2S", "2H", "JS"], ["KS", "3S", "7S", "QS"]], PORTUGAL)
    assert record.scorable and not record.complete
    hand = Hand.from_record(record)
    assert (hand.kind, hand.team) == (HandKind.REVOKE, 1)


@pytest.mark.parametrize(
    "tricks",
    [
        FULL_RECORD[:9],  # too few
        [*FULL_RECORD[:9], ["4C", "5C"]],  # the last trick in play
        [*FULL_RECORD[:9], ["4C", "5C", "6C", "XX"]],  # a problem
    ],
)
def test_a_record_that_scores_no_hand_is_refused(tricks: list[list[str]]) -> None:
    record = in_play(tricks)
    assert not record.scorable
    with pytest.raises(IncompleteRecordError) as raised:
        Hand.from_record(record)
    assert isinstance(raised.value, ScoringError)
    assert raised.value.code == "incomplete"
    assert raised.value.value is record


def test_the_stored_tricks_are_written_as_the_engine_writes_cards() -> None:
    record = verify_record("h", 1, [["as", "2s", "7s", "js"]], PORTUGAL)
    assert record.card_texts() == [["AS", "2S", "7S", "JS"]]
    azores = verify_record("H", 1, [["AS", "2S", "th", "JS"]], PRESETS["acores"])
    assert azores.card_texts() == [["AS", "2S", "10H", "JS"]]


# Properties on random deals


@dataclass(frozen=True)
class Play:
    """One card of a simulated deal, with what the rules allowed at that moment."""

    seat: int
    card: Card
    legal: frozenset[Card]


@dataclass(frozen=True)
class Deal:
    rules: RuleSet
    trump: Suit
    leader: int
    trump_card: str | None
    dealt: tuple[frozenset[Card], ...]
    plays: tuple[Play, ...]

    def tricks(self, count: int) -> list[list[str]]:
        """The first ``count`` cards played, as a record: tricks of 4, the last maybe short."""
        texts = [str(play.card) for play in self.plays[:count]]
        return [texts[i : i + 4] for i in range(0, count, 4)]


def play_out(
    rules: RuleSet, order: list[Card], leader: int, rnd: random.Random, stray: float
) -> Deal:
    """Deal 10 cards a seat and play them out.

    With chance ``stray`` a card ignores the led suit (a revoke, proven if its player plays that
    suit later)."""
    holdings = [set(order[10 * seat : 10 * seat + 10]) for seat in range(4)]
    dealer = (leader - 1) % 4
    turned = order[10 * dealer + 9]
    plays: list[Play] = []
    current = leader
    for _trick in range(10):
        played: list[Card] = []
        led: Suit | None = None
        for position in range(4):
            seat = (current + position) % 4
            legal = legal_cards(holdings[seat], led)
            pool = holdings[seat] if rnd.random() < stray else legal
            card = rnd.choice(sorted(pool, key=str))
            plays.append(Play(seat, card, legal))
            holdings[seat].remove(card)
            played.append(card)
            led = led or card.suit
        current = (current + trick_winner(played, turned.suit, rules)) % 4
    dealt = tuple(frozenset(order[10 * seat : 10 * seat + 10]) for seat in range(4))
    trump_card = None if rules.manilha is Manilha.TEN else str(turned)
    return Deal(rules, turned.suit, leader, trump_card, dealt, tuple(plays))


@st.composite
def deals(draw: st.DrawFn, stray: float = 0.0) -> Deal:
    rules = draw(st.sampled_from(RULES))
    order = draw(st.permutations(deck(rules)))
    leader = draw(st.integers(0, 3))
    rnd = draw(st.randoms(use_true_random=False))
    return play_out(rules, order, leader, rnd, stray)


@PROPERTY
@given(deals(), st.integers(0, 40))
def test_the_turn_and_the_legal_cards_agree_with_playing_the_deal(deal: Deal, count: int) -> None:
    record = verify_record(
        deal.trump, deal.leader, deal.tricks(count), deal.rules, deal.trump_card, unfinished=True
    )
    assert record.errors == () and record.revokes == ()
    assert (record.unfinished is not None) == (count % 4 != 0)
    full = verify_record(deal.trump, deal.leader, deal.tricks(40), deal.rules)
    assert record.tricks == full.tricks[: count // 4]
    if count == 40:
        assert record.to_play is None
        assert record.scorable and Hand.from_record(record).points == full.points
        return
    following = deal.plays[count]
    assert record.to_play == following.seat
    assert record.legal_cards(deal.dealt[following.seat]) == following.legal
    assert record.next_leader == deal.plays[count - count % 4].seat
    assert not record.scorable


def normal(text: str) -> str:
    try:
        return str(Card.parse(text))
    except CardError:
        return text


def filler_examine(
    trump: Suit, leader: int, tricks: list[list[str]], rules: RuleSet, trump_card: str | None
) -> tuple[list[tuple[str, int | None, str | None]], list[ProvenRevoke]]:
    """Return what the card-entry page found in a trick in play before the engine knew one.

    The trick is completed with cards nobody had played, verified, and only the real cards kept."""
    done = tricks[:-1]
    record = verify_record(trump, leader, done, rules, trump_card)
    problems = [(p.code.value, p.trick, p.card) for p in record.errors]
    number, real = len(tricks), len(tricks[-1])
    used = {normal(text) for trick in tricks for text in trick}
    if trump_card:
        used.add(normal(trump_card))
    fillers = [str(card) for card in deck(rules) if str(card) not in used][: 4 - real]
    assume(len(fillers) == 4 - real)
    probe = verify_record(trump, leader, [*done, [*tricks[-1], *fillers]], rules, trump_card)
    problems += [
        (p.code.value, p.trick, p.card)
        for p in probe.errors
        if p.trick == number and p.card not in fillers
    ]
    flagged: list[ProvenRevoke] = []
    lead = record.next_leader if len(done) == len(record.tricks) else None
    if lead is not None:
        seats = {(lead + position) % 4 for position in range(real)}
        flagged = [r for r in probe.revokes if r.proven_in == number and r.seat in seats]
    return problems, flagged


@PROPERTY
@given(deals(stray=0.2), st.integers(1, 39), st.data())
def test_the_trick_in_play_is_checked_as_completing_it_with_unplayed_cards_did(
    deal: Deal, count: int, data: st.DataObject
) -> None:
    assume(count % 4)
    tricks = deal.tricks(count)
    if data.draw(st.booleans()):  # a wrong card in the trick in play
        position = data.draw(st.integers(0, len(tricks[-1]) - 1))
        tricks[-1][position] = data.draw(
            st.sampled_from(["XX", "10H" if deal.rules.manilha is Manilha.SEVEN else "7H"])
            | st.sampled_from([str(card) for card in deck(deal.rules)])
        )
    record = verify_record(
        deal.trump, deal.leader, tricks, deal.rules, deal.trump_card, unfinished=True
    )
    problems, flagged = filler_examine(deal.trump, deal.leader, tricks, deal.rules, deal.trump_card)
    assert sorted(map(str, ((p.code.value, p.trick, p.card) for p in record.errors))) == sorted(
        map(str, problems)
    )
    assert record.unfinished is not None
    assert list(record.unfinished.revokes) == flagged
