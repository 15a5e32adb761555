"""The JSON API of API.md, through the test client: shapes, rules, writes and refusals."""

from __future__ import annotations

from typing import Any

import jsonschema_rs
import pytest
from flask import Flask, url_for
from flask.testing import FlaskClient

from scorekeeper import create_app, engine
from scorekeeper.extensions import db
from scorekeeper.web import wording
from tests.support.presets import PRESET_TABLE

EN = {"Accept-Language": "en"}
RANKS = ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"]

# Hand-made records, trump hearts, first trick led by seat 1 (the first dealer is seat 0).
# Seat 0 holds the clubs, seat 1 the diamonds, seat 2 the hearts, seat 3 the spades.
BANDEIRA = [["AD", "AH", "AS", "AC"]] + [[f"{r}H", f"{r}S", f"{r}C", f"{r}D"] for r in RANKS[1:]]
"""Seat 2 trumps the first trick and leads hearts to the end: team 0 takes all 10 tricks."""

# Seat 2 holds 2S instead of 2H, seat 3 holds 2H and keeps its AS for the last trick.
PLAYED = [
    ["AD", "AH", "3S", "AC"],
    ["7H", "2H", "7C", "7D"],
    ["KH", "7S", "KC", "KD"],
    ["JH", "KS", "JC", "JD"],
    ["QH", "JS", "QC", "QD"],
    ["6H", "QS", "6C", "6D"],
    ["5H", "6S", "5C", "5D"],
    ["4H", "5S", "4C", "4D"],
    ["3H", "4S", "3C", "3D"],
    ["2S", "AS", "2C", "2D"],
]
"""Team 0 takes 109 in nine tricks; seat 3 wins the last with AS: 109-11."""

# Seat 3 holds 2H but plays 7S to the hearts of trick 2, and plays the 2H in trick 10.
REVOKE = (
    [["AD", "AH", "AS", "AC"]]
    + [[f"{r}H", f"{r}S", f"{r}C", f"{r}D"] for r in RANKS[1:9]]
    + [["2S", "2H", "2C", "2D"]]
)
"""A revoke by seat 3 (team 1) in trick 2, proven in trick 10."""


# Helpers -----------------------------------------------------------------------------------


def create(client: FlaskClient, body: Any = None) -> dict[str, Any]:
    response = client.post("/api/v1/rubbers", json={} if body is None else body, headers=EN)
    assert response.status_code == 201, response.json
    return response.get_json()


def hands_url(rubber: dict[str, Any]) -> str:
    return f"/api/v1/rubbers/{rubber['id']}/hands"


def key_of(rubber: dict[str, Any]) -> dict[str, str]:
    return {"X-Edit-Key": rubber["edit_key"], **EN}


def add(client: FlaskClient, rubber: dict[str, Any], body: Any, status: int = 201) -> Any:
    response = client.post(hands_url(rubber), json=body, headers=key_of(rubber))
    assert response.status_code == status, response.get_json()
    return response.get_json()


