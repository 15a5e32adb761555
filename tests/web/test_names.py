"""Every name the app takes is read in one place (engine.names), at every door.

NFC, no control, zero-width or direction characters (refused with the field named, in the
reader's language), and two names that differ only in those are one (issue 41, item 4)."""

from __future__ import annotations

import re
import unicodedata
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api.schemas import fields
from scorekeeper.engine import names
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from tests.support.api_calls import new_group, new_rubber
from tests.support.apps import snapshot

EN = {"Accept-Language": "en"}
HIDDEN = {
    "zero-width space": "A\u200bna",
    "zero-width non-joiner": "An\u200ca",
    "zero-width joiner": "Ana\u200d",
    "word joiner": "\u2060Ana",
    "byte order mark": "Ana\ufeff",
    "soft hyphen": "A\u00adna",
    "left-to-right mark": "\u200eAna",
    "right-to-left mark": "Ana\u200f",
    "arabic letter mark": "\u061cAna",
    "right-to-left override": "\u202egnp.exe",
    "left-to-right embedding": "\u202aAna",
    "pop directional formatting": "Ana\u202c",
    "right-to-left isolate": "\u2067Ana",
    "pop directional isolate": "Ana\u2069",
    "line separator": "Ana\u2028Rui",
    "tag": "Ana\U000e0041",
}
PAIRS = [["Carla", "Duarte"], ["Eva", "Filipe"], ["Gil", "Hugo"]]


def pairs_with(first: list[Any], name: Any = None) -> list[dict[str, Any]]:
    pair: dict[str, Any] = {"players": first}
    if name is not None:
        pair["name"] = name
    return [pair, *({"players": players} for players in PAIRS)]


def creations(name: str) -> list[tuple[str, dict[str, Any], str]]:
    """Every API body that takes a name, the name put in one place, and that place."""
    return [
        ("/api/v1/rubbers", {"teams": [name, "Eles"]}, "teams"),
        ("/api/v1/rubbers", {"players": ["Rui", name, "Eva", "Zé"]}, "players"),
        ("/api/v1/groups", {"name": name}, "name"),
        ("/api/v1/bidding", {"players": ["Rui", "Eva", name, "Zé"]}, "players"),
        (
            "/api/v1/tournaments",
            {"name": name, "format": "knockout", "pairs": pairs_with(["Ana", "Bia"])},
            "name",
        ),
        (
            "/api/v1/tournaments",
            {"name": "T", "format": "knockout", "pairs": pairs_with(["Ana", "Bia"], name)},
            "pairs[0].name",
        ),
        (
            "/api/v1/tournaments",
            {"name": "T", "format": "knockout", "pairs": pairs_with(["Bia", name])},
            "pairs[0].players",
        ),
    ]


def test_the_engine_reads_every_name_one_way() -> None:
    for name in HIDDEN.values():
        with pytest.raises(names.HiddenCharactersError):
            names.read_name(name)
    assert names.read_name(" Jose\u0301 ") == "José"
    assert unicodedata.is_normalized("NFC", names.read_name("A\u0308rvore"))


def test_the_documented_pattern_refuses_what_the_engine_refuses() -> None:
    """The OpenAPI document's pattern is made from the engine's ranges: they are its categories."""
    listed = {point for low, high in names.HIDDEN_RANGES for point in range(low, high + 1)}
    hidden = {
        point
        for point in range(0x110000)
        if unicodedata.category(chr(point)) in names.HIDDEN_CATEGORIES
    }
    assert listed == hidden
    pattern = re.compile(fields.NAME_NOT_BLANK)
    for name in HIDDEN.values():
        assert pattern.match(name) is None, name
    assert pattern.match("José Ægir 🂡") is not None


