"""Tricks: the winner of a trick, the cards a player may play, and the trick-record verifier."""

from __future__ import annotations

import pytest

from scorekeeper.engine import (
    PRESETS,
    Card,
    CardError,
    IllegalCardError,
    ProvenRevoke,
    RecordProblem,
    RuleSet,
    Suit,
    TrickRecord,
    can_play,
    can_spoil,
    legal_cards,
    team_of,
    trick_winner,
    verify_melar_hand,
    verify_record,
)
from tests.support.records import FULL_RECORD

PORTUGAL = RuleSet()

FULL_RESULTS = [
    (1, 1, 1, 24),
    (2, 1, 1, 6),
    (3, 1, 3, 11),
    (4, 3, 3, 11),
    (5, 3, 3, 17),
    (6, 3, 0, 16),
    (7, 0, 2, 11),
    (8, 2, 2, 19),
    (9, 2, 3, 3),
    (10, 3, 2, 2),
]
"""(number, leader, winner, points) of each trick of FULL_RECORD."""


def cards(*texts: str) -> list[Card]:
    return [Card.parse(text) for text in texts]


def verify_full(**kwargs: object) -> TrickRecord:
    return verify_record("H", 1, FULL_RECORD, PORTUGAL, **kwargs)


# trick_winner


def test_highest_of_the_led_suit_wins_without_trumps() -> None:
    assert trick_winner(cards("KS", "AS", "2S", "7S"), Suit.HEARTS, PORTUGAL) == 1
    assert trick_winner(cards("7S", "KS", "2S", "JS"), Suit.HEARTS, PORTUGAL) == 0
    assert trick_winner(cards("2S", "3S", "4S", "6S"), Suit.HEARTS, PORTUGAL) == 3
    assert trick_winner(cards("QS", "JS", "5S", "6S"), Suit.HEARTS, PORTUGAL) == 1


def test_a_trump_beats_any_card_of_the_led_suit() -> None:
    assert trick_winner(cards("AS", "7S", "2H", "KS"), Suit.HEARTS, PORTUGAL) == 2
    assert trick_winner(cards("AS", "2H", "7S", "KS"), Suit.HEARTS, PORTUGAL) == 1


def test_the_highest_trump_wins() -> None:
    assert trick_winner(cards("AS", "2H", "KH", "3H"), Suit.HEARTS, PORTUGAL) == 2
    assert trick_winner(cards("AS", "7H", "KH", "AH"), Suit.HEARTS, PORTUGAL) == 3
    assert trick_winner(cards("6H", "AS", "2H", "5H"), Suit.HEARTS, PORTUGAL) == 0


def test_an_off_suit_card_never_wins() -> None:
    assert trick_winner(cards("2S", "AC", "AD", "7C"), Suit.HEARTS, PORTUGAL) == 0
    assert trick_winner(cards("2S", "AC", "3S", "AD"), Suit.HEARTS, PORTUGAL) == 2
    assert trick_winner(cards("2S", "AC", "2H", "AD"), Suit.HEARTS, PORTUGAL) == 2


def test_the_led_suit_is_the_first_card_not_the_trump() -> None:
    assert trick_winner(cards("2D", "AS", "KS", "7S"), Suit.CLUBS, PORTUGAL) == 0
    assert trick_winner(cards("2D", "AS", "KS", "7S"), Suit.SPADES, PORTUGAL) == 1


def test_trick_winner_follows_the_variant_rank_order() -> None:
    qoj = RuleSet(queen_over_jack=True)
    assert trick_winner(cards("JS", "QS", "2S", "3S"), Suit.HEARTS, PORTUGAL) == 0
    assert trick_winner(cards("JS", "QS", "2S", "3S"), Suit.HEARTS, qoj) == 1
    acores = PRESETS["acores"]
    assert trick_winner(cards("KS", "10S", "2S", "AS"), Suit.HEARTS, acores) == 3
    assert trick_winner(cards("KS", "10S", "2S", "3S"), Suit.HEARTS, acores) == 1


def test_team_of_seats() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


# legal_cards


def test_a_player_holding_the_led_suit_must_follow() -> None:
    hand = cards("AS", "2S", "7H", "KC")
    assert legal_cards(hand, Suit.SPADES) == frozenset(cards("AS", "2S"))
    assert legal_cards(hand, Suit.HEARTS) == frozenset(cards("7H"))
    assert can_play(Card.parse("2S"), hand, Suit.SPADES)
    assert not can_play(Card.parse("7H"), hand, Suit.SPADES)


