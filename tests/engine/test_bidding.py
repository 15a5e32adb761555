"""Bidding Sueca (RULES.md, "Bidding Sueca"): the worked example and the end of a game.

Also the deck of the table, bad values, and properties over random games."""

from __future__ import annotations

from functools import reduce

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import Card, CardError
from scorekeeper.engine.bidding import (
    MAX_BID,
    MAX_HANDS,
    MIN_BID,
    BiddingError,
    BidError,
    BidHand,
    CardPointsError,
    GameFinishedError,
    HandKind,
    OutcomeError,
    PlayersError,
    Table,
    TargetError,
    TooManyHandsError,
    UnknownSeatError,
    can_add_hand,
    changes,
    new_game,
    play_hand,
    replay,
    undo_last,
    verify_hand,
)
from scorekeeper.engine.bidding_deck import card_points, deck, in_deck, pile_points, read_card

PROPERTY = settings(max_examples=200, deadline=None)


def test_the_worked_example_of_rules_md() -> None:
    game = new_game(5, target=200)
    game = play_hand(game, BidHand.played(bidder=2, bid=75, partner=4, points=80))
    assert game.hands[-1].changes == (0, 0, 75, 0, 75)
    assert game.hands[-1].made is True
    game = play_hand(game, BidHand.played(bidder=0, bid=90, partner=0, points=85))
    assert game.hands[-1].changes == (-90, 90, 90, 90, 90)
    assert game.hands[-1].made is False and game.hands[-1].hand.alone
    assert game.scores == (-90, 90, 165, 90, 165)
    assert not game.finished


def test_the_deal_passes_on_after_every_hand_even_when_all_passed() -> None:
    game = new_game(4, first_dealer=3)
    assert (game.dealer, game.opener) == (3, 0)
    game = play_hand(game, BidHand.passed())
    assert game.hands[-1].changes == (0, 0, 0, 0)
    assert (game.hands[-1].dealer, game.hands[-1].opener) == (3, 0)
    assert (game.dealer, game.opener) == (0, 1)


def test_a_failed_bid_with_a_partner_pays_everyone_else() -> None:
    assert changes(6, BidHand.played(bidder=1, bid=100, partner=4, points=99)) == (
        100,
        -100,
        100,
        100,
        -100,
        100,
    )


def test_scores_go_below_zero() -> None:
    game = play_hand(new_game(4), BidHand.played(bidder=0, bid=120, made=False))
    assert game.scores == (-120, 120, 120, 120)


def test_the_game_ends_when_one_alone_is_highest_at_the_target() -> None:
    game = new_game(4, target=100)
    game = play_hand(game, BidHand.played(bidder=0, bid=100, partner=1, made=True))
    # Two share the highest score past the target: play goes on.
    assert game.scores == (100, 100, 0, 0) and not game.finished and game.winner is None
    assert game.leaders == (0, 1) and game.leader is None
    game = play_hand(game, BidHand.passed())
    assert not game.finished
    game = play_hand(game, BidHand.played(bidder=1, bid=61, made=True))
    assert game.finished and game.winner == 1 and game.leader == 1
    with pytest.raises(GameFinishedError):
        play_hand(game, BidHand.passed())
    assert not can_add_hand(game, BidHand.passed())


def test_a_leader_below_the_target_does_not_end_the_game() -> None:
    game = play_hand(new_game(5), BidHand.played(bidder=2, bid=90, made=True))
    assert game.leader == 2 and not game.finished


def test_the_decks_of_the_tables() -> None:
    assert (Table(4).deck_size, Table(4).cards_each) == (40, 10)
    assert (Table(5).deck_size, Table(5).cards_each) == (40, 8)
    assert (Table(6).deck_size, Table(6).cards_each) == (48, 8)
    for players in (4, 5, 6):
        cards = deck(players)
        assert len(set(cards)) == len(cards)
        assert sum(card_points(card) for card in cards) == 120
    assert in_deck(Card.parse("9H"), 6) and not in_deck(Card.parse("9H"), 5)
    assert not in_deck(Card.parse("10H"), 6)
    assert pile_points(deck(6), 6) == 120
    with pytest.raises(CardError):
        pile_points([Card.parse("8C")], 4)
    with pytest.raises(CardError):
        pile_points([Card.parse("AC"), Card.parse("AC")], 4)
    with pytest.raises(CardError):
        read_card("ZZ", 6)