def state(client: FlaskClient, rubber: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/rubbers/{rubber['id']}", headers=EN)
    assert response.status_code == 200
    return response.get_json()


def assert_error(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body["error"], str) and body["error"].strip()
    assert "field" in body
    if field is not None:
        assert body["field"] == field
    return body


@pytest.fixture
def rubber(client: FlaskClient) -> dict[str, Any]:
    return create(client)


@pytest.fixture
def english(app: Flask) -> Any:
    """The sentence wording.py gives in English to the API: the API must say the same."""

    def say(function: Any, *args: Any) -> str:
        with app.test_request_context("/api/v1/verify", headers=EN):
            return str(function(*args))

    return say


# Checking values against the OpenAPI document the app serves -----------------------------


def schema_errors(value: Any, schema: dict[str, Any], doc: dict[str, Any]) -> list[str]:
    """Return the places where ``value`` breaks ``schema`` (empty when it conforms).

    Its references are resolved in ``doc`` (JSON Schema 2020-12, as OpenAPI 3.1 has it)."""
    root = {**schema, "components": doc["components"]}
    validator = jsonschema_rs.Draft202012Validator(root)
    return [
        f"/{'/'.join(map(str, error.instance_path))}: {error.message}"
        for error in validator.iter_errors(value)
    ]


@pytest.fixture
def openapi(client: FlaskClient) -> dict[str, Any]:
    response = client.get("/api/v1/openapi.json")
    assert response.status_code == 200
    return response.get_json()


def conforms(value: Any, name: str, doc: dict[str, Any]) -> None:
    errors = schema_errors(value, {"$ref": f"#/components/schemas/{name}"}, doc)
    assert not errors, errors


# Creating and reading a rubber -------------------------------------------------------------

PORTUGAL = {"preset": "portugal", **PRESET_TABLE["portugal"]}


def test_create_with_defaults_gives_the_whole_state(
    app: Flask, client: FlaskClient, openapi: dict[str, Any]
) -> None:
    response = client.post("/api/v1/rubbers", json={}, headers=EN)
    assert response.status_code == 201
    created = response.get_json()
    conforms(created, "CreatedRubber", openapi)
    with app.test_request_context():
        page = url_for("rubbers.rubber", rubber_id=created["id"], _external=True)
        edit = url_for(
            "rubbers.grant", rubber_id=created["id"], key=created["edit_key"], _external=True
        )
    assert created["url"] == page
    assert created["edit_url"] == edit
    assert len(created["id"]) >= 22  # 128 random bits or more, URL-safe
    assert len(created["edit_key"]) >= 22 and created["edit_key"] != created["id"]
    assert response.headers["Location"].endswith(f"/api/v1/rubbers/{created['id']}")
    assert response.headers["Cache-Control"] == "no-store"

    read = state(client, {"id": created["id"]})
    assert "edit_key" not in read and "edit_url" not in read
    assert read == {k: v for k, v in created.items() if k not in ("edit_key", "edit_url")}
    assert read["id"] == created["id"]
    assert read["url"] == page
    assert read["teams"] == ["Nós", "Eles"]
    assert read["players"] is None
    assert read["rules"] == PORTUGAL
    assert all(type(read["rules"][k]) is type(v) for k, v in PORTUGAL.items())
    assert read["games"] == [0, 0]
    assert read["finished"] is False
    assert read["winner"] is None
    assert read["outcome"] is None
    assert read["pending"] == {"extra_games": 0, "multiplier": 1}
    assert read["dealer"] == 0
    assert read["leader"] == 1
    assert read["shuffler"] == 1 and read["cutter"] == 3
    assert type(read["version"]) is int and read["version"] >= 1
    assert read["hands"] == []


def test_create_with_every_field(client: FlaskClient) -> None:
    created = create(
        client,
        {
            "teams": ["  Nós  ", "Eles"],
            "players": ["Ana", "Bruno", "Carla", "Duarte"],
            "first_dealer": 2,
            "rules": {"preset": "brasil", "games_to_win": 6, "melar": False, "manilha": 7},
        },
    )
    assert created["teams"] == ["Nós", "Eles"]
    assert created["players"] == ["Ana", "Bruno", "Carla", "Duarte"]
    assert created["dealer"] == 2 and created["leader"] == 3
    # Clockwise (Brazil): dealer+1 cuts and leads, dealer+3 shuffles.
    assert created["cutter"] == 3 and created["shuffler"] == 1
    assert created["rules"] == {
        "preset": "brasil",
        **PRESET_TABLE["brasil"],
        "games_to_win": 6,
        "melar": False,
    }


def test_create_with_an_empty_body_and_null_players(client: FlaskClient) -> None:
    response = client.post("/api/v1/rubbers", content_type="application/json")
    assert response.status_code == 201
    assert response.get_json()["teams"] == ["Nós", "Eles"]
    assert create(client, {"players": None})["players"] is None
    assert create(client, {"players": ["", " ", "", ""]})["players"] is None
    # White space alone is not an empty body but a body that is no JSON.
    blank = client.post("/api/v1/rubbers", data=" ", content_type="application/json")
    assert blank.status_code == 400 and blank.get_json()["code"] == "invalid_json"


def test_unknown_rubber_is_404(client: FlaskClient, rubber: dict[str, Any]) -> None:
    body = assert_error(client.get("/api/v1/rubbers/nope", headers=EN), 404)
    assert body["error"] == "There is no rubber with this id."
    assert_error(client.get("/api/v1/rubbers/" + "x" * 300), 404)
    assert_error(client.get("/api/v1/rubbers/%00abc"), 404)
    other = {"id": "A" * 32, "edit_key": rubber["edit_key"]}
    assert_error(
        client.post(hands_url(other), json={"points": [61, 59]}, headers=key_of(other)), 404
    )
    assert_error(client.put(hands_url(other) + "/1", json={"spoiled": True}), 404)
    assert_error(client.delete(hands_url(other) + "/last"), 404)


def test_unknown_addresses_and_methods_answer_json(client: FlaskClient) -> None:
    assert_error(client.get("/api/v1/nowhere"), 404)
    assert_error(client.get("/api/v1"), 404)
    response = assert_error(client.patch("/api/v1/verify"), 405)
    response = client.delete("/api/v1/rubbers")
    assert_error(response, 405)
    assert "POST" in response.headers["Allow"]


# Recording hands ---------------------------------------------------------------------------


def test_every_body_form(client: FlaskClient, openapi: dict[str, Any]) -> None:
    rubber = create(
        client, {"rules": {"preset": "brasil", "games_to_win": 20, "bandeira_wins_rubber": False}}
    )
    add(client, rubber, {"points": [75, 45], "trump": "C"})
    add(client, rubber, {"points": [0, 120], "all_tricks": True})  # points bandeira, no win here
    add(client, rubber, {"revoke": 1, "trump": "D"})
    add(client, rubber, {"spoiled": True})
    final = add(client, rubber, {"points": [60, 60]})
    conforms(final, "RubberState", openapi)
    hands = final["hands"]
    assert [h["kind"] for h in hands] == ["played", "played", "revoke", "spoiled", "tie"]
    assert hands[0] == {
        **hands[0],
        "number": 1,
        "points": [75, 45],
        "all_tricks": False,
        "team": None,
        "games": [1, 0],
        "dealer": 0,
        "leader": 1,
        "trump": "C",
        "games_after": [1, 0],
        "winner": 0,
        "bandeira": False,
        "reasons": ["one_game"],
    }
    assert "tricks" not in hands[0]
    assert hands[1]["games"] == [0, 4] and hands[1]["all_tricks"] is True
    assert hands[1]["bandeira"] is True
    assert hands[2]["team"] == 1 and hands[2]["points"] is None and hands[2]["games"] == [2, 0]
    assert hands[2]["trump"] == "D"
    assert hands[3]["games"] == [0, 0] and hands[3]["dealer"] == hands[4]["dealer"] == 3
    assert hands[4]["points"] == [60, 60] and hands[4]["games"] == [0, 0]
    assert final["games"] == [3, 4]
    assert final["pending"] == {"extra_games": 1, "multiplier": 1}
    assert final["dealer"] == 0 and final["leader"] == 1
    assert all(isinstance(h["summary"], str) and h["summary"] for h in hands)


@pytest.mark.parametrize(
    ("rules", "hands", "games", "finished"),
    [
        ({}, [{"points": [75, 45]}], [1, 0], False),
        ({}, [{"points": [30, 90]}], [0, 1], False),
        ({}, [{"points": [29, 91]}], [0, 2], False),
        ({}, [{"points": [60, 60]}, {"points": [60, 60]}, {"points": [75, 45]}], [3, 0], False),
        ({}, [{"points": [60, 60]}, {"revoke": 0}, {"points": [70, 50]}], [2, 2], False),
        ({}, [{"points": [120, 0]}], [2, 0], False),
        ({}, [{"points": [120, 0], "all_tricks": True}], [4, 0], True),
        ({"tie": "double"}, [{"points": [60, 60]}, {"points": [91, 29]}], [4, 0], True),
        (
            {"tie": "double"},
            [{"points": [60, 60]}, {"points": [60, 60]}, {"points": [70, 50]}],
            [4, 0],
            True,
        ),
        ({"revoke": "offender_minus_two"}, [{"points": [70, 50]}, {"revoke": 0}], [0, 0], False),
        (
            {"games_to_win": 6, "bandeira_wins_rubber": False},
            [{"points": [120, 0], "all_tricks": True}, {"points": [61, 59]}, {"points": [61, 59]}],
            [6, 0],
            True,
        ),
    ],
)
def test_worked_examples_of_the_rules(
    client: FlaskClient,
    rules: dict[str, Any],
    hands: list[dict[str, Any]],
    games: list[int],
    finished: bool,
) -> None:
    rubber = create(client, {"rules": rules})
    for body in hands:
        result = add(client, rubber, body)
    assert result["games"] == games
    assert result["finished"] is finished
    assert result["winner"] == (0 if finished else None)
    assert state(client, rubber)["games"] == games


def test_worked_example_details(client: FlaskClient) -> None:
    rubber = create(client)
    add(client, rubber, {"points": [60, 60]})
    after_ties = add(client, rubber, {"points": [60, 60]})
    assert after_ties["pending"] == {"extra_games": 2, "multiplier": 1}

    rubber = create(client, {"rules": {"tie": "double"}})
    add(client, rubber, {"points": [60, 60]})
    assert add(client, rubber, {"points": [60, 60]})["pending"]["multiplier"] == 4

    rubber = create(client, {"rules": {"revoke": "offender_minus_two"}})
    add(client, rubber, {"points": [70, 50]})
    assert add(client, rubber, {"revoke": 0})["hands"][1]["games"] == [-1, 0]

    rubber = create(client, {"rules": {"games_to_win": 6, "bandeira_wins_rubber": False}})
    for body in ({"points": [120, 0], "all_tricks": True}, {"points": [61, 59]}):
        add(client, rubber, body)
    final = add(client, rubber, {"points": [61, 59]})
    assert final["outcome"] == "pente"
    assert [h["games_after"] for h in final["hands"]] == [[4, 0], [5, 0], [6, 0]]


def test_dealer_passes_except_after_a_spoiled_deal(client: FlaskClient) -> None:
    rubber = create(client, {"first_dealer": 1, "rules": {"melar": True}})
    for body in (
        {"points": [70, 50]},
        {"points": [50, 70]},
        {"spoiled": True},
        {"points": [61, 59]},
    ):
        result = add(client, rubber, body)
    assert [h["dealer"] for h in result["hands"]] == [1, 2, 3, 3]
    assert [h["leader"] for h in result["hands"]] == [2, 3, 0, 0]
    assert result["dealer"] == 0 and result["leader"] == 1


def test_spoiled_deal_without_melar_is_refused(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    response = client.post(hands_url(rubber), json={"spoiled": True}, headers=key_of(rubber))
    body = assert_error(response, 422, "spoiled")
    refusal = engine.HandNotAllowedError(engine.HandKind.SPOILED, "")
    assert body["error"] == english(wording.engine_error, refusal)
    assert "melar" in body["error"]
    assert state(client, rubber)["hands"] == []


@pytest.mark.parametrize(
    ("body", "field", "refusal"),
    [
        ({"points": [1, 119]}, "points", engine.ImpossiblePointsError(1, "", "one")),
        ({"points": [119, 1]}, "points", engine.ImpossiblePointsError(119, "", "one")),
        ({"points": [70, 60]}, "points", engine.ImpossiblePointsError((70, 60), "", "sum")),
        ({"points": [121, -1]}, "points", engine.ImpossiblePointsError(121, "", "range")),
        ({"points": [10**40, 0]}, "points", engine.ImpossiblePointsError(10**40, "", "range")),
        (
            {"points": [100, 20], "all_tricks": True},
            "all_tricks",
            engine.ImpossiblePointsError((100, 20), "", "all_tricks"),
        ),
        ({"revoke": 2}, "revoke", engine.UnknownTeamError(2)),
        ({"revoke": -1}, "revoke", engine.UnknownTeamError(-1)),
        ({"points": [61, 59], "trump": "X"}, "trump", "The trump must be one of C, D, H or S."),
    ],
)
def test_refused_values_are_422_in_english(
    client: FlaskClient,
    rubber: dict[str, Any],
    english: Any,
    body: dict[str, Any],
    field: str,
    refusal: Exception | str,
) -> None:
    response = client.post(hands_url(rubber), json=body, headers=key_of(rubber))
    error = assert_error(response, 422, field)
    if isinstance(refusal, str):
        assert error["error"] == refusal
    else:
        assert error["error"] == english(wording.engine_error, refusal)
    assert state(client, rubber)["hands"] == []


# Writes need the edit key ------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, {"X-Edit-Key": ""}, {"X-Edit-Key": "wrong"}])
def test_writes_without_the_edit_key_are_403(
    client: FlaskClient, rubber: dict[str, Any], headers: dict[str, str]
) -> None:
    add(client, rubber, {"points": [70, 50]})
    before = state(client, rubber)
    writes = [
        client.post(hands_url(rubber), json={"points": [70, 50]}, headers=headers),
        client.put(hands_url(rubber) + "/1", json={"points": [50, 70]}, headers=headers),
        client.delete(hands_url(rubber) + "/last", headers=headers),
    ]
    for response in writes:
        assert_error(response, 403)
    assert state(client, rubber) == before


def test_a_key_of_another_rubber_is_403(client: FlaskClient, rubber: dict[str, Any]) -> None:
    other = create(client)
    response = client.post(hands_url(rubber), json={"points": [70, 50]}, headers=key_of(other))
    assert assert_error(response, 403)["error"] == "This is not the rubber's edit key."


# Idempotency and versions ------------------------------------------------------------------


def test_same_key_same_body_stores_one_hand(client: FlaskClient, rubber: dict[str, Any]) -> None:
    body = {"points": [75, 45], "key": "phone-1-hand-1"}
    first = client.post(hands_url(rubber), json=body, headers=key_of(rubber))
    again = client.post(hands_url(rubber), json=body, headers=key_of(rubber))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json()
    assert again.headers.get("Idempotent-Replayed") == "true"
    read = state(client, rubber)
    assert len(read["hands"]) == 1 and read["games"] == [1, 0]
    assert read["version"] == first.get_json()["version"]


def test_same_key_other_body_is_409(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    add(client, rubber, {"points": [75, 45], "key": "k1"})
    before = state(client, rubber)
    response = client.post(
        hands_url(rubber), json={"points": [45, 75], "key": "k1"}, headers=key_of(rubber)
    )
    body = assert_error(response, 409, "key")
    assert body["error"] == english(wording.conflict, "key_reused")
    assert state(client, rubber) == before


def test_a_repeated_key_answers_first_even_after_other_writes(
    client: FlaskClient, rubber: dict[str, Any]
) -> None:
    first = add(client, rubber, {"points": [75, 45], "key": "a"})
    add(client, rubber, {"points": [80, 40], "key": "b"})
    again = add(client, rubber, {"points": [75, 45], "key": "a"})
    assert again == first
    assert len(state(client, rubber)["hands"]) == 2


def test_undo_with_a_key_undoes_once(client: FlaskClient, rubber: dict[str, Any]) -> None:
    for points in ([70, 50], [50, 70]):
        add(client, rubber, {"points": points})
    url = hands_url(rubber) + "/last"
    first = client.delete(url, json={"key": "undo-1"}, headers=key_of(rubber))
    again = client.delete(url, json={"key": "undo-1"}, headers=key_of(rubber))
    assert first.status_code == again.status_code == 200
    assert first.get_json() == again.get_json()
    assert len(state(client, rubber)["hands"]) == 1


def test_stale_version_is_409_and_stores_nothing(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    seen = rubber["version"]
    after = add(client, rubber, {"points": [70, 50], "version": seen})
    assert after["version"] > seen
    before = state(client, rubber)
    for response in (
        client.post(
            hands_url(rubber), json={"points": [70, 50], "version": seen}, headers=key_of(rubber)
        ),
        client.put(
            hands_url(rubber) + "/1", json={"revoke": 0, "version": seen}, headers=key_of(rubber)
        ),
        client.delete(hands_url(rubber) + "/last", json={"version": seen}, headers=key_of(rubber)),
    ):
        body = assert_error(response, 409, "version")
        assert body["error"] == english(wording.conflict, "stale")
    assert state(client, rubber) == before
    add(client, rubber, {"points": [70, 50], "version": after["version"]})


def test_a_version_no_rubber_can_reach_is_refused_as_such(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    """A version past what the column holds is a wrong version (422), not another phone (409)."""
    before = state(client, rubber)
    for version in (2**31, 10**20):
        response = client.post(
            hands_url(rubber), json={"points": [70, 50], "version": version}, headers=key_of(rubber)
        )
        body = assert_error(response, 422, "version")
        assert (body["code"], body["error"]) == (
            "version",
            "The version is a whole number from 1 to 2147483647.",
        )
    assert state(client, rubber) == before
    add(client, rubber, {"points": [70, 50], "version": rubber["version"]})


def test_every_write_bumps_the_version(client: FlaskClient, rubber: dict[str, Any]) -> None:
    versions = [rubber["version"]]
    versions.append(add(client, rubber, {"points": [70, 50]})["version"])
    put = client.put(hands_url(rubber) + "/1", json={"points": [50, 70]}, headers=key_of(rubber))
    versions.append(put.get_json()["version"])
    undo = client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
    versions.append(undo.get_json()["version"])
    assert versions == sorted(set(versions))


# A finished rubber, editing and undoing -----------------------------------------------------


def test_no_hand_after_the_rubber_is_won(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    won = add(client, rubber, {"points": [120, 0], "all_tricks": True})
    assert won["finished"] is True and won["winner"] == 0 and won["outcome"] == "bandeira"
    response = client.post(hands_url(rubber), json={"points": [70, 50]}, headers=key_of(rubber))
    body = assert_error(response, 409)
    assert body["error"] == english(wording.engine_error, engine.RubberFinishedError(2))
    response = client.post(
        hands_url(rubber), json={"trump": "H", "tricks": PLAYED}, headers=key_of(rubber)
    )
    assert_error(response, 409)
    assert len(state(client, rubber)["hands"]) == 1
    undone = client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
    assert undone.status_code == 200 and undone.get_json()["finished"] is False


def test_replace_a_hand_folds_the_later_ones_again(
    client: FlaskClient, rubber: dict[str, Any]
) -> None:
    add(client, rubber, {"points": [60, 60]})
    add(client, rubber, {"points": [75, 45]})
    assert state(client, rubber)["games"] == [2, 0]
    response = client.put(
        hands_url(rubber) + "/1", json={"points": [50, 70]}, headers=key_of(rubber)
    )
    assert response.status_code == 200
    replaced = response.get_json()
    assert replaced["games"] == [1, 1]
    assert [h["games"] for h in replaced["hands"]] == [[0, 1], [1, 0]]
    assert replaced["hands"][1]["reasons"] == ["one_game"]
    assert state(client, rubber) == replaced


def test_replace_that_ends_the_rubber_early_is_409(
    client: FlaskClient, rubber: dict[str, Any], english: Any
) -> None:
    add(client, rubber, {"points": [70, 50]})
    add(client, rubber, {"points": [70, 50]})
    before = state(client, rubber)
    response = client.put(
        hands_url(rubber) + "/1",
        json={"points": [120, 0], "all_tricks": True},
        headers=key_of(rubber),
    )
    body = assert_error(response, 409)
    assert body["error"] == english(wording.conflict, "ends_early")
    assert state(client, rubber) == before
    # The last hand may still end it.
    response = client.put(
        hands_url(rubber) + "/2",
        json={"points": [120, 0], "all_tricks": True},
        headers=key_of(rubber),
    )
    assert response.status_code == 200 and response.get_json()["finished"] is True


@pytest.mark.parametrize("number", ["0", "2", "3", "99999999999999999999999"])
def test_replace_an_unknown_hand_is_404(
    client: FlaskClient, rubber: dict[str, Any], number: str
) -> None:
    add(client, rubber, {"points": [70, 50]})
    add(client, rubber, {"points": [70, 50]})
    add(client, rubber, {"points": [70, 50]})
    client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
    client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
    response = client.put(
        hands_url(rubber) + f"/{number}", json={"points": [61, 59]}, headers=key_of(rubber)
    )
    assert_error(response, 404)
    assert_error(client.put(hands_url(rubber) + "/-1", json={"points": [61, 59]}), 404)


def test_undo_the_last_hand(client: FlaskClient, rubber: dict[str, Any], english: Any) -> None:
    add(client, rubber, {"points": [60, 60]})
    add(client, rubber, {"points": [91, 29]})
    response = client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
    assert response.status_code == 200
    undone = response.get_json()
    assert undone["games"] == [0, 0] and len(undone["hands"]) == 1
    assert undone["pending"] == {"extra_games": 1, "multiplier": 1}
    assert undone["dealer"] == 1
    assert client.delete(hands_url(rubber) + "/last", headers=key_of(rubber)).status_code == 200
    body = assert_error(client.delete(hands_url(rubber) + "/last", headers=key_of(rubber)), 409)
    assert body["error"] == english(wording.conflict, "no_hands")


# Hands given by their cards ----------------------------------------------------------------


def test_a_hand_by_its_cards_is_scored_from_them(
    client: FlaskClient, rubber: dict[str, Any], openapi: dict[str, Any]
) -> None:
    result = add(client, rubber, {"trump": "H", "tricks": PLAYED, "key": "cards-1"})
    conforms(result, "RubberState", openapi)
    hand = result["hands"][0]
    assert hand["kind"] == "played"
    assert hand["points"] == [109, 11]
    assert hand["all_tricks"] is False
    assert hand["games"] == [2, 0]
    assert hand["trump"] == "H"
    assert hand["tricks"] == PLAYED
    assert state(client, rubber)["hands"][0]["tricks"] == PLAYED


def test_all_tricks_by_the_cards_is_a_bandeira(client: FlaskClient, rubber: dict[str, Any]) -> None:
    lower = [[card.lower() for card in trick] for trick in BANDEIRA]
    result = add(client, rubber, {"trump": "H", "tricks": lower, "points": [120, 0]})
    hand = result["hands"][0]
    assert hand["points"] == [120, 0] and hand["all_tricks"] is True
    assert hand["tricks"] == BANDEIRA  # stored as the cards are written
    assert result["finished"] is True and result["outcome"] == "bandeira"


def test_a_revoke_proven_by_the_cards(client: FlaskClient, rubber: dict[str, Any]) -> None:
    result = add(client, rubber, {"trump": "H", "tricks": REVOKE})
    hand = result["hands"][0]
    assert hand["kind"] == "revoke" and hand["team"] == 1 and hand["points"] is None
    assert hand["games"] == [2, 0]
    assert hand["tricks"] == REVOKE


def test_a_revoke_ends_the_hand_where_it_is_proven(client: FlaskClient) -> None:
    # The revoke of seat 3 in trick 2 is proven in trick 10 ... or sooner: here in trick 3.
    record = [["AD", "AH", "AS", "AC"], ["7H", "7S", "7C", "7D"], ["KH", "2H", "KC", "KD"]]
    rubber = create(client)
    hand = add(client, rubber, {"trump": "H", "tricks": record})["hands"][0]
    assert (hand["kind"], hand["team"], hand["tricks"]) == ("revoke", 1, record)


def test_cards_and_points_that_disagree_store_nothing(
    client: FlaskClient, rubber: dict[str, Any]
) -> None:
    before = state(client, rubber)
    response = client.post(
        hands_url(rubber),
        json={"trump": "H", "tricks": PLAYED, "points": [100, 20]},
        headers=key_of(rubber),
    )
    body = assert_error(response, 422, "points")
    assert body["error"] == "The cards give 109-11, not 100-20."
    assert state(client, rubber) == before
    add(client, rubber, {"trump": "H", "tricks": PLAYED, "points": [109, 11]})


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"trump": "H", "tricks": PLAYED, "all_tricks": True}, "all_tricks", "do not show"),
        ({"trump": "H", "tricks": BANDEIRA, "all_tricks": False}, "all_tricks", "team 0 taking"),
        ({"trump": "H", "tricks": REVOKE, "points": [120, 0]}, "points", "revoke by team 1"),
        ({"trump": "H", "tricks": PLAYED[:9]}, "tricks", "9 tricks"),
        ({"trump": "H", "tricks": [*PLAYED[:9], ["2S", "AS", "2C"]]}, "tricks", "Trick 10"),
        ({"trump": "H", "tricks": [*PLAYED[:9], ["2S", "AS", "2C", "XX"]]}, "tricks", "XX"),
        ({"trump": "H", "tricks": [*PLAYED[:9], ["2S", "AS", "2C", "AD"]]}, "tricks", "AD"),
        ({"trump": "H", "tricks": [*PLAYED[:9], ["2S", "AS", "2C", "10D"]]}, "tricks", "10D"),
    ],
)
def test_records_that_cannot_be_scored_are_422(
    client: FlaskClient,
    rubber: dict[str, Any],
    body: dict[str, Any],
    field: str,
    message: str | None,
) -> None:
    response = client.post(hands_url(rubber), json=body, headers=key_of(rubber))
    error = assert_error(response, 422, field)
    if message is not None:
        assert message in error["error"]
    assert state(client, rubber)["hands"] == []


def test_replace_a_hand_by_its_cards_uses_that_hands_leader(client: FlaskClient) -> None:
    rubber = create(client, {"first_dealer": 3})  # hand 2 is dealt by seat 0, led by seat 1
    add(client, rubber, {"points": [70, 50]})
    add(client, rubber, {"points": [70, 50]})
    response = client.put(
        hands_url(rubber) + "/2", json={"trump": "H", "tricks": PLAYED}, headers=key_of(rubber)
    )
    assert response.status_code == 200, response.get_json()
    hand = response.get_json()["hands"][1]
    assert hand["points"] == [109, 11] and hand["tricks"] == PLAYED and hand["leader"] == 1
    # Hand 1 was led by seat 0: the same cards, one seat on, give the other team the points.
    response = client.put(
        hands_url(rubber) + "/1", json={"trump": "H", "tricks": PLAYED}, headers=key_of(rubber)
    )
    assert response.status_code == 200
    hand = response.get_json()["hands"][0]
    assert hand["points"] == [11, 109] and hand["games"] == [0, 2] and hand["leader"] == 0
    replaced = client.put(
        hands_url(rubber) + "/2", json={"points": [70, 50]}, headers=key_of(rubber)
    )
    assert "tricks" not in replaced.get_json()["hands"][1]


# The verifier ------------------------------------------------------------------------------


def test_verify_a_record_with_a_revoke(client: FlaskClient, openapi: dict[str, Any]) -> None:
    response = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": REVOKE}, headers=EN
    )
    assert response.status_code == 200
    result = response.get_json()
    conforms(result, "VerifyResult", openapi)
    assert [{k: t[k] for k in ("leader", "winner", "points")} for t in result["tricks"]] == [
        {"leader": 1, "winner": 2, "points": 44},
        {"leader": 2, "winner": 2, "points": 40},
        {"leader": 2, "winner": 2, "points": 16},
        {"leader": 2, "winner": 2, "points": 12},
        {"leader": 2, "winner": 2, "points": 8},
        *[{"leader": 2, "winner": 2, "points": 0}] * 4,
        {"leader": 2, "winner": 3, "points": 0},
    ]
    assert result["points"] == [120, 0]
    assert result["tricks_won"] == [9, 1]
    assert result["complete"] is True
    assert result["revokes"] == [{"seat": 3, "team": 1, "trick": 2, "suit": "H", "proven_in": 10}]
    assert result["errors"] == []


def test_verify_a_clean_record_and_a_partial_one(client: FlaskClient) -> None:
    result = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": PLAYED}
    ).get_json()
    assert (result["points"], result["tricks_won"], result["complete"]) == ([109, 11], [9, 1], True)
    assert result["tricks"][-1] == {
        "number": 10,
        "leader": 2,
        "winner": 3,
        "points": 11,
        "cards": ["2S", "AS", "2C", "2D"],
    }
    assert result["revokes"] == [] and result["errors"] == [] and result["all_tricks"] is None

    partial = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": PLAYED[:3]}
    ).get_json()
    assert partial["complete"] is False
    assert partial["points"] == [85, 0] and partial["tricks_won"] == [3, 0]
    assert partial["errors"] == [] and partial["next_leader"] == 2