def test_a_player_without_the_led_suit_may_play_anything() -> None:
    hand = cards("AS", "2S", "7H", "KC")
    assert legal_cards(hand, Suit.DIAMONDS) == frozenset(hand)
    assert can_play(Card.parse("7H"), hand, Suit.DIAMONDS)


def test_the_leader_may_play_anything() -> None:
    hand = cards("AS", "2S", "7H")
    assert legal_cards(hand, None) == frozenset(hand)


def test_a_card_not_held_cannot_be_played() -> None:
    assert not can_play(Card.parse("AD"), cards("2S", "7H"), None)


def test_illegal_card_error_names_the_card_and_suit() -> None:
    error = IllegalCardError(Card.parse("7H"), Suit.SPADES)
    assert isinstance(error, ValueError)
    assert "7H" in str(error) and "S" in str(error)


# verify_record: a whole, correct hand


def test_full_record_leaders_winners_and_points() -> None:
    record = verify_full()
    assert [(t.number, t.leader, t.winner, t.points) for t in record.tricks] == FULL_RESULTS
    assert [tuple(str(c) for c in t.cards) for t in record.tricks] == [
        tuple(t) for t in FULL_RECORD
    ]
    assert record.points == (48, 72)
    assert record.tricks_won == (4, 6)
    assert record.complete is True
    assert record.revokes == ()
    assert record.errors == ()
    assert record.first_revoke is None
    assert record.all_tricks is None
    assert record.trump is Suit.HEARTS
    assert record.first_leader == 1
    assert record.next_leader is None


def test_full_record_points_are_the_sum_of_its_tricks() -> None:
    record = verify_full()
    assert sum(record.points) == 120
    for team in (0, 1):
        assert record.points[team] == sum(
            t.points for t in record.tricks if team_of(t.winner) == team
        )


def test_the_same_cards_under_another_trump() -> None:
    # Spades trump: the first three tricks are unchanged (spades led), trick 3's 2H no longer wins.
    record = verify_record("S", 1, FULL_RECORD[:3], PORTUGAL)
    assert [(t.leader, t.winner, t.points) for t in record.tricks] == [
        (1, 1, 24),
        (1, 1, 6),
        (1, 2, 11),
    ]
    assert record.points == (11, 30)
    assert record.next_leader == 2
    assert record.complete is False


def test_a_partial_record_is_checked_as_far_as_it_goes() -> None:
    record = verify_record("H", 1, FULL_RECORD[:4], PORTUGAL)
    assert [(t.leader, t.winner, t.points) for t in record.tricks] == [
        (1, 1, 24),
        (1, 1, 6),
        (1, 3, 11),
        (3, 3, 11),
    ]
    assert record.points == (0, 52)
    assert record.tricks_won == (0, 4)
    assert record.complete is False
    assert record.next_leader == 3
    assert record.errors == ()


def test_the_api_example_trick() -> None:
    record = verify_record("H", 1, [["AS", "2S", "7S", "JS"]], PORTUGAL)
    assert [(t.leader, t.winner, t.points) for t in record.tricks] == [(1, 1, 24)]
    assert record.points == (0, 24)
    assert record.tricks_won == (0, 1)


def test_trump_may_be_given_as_a_suit() -> None:
    assert verify_record(Suit.HEARTS, 1, FULL_RECORD, PORTUGAL) == verify_full()


def test_all_tricks_to_one_team() -> None:
    # The dealer, seat 0, holds every heart (trumps): it wins every trick, so all ten.
    # Seats 1, 2 and 3 hold the spades, clubs and diamonds; seat 1 leads the first trick.
    spades = ["AS", "7S", "KS", "JS", "QS", "6S", "5S", "4S", "3S", "2S"]
    clubs = ["AC", "7C", "KC", "JC", "QC", "6C", "5C", "4C", "3C", "2C"]
    diamonds = ["AD", "7D", "KD", "JD", "QD", "6D", "5D", "4D", "3D", "2D"]
    hearts = ["2H", "3H", "4H", "5H", "6H", "QH", "JH", "KH", "7H", "AH"]
    first = [spades[0], clubs[0], diamonds[0], hearts[0]]
    rest = [[hearts[i], spades[i], clubs[i], diamonds[i]] for i in range(1, 10)]
    record = verify_record("H", 1, [first, *rest], PORTUGAL, trump_card="AH")
    assert record.errors == ()
    assert record.complete is True
    assert [t.winner for t in record.tricks] == [0] * 10
    assert [t.leader for t in record.tricks] == [1] + [0] * 9
    assert record.points == (120, 0)
    assert record.tricks_won == (10, 0)
    assert record.all_tricks == 0
    assert record.revokes == ()