@pytest.mark.parametrize("kind", sorted(HIDDEN))
def test_the_api_refuses_a_hidden_character_naming_the_field(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    before = snapshot(app)
    for url, body, field in creations(HIDDEN[kind]):
        answer = client.post(url, json=body, headers=EN)
        assert answer.status_code == 422, (url, field, answer.get_json())
        refusal = answer.get_json()
        assert (refusal["code"], refusal["field"]) == ("control_characters", field), refusal
        assert "must not contain control or invisible characters (U+" in refusal["error"]
    assert snapshot(app) == before


def test_one_player_in_two_pairs_is_found_after_reading(client: FlaskClient) -> None:
    # Composed and decomposed, one name: refused as one player in two pairs.
    body = {
        "name": "T",
        "format": "knockout",
        "pairs": [
            {"players": ["José", "Bia"]},
            {"players": ["Jose\u0301", "Rui"]},
            {"players": PAIRS[0]},
        ],
    }
    answer = client.post("/api/v1/tournaments", json=body, headers=EN)
    assert answer.status_code == 422
    assert answer.get_json()["code"] == "repeated_player"
    assert answer.get_json()["field"] == "pairs[1].players"
    # The invisible one is refused for what it holds, before it can pass as another player.
    body["pairs"][1] = {"players": ["J\u200bosé", "Rui"]}
    answer = client.post("/api/v1/tournaments", json=body, headers=EN)
    assert (answer.status_code, answer.get_json()["code"]) == (422, "control_characters")


def test_a_name_is_stored_as_nfc(client: FlaskClient) -> None:
    rubber = new_rubber(
        client,
        None,
        teams=["No\u0301s", " Eles "],
        players=["Jose\u0301"] * 1 + ["Rui", "Eva", "Zé"],
    )
    assert rubber["teams"] == ["Nós", "Eles"]
    assert rubber["players"][0] == "José"
    created = client.post(
        "/api/v1/tournaments",
        json={
            "name": "Torneio",
            "format": "knockout",
            "pairs": pairs_with(["Ana", "Ba\u0301rbara"]),
        },
    )
    assert created.get_json()["pairs"][0]["players"] == ["Ana", "Bárbara"]


BAD_PLAYERS = {
    "NUL": ["Ana", "Bia\x00"],
    "10,000 characters": ["Ana", "x" * 10_000],
    "empty": ["Ana", ""],
    "blank": ["Ana", "   "],
    "a newline": ["Ana", "Bia\nRui"],
    "not text": ["Ana", 3],
    "three players": ["Ana", "Bia", "Rui"],
    "one player": ["Ana"],
    "no players": [],
}


@pytest.mark.parametrize("kind", sorted(BAD_PLAYERS))
def test_a_bad_player_of_a_pair_is_refused_precisely(
    app: Flask, client: FlaskClient, kind: str
) -> None:
    """Not the generic "could not understand the request": a 422 naming the pair's players."""
    players = BAD_PLAYERS[kind]
    body = {
        "name": "T",
        "format": "knockout",
        "pairs": [*pairs_with(["Ana", "Bia"]), {"players": players}],
    }
    before = snapshot(app)
    answer = client.post("/api/v1/tournaments", json=body, headers=EN)
    refusal = answer.get_json()
    expected = 400 if kind == "not text" else 422
    assert answer.status_code == expected, refusal
    assert refusal["field"] == "pairs[4].players", refusal
    assert refusal["code"] != "type" or kind == "not text", refusal
    assert "could not understand" not in refusal["error"].lower()
    assert not refusal["error"].startswith(" ")
    assert snapshot(app) == before
    if kind not in ("three players", "one player", "no players", "not text"):
        # As the same value as a pair's name is refused.
        as_name = {**body, "pairs": [*pairs_with(["Ana", "Bia"], players[1])]}
        named = client.post("/api/v1/tournaments", json=as_name, headers=EN).get_json()
        assert named["code"] == refusal["code"], (named, refusal)


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def page_text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


FORMS = [
    ("/rubbers/new", {"preset": "portugal", "first_dealer": "0"}, "team0"),
    ("/rubbers/new", {"preset": "portugal", "first_dealer": "0"}, "player1"),
    ("/groups/new", {}, "name"),
    (
        "/bidding/new",
        {"player1": "Rui", "player2": "Eva", "player3": "Zé", "target": "1000"},
        "player0",
    ),
    ("/t/new", {"format": "knockout", "pairs": "Ana e Bia\nCarla e Duarte\nEva e Filipe"}, "name"),
    ("/t/new", {"name": "T", "format": "knockout"}, "pairs"),
]


@pytest.mark.parametrize(("url", "data", "field"), FORMS)
@pytest.mark.parametrize("kind", ["zero-width space", "right-to-left override", "word joiner"])
def test_the_forms_refuse_a_hidden_character(
    app: Flask, en: FlaskClient, url: str, data: dict[str, str], field: str, kind: str
) -> None:
    name = HIDDEN[kind]
    value = f"Ana e {name}\nCarla e Duarte\nEva e Filipe" if field == "pairs" else name
    before = snapshot(app)
    answer = en.post(url, data={**data, field: value})
    assert answer.status_code == 422
    words = page_text(answer.get_data(as_text=True))
    assert "must not contain control or invisible characters (U+" in words, words[-2000:]
    assert snapshot(app) == before


def test_the_forms_say_it_in_portuguese(client: FlaskClient) -> None:
    answer = client.post("/groups/new", data={"name": "Tasca\u200b do Zé"})
    assert answer.status_code == 422
    assert "caracteres de controlo ou invisíveis (U+200B)" in page_text(
        answer.get_data(as_text=True)
    )
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    answer = client.post("/groups/new", data={"name": "Tasca\u200b do Zé"})
    assert "caracteres de controle ou invisíveis (U+200B)" in page_text(
        answer.get_data(as_text=True)
    )


def test_the_forms_store_a_name_as_nfc(app: Flask, en: FlaskClient) -> None:
    answer = en.post(
        "/rubbers/new", data={"preset": "portugal", "first_dealer": "0", "team0": "No\u0301s "}
    )
    assert answer.status_code == 302
    with app.app_context():
        (rubber,) = db.session.execute(db.select(Rubber)).scalars()
        assert rubber.team0 == "Nós"


def test_the_pasted_pairs_find_one_player_after_reading(en: FlaskClient) -> None:
    pairs = "José e Bia\nJose\u0301 e Rui\nEva e Filipe"
    answer = en.post("/t/new", data={"name": "T", "format": "knockout", "pairs": pairs})
    assert answer.status_code == 422
    assert "is in two pairs" in page_text(answer.get_data(as_text=True))


def test_a_pasted_name_too_long_is_refused(en: FlaskClient) -> None:
    pairs = f"Ana e {'x' * 41}\nCarla e Duarte\nEva e Filipe"
    answer = en.post("/t/new", data={"name": "T", "format": "knockout", "pairs": pairs})
    assert answer.status_code == 422
    assert "A name has at most 40 characters" in page_text(answer.get_data(as_text=True))


def test_the_import_reads_names_an_older_version_stored(app: Flask, client: FlaskClient) -> None:
    """Stored before this rule, they come back in without the characters no one sees."""
    group = new_group(client)
    made = new_rubber(client, group, players=["Ana", "Rui", "Eva", "Zé"])
    with app.app_context():
        db.session.execute(
            db.update(Rubber)
            .where(Rubber.id == made["id"])
            .values(team0="\u202egnp.exe", players=["A\u200bna", "Rui\u2028Eva", "Zé", "Bia"])
        )
        db.session.commit()
    exported = client.get(f"/api/v1/groups/{group['id']}/export.json").get_json()
    other = new_group(client, "Cópia")
    answer = client.post(
        f"/api/v1/groups/{other['id']}/import",
        json=exported,
        headers={"X-Group-Key": other["edit_key"]},
    )
    assert answer.status_code == 200, answer.get_json()
    url = answer.get_json()["rubbers"][0]["url"].replace("/r/", "/api/v1/rubbers/")
    state = client.get(url).get_json()
    assert state["teams"][0] == "gnp.exe"
    assert state["players"] == ["Ana", "Rui Eva", "Zé", "Bia"]


def test_a_bidding_table_of_blank_names_is_refused_as_such(client: FlaskClient) -> None:
    """Not as one name at the table twice, its sentence starting with a blank."""
    answer = client.post("/api/v1/bidding", json={"players": ["", "", "", ""]}, headers=EN)
    refusal = answer.get_json()
    assert (answer.status_code, refusal["code"], refusal["field"]) == (
        422,
        "unnamed_players",
        "players",
    )
    assert refusal["error"] == (
        "4 players have no name: at most one player may be left without a name."
    )
    one_blank = client.post("/api/v1/bidding", json={"players": ["", "Rui", "Eva", "Zé"]})
    assert one_blank.status_code == 201