def test_verify_lists_problems_of_the_record(client: FlaskClient, english: Any) -> None:
    tricks = [["AD", "AH", "AS", "AC"], ["7H", "XX", "7C", "AD"], ["KH", "KS", "KC"]]
    response = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": tricks}, headers=EN
    )
    assert response.status_code == 200
    result = response.get_json()
    assert result["complete"] is False
    assert [(e["trick"], e["card"], e["code"]) for e in result["errors"]] == [
        (2, "XX", "unknown_card"),
        (2, "AD", "repeated_card"),
        (3, None, "trick_size"),
    ]
    problems = [
        engine.RecordProblem("unknown_card", 2, "XX", ""),
        engine.RecordProblem("repeated_card", 2, "AD", "", 1),
        engine.RecordProblem("trick_size", 3, None, ""),
    ]
    assert [e["error"] for e in result["errors"]] == [
        english(wording.record_problem, problem) for problem in problems
    ]
    assert "XX" in result["errors"][0]["error"] and "3" in result["errors"][2]["error"]
    assert len(result["tricks"]) == 1


def test_verify_the_turned_card(client: FlaskClient) -> None:
    body = {"trump": "H", "leader": 1, "tricks": BANDEIRA, "trump_card": "AH"}
    # The dealer is seat 0, but seat 2 played the AH.
    errors = client.post("/api/v1/verify", json=body).get_json()["errors"]
    assert [e["code"] for e in errors] == ["trump_card_seat"]
    # The dealer (seat 0) trumps the first trick with the card he turned.
    body = {"trump": "H", "leader": 1, "tricks": [["AD", "2D", "3D", "AH"]], "trump_card": "AH"}
    result = client.post("/api/v1/verify", json=body).get_json()
    assert result["errors"] == [] and result["tricks"][0]["winner"] == 0
    body["trump_card"] = "AS"
    assert client.post("/api/v1/verify", json=body).get_json()["errors"][0]["code"] == (
        "trump_card_suit"
    )


