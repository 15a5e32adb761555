"""The writes of a bidding game: the cached scores are the fold, the edit key is kept as a hash.

Idempotency keys and versions work as for rubbers, and a refused write stores nothing."""

from __future__ import annotations

import threading

import pytest
from flask import Flask

from scorekeeper.bidding import store
from scorekeeper.bidding.models import BiddingGame, BiddingWriteKey
from scorekeeper.engine import bidding as rules
from scorekeeper.extensions import db
from tests.support.apps import snapshot

FIVE = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]


def made(bidder: int, bid: int, partner: int | None = None) -> rules.BidHand:
    return rules.BidHand.played(bidder=bidder, bid=bid, partner=partner, made=True)


def test_a_game_is_stored_with_its_fold(app: Flask) -> None:
    with app.app_context():
        game, key = store.create_game(players=FIVE, target=200, first_dealer=1, device="phone")
        assert store.key_matches(game, key) and not store.key_matches(game, key + "x")
        assert key not in game.edit_key_hash
        assert store.can_edit("phone", game) and not store.can_edit("other", game)
        assert (game.scores, game.dealer, game.version) == ([0] * 5, 1, 1)
        hand = rules.BidHand.played(bidder=2, bid=75, partner=4, points=80)
        written = store.write(game.id, store.append_hand(hand, "H", "AH"))
        assert written.state.scores == (0, 0, 75, 0, 75)
        db.session.expire_all()
        game = db.session.get(BiddingGame, game.id)
        assert game is not None
        assert (game.scores, game.dealer, game.hand_count, game.version) == (
            [0, 0, 75, 0, 75],
            2,
            1,
            2,
        )
        row = game.hands[0]
        assert (row.kind, row.bidder, row.bid, row.partner, row.points, row.made) == (
            "bid",
            2,
            75,
            4,
            80,
            True,
        )
        assert (row.trump, row.called) == ("H", "AH")
        assert game.state() == written.state
        assert store.latest_of("phone") == game and store.latest_of("other") is None


@pytest.mark.parametrize("players", [["Ana", "Bruno", "Carla"], FIVE + ["Fábio", "Gil"]])
def test_a_table_the_engine_cannot_seat_stores_nothing(app: Flask, players: list[str]) -> None:
    before = snapshot(app)
    with app.app_context(), pytest.raises(rules.PlayersError):
        store.create_game(players=players, target=200, first_dealer=0, device="phone")
    assert snapshot(app) == before


def test_replace_undo_and_the_end(app: Flask) -> None:
    with app.app_context():
        game, _key = store.create_game(players=FIVE[:4], target=100, first_dealer=0)
        store.write(game.id, store.append_hand(made(0, 70, 2)))
        store.write(game.id, store.append_hand(made(0, 61, 2)))
        assert not game.finished  # 131 each for seats 0 and 2: shared
        store.write(game.id, store.append_hand(made(2, 61)))
        assert game.finished and game.winner == 2
        before = snapshot(app)
        with pytest.raises(rules.GameFinishedError):
            store.write(game.id, store.append_hand(rules.BidHand.passed()))
        assert snapshot(app) == before
        # Making the first hand end the game before the hands after it is refused.
        with pytest.raises(store.Conflict) as refused:
            store.write(game.id, store.replace_hand(1, made(1, 120)))
        assert refused.value.code == "ends_early"
        assert snapshot(app) == before
        written = store.write(game.id, store.replace_hand(1, rules.BidHand.passed()))
        assert written.state.scores == (61, 0, 122, 0)
        assert written.state.finished and game.winner == 2
        store.write(game.id, store.undo_last)
        assert game.scores == [61, 0, 61, 0] and not game.finished and game.winner is None
        store.write(game.id, store.undo_last)
        store.write(game.id, store.undo_last)
        with pytest.raises(store.Conflict) as refused:
            store.write(game.id, store.undo_last)
        assert refused.value.code == "no_hands"
        with pytest.raises(LookupError):
            store.write(game.id, store.replace_hand(1, rules.BidHand.passed()))


def test_keys_and_versions(app: Flask) -> None:
    with app.app_context():
        game, _key = store.create_game(players=FIVE, target=200, first_dealer=0)
        first = store.write(
            game.id, store.append_hand(made(0, 80)), key="k1", body={"a": 1}, respond=_respond
        )
        again = store.write(
            game.id, store.append_hand(made(0, 80)), key="k1", body={"a": 1}, respond=_respond
        )
        assert again.repeated and again.response == first.response
        assert game.hand_count == 1
        with pytest.raises(store.Conflict) as refused:
            store.write(game.id, store.append_hand(made(0, 80)), key="k1", body={"a": 2})
        assert refused.value.code == "key_reused"
        with pytest.raises(store.Conflict) as refused:
            store.write(game.id, store.append_hand(made(0, 80)), version=1)
        assert refused.value.code == "stale"
        store.write(game.id, store.append_hand(made(0, 80)), version=2)
        assert game.hand_count == 2
        assert db.session.get(BiddingWriteKey, (game.id, "k1")) is not None
        with pytest.raises(ValueError, match="1 to 100"):
            store.write(game.id, store.undo_last, key="k" * 101)
        with pytest.raises(LookupError):
            store.write("nope", store.undo_last)


def _respond(game: BiddingGame, state: rules.BiddingState) -> dict[str, object]:
    return {"scores": list(state.scores), "version": game.version}


def test_two_phones_recording_at_once_lose_no_hand(app: Flask) -> None:
    with app.app_context():
        game, _key = store.create_game(players=FIVE, target=2000, first_dealer=0)
        game_id = game.id
    errors: list[BaseException] = []

    def phone(seat: int) -> None:
        try:
            with app.app_context():
                for _ in range(5):
                    store.write(game_id, store.append_hand(made(seat, 61)))
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=phone, args=(seat,)) for seat in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    with app.app_context():
        game = db.session.get(BiddingGame, game_id)
        assert game is not None
        assert game.hand_count == len(game.hands) == 10
        assert game.scores == [305, 305, 0, 0, 0]
        assert game.state().scores == tuple(game.scores)
