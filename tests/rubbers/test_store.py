"""The shared write path: edits that would contradict a stored card record are refused."""

from __future__ import annotations

import pytest
from flask import Flask

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers import store
from tests.support.records import FULL_RECORD


def test_an_edit_may_not_move_the_deal_under_a_hand_recorded_by_cards(app: Flask) -> None:
    with app.app_context():
        rubber, _key = store.create_rubber(
            teams=("Nós", "Eles"), players=None, first_dealer=3, rules=engine.PRESETS["brasil"]
        )
        store.write(rubber.id, store.append_hand(engine.Hand.played(70)))
        written = store.write(
            rubber.id, store.append_hand(engine.Hand.played(48), "H", FULL_RECORD)
        )
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
            store.write(rubber.id, store.append_hand(engine.Hand.played(70)), key=key)
        db.session.expire_all()
        assert rubber.hands == []