def test_verify_with_rules(client: FlaskClient) -> None:
    tricks = [["10H", "AH", "KH", "JH"]]
    body: dict[str, Any] = {"trump": "S", "leader": 0, "tricks": tricks}
    result = client.post("/api/v1/verify", json=body).get_json()
    assert [e["code"] for e in result["errors"]] == ["not_in_deck"]
    body["rules"] = {"preset": "acores"}
    result = client.post("/api/v1/verify", json=body).get_json()
    assert result["errors"] == [] and result["tricks"][0] == {
        "number": 1,
        "leader": 0,
        "winner": 1,
        "points": 28,
        "cards": ["10H", "AH", "KH", "JH"],
    }
    body["rules"] = {"tie": "sometimes"}
    assert_error(client.post("/api/v1/verify", json=body), 422, "rules.tie")


# Malformed requests ------------------------------------------------------------------------

HAND = "hand"
RUBBERS = "rubbers"
VERIFY = "verify"
PUT = "put"
UNDO = "undo"

MALFORMED: list[tuple[str, Any]] = [
    (HAND, b"not json"),
    (HAND, b"{"),
    (HAND, b""),
    (HAND, b"[]"),
    (HAND, b"3"),
    (HAND, b"null"),
    (HAND, b'"points"'),
    (HAND, b"\xff\xfe\x00garbage"),
    (HAND, b"[" * 20000 + b"]" * 20000),
    (HAND, b'{"points": [1' + b"0" * 5000 + b", 0]}"),
    (HAND, b'{"points": [NaN, 60]}'),
    (HAND, {}),
    (HAND, {"points": "61"}),
    (HAND, {"points": 61}),
    (HAND, {"points": [61]}),
    (HAND, {"points": [61, 59, 0]}),
    (HAND, {"points": [True, False]}),
    (HAND, {"points": [60.5, 59.5]}),
    (HAND, b'{"points": [1e400, 0]}'),
    (HAND, {"revoke": 0.5}),
    (HAND, {"points": ["61", "59"]}),
    (HAND, {"points": None}),
    (HAND, {"points": [61, 59], "all_tricks": "yes"}),
    (HAND, {"points": [61, 59], "revoke": 0}),
    (HAND, {"points": [61, 59], "alltricks": True}),
    (HAND, {"revoke": True}),
    (HAND, {"revoke": "1"}),
    (HAND, {"revoke": 1, "all_tricks": True}),
    (HAND, {"spoiled": False}),
    (HAND, {"spoiled": "true"}),
    (HAND, {"spoiled": True, "points": [61, 59]}),
    (HAND, {"points": [61, 59], "trump": 3}),
    (HAND, {"points": [61, 59], "trump": "Hearts"}),
    (HAND, {"tricks": PLAYED}),
    (HAND, {"trump": "H", "tricks": []}),
    (HAND, {"trump": "H", "tricks": PLAYED + PLAYED[:1]}),
    (HAND, {"trump": "H", "tricks": "AS 2S 7S JS"}),
    (HAND, {"trump": "H", "tricks": [["AS", 2, "7S", "JS"]]}),
    (HAND, {"trump": "H", "tricks": [["AS", "2S", "7S", "J" * 100]]}),
    (HAND, {"trump": "H", "tricks": [{"AS": 1}]}),
    (HAND, {"trump": "H", "tricks": PLAYED, "revoke": 1}),
    (HAND, {"points": [61, 59], "key": ""}),
    (HAND, {"points": [61, 59], "key": "k" * 101}),
    (HAND, {"points": [61, 59], "key": 7}),
    (HAND, {"points": [61, 59], "key": "a\x00b"}),
    (HAND, {"points": [61, 59], "version": "1"}),
    (HAND, {"points": [61, 59], "version": True}),
    (HAND, {"points": [61, 59], "version": 0}),
    (HAND, {"points": [61, 59], "version": 1.5}),
    (PUT, {"points": [61]}),
    (PUT, b"[1, 2]"),
    (UNDO, {"key": 1}),
    (UNDO, {"extra": 1}),
    (UNDO, b"nope"),
    (RUBBERS, b"[]"),
    (RUBBERS, b"nope"),
    (RUBBERS, {"teams": "Nós"}),
    (RUBBERS, {"teams": ["Nós"]}),
    (RUBBERS, {"teams": ["Nós", "Eles", "Outros"]}),
    (RUBBERS, {"teams": ["Nós", ""]}),
    (RUBBERS, {"teams": ["Nós", "   "]}),
    (RUBBERS, {"teams": ["Nós", "x" * 41]}),
    (RUBBERS, {"teams": ["Nós", " " + "x" * 39 + " "]}),
    (RUBBERS, {"teams": ["Nós", 1]}),
    (RUBBERS, {"teams": ["Nós", "E\x00les"]}),
    (RUBBERS, {"teams": ["Nós", "\ud800"]}),
    (RUBBERS, {"teams": None}),
    (RUBBERS, {"players": ["Ana", "Bruno", "Carla"]}),
    (RUBBERS, {"players": ["Ana", "Bruno", "Carla", None]}),
    (RUBBERS, {"players": ["Ana", "Bruno", "Carla", "y" * 41]}),
    (RUBBERS, {"players": "Ana, Bruno, Carla, Duarte"}),
    (RUBBERS, {"first_dealer": 4}),
    (RUBBERS, {"first_dealer": -1}),
    (RUBBERS, {"first_dealer": True}),
    (RUBBERS, {"first_dealer": "0"}),
    (RUBBERS, {"first_dealer": 10**100}),
    (RUBBERS, {"first_dealer": 1e300}),
    (RUBBERS, {"first_dealer": 2.5}),
    (RUBBERS, {"rules": "portugal"}),
    (RUBBERS, {"rules": None}),
    (RUBBERS, {"rules": {"preset": "espanha"}}),
    (RUBBERS, {"rules": {"preset": ["portugal"]}}),
    (RUBBERS, {"rules": {"games_to_win": 0}}),
    (RUBBERS, {"rules": {"games_to_win": 21}}),
    (RUBBERS, {"rules": {"games_to_win": 10**100}}),
    (RUBBERS, {"rules": {"games_to_win": "4"}}),
    (RUBBERS, {"rules": {"games_to_win": True}}),
    (RUBBERS, {"rules": {"games_to_win": 4.5}}),
    (RUBBERS, {"rules": {"tie": "sometimes"}}),
    (RUBBERS, {"rules": {"tie": ["carry"]}}),
    (RUBBERS, {"rules": {"melar": "yes"}}),
    (RUBBERS, {"rules": {"manilha": 8}}),
    (RUBBERS, {"rules": {"colour": "red"}}),
    (RUBBERS, {"key": "k"}),
    (VERIFY, b"[]"),
    (VERIFY, {}),
    (VERIFY, {"trump": "H", "leader": 1}),
    (VERIFY, {"trump": "H", "leader": 4, "tricks": PLAYED}),
    (VERIFY, {"trump": "H", "leader": True, "tricks": PLAYED}),
    (VERIFY, {"trump": "H", "leader": "1", "tricks": PLAYED}),
    (VERIFY, {"trump": "Z", "leader": 1, "tricks": PLAYED}),
    (VERIFY, {"trump": None, "leader": 1, "tricks": PLAYED}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": []}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": PLAYED + PLAYED}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": [[None, "AS", "KS", "QS"]]}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": [["AS"] * 41]}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": PLAYED, "rules": []}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": PLAYED, "trump_card": 7}),
    (VERIFY, {"trump": "H", "leader": 1, "tricks": PLAYED, "extra": 1}),
]


