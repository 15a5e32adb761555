"""The writes of a rubber on their own.

An edit that would contradict a stored card record is refused, and a write key that does not fit its
column is refused before the database, by the path that adds a hand and by the general write
alike."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers import recording, store
from tests.support.records import FULL_RECORD


def adding(
    hand: engine.Hand, trump: str | None = None, tricks: list[list[str]] | None = None
) -> recording.HandOf:
    """The hand to add, whatever the totals it follows."""
    return lambda _tally: recording.NewHand(hand, trump, tricks)


def test_an_edit_may_not_move_the_deal_under_a_hand_recorded_by_cards(app: Flask) -> None:
    with app.app_context():
        rubber, _key = store.create_rubber(
            teams=("Nós", "Eles"), players=None, first_dealer=3, rules=engine.PRESETS["brasil"]
        )
        recording.add_hand(rubber.id, adding(engine.Hand.played(70)))
        written = recording.add_hand(rubber.id, adding(engine.Hand.played(48), "H", FULL_RECORD))
        assert written.state.hands[1].leader == 1
        with pytest.raises(store.Conflict) as refused:
            store.write(rubber.id, store.replace_hand(1, engine.Hand.spoiled()))
        assert refused.value.code == "cards_shift"
        db.session.expire_all()
        assert [h.kind for h in rubber.hands] == ["played", "played"]
        # An edit that leaves the deal where it was is fine.
        store.write(rubber.id, store.replace_hand(1, engine.Hand.played(95)))
        assert rubber.state().games == (2, 1)
        assert rubber.hands[1].tricks == FULL_RECORD


@pytest.mark.parametrize("key", ["", "k" * 101])
def test_a_write_key_outside_the_column_is_refused_before_the_database(
    app: Flask, key: str
) -> None:
    with app.app_context():
        rubber, _key = store.create_rubber(
            teams=("Nós", "Eles"), players=None, first_dealer=0, rules=engine.RuleSet()
        )
        with pytest.raises(ValueError, match="1 to 100 characters"):
            recording.add_hand(rubber.id, adding(engine.Hand.played(70)), key=key)
        db.session.expire_all()
        assert rubber.hands == []
        recording.add_hand(rubber.id, adding(engine.Hand.played(70)))
        with pytest.raises(ValueError, match="1 to 100 characters"):
            store.write(rubber.id, store.undo_last, key=key)
        db.session.expire_all()
        assert len(rubber.hands) == 1