# verify_record: revokes


def test_a_revoke_is_proven_when_the_suit_is_played_later() -> None:
    tricks = [
        ["AS", "2S", "7S", "JS"],  # 1:AS 2:2S 3:7S 0:JS -> 1
        ["KS", "3S", "2H", "4S"],  # 1:KS 2:3S 3:2H 0:4S -> 3 trumps, failing spades
        ["QS", "5S", "6S", "5C"],  # 3:QS 0:5S 1:6S 2:5C -> 3 leads a spade: the revoke is proven
    ]
    record = verify_record("H", 1, tricks, PORTUGAL)
    assert record.revokes == (ProvenRevoke(seat=3, team=1, trick=2, suit=Suit.SPADES, proven_in=3),)
    assert record.first_revoke == record.revokes[0]
    assert record.errors == ()
    assert [t.winner for t in record.tricks] == [1, 3, 3]
    assert record.complete is False


def test_a_revoke_proven_by_following_later() -> None:
    tricks = [
        ["AH", "2H", "3C", "4H"],  # 1:AH 2:2H 3:3C 0:4H -> seat 3 fails hearts
        ["2S", "3S", "4S", "5S"],  # 1:2S 2:3S 3:4S 0:5S -> 0 wins with 5S
        ["7H", "KH", "JH", "QH"],  # 0:7H 1:KH 2:JH 3:QH -> seat 3 follows hearts: proven in 3
    ]
    record = verify_record("D", 1, tricks, PORTUGAL)
    assert record.revokes == (ProvenRevoke(seat=3, team=1, trick=1, suit=Suit.HEARTS, proven_in=3),)
    assert [t.winner for t in record.tricks] == [1, 0, 0]


def test_failing_to_follow_without_later_proof_is_no_revoke() -> None:
    tricks = [["AH", "2H", "3C", "4H"], ["2S", "3S", "4S", "5S"]]
    record = verify_record("D", 1, tricks, PORTUGAL)
    assert record.revokes == ()


def test_revokes_by_both_teams_in_order_and_the_first_one() -> None:
    tricks = [
        ["AH", "2C", "3H", "4H"],  # 1:AH 2:2C(fails H) 3:3H 0:4H -> 1
        ["AS", "2H", "3S", "4S"],  # 1:AS 2:2H(proves trick 1) 3:3S 0:4S -> 2 trumps
        ["5D", "6C", "6D", "7D"],  # 2:5D 3:6C(fails D) 0:6D 1:7D -> 1
        ["KD", "JC", "QD", "JD"],  # 1:KD 2:JC 3:QD(proves trick 3) 0:JD -> 1
    ]
    record = verify_record("H", 1, tricks, PORTUGAL)
    assert [(t.leader, t.winner) for t in record.tricks] == [(1, 1), (1, 2), (2, 1), (1, 1)]
    assert record.revokes == (
        ProvenRevoke(seat=2, team=0, trick=1, suit=Suit.HEARTS, proven_in=2),
        ProvenRevoke(seat=3, team=1, trick=3, suit=Suit.DIAMONDS, proven_in=4),
    )
    assert record.first_revoke == ProvenRevoke(2, 0, 1, Suit.HEARTS, 2)


def test_the_first_revoke_is_the_first_in_play_order_of_its_trick() -> None:
    # Seats 3 and 0 both fail hearts in trick 1 (led by seat 2); seat 0 proves it first,
    # but seat 3 played before seat 0 in trick 1.
    tricks = [
        ["AH", "2C", "3C", "4H"],  # 2:AH 3:2C 0:3C 1:4H -> 2
        ["5H", "2H", "3H", "6H"],  # 2:5H 3:2H(proves) 0:3H(proves) 1:6H -> 1 with 6H
    ]
    record = verify_record("D", 2, tricks, PORTUGAL)
    assert {(r.seat, r.trick, r.proven_in) for r in record.revokes} == {(3, 1, 2), (0, 1, 2)}
    first = record.first_revoke
    assert first is not None and (first.seat, first.team) == (3, 1)


# verify_record: problems with the record come back as data


