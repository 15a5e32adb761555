"""Rule sets: the presets table of RULES.md, the API's rules object, and bad settings."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import (
    PRESETS,
    Bandeira,
    Direction,
    Manilha,
    Revoke,
    RulesError,
    RuleSet,
    Tie,
)
from tests.support.presets import PRESET_TABLE


def test_the_presets_are_exactly_the_four_of_the_table() -> None:
    assert list(PRESETS) == ["portugal", "brasil", "acores", "online"]


@pytest.mark.parametrize("name", PRESET_TABLE)
def test_every_field_of_every_preset_matches_the_table(name: str) -> None:
    expected = {"preset": name, **PRESET_TABLE[name]}
    assert PRESETS[name].to_dict() == expected
    assert RuleSet.from_dict({"preset": name}) == PRESETS[name]


def test_preset_fields_as_enums() -> None:
    brasil = PRESETS["brasil"]
    assert brasil.bandeira is Bandeira.POINTS
    assert brasil.direction is Direction.CLOCKWISE
    assert brasil.melar is True
    assert PRESETS["acores"].manilha is Manilha.TEN
    assert PRESETS["online"].tie is Tie.VOID
    assert PRESETS["online"].bandeira is Bandeira.POINTS
    assert all(rules.revoke is Revoke.OPPONENTS_TWO for rules in PRESETS.values())


def test_portugal_is_the_default() -> None:
    assert RuleSet() == PRESETS["portugal"]
    assert RuleSet.from_dict(None) == PRESETS["portugal"]
    assert RuleSet.from_dict({}) == PRESETS["portugal"]


def test_from_dict_fills_from_the_preset_and_overrides() -> None:
    rules = RuleSet.from_dict(
        {"preset": "brasil", "melar": False, "games_to_win": 6, "tie": "double"}
    )
    assert rules.to_dict() == {
        **PRESET_TABLE["brasil"],
        "preset": "brasil",
        "melar": False,
        "games_to_win": 6,
        "tie": "double",
    }


@pytest.mark.parametrize("name", PRESET_TABLE)
def test_to_dict_round_trips(name: str) -> None:
    data = PRESETS[name].to_dict()
    assert RuleSet.from_dict(data) == PRESETS[name]


def test_every_setting_can_be_changed_on_its_own() -> None:
    changes: dict[str, Any] = {
        "games_to_win": 1,
        "tie": "void",
        "bandeira": "points",
        "bandeira_wins_rubber": False,
        "revoke": "lose_rubber",
        "manilha": "10",
        "queen_over_jack": True,
        "direction": "clockwise",
        "melar": True,
    }
    for key, value in changes.items():
        rules = RuleSet.from_dict({key: value})
        assert rules.to_dict() == {**PRESET_TABLE["portugal"], "preset": "portugal", key: value}


def test_manilha_accepts_the_number_too() -> None:
    assert RuleSet.from_dict({"manilha": 10}).manilha is Manilha.TEN
    assert RuleSet.from_dict({"manilha": 7}).manilha is Manilha.SEVEN


@pytest.mark.parametrize("games", [1, 2, 4, 6, 20])
def test_games_to_win_accepts_1_to_20(games: int) -> None:
    assert RuleSet.from_dict({"games_to_win": games}).games_to_win == games
    assert RuleSet(games_to_win=games).games_to_win == games


@pytest.mark.parametrize("games", [0, 21, -1, "4", True, False, 4.0, None])
def test_games_to_win_rejects_the_rest(games: object) -> None:
    with pytest.raises(RulesError) as caught:
        RuleSet.from_dict({"games_to_win": games})
    assert isinstance(caught.value, ValueError)
    assert caught.value.key == "games_to_win"
    assert "games_to_win" in str(caught.value)
    assert repr(games) in str(caught.value)


@pytest.mark.parametrize("games", [0, 21, "4", True])
def test_rule_set_itself_rejects_a_bad_games_to_win(games: object) -> None:
    with pytest.raises(RulesError, match="games_to_win") as caught:
        RuleSet(games_to_win=games)
    assert repr(games) in str(caught.value)


def test_unknown_key_is_named() -> None:
    with pytest.raises(RulesError) as caught:
        RuleSet.from_dict({"trumps": "always"})
    assert caught.value.key == "trumps"
    assert "'trumps'" in str(caught.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("preset", "madeira"),
        ("preset", 1),
        ("tie", "sometimes"),
        ("tie", None),
        ("bandeira", "flag"),
        ("revoke", "forgive"),
        ("manilha", "9"),
        ("manilha", 8),
        ("direction", "left"),
        ("melar", "yes"),
        ("melar", 1),
        ("queen_over_jack", None),
        ("bandeira_wins_rubber", 0),
    ],
)
def test_bad_values_name_the_key_and_the_value(key: str, value: object) -> None:
    with pytest.raises(RulesError) as caught:
        RuleSet.from_dict({key: value})
    assert caught.value.key == key
    assert str(caught.value).startswith(key)
    assert repr(value) in str(caught.value) or repr(str(value)) in str(caught.value)


def test_rule_sets_are_immutable_values() -> None:
    rules = RuleSet()
    with pytest.raises(AttributeError):
        rules.tie = Tie.VOID
    assert hash(RuleSet()) == hash(rules)