def _send(client: FlaskClient, rubber: dict[str, Any], target: str, body: Any) -> Any:
    options: dict[str, Any] = {"headers": key_of(rubber)}
    if isinstance(body, bytes):
        options["data"] = body
        options["content_type"] = "application/json"
    else:
        options["json"] = body
    if target == HAND:
        return client.post(hands_url(rubber), **options)
    if target == PUT:
        return client.put(hands_url(rubber) + "/1", **options)
    if target == UNDO:
        return client.delete(hands_url(rubber) + "/last", **options)
    return client.post(f"/api/v1/{target}", **options)


@pytest.mark.parametrize(("target", "body"), MALFORMED)
def test_malformed_requests_are_4xx_json(
    client: FlaskClient, rubber: dict[str, Any], target: str, body: Any
) -> None:
    add(client, rubber, {"points": [70, 50]})
    before = state(client, rubber)
    response = _send(client, rubber, target, body)
    assert 400 <= response.status_code < 500
    assert_error(response, response.status_code)
    assert response.status_code in (400, 422)
    assert state(client, rubber) == before


def test_malformed_requests_are_answered_in_the_default_language_too(
    client: FlaskClient, rubber: dict[str, Any]
) -> None:
    for headers in (
        {"X-Edit-Key": rubber["edit_key"]},
        {"X-Edit-Key": rubber["edit_key"], "Accept-Language": "pt-BR"},
    ):
        response = client.post(hands_url(rubber), json={"points": [1, 119]}, headers=headers)
        assert_error(response, 422, "points")


