"""Limits: oversized bodies, long names, endless rubbers, deep or huge JSON, odd input: 4xx, never 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Hand, Rubber
from scorekeeper.web.columns import NAME_LENGTH

LIMIT = 256 * 1024
HUGE = 10**400


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def counts(app: Flask) -> tuple[int, int]:
    with app.app_context():
        rubbers = db.session.execute(db.select(db.func.count(Rubber.id))).scalar()
        hands = db.session.execute(db.select(db.func.count(Hand.id))).scalar()
    return rubbers or 0, hands or 0


def assert_api_error(response: Any, status: int | None = None) -> dict[str, Any]:
    assert 400 <= response.status_code < 500, (response.status_code, response.get_data()[:300])
    if status is not None:
        assert response.status_code == status, response.get_json()
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body["error"], str) and body["error"].strip()
    assert "field" in body
    return dict(body)


def new_api_rubber(client: FlaskClient, **body: Any) -> tuple[str, dict[str, str]]:
    created = client.post("/api/v1/rubbers", json=body)
    assert created.status_code == 201, created.get_json()
    data = created.get_json()
    return data["id"], {"X-Edit-Key": data["edit_key"]}


# Request bodies over MAX_CONTENT_LENGTH ----------------------------------------------------


def test_the_limit_is_256_kib(app: Flask) -> None:
    assert app.config["MAX_CONTENT_LENGTH"] == LIMIT


@pytest.mark.parametrize("path", ["/rubbers/new", "/rubbers"])
def test_an_oversized_form_is_a_413_page(app: Flask, en: FlaskClient, path: str) -> None:
    response = en.post(path, data={"team0": "x" * (LIMIT + 1)})
    assert response.status_code == 413
    assert response.mimetype == "text/html"
    assert "The request is too large." in response.get_data(as_text=True)
    assert counts(app) == (0, 0)


def test_an_oversized_hand_form_is_a_413_page(app: Flask, en: FlaskClient) -> None:
    page = en.post("/rubbers").location
    response = en.post(page + "/hands", data={"points": "70", "team": "0", "pad": "x" * LIMIT})
    assert response.status_code == 413
    assert "The request is too large." in response.get_data(as_text=True)
    assert counts(app) == (1, 0)


def test_an_oversized_upload_of_a_file_is_a_413_page(en: FlaskClient) -> None:
    import io

    response = en.post(
        "/rubbers/new",
        data={"team0": "A", "file": (io.BytesIO(b"x" * (LIMIT + 1)), "big.txt")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 413


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("POST", "/api/v1/rubbers"),
        ("POST", "/api/v1/rubbers/{id}/hands"),
        ("PUT", "/api/v1/rubbers/{id}/hands/1"),
        ("DELETE", "/api/v1/rubbers/{id}/hands/last"),
        ("POST", "/api/v1/verify"),
    ],
)
def test_an_oversized_api_body_is_a_413_json_error(
    app: Flask, en: FlaskClient, method: str, path: str
) -> None:
    rubber_id, key = new_api_rubber(en)
    assert en.post(f"/api/v1/rubbers/{rubber_id}/hands", json={"points": [70, 50]}, headers=key)
    before = counts(app)
    body = '{"teams": ["' + "x" * LIMIT + '", "y"]}'
    response = en.open(
        path.format(id=rubber_id),
        method=method,
        data=body,
        content_type="application/json",
        headers=key,
    )
    error = assert_api_error(response, 413)
    assert error["error"] == "The request is too large."
    assert counts(app) == before


def test_a_body_just_under_the_limit_is_read(en: FlaskClient) -> None:
    body = '{"teams": ["A", "B"], "rules": {"preset": "portugal"}}'
    padded = body[:-1] + " " * (LIMIT - len(body)) + "}"
    assert len(padded) == LIMIT
    response = en.post("/api/v1/rubbers", data=padded, content_type="application/json")
    assert response.status_code == 201


# Names ---------------------------------------------------------------------------------


def test_a_name_over_40_characters_is_refused_by_the_form(app: Flask, en: FlaskClient) -> None:
    for field in ("team0", "team1", "player0", "player3"):
        response = en.post("/rubbers/new", data={field: "x" * (NAME_LENGTH + 1)})
        assert response.status_code == 422
        assert "At most 40 characters." in response.get_data(as_text=True)
    assert counts(app) == (0, 0)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"teams": ["x" * (NAME_LENGTH + 1), "B"]}, "teams"),
        ({"teams": ["A", "ç" * (NAME_LENGTH + 1)]}, "teams"),
        ({"players": ["a", "b", "c", "x" * (NAME_LENGTH + 1)]}, "players"),
        ({"teams": ["x" * 10_000, "B"]}, "teams"),
    ],
)
def test_a_name_over_40_characters_is_refused_by_the_api(
    app: Flask, en: FlaskClient, body: dict[str, Any], field: str
) -> None:
    error = assert_api_error(en.post("/api/v1/rubbers", json=body), 422)
    assert error["field"] == field
    assert "40" in error["error"]
    assert counts(app) == (0, 0)


@pytest.mark.parametrize("name", ["x" * NAME_LENGTH, "ç" * NAME_LENGTH, "😀" * NAME_LENGTH])
def test_a_name_of_40_characters_is_kept_whole(app: Flask, en: FlaskClient, name: str) -> None:
    """40 characters, however many bytes: the database counts characters too."""
    page = en.post("/rubbers/new", data={"team0": f"  {name}  ", "player1": name}).location
    assert page, "the form refused a 40-character name"
    rubber_id, _key = new_api_rubber(en, teams=[name, name], players=[name, "", "", ""])
    with app.app_context():
        by_form = db.session.get(Rubber, page.rsplit("/", 1)[-1])
        by_api = db.session.get(Rubber, rubber_id)
        assert by_form is not None and by_api is not None
        assert by_form.team0 == name and by_form.players == ["", name, "", ""]
        assert by_api.teams == (name, name) and by_api.players == [name, "", "", ""]


# An endless rubber -----------------------------------------------------------------------


def test_a_rubber_holds_at_most_max_hands(app: Flask, en: FlaskClient) -> None:
    assert engine.scoring.MAX_HANDS == 200
    rubber_id, key = new_api_rubber(en, rules={"preset": "online", "games_to_win": 20})
    hands = f"/api/v1/rubbers/{rubber_id}/hands"
    for _ in range(engine.scoring.MAX_HANDS):  # online: a tie is void, the rubber never ends
        response = en.post(hands, json={"points": [60, 60]}, headers=key)
        assert response.status_code == 201
    state = response.get_json()
    assert len(state["hands"]) == 200 and not state["finished"]

    error = assert_api_error(en.post(hands, json={"points": [60, 60]}, headers=key))
    assert "200" in error["error"]
    assert assert_api_error(en.post(hands, json={"points": [120, 0]}, headers=key))

    assert en.get(f"/r/{rubber_id}/edit/{key['X-Edit-Key']}").status_code == 302
    form = en.post(f"/r/{rubber_id}/hands", data={"action": "tie"})
    assert form.status_code == 422
    assert "A rubber holds at most 200 hands." in form.get_data(as_text=True)
    assert counts(app) == (1, 200)

    page = en.get(f"/r/{rubber_id}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert html.count(f'href="/r/{rubber_id}/hands/') >= 200
    assert en.get(f"/r/{rubber_id}/hands/200").status_code == 200
    assert en.get(f"/r/{rubber_id}/hands/201").status_code == 404
    assert en.get(f"/r/{rubber_id}/hands/200/edit").status_code == 200
    assert en.get("/history").status_code == 200
    assert en.get(f"/api/v1/rubbers/{rubber_id}").status_code == 200
    csv = en.get(f"/api/v1/rubbers/{rubber_id}/export.csv").get_data(as_text=True)
    assert len(csv.splitlines()) == 201
    # Replacing a hand of a full rubber is still fine; undo makes room for one more.
    assert en.put(hands + "/200", json={"points": [70, 50]}, headers=key).status_code == 200
    assert en.delete(hands + "/last", headers=key).status_code == 200
    assert en.post(hands, json={"points": [60, 60]}, headers=key).status_code == 201


# Deep and huge JSON ----------------------------------------------------------------------

NESTED = [
    "[" * 100_000 + "]" * 100_000,
    '{"a":' * 50_000 + "1" + "}" * 50_000,
    '{"points": ' + "[" * 10_000 + "]" * 10_000 + "}",
    '{"teams": [' + "[" * 10_000 + "]" * 10_000 + ', "B"]}',
    '{"rules": ' + '{"preset":' * 10_000 + '"x"' + "}" * 10_000 + "}",
]
NUMBERS = [
    f'{{"points": [{HUGE}, 0]}}',
    f'{{"points": [-{HUGE}, 0]}}',
    '{"points": [1e400, 0]}',
    '{"points": [-1e400, 0]}',
    '{"points": [NaN, 60]}',
    '{"points": [Infinity, 60]}',
    '{"points": [' + "9" * 5_000 + ", 0]}",
    f'{{"revoke": {HUGE}}}',
    f'{{"points": [60, 60], "version": {HUGE}}}',
    '{"points": [60, 60], "version": 1e400}',
    f'{{"trump": "H", "tricks": [[{HUGE}]]}}',
]


@pytest.mark.parametrize("body", NESTED + NUMBERS, ids=lambda body: body[:30])
@pytest.mark.parametrize("target", ["create", "hand", "replace", "undo", "verify"])
def test_deep_or_huge_json_is_a_4xx(app: Flask, en: FlaskClient, body: str, target: str) -> None:
    rubber_id, key = new_api_rubber(en)
    assert en.post(f"/api/v1/rubbers/{rubber_id}/hands", json={"points": [70, 50]}, headers=key)
    method, path = {
        "create": ("POST", "/api/v1/rubbers"),
        "hand": ("POST", f"/api/v1/rubbers/{rubber_id}/hands"),
        "replace": ("PUT", f"/api/v1/rubbers/{rubber_id}/hands/1"),
        "undo": ("DELETE", f"/api/v1/rubbers/{rubber_id}/hands/last"),
        "verify": ("POST", "/api/v1/verify"),
    }[target]
    before = counts(app)
    response = en.open(path, method=method, data=body, content_type="application/json", headers=key)
    assert_api_error(response)
    assert counts(app) == before


@pytest.mark.parametrize(
    "body",
    [
        {"first_dealer": HUGE},
        {"first_dealer": -HUGE},
        {"rules": {"games_to_win": HUGE}},
        {"rules": {"games_to_win": -HUGE}},
        {"rules": {"games_to_win": float("inf")}},
        {"rules": {"games_to_win": float("nan")}},
        {"rules": {"preset": HUGE}},
        {"players": [HUGE, "b", "c", "d"]},
    ],
)
def test_huge_numbers_in_a_new_rubber_are_a_4xx(app: Flask, en: FlaskClient, body: Any) -> None:
    assert_api_error(en.post("/api/v1/rubbers", json=body))
    assert counts(app) == (0, 0)


def test_huge_numbers_in_the_api_s_addresses_are_a_4xx(en: FlaskClient) -> None:
    rubber_id, key = new_api_rubber(en)
    response = en.put(
        f"/api/v1/rubbers/{rubber_id}/hands/{HUGE}", json={"points": [70, 50]}, headers=key
    )
    assert_api_error(response, 404)
    assert_api_error(en.get(f"/api/v1/rubbers/{'x' * 10_000}"), 404)
    assert_api_error(en.get(f"/api/v1/rubbers/{'x' * 10_000}/export.csv"), 404)


def test_huge_numbers_in_forms_and_addresses_are_a_4xx_or_ignored(
    app: Flask, en: FlaskClient
) -> None:
    page = en.post("/rubbers").location
    assert en.post(page + "/hands", data={"points": str(HUGE), "team": "0"}).status_code == 422
    assert en.post("/rubbers/new", data={"games_to_win": str(HUGE)}).status_code == 422
    stale = en.post(page + "/hands", data={"points": "70", "team": "0", "version": str(HUGE)})
    assert stale.status_code in (302, 409, 422)  # refused as out of date, never stored
    assert en.post(page + "/hands", data={"points": "70", "team": str(HUGE)}).status_code == 422
    assert en.get(f"{page}/hands/{HUGE}").status_code == 404
    assert en.get(f"{page}/hands/{HUGE}/edit").status_code == 404
    assert en.post(f"{page}/hands/{HUGE}/edit", data={"points": "70"}).status_code == 404
    assert counts(app) == (1, 0)
    for value in (HUGE, 2**63, -1, 0, "x", "x" * 10_000, "../r", page.rsplit("/", 1)[-1] + "x"):
        for link in ("before", "after"):
            response = en.get(f"/history?{link}={value}")
            assert response.status_code == 200, (link, value)


# Characters PostgreSQL cannot hold -------------------------------------------------------


def test_a_nul_character_is_refused_not_a_server_error(app: Flask, en: FlaskClient) -> None:
    page = en.post("/rubbers").location
    rubber_id = page.rsplit("/", 1)[-1]
    assert en.get("/r/%00abc").status_code in (400, 404)
    assert en.get(f"/r/{rubber_id}%00").status_code in (400, 404)
    assert en.get(f"/r/{rubber_id}%00/hands/1").status_code in (400, 404)
    assert en.get(f"/r/{rubber_id}/edit/%00").status_code in (400, 404)
    assert en.post("/rubbers/new", data={"team0": "a\x00b"}).status_code == 400
    assert (
        en.post(page + "/hands", data={"points": "70", "team": "0", "key": "\x00"}).status_code
        == 400
    )
    assert en.post(page + "/undo", data={"key": "a\x00"}).status_code == 400
    assert counts(app) == (1, 0)
    assert_api_error(en.get("/api/v1/rubbers/%00"), 404)
    assert_api_error(en.post("/api/v1/rubbers", json={"teams": ["a\x00", "b"]}), 422)
    assert counts(app) == (1, 0)


def test_an_overlong_write_key_is_refused_on_every_form(app: Flask, en: FlaskClient) -> None:
    """WriteKey.key holds 100 characters: a longer one never reaches the database."""
    page = en.post("/rubbers").location
    en.post(page + "/hands", data={"points": "70", "team": "0"})
    long_key = "k" * 101
    assert (
        en.post(page + "/hands", data={"points": "70", "team": "0", "key": long_key}).status_code
        == 422
    )
    assert (
        en.post(
            page + "/hands/1/edit", data={"points": "80", "team": "0", "key": long_key}
        ).status_code
        == 422
    )
    assert en.post(page + "/undo", data={"key": long_key}).status_code < 500
    assert counts(app) == (1, 1)
    rubber_id, key = new_api_rubber(en)
    response = en.post(
        f"/api/v1/rubbers/{rubber_id}/hands",
        json={"points": [70, 50], "key": long_key},
        headers=key,
    )
    assert_api_error(response, 400)