@pytest.mark.parametrize("players", [3, 7, 0, -1, True, "5", 5.0])
def test_a_table_seats_4_to_6(players: object) -> None:
    with pytest.raises(PlayersError) as raised:
        new_game(players)  # type: ignore[arg-type]
    assert raised.value.value == players
    assert raised.value.code == "players"


@pytest.mark.parametrize("target", [49, 2001, 0, True, "200"])
def test_the_target_is_50_to_2000(target: object) -> None:
    with pytest.raises(TargetError):
        new_game(4, target=target)  # type: ignore[arg-type]


@pytest.mark.parametrize("bid", [60, 121, 0, -61, True, 75.0, None])
def test_a_bid_is_61_to_120(bid: object) -> None:
    with pytest.raises(BidError):
        BidHand.played(bidder=0, bid=bid, made=True)  # type: ignore[arg-type]


@pytest.mark.parametrize("points", [1, 119, -1, 121, True, "80"])
def test_impossible_points_are_refused(points: object) -> None:
    with pytest.raises(CardPointsError) as raised:
        BidHand.played(bidder=0, bid=70, points=points)  # type: ignore[arg-type]
    assert raised.value.code == "impossible_points"


def test_a_seat_not_at_the_table_is_refused() -> None:
    game = new_game(5)
    for hand, role in (
        (BidHand.played(bidder=5, bid=70, partner=1, made=True), "bidder"),
        (BidHand.played(bidder=1, bid=70, partner=5, made=True), "partner"),
    ):
        with pytest.raises(UnknownSeatError) as raised:
            verify_hand(game, hand)
        assert raised.value.role == role
    with pytest.raises(UnknownSeatError):
        BidHand.played(bidder=-1, bid=70, made=True)
    with pytest.raises(UnknownSeatError):
        new_game(4, first_dealer=4)


def test_the_outcome_is_given_and_agrees() -> None:
    with pytest.raises(OutcomeError):
        BidHand(HandKind.BID, bidder=0, bid=70, partner=1)
    with pytest.raises(OutcomeError):
        BidHand.played(bidder=0, bid=70, points=69, made=True)
    with pytest.raises(OutcomeError):
        BidHand(HandKind.PASSED, bid=70)
    assert BidHand.played(bidder=0, bid=70, points=70, made=True).made is True


def test_a_game_holds_a_bounded_number_of_hands() -> None:
    game = replay(Table(4), [BidHand.passed()] * MAX_HANDS)
    with pytest.raises(TooManyHandsError):
        play_hand(game, BidHand.passed())


def test_every_error_is_a_value_error_with_a_code() -> None:
    for error in (PlayersError, TargetError, UnknownSeatError, BidError, CardPointsError):
        assert issubclass(error, BiddingError) and issubclass(error, ValueError)
        assert error.code != BiddingError.code


def test_undo_of_nothing_is_refused() -> None:
    with pytest.raises(LookupError):
        undo_last(new_game(4))


# Properties over random games ----------------------------------------------------------------

PLAYERS = st.integers(4, 6)


@st.composite
def hands(draw: st.DrawFn, players: int) -> BidHand:
    if draw(st.integers(0, 9)) == 0:
        return BidHand.passed()
    bidder = draw(st.integers(0, players - 1))
    partner = draw(st.integers(0, players - 1))
    bid = draw(st.integers(MIN_BID, MAX_BID))
    if draw(st.booleans()):
        points = draw(st.integers(0, 120).filter(lambda p: p not in (1, 119)))
        return BidHand.played(bidder=bidder, bid=bid, partner=partner, points=points)
    return BidHand.played(bidder=bidder, bid=bid, partner=partner, made=draw(st.booleans()))