def test_whole_numbers_written_with_a_fraction_are_whole_numbers(client: FlaskClient) -> None:
    # JSON Schema, and so the OpenAPI document, counts 3.0 as an integer.
    body = b'{"first_dealer": 3.0, "rules": {"games_to_win": 6.0, "manilha": 7.0}}'
    response = client.post("/api/v1/rubbers", data=body, content_type="application/json")
    assert response.status_code == 201
    created = response.get_json()
    assert created["dealer"] == 3 and type(created["dealer"]) is int
    assert created["rules"]["games_to_win"] == 6 and created["rules"]["manilha"] == "7"
    hand = b'{"points": [7.5e1, 45.0], "key": "k"}'
    url, headers = hands_url(created), key_of(created)
    added = client.post(url, data=hand, content_type="application/json", headers=headers)
    assert added.status_code == 201
    assert added.get_json()["hands"][0]["points"] == [75, 45]
    again = client.post(url, json={"points": [75, 45], "key": "k"}, headers=headers)
    assert again.status_code == 201 and len(again.get_json()["hands"]) == 1
    revoke = client.post(
        url, data=b'{"revoke": 1.0}', content_type="application/json", headers=headers
    )
    assert revoke.get_json()["hands"][1]["team"] == 1


def test_english_sentences_for_shape_errors(client: FlaskClient, rubber: dict[str, Any]) -> None:
    cases = [
        (b"nope", "The request body is not valid JSON.", None),
        (b"[]", "The request body must be a JSON object.", None),
        (
            {"points": [61, 59], "alltricks": True},
            "alltricks is not a field of this request.",
            "alltricks",
        ),
        ({"points": [True, 59]}, "points must be a whole number.", "points"),
        ({}, "A hand needs one of points, revoke, spoiled or tricks.", None),
    ]
    for body, message, field in cases:
        error = assert_error(_send(client, rubber, HAND, body), 400, field)
        assert error["error"] == message