def test_an_unknown_card_is_an_error_not_an_exception() -> None:
    record = verify_record("H", 1, [["AS", "2S", "XS", "JS"], ["KS", "3S", "QS", "4S"]], PORTUGAL)
    assert record.errors == (RecordProblem("unknown_card", 1, "XS", "'XS' is not a card."),)
    assert record.tricks == ()
    assert record.points == (0, 0)
    assert record.complete is False


def test_values_that_are_not_text_are_unknown_cards() -> None:
    record = verify_record("H", 1, [["AS", 7, None, "JS"]], PORTUGAL)
    assert [(e.code, e.trick, e.card) for e in record.errors] == [
        ("unknown_card", 1, "7"),
        ("unknown_card", 1, "None"),
    ]


def test_a_card_not_in_the_deck_is_an_error() -> None:
    record = verify_record("H", 1, [["AS", "2S", "7H", "JS"]], PRESETS["acores"])
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("not_in_deck", 1, "7H")]
    assert "7H" in record.errors[0].error
    assert record.tricks == ()
    record = verify_record("H", 1, [["AS", "2S", "10S", "JS"]], PORTUGAL)
    assert [(e.code, e.card) for e in record.errors] == [("not_in_deck", "10S")]


def test_the_ten_is_a_card_in_the_azores() -> None:
    record = verify_record("H", 1, [["AS", "2S", "TS", "JS"]], PRESETS["acores"])
    assert record.errors == ()
    assert [(t.winner, t.points) for t in record.tricks] == [(1, 24)]


def test_a_repeated_card_is_an_error() -> None:
    record = verify_record("H", 1, [["AS", "2S", "7S", "JS"], ["AS", "3S", "QS", "4S"]], PORTUGAL)
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("repeated_card", 2, "AS")]
    assert "trick 1" in record.errors[0].error
    assert record.complete is False


def test_a_card_twice_in_one_trick_is_an_error() -> None:
    record = verify_record("H", 1, [["AS", "AS", "7S", "JS"]], PORTUGAL)
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("repeated_card", 1, "AS")]
    # Issue 25, item 25: said to be repeated in this trick, not in an earlier one.
    assert record.errors[0].first_in == 1 and "in this trick" in record.errors[0].error
    earlier = verify_record("H", 1, [["AS", "2S", "7S", "JS"], ["AS"]], PORTUGAL, unfinished=True)
    assert [e.first_in for e in earlier.errors] == [1]


@pytest.mark.parametrize("size", [0, 1, 3, 5])
def test_a_trick_of_the_wrong_size_is_an_error(size: int) -> None:
    bad = ["KS", "3S", "QS", "4S", "5S"][:size]
    record = verify_record(
        "H", 1, [["AS", "2S", "7S", "JS"], bad, ["6S", "2H", "3H", "4H"]], PORTUGAL
    )
    assert [(e.code, e.trick) for e in record.errors] == [("trick_size", 2)]
    assert f"has {size} cards" in record.errors[0].error
    # Scoring stops at the trick that cannot be resolved.
    assert [(t.number, t.winner) for t in record.tricks] == [(1, 1)]
    assert record.points == (0, 24)
    assert record.complete is False


def test_eleven_tricks_is_an_error() -> None:
    record = verify_record("H", 1, [*FULL_RECORD, ["AS", "2S", "7S", "JS"]], PORTUGAL)
    assert [(e.code, e.trick) for e in record.errors] == [("too_many_tricks", 11)]
    assert len(record.tricks) == 10
    assert record.points == (48, 72)
    assert record.complete is False


def test_errors_in_later_tricks_are_still_listed() -> None:
    tricks = [["AS", "2S", "XS", "JS"], ["KS", "3S", "QS"], ["AS", "8D", "2C", "3C"]]
    record = verify_record("H", 1, tricks, PORTUGAL)
    assert [(e.code, e.trick, e.card) for e in record.errors] == [
        ("unknown_card", 1, "XS"),
        ("trick_size", 2, None),
        ("repeated_card", 3, "AS"),
        ("not_in_deck", 3, "8D"),
    ]
    assert record.tricks == ()


def test_a_bad_leader_or_trump_is_refused() -> None:
    with pytest.raises(ValueError, match="4"):
        verify_record("H", 4, FULL_RECORD, PORTUGAL)
    with pytest.raises(CardError, match="'X'"):
        verify_record("X", 1, FULL_RECORD, PORTUGAL)


# verify_record: the dealer's turned card