@st.composite
def games(draw: st.DrawFn) -> tuple[Table, list[BidHand]]:
    players = draw(PLAYERS)
    table = Table(
        players,
        target=draw(st.sampled_from([50, 200, 500, 2000])),
        first_dealer=draw(st.integers(0, players - 1)),
    )
    played: list[BidHand] = []
    state = replay(table, [])
    for _ in range(draw(st.integers(0, 25))):
        if state.finished:
            break
        hand = draw(hands(players))
        played.append(hand)
        state = play_hand(state, hand)
    return table, played


@PROPERTY
@example(players=4, bidder=0, partner=2, bid=119)
@example(players=6, bidder=5, partner=5, bid=120)
@given(
    players=PLAYERS,
    bidder=st.integers(0, 5),
    partner=st.integers(0, 5),
    bid=st.integers(MIN_BID, MAX_BID),
)
def test_a_made_bid_and_a_failed_one_of_the_same_size(
    players: int, bidder: int, partner: int, bid: int
) -> None:
    bidder, partner = bidder % players, partner % players
    made = changes(players, BidHand.played(bidder=bidder, bid=bid, partner=partner, made=True))
    failed = changes(players, BidHand.played(bidder=bidder, bid=bid, partner=partner, made=False))
    side = {bidder, partner}
    for seat in range(players):
        if seat in side:
            assert (made[seat], failed[seat]) == (bid, -bid)
        else:
            assert (made[seat], failed[seat]) == (0, bid)
    # The points taken decide it: the bid or more is made, one point less is failed (no side
    # takes 119, so a bid of 119 is made with 120).
    taken = 120 if bid == 119 else bid
    at = changes(players, BidHand.played(bidder=bidder, bid=bid, partner=partner, points=taken))
    assert at == made
    if bid - 1 != 119:
        under = BidHand.played(bidder=bidder, bid=bid, partner=partner, points=bid - 1)
        assert changes(players, under) == failed


@PROPERTY
@given(game=games())
def test_the_sum_of_the_changes(game: tuple[Table, list[BidHand]]) -> None:
    table, played = game
    state = replay(table, played)
    n = table.players
    for result in state.hands:
        hand = result.hand
        total = sum(result.changes)
        if hand.kind is HandKind.PASSED:
            assert total == 0
            continue
        assert hand.bid is not None
        side = 1 if hand.alone else 2
        assert total == (side * hand.bid if hand.made else (n - 2 * side) * hand.bid)
    assert sum(state.scores) == sum(sum(result.changes) for result in state.hands)


@PROPERTY
@given(game=games())
def test_replaying_equals_folding(game: tuple[Table, list[BidHand]]) -> None:
    table, played = game
    folded = reduce(play_hand, played, replay(table, []))
    assert replay(table, played) == folded
    # Each hand's dealer is the one after the last, from the first dealer on.
    for result in folded.hands:
        assert result.dealer == (table.first_dealer + result.number - 1) % table.players
        assert result.opener == (result.dealer + 1) % table.players
    if folded.finished:
        assert folded.winner is not None
        assert folded.scores[folded.winner] >= table.target
        assert folded.leaders == (folded.winner,)


@PROPERTY
@given(game=games())
def test_undo_restores(game: tuple[Table, list[BidHand]]) -> None:
    table, played = game
    state = replay(table, played)
    for count in range(len(played), 0, -1):
        before = replay(table, played[: count - 1])
        assert undo_last(state) == before
        state = before
    assert state == replay(table, [])


@PROPERTY
@given(game=games(), data=st.data())
def test_only_the_last_hand_can_end_the_game(
    game: tuple[Table, list[BidHand]], data: st.DataObject
) -> None:
    """No earlier hand left the game won: replaying any prefix stays in play."""
    table, played = game
    for count in range(len(played)):
        assert not replay(table, played[:count]).finished
    extra = data.draw(hands(table.players))
    state = replay(table, played)
    assert can_add_hand(state, extra) is (not state.finished)
