"""The JSON API of bidding Sueca (API.md, "Bidding Sueca"), through the test client.

The worked example, the state's fields, writes with keys and versions, and every refusal with its
code, in the reader's language, storing nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api.openapi import document
from tests.support.apps import snapshot

EN = {"Accept-Language": "en"}
FIVE = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]


def create(client: FlaskClient, body: Any = None, status: int = 201) -> dict[str, Any]:
    response = client.post("/api/v1/bidding", json={"players": FIVE} if body is None else body)
    assert response.status_code == status, response.get_json()
    return response.get_json()


def key_of(game: dict[str, Any]) -> dict[str, str]:
    return {"X-Edit-Key": game["edit_key"], **EN}


def add(client: FlaskClient, game: dict[str, Any], body: Any, status: int = 201) -> Any:
    response = client.post(f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game))
    assert response.status_code == status, response.get_json()
    return response.get_json()


def assert_error(response: Any, status: int, field: str | None, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.get_json()
    body = response.get_json()
    assert set(body) >= {"error", "field", "code"}
    assert body["field"] == field and body["code"] == code, body
    assert body["error"].strip().endswith("."), body
    return body


def test_the_worked_example(client: FlaskClient) -> None:
    game = create(client, {"players": FIVE, "target": 200, "first_dealer": 0})
    assert (game["deck"], game["cards_each"], game["scores"], game["dealer"]) == (40, 8, [0] * 5, 0)
    assert game["edit_url"].endswith(f"/b/{game['id']}/edit/{game['edit_key']}")
    assert game["url"].endswith(f"/b/{game['id']}")
    state = add(client, game, {"bidder": 2, "bid": 75, "partner": 4, "points": 80})
    assert state["hands"][-1]["scores"] == [0, 0, 75, 0, 75]
    state = add(client, game, {"bidder": 0, "bid": 90, "partner": 0, "points": 85, "trump": "H"})
    hand = state["hands"][-1]
    assert hand == hand | {
        "number": 2,
        "kind": "bid",
        "dealer": 1,
        "bidder": 0,
        "bid": 90,
        "partner": 0,
        "alone": True,
        "points": 85,
        "made": False,
        "scores": [-90, 90, 90, 90, 90],
        "trump": "H",
    }
    assert state["scores"] == [-90, 90, 165, 90, 165]
    assert (state["dealer"], state["finished"], state["winner"], state["version"]) == (
        2,
        False,
        None,
        3,
    )
    got = client.get(f"/api/v1/bidding/{game['id']}").get_json()
    assert got == state


def test_six_players_play_with_48_cards_and_a_passed_hand_passes_the_deal(
    client: FlaskClient,
) -> None:
    game = create(client, {"players": [*FIVE, "Fábio"], "first_dealer": 5, "target": 50})
    assert (game["deck"], game["cards_each"], game["opener"]) == (48, 8, 0)
    state = add(client, game, {"passed": True})
    assert state["hands"][0] | {"kind": "passed", "made": None, "bidder": None} == state["hands"][0]
    assert state["hands"][0]["scores"] == [0] * 6 and state["dealer"] == 0
    state = add(client, game, {"bidder": 3, "bid": 61, "partner": 1, "made": True, "called": "9h"})
    assert state["hands"][1]["called"] == "9H" and not state["finished"]
    state = add(client, game, {"bidder": 3, "bid": 61, "partner": 3, "made": True})
    assert state["finished"] and state["winner"] == 3
    assert_error(
        client.post(
            f"/api/v1/bidding/{game['id']}/hands", json={"passed": True}, headers=key_of(game)
        ),
        409,
        None,
        "game_finished",
    )
    undone = client.delete(f"/api/v1/bidding/{game['id']}/hands/last", headers=key_of(game))
    assert undone.status_code == 200 and not undone.get_json()["finished"]


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"bidder": 0, "bid": 60, "partner": 1, "points": 80}, "bid", "bid"),
        ({"bidder": 0, "bid": 121, "partner": 1, "points": 80}, "bid", "bid"),
        ({"bidder": 5, "bid": 70, "partner": 1, "points": 80}, "bidder", "seat"),
        ({"bidder": 0, "bid": 70, "partner": 9, "points": 80}, "partner", "seat"),
        ({"bidder": 0, "bid": 70, "partner": 1, "points": 1}, "points", "impossible_points"),
        ({"bidder": 0, "bid": 70, "partner": 1, "points": 119}, "points", "impossible_points"),
        ({"bidder": 0, "bid": 70, "partner": 1, "points": 121}, "points", "impossible_points"),
        ({"bidder": 0, "bid": 70, "partner": 1, "points": -1}, "points", "impossible_points"),
        ({"bidder": 0, "bid": 70, "partner": 1}, "points", "outcome"),
        ({"bidder": 0, "bid": 70, "partner": 1, "points": 69, "made": True}, "made", "outcome"),
        ({"bidder": 0, "bid": 70, "partner": 1, "made": True, "called": "8H"}, "called", "card"),
        ({"bidder": 0, "bid": 70, "partner": 1, "made": True, "trump": "X"}, "trump", "trump"),
        ({"bidder": 0, "bid": 70, "partner": 1, "made": True, "version": 0}, "version", "version"),
    ],
)
def test_a_value_the_game_refuses_is_422_and_stores_nothing(
    app: Flask, client: FlaskClient, body: dict[str, Any], field: str, code: str
) -> None:
    game = create(client)
    before = snapshot(app)
    response = client.post(f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game))
    assert_error(response, 422, field, code)
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("called", "said"),
    [
        ("", "Escreva a carta pedida com o valor e o naipe, por exemplo AH."),
        ("  ", "Escreva a carta pedida com o valor e o naipe, por exemplo AH."),
        ("8H", "8H não é uma carta deste baralho."),
        ("ZZ", "ZZ não é uma carta deste baralho."),
    ],
)
def test_a_called_card_refused_names_what_was_wrong(
    app: Flask, client: FlaskClient, called: str, said: str
) -> None:
    game = create(client)
    before = snapshot(app)
    body = {"bidder": 0, "bid": 70, "partner": 1, "made": True, "called": called}
    response = client.post(
        f"/api/v1/bidding/{game['id']}/hands",
        json=body,
        headers={**key_of(game), "Accept-Language": "pt-PT"},
    )
    assert assert_error(response, 422, "called", "card")["error"] == said
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bidder": True, "bid": 70, "partner": 1, "points": 80}, "bidder"),
        ({"bidder": 0, "bid": "70", "partner": 1, "points": 80}, "bid"),
        ({"bidder": 0, "bid": 70.5, "partner": 1, "points": 80}, "bid"),
        ({"bidder": 0, "bid": 70, "partner": 1, "made": "yes"}, "made"),
        ({"bidder": 0, "bid": 70, "partner": 1, "made": True, "alltricks": True}, "alltricks"),
        ({"bid": 70, "partner": 1, "made": True}, "bidder"),
        ({"passed": False}, "passed"),
        ({"passed": True, "bidder": 1}, "bidder"),
        ({"passed": True, "key": ""}, "key"),
    ],
)
def test_a_body_of_the_wrong_shape_is_400(
    app: Flask, client: FlaskClient, body: dict[str, Any], field: str
) -> None:
    game = create(client)
    before = snapshot(app)
    response = client.post(f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game))
    assert_error(response, 400, field, "type")
    assert snapshot(app) == before


def test_not_json_and_not_an_object(client: FlaskClient) -> None:
    game = create(client)
    url = f"/api/v1/bidding/{game['id']}/hands"
    for data, code in (("{", "invalid_json"), ("[1]", "not_an_object")):
        response = client.post(
            url, data=data, content_type="application/json", headers=key_of(game)
        )
        assert_error(response, 400, None, code)


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"players": FIVE[:3]}, "players", "players"),
        ({"players": [*FIVE, "Fábio", "Gil"]}, "players", "players"),
        ({"players": FIVE, "target": 49}, "target", "target"),
        ({"players": FIVE, "target": 2001}, "target", "target"),
        ({"players": FIVE, "first_dealer": 5}, "first_dealer", "seat"),
        ({"players": [*FIVE[:4], "x" * 41]}, "players", "name_length"),
        ({"players": [*FIVE[:4], "a\x00b"]}, "players", "control_characters"),
        ({"players": ["Ana", "Bruno", "ana", "Diego"]}, "players", "repeated_player"),
        ({"players": ["Zé", "Bruno", " ZÉ ", "Diego"]}, "players", "repeated_player"),
    ],
)
def test_a_table_the_game_refuses_is_422(
    app: Flask, client: FlaskClient, body: dict[str, Any], field: str, code: str
) -> None:
    before = snapshot(app)
    assert_error(client.post("/api/v1/bidding", json=body, headers=EN), 422, field, code)
    assert snapshot(app) == before


def test_the_players_are_required(client: FlaskClient) -> None:
    assert_error(client.post("/api/v1/bidding", json={}, headers=EN), 400, "players", "type")


def test_errors_are_in_the_reader_s_language(client: FlaskClient) -> None:
    game = create(client)
    url = f"/api/v1/bidding/{game['id']}/hands"
    body = {"bidder": 0, "bid": 60, "partner": 1, "made": True}
    said = {}
    for language in ("pt-PT", "pt-BR", "en"):
        headers = {"X-Edit-Key": game["edit_key"], "Accept-Language": language}
        said[language] = client.post(url, json=body, headers=headers).get_json()["error"]
    assert said["en"] == "A bid is a whole number of card points from 61 to 120."
    assert "licitação" in said["pt-PT"] and "lance" in said["pt-BR"]


def test_writes_need_the_edit_key(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    url = f"/api/v1/bidding/{game['id']}/hands"
    before = snapshot(app)
    assert_error(client.post(url, json={"passed": True}), 403, None, "edit_key_missing")
    wrong = {"X-Edit-Key": "nope", **EN}
    assert_error(
        client.post(url, json={"passed": True}, headers=wrong), 403, None, "edit_key_wrong"
    )
    delete = client.delete(f"{url}/last", headers=wrong)
    assert_error(delete, 403, None, "edit_key_wrong")
    assert snapshot(app) == before
    assert_error(client.get("/api/v1/bidding/nope"), 404, None, "no_game")
    assert_error(client.post("/api/v1/bidding/nope/hands", json={}), 404, None, "no_game")


def test_idempotency_keys_and_versions(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    body = {"bidder": 1, "bid": 80, "partner": 2, "made": True, "key": "k-1"}
    first = client.post(f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game))
    again = client.post(f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers["Idempotent-Replayed"] == "true"
    assert len(again.get_json()["hands"]) == 1
    before = snapshot(app)
    other = {**body, "bid": 90}
    response = client.post(f"/api/v1/bidding/{game['id']}/hands", json=other, headers=key_of(game))
    assert_error(response, 409, "key", "key_reused")
    stale = {"passed": True, "version": 1}
    response = client.post(f"/api/v1/bidding/{game['id']}/hands", json=stale, headers=key_of(game))
    assert_error(response, 409, "version", "stale")
    assert snapshot(app) == before
    add(client, game, {"passed": True, "version": 2})


def test_a_version_no_game_can_reach_is_refused_as_such(app: Flask, client: FlaskClient) -> None:
    """A version past what the column holds is a wrong version (422), not another phone (409)."""
    game = create(client)
    before = snapshot(app)
    for version in (2**31, 10**20):
        body = {"passed": True, "version": version}
        response = client.post(
            f"/api/v1/bidding/{game['id']}/hands", json=body, headers=key_of(game)
        )
        answer = assert_error(response, 422, "version", "version")
        assert answer["error"] == "The version is a whole number from 1 to 2147483647."
    assert snapshot(app) == before


def test_replace_and_undo(app: Flask, client: FlaskClient) -> None:
    game = create(client, {"players": FIVE[:4], "target": 100})
    add(client, game, {"bidder": 0, "bid": 70, "partner": 2, "made": True})
    add(client, game, {"bidder": 1, "bid": 61, "partner": 3, "made": True})
    url = f"/api/v1/bidding/{game['id']}/hands"
    replaced = client.put(
        f"{url}/1", json={"bidder": 0, "bid": 80, "partner": 0, "points": 79}, headers=key_of(game)
    )
    assert replaced.status_code == 200
    assert replaced.get_json()["scores"] == [-80, 141, 80, 141]
    before = snapshot(app)
    # Hand 1 made worth 120 would end the game before hand 2.
    early = client.put(
        f"{url}/1", json={"bidder": 0, "bid": 120, "partner": 0, "made": True}, headers=key_of(game)
    )
    assert_error(early, 409, None, "ends_early")
    assert_error(
        client.put(f"{url}/3", json={"passed": True}, headers=key_of(game)), 404, None, "no_hand"
    )
    assert snapshot(app) == before
    for count in (1, 0):
        undone = client.delete(f"{url}/last", headers=key_of(game))
        assert undone.status_code == 200 and len(undone.get_json()["hands"]) == count
    assert_error(client.delete(f"{url}/last", headers=key_of(game)), 409, None, "no_hands")


def test_a_follower_asks_with_the_etag(client: FlaskClient) -> None:
    game = create(client)
    url = f"/api/v1/bidding/{game['id']}"
    first = client.get(url)
    etag = first.headers["ETag"]
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    add(client, game, {"passed": True})
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag


def test_the_operations_are_in_the_openapi_document(client: FlaskClient) -> None:
    served = client.get("/api/v1/openapi.json").get_json()
    assert served == document()
    paths = served["paths"]
    for path, method in (
        ("/api/v1/bidding", "post"),
        ("/api/v1/bidding/{game_id}", "get"),
        ("/api/v1/bidding/{game_id}/hands", "post"),
        ("/api/v1/bidding/{game_id}/hands/{number}", "put"),
        ("/api/v1/bidding/{game_id}/hands/last", "delete"),
    ):
        assert method in paths[path], path
    schemas = served["components"]["schemas"]
    # A hand is one of its forms, each written out, as a rubber's hand is (api/openapi.py).
    hand = paths["/api/v1/bidding/{game_id}/hands"]["post"]["requestBody"]["content"]
    assert hand["application/json"]["schema"] == {"$ref": "#/components/schemas/BiddingHandInput"}
    bid, passed = schemas["BiddingHandInput"]["oneOf"]
    assert bid["additionalProperties"] is False and passed["additionalProperties"] is False
    assert bid["properties"]["bid"] | {"minimum": 61, "maximum": 120} == bid["properties"]["bid"]
    assert set(bid["required"]) == {"bidder", "bid", "partner"}
    assert passed["required"] == ["passed"]
    for operation, answer in (("post", "BiddingCreated"), ("get", "BiddingState")):
        path = "/api/v1/bidding" if operation == "post" else "/api/v1/bidding/{game_id}"
        success = "201" if operation == "post" else "200"
        content = paths[path][operation]["responses"][success]["content"]["application/json"]
        assert content["schema"] == {"$ref": f"#/components/schemas/{answer}"}


def test_a_name_twice_is_refused_with_the_name(client: FlaskClient) -> None:
    """The chips of two "Ana"s could not be told apart: the table is refused, saying who."""
    body = {"players": ["Ana", "Bruno", "ana", "Diego"]}
    refused = client.post("/api/v1/bidding", json=body, headers={"Accept-Language": "pt-PT"})
    assert refused.status_code == 422
    assert refused.get_json()["error"] == (
        "ana está à mesa duas vezes: cada jogador precisa de um nome só seu."
    )


@pytest.mark.parametrize("group", ["../x", "no-such-group", "a" * 80])
def test_a_group_that_is_not_one_is_404_as_for_a_rubber(
    app: Flask, client: FlaskClient, group: str
) -> None:
    """An id of any other shape names no group: the rubbers' answer, not "control characters"."""
    before = snapshot(app)
    body = {"players": FIVE, "group": group}
    found = assert_error(
        client.post("/api/v1/bidding", json=body, headers=EN), 404, "group", "no_group"
    )
    assert found["error"] == "There is no group with this id."
    rubber = client.post("/api/v1/rubbers", json={"group": group}, headers=EN)
    assert (rubber.status_code, rubber.get_json()["code"]) == (404, "no_group")
    assert snapshot(app) == before
