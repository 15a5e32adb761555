"""POST /api/v1/analysis and its status address (API.md, "Exact analysis").

Here huey runs in its immediate mode (``memory://``), so the answer is ready within the request;
tests/background/test_queue.py runs a real consumer, and the 202 path.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.background.models import Analysis
from scorekeeper.engine import RuleSet, verify_record
from scorekeeper.engine.analysis import (
    AnalysisCode,
    AnalysisError,
    Position,
    analyse_record,
    best_cards,
)
from scorekeeper.extensions import db
from scorekeeper.web import wording
from tests.api.test_api import conforms
from tests.support.apps import fresh_app
from tests.support.records import FULL_RECORD

HANDS = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
        "ANALYSIS_QUEUE_URL": "memory://",
    }
    with fresh_app(tmp_path_factory.mktemp("db") / "test.sqlite3", config) as app:
        yield app


@pytest.fixture
def openapi(client: FlaskClient) -> dict[str, Any]:
    answer = client.get("/api/v1/openapi.json")
    assert answer.status_code == 200
    return answer.get_json()


def rows(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Analysis).count()


def test_open_hands_are_answered_with_their_value_and_best_cards(
    client: FlaskClient, openapi: dict[str, Any]
) -> None:
    answer = client.post("/api/v1/analysis", json={"trump": "C", "leader": 0, "hands": HANDS})
    assert answer.status_code == 200
    result = answer.get_json()
    conforms(result, "AnalysisResult", openapi)
    value, kept = best_cards(Position.from_hands("C", 0, HANDS, RuleSet()))
    assert result["value"] == [value, 39 - value] == [28, 11]
    assert result["best_cards"] == [str(card) for card in kept] == ["2H", "AS"]
    status = client.get(result["status_url"])
    assert status.status_code == 200
    body = status.get_json()
    conforms(body, "AnalysisStatus", openapi)
    assert body["status"] == "done" and body["progress"] == [1, 1]
    assert body["result"]["value"] == [28, 11]


def test_a_record_is_answered_card_by_card(
    app: Flask, client: FlaskClient, openapi: dict[str, Any]
) -> None:
    body = {"trump": "H", "leader": 1, "tricks": FULL_RECORD, "rules": {"preset": "portugal"}}
    answer = client.post("/api/v1/analysis", json=body)
    assert answer.status_code == 200
    result = answer.get_json()
    conforms(result, "AnalysisResult", openapi)
    rules = RuleSet()
    expected = analyse_record(verify_record("H", 1, FULL_RECORD, rules), rules)
    assert result["complete"] is True
    assert result["value"] == list(expected.value or ()) == [52, 68]
    assert result["played"] == [48, 72]
    assert len(result["cards"]) == 40
    first = result["cards"][0]
    assert first == {
        "trick": 1,
        "seat": 1,
        "card": "AS",
        "value": list(expected.cards[0].value),
        "best": list(expected.cards[0].best),
        "cost": expected.cards[0].cost,
        "best_cards": [str(card) for card in expected.cards[0].best_cards],
    }
    assert [card["cost"] for card in result["cards"]] == [card.cost for card in expected.cards]
    # The same record again is the stored analysis, not a second one.
    again = client.post("/api/v1/analysis", json=body)
    assert again.status_code == 200 and again.get_json() == result
    assert rows(app) == 1


def test_the_same_hands_in_another_order_are_one_analysis(app: Flask, client: FlaskClient) -> None:
    first = client.post("/api/v1/analysis", json={"trump": "C", "leader": 0, "hands": HANDS})
    shuffled = [list(reversed(hand)) for hand in HANDS]
    second = client.post("/api/v1/analysis", json={"trump": "C", "leader": 0, "hands": shuffled})
    assert first.get_json()["status_url"] == second.get_json()["status_url"]
    assert rows(app) == 1


REVOKED = [list(trick) for trick in FULL_RECORD]
REVOKED[0][3], REVOKED[3][1] = "3H", "JS"  # seat 0 trumps the AS while holding the JS


@pytest.mark.parametrize(
    ("body", "field", "code", "words"),
    [
        ({"trump": "H", "leader": 1, "tricks": FULL_RECORD[:9]}, "tricks", "incomplete", "9"),
        (
            {"trump": "H", "leader": 1, "tricks": [FULL_RECORD[0], *FULL_RECORD[:9]]},
            "tricks",
            "record",
            "AS",
        ),
        ({"trump": "C", "leader": 0, "hands": [*HANDS[:3], ["JS"]]}, "hands", "hand_sizes", "1"),
        (
            {"trump": "C", "leader": 0, "hands": [*HANDS[:3], ["JS", "AS"]]},
            "hands",
            "repeated_card",
            "AS",
        ),
        ({"trump": "C", "leader": 0, "hands": [[], [], [], []]}, "hands", "hand_sizes", "10"),
        ({"trump": "C", "leader": 0, "hands": [*HANDS[:3], ["JS", "XX"]]}, "hands", None, "XX"),
    ],
)
def test_what_cannot_be_analysed_is_422_with_the_problem(
    app: Flask,
    client: FlaskClient,
    body: dict[str, Any],
    field: str,
    code: str | None,
    words: str,
) -> None:
    answer = client.post("/api/v1/analysis", json=body)
    assert answer.status_code == 422
    error = answer.get_json()
    assert error["field"] == field
    if code is not None:
        assert error["code"] == code
    assert words in error["error"]
    assert rows(app) == 0


def test_a_record_with_a_revoke_is_422_in_the_users_language(
    app: Flask, client: FlaskClient
) -> None:
    record = verify_record("H", 1, REVOKED, RuleSet())
    assert record.revokes, "the test's record must prove a revoke"
    body = {"trump": "H", "leader": 1, "tricks": REVOKED}
    english = client.post("/api/v1/analysis", json=body, headers={"Accept-Language": "en"})
    assert english.status_code == 422 and english.get_json()["code"] == "revoke"
    assert "a revoke ends the hand" in english.get_json()["error"]
    portuguese = client.post("/api/v1/analysis", json=body, headers={"Accept-Language": "pt-PT"})
    assert "renúncia" in portuguese.get_json()["error"]
    assert rows(app) == 0


@pytest.mark.parametrize(
    "body",
    [
        {"trump": "C", "leader": 0},
        {"trump": "C", "leader": 0, "hands": HANDS, "tricks": FULL_RECORD},
        {"trump": "C", "leader": 0, "hands": HANDS[:3]},
        {"trump": "C", "leader": "0", "hands": HANDS},
        {"trump": "C", "leader": 0, "hands": "AS"},
        {"trump": "C", "leader": 0, "hands": [[1, 2], [3, 4], [5, 6], [7, 8]]},
        {"trump": "C", "leader": 0, "hands": HANDS, "depth": 3},
        {"leader": 0, "hands": HANDS},
    ],
)
def test_a_malformed_body_is_400(app: Flask, client: FlaskClient, body: dict[str, Any]) -> None:
    answer = client.post("/api/v1/analysis", json=body)
    assert answer.status_code == 400, answer.get_json()
    assert answer.get_json()["error"]
    assert rows(app) == 0


def test_an_unknown_analysis_is_404(client: FlaskClient) -> None:
    for address in ("/api/v1/analysis/" + "0" * 64, "/api/v1/analysis/" + "x" * 300):
        answer = client.get(address)
        assert answer.status_code == 404
        assert answer.get_json()["code"] in ("no_analysis", "http_404")


@pytest.mark.parametrize("problem", list(AnalysisCode))
def test_every_analysis_problem_has_its_words_in_each_language(
    app: Flask, problem: AnalysisCode
) -> None:
    error = AnalysisError(problem, "engine's own text", "AS")
    said = {}
    for language in ("en", "pt_PT", "pt_BR"):
        with app.test_request_context(headers={"Accept-Language": language.replace("_", "-")}):
            said[language] = wording.analysis_error(error)
    assert "engine's own text" not in said.values()
    assert said["pt_PT"] != said["en"] and said["pt_BR"] != said["en"]