def test_a_request_too_large_is_413_json(client: FlaskClient, rubber: dict[str, Any]) -> None:
    huge = b'{"points": [61, 59], "key": "' + b"k" * (300 * 1024) + b'"}'
    assert_error(_send(client, rubber, HAND, huge), 413)
    assert_error(client.post("/api/v1/verify", data=huge, content_type="application/json"), 413)


# The OpenAPI document ----------------------------------------------------------------------


def test_openapi_lists_every_operation(openapi: dict[str, Any]) -> None:
    assert openapi["openapi"].startswith("3.")
    operations = {(path, method) for path, item in openapi["paths"].items() for method in item}
    assert operations == {
        ("/api/v1/rubbers", "post"),
        ("/api/v1/rubbers/{rubber_id}", "get"),
        ("/api/v1/rubbers/{rubber_id}/export.csv", "get"),
        ("/api/v1/rubbers/{rubber_id}/hands", "post"),
        ("/api/v1/rubbers/{rubber_id}/hands/{number}", "put"),
        ("/api/v1/rubbers/{rubber_id}/hands/last", "delete"),
        ("/api/v1/verify", "post"),
        ("/api/v1/openapi.json", "get"),
        ("/api/v1/groups", "post"),
        ("/api/v1/groups/{group_id}", "get"),
        ("/api/v1/groups/{group_id}/stats", "get"),
        ("/api/v1/groups/{group_id}/export.json", "get"),
        ("/api/v1/groups/{group_id}/import", "post"),
        ("/api/v1/groups/{group_id}/rubbers", "post"),
        ("/api/v1/groups/{group_id}/bidding", "get"),
        ("/api/v1/bidding", "post"),
        ("/api/v1/bidding/{game_id}", "get"),
        ("/api/v1/bidding/{game_id}/hands", "post"),
        ("/api/v1/bidding/{game_id}/hands/{number}", "put"),
        ("/api/v1/bidding/{game_id}/hands/last", "delete"),
        ("/api/v1/analysis", "post"),
        ("/api/v1/analysis/{analysis_id}", "get"),
        ("/api/v1/tournaments", "post"),
        ("/api/v1/tournaments/{tournament_id}", "get"),
        ("/api/v1/tournaments/{tournament_id}/rounds", "post"),
        (
            "/api/v1/tournaments/{tournament_id}/rounds/{round_number}/matches/{table}/walkover",
            "post",
        ),
        ("/api/v1/tournaments/{tournament_id}/pairs/{pair}/withdraw", "post"),
        ("/api/v1/tournaments/{tournament_id}/rounds/{round_number}", "delete"),
        (
            "/api/v1/tournaments/{tournament_id}/rounds/{round_number}/matches/{table}/walkover",
            "delete",
        ),
        ("/api/v1/tournaments/{tournament_id}/pairs/{pair}/reinstate", "post"),
        ("/api/v1/tournaments/{tournament_id}/pairs", "post"),
        (
            "/api/v1/tournaments/{tournament_id}/rounds/{round_number}/matches/{table}/result",
            "post",
        ),
    }
    scheme = openapi["components"]["securitySchemes"]["editKey"]
    assert scheme == {"type": "apiKey", "in": "header", "name": "X-Edit-Key"}
    for path, method in operations:
        operation = openapi["paths"][path][method]
        writes = method in ("put", "delete") or path.endswith(("/hands", "/rounds", "/walkover"))
        writes = writes or path.endswith(("/withdraw", "/reinstate", "/pairs", "/result"))
        assert (operation.get("security") == [{"editKey": []}]) is writes
        for status, response in operation["responses"].items():
            if status.startswith("4"):
                schema = response["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/Error"}
        if writes:
            assert {"403", "404", "409"} <= set(operation["responses"])