def test_the_dealers_turned_card_played_by_the_dealer_is_fine() -> None:
    # The dealer is seat 0 (the seat before leader 1); seat 0 played 3H and 6H.
    assert verify_full(trump_card="6H").errors == ()
    assert verify_full(trump_card="3H").complete is True


def test_a_turned_card_played_by_another_seat_is_an_error() -> None:
    record = verify_full(trump_card="AH")
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("trump_card_seat", 4, "AH")]
    assert "seat 0" in record.errors[0].error and "seat 3" in record.errors[0].error
    assert record.complete is False
    assert record.points == (48, 72)


def test_a_turned_card_of_another_suit_is_an_error() -> None:
    record = verify_full(trump_card="AS")
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("trump_card_suit", None, "AS")]
    assert record.complete is False


def test_an_unreadable_or_foreign_turned_card_is_an_error() -> None:
    assert [(e.code, e.card) for e in verify_full(trump_card="XH").errors] == [
        ("unknown_card", "XH")
    ]
    assert [(e.code, e.card) for e in verify_full(trump_card="8H").errors] == [
        ("not_in_deck", "8H")
    ]
    assert [(e.code, e.card) for e in verify_full(trump_card="10H").errors] == [
        ("not_in_deck", "10H")
    ]


def test_a_turned_card_not_yet_played_in_a_partial_record_is_fine() -> None:
    record = verify_record("H", 1, FULL_RECORD[:3], PORTUGAL, trump_card="6H")
    assert record.errors == ()


def test_a_turned_card_played_early_by_another_seat_is_caught_in_a_partial_record() -> None:
    record = verify_record("H", 1, FULL_RECORD[:3], PORTUGAL, trump_card="2H")
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("trump_card_seat", 3, "2H")]


# melar


def test_melar_hand_points_and_can_spoil() -> None:
    poor = ["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"]
    assert verify_melar_hand(poor, PORTUGAL) == 6
    assert can_spoil(poor, PORTUGAL) is True
    nine = ["2S", "3S", "4S", "5S", "6S", "KH", "QH", "JD", "2D", "3D"]
    assert verify_melar_hand(nine, PORTUGAL) == 9
    assert can_spoil(nine, PORTUGAL) is True
    ten = ["2S", "3S", "4S", "5S", "6S", "7H", "2H", "3D", "2D", "4D"]
    assert verify_melar_hand(ten, PORTUGAL) == 10
    assert can_spoil(ten, PORTUGAL) is False


def test_melar_hand_must_be_ten_distinct_cards_of_the_deck() -> None:
    with pytest.raises(CardError, match="not 9"):
        verify_melar_hand(["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH"], PORTUGAL)
    with pytest.raises(CardError, match="twice"):
        verify_melar_hand(["2S", "2S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"], PORTUGAL)
    with pytest.raises(CardError, match="10S"):
        verify_melar_hand(["10S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"], PORTUGAL)
    with pytest.raises(CardError, match="8S is not in this deck"):
        verify_melar_hand(["8S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"], PORTUGAL)


def test_a_repeated_card_stops_the_scoring_at_its_trick() -> None:
    tricks = [["AS", "2S", "7S", "JS"], ["AS", "3S", "QS", "KS"]]
    record = verify_record("H", 1, tricks, PORTUGAL)
    assert [(e.code, e.trick, e.card) for e in record.errors] == [("repeated_card", 2, "AS")]
    assert [t.number for t in record.tricks] == [1]
    assert record.points == (0, 24)  # the ace is not counted twice


def test_the_azores_turned_card_comes_from_the_rejected_cards() -> None:
    acores = PRESETS["acores"]
    tricks = [["AS", "2S", "10S", "JS"]]
    for turned in ("7H", "8H", "9H"):
        assert verify_record("H", 1, tricks, acores, trump_card=turned).errors == ()
    wrong_suit = verify_record("H", 1, tricks, acores, trump_card="7S")
    assert [e.code for e in wrong_suit.errors] == ["trump_card_suit"]
    held = verify_record("H", 1, tricks, acores, trump_card="AH")
    assert [(e.code, e.card) for e in held.errors] == [("trump_card_in_deck", "AH")]


def test_a_leader_that_is_not_a_seat_is_a_domain_error() -> None:
    from scorekeeper.engine import RecordError

    for leader in (4, -1, True):
        with pytest.raises(RecordError, match=repr(leader)):
            verify_record("H", leader, FULL_RECORD, PORTUGAL)