def test_openapi_schemas_are_tight(openapi: dict[str, Any]) -> None:
    schemas = openapi["components"]["schemas"]
    rules = schemas["RulesInput"]["properties"]
    assert rules["games_to_win"] == {"type": "integer", "minimum": 1, "maximum": 20}
    assert rules["tie"]["enum"] == ["carry", "void", "double"]
    assert set(schemas["Rules"]["required"]) == set(PORTUGAL)
    forms = schemas["HandInput"]["oneOf"]
    assert len(forms) == 4 and all(form["additionalProperties"] is False for form in forms)
    points = forms[0]["properties"]["points"]
    assert (points["minItems"], points["maxItems"]) == (2, 2)
    assert points["items"] == {"type": "integer", "minimum": 0, "maximum": 120}


VALID_HANDS = [
    {"points": [61, 59]},
    {"points": [120, 0], "all_tricks": True, "trump": "H", "key": "k", "version": 3},
    {"revoke": 1},
    {"spoiled": True, "trump": "C"},
    {"trump": "H", "tricks": PLAYED},
    {"trump": "H", "tricks": PLAYED, "points": [109, 11], "all_tricks": False},
]


@pytest.mark.parametrize("body", VALID_HANDS)
def test_the_hand_schema_takes_every_valid_form(body: Any, openapi: dict[str, Any]) -> None:
    conforms(body, "HandInput", openapi)


@pytest.mark.parametrize(("target", "body"), [m for m in MALFORMED if m[0] in (HAND, PUT)])
def test_the_hand_schema_and_the_api_agree_on_shapes(
    client: FlaskClient, rubber: dict[str, Any], openapi: dict[str, Any], target: str, body: Any
) -> None:
    # A body the schema refuses must be refused by the API with 400 or 422 (checked above);
    # a body the API refuses for its shape (400) must be refused by the schema as well.
    add(client, rubber, {"points": [70, 50]})
    response = _send(client, rubber, target, body)
    if response.status_code == 400 and not isinstance(body, bytes):
        assert schema_errors(body, {"$ref": "#/components/schemas/HandInput"}, openapi)


def test_errors_conform_to_the_error_schema(
    client: FlaskClient, rubber: dict[str, Any], openapi: dict[str, Any]
) -> None:
    for response in (
        client.get("/api/v1/rubbers/unknown"),
        client.post(hands_url(rubber), json={"points": [1, 119]}, headers=key_of(rubber)),
        client.post(hands_url(rubber), json={"points": [61, 59]}),
        client.get("/api/v1/nowhere"),
    ):
        conforms(response.get_json(), "Error", openapi)


# CSRF --------------------------------------------------------------------------------------


def test_the_api_needs_no_csrf_token(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The pages' forms are protected; the API authenticates by header, which no form can send.
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "SQLALCHEMY_DATABASE_URI": "sqlite:///" + str(tmp_path_factory.mktemp("csrf") / "db"),
            "WTF_CSRF_ENABLED": True,
        }
    )
    assert "csrf" in app.extensions
    with app.app_context():
        db.create_all()
    try:
        client = app.test_client()
        created = client.post("/api/v1/rubbers", json={})
        assert created.status_code == 201
        rubber = created.get_json()
        response = client.post(hands_url(rubber), json={"points": [61, 59]}, headers=key_of(rubber))
        assert response.status_code == 201
        replaced = client.put(hands_url(rubber) + "/1", json={"revoke": 0}, headers=key_of(rubber))
        assert replaced.status_code == 200
        undo = client.delete(hands_url(rubber) + "/last", headers=key_of(rubber))
        assert undo.status_code == 200
        verify = client.post("/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": PLAYED})
        assert verify.status_code == 200
    finally:
        with app.app_context():
            db.session.remove()
            db.drop_all()
            db.engine.dispose()
