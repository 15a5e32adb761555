"""Rate limits on creations (web/limits.py).

Per client, by the forms and the API, shared between servers through a real Redis, and off with
RATELIMIT_ENABLED=0."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, request

from scorekeeper import create_app
from scorekeeper.web import limits
from tests.support import servers
from tests.support.apps import fresh_app
from tests.support.servers import redis_server

CONFIG = {"TESTING": True, "SECRET_KEY": "limits", "WTF_CSRF_ENABLED": False}
RUBBERS_PER_MINUTE = 30
GROUPS_PER_MINUTE = 10
ANALYSES_PER_MINUTE = 20
HANDS = {
    "trump": "C",
    "leader": 0,
    "hands": [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]],
}


def limited(number: str) -> int:
    return int(number.split("/")[0])


@pytest.fixture
def limited_app(tmp_path: Path) -> Iterator[Flask]:
    with fresh_app(tmp_path / "limits.sqlite3", {**CONFIG, "RATELIMIT_ENABLED": True}) as app:
        yield app


def from_address(address: str) -> dict[str, Any]:
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_the_limits_are_those_documented() -> None:
    assert limited(limits.RUBBERS) == RUBBERS_PER_MINUTE
    assert limited(limits.GROUPS) == GROUPS_PER_MINUTE
    assert limited(limits.ANALYSES) == ANALYSES_PER_MINUTE


def test_rubbers_are_limited_per_client_forms_and_api_together(limited_app: Flask) -> None:
    client = limited_app.test_client()
    for number in range(RUBBERS_PER_MINUTE):
        via = "/rubbers" if number % 2 else "/api/v1/rubbers"
        answer = client.post(via, json={}) if via.startswith("/api") else client.post(via)
        assert answer.status_code in (201, 302), (number, answer.status_code)
    refused = client.post("/api/v1/rubbers", json={})
    assert refused.status_code == 429
    body = refused.get_json()
    assert body["field"] is None and body["code"] == "rate_limited"
    assert "minuto" in body["error"]  # Portuguese, the default language
    assert "Retry-After" in refused.headers
    page = client.post("/rubbers", headers={"Accept-Language": "en"})
    assert page.status_code == 429
    assert "wait a minute" in page.get_data(as_text=True)
    assert page.mimetype == "text/html"
    # Another address has a count of its own; reading is never limited.
    other = limited_app.test_client()
    assert other.post("/api/v1/rubbers", json={}, **from_address("192.0.2.7")).status_code == 201
    assert client.get("/rubbers/new").status_code == 200


def test_asking_for_analyses_is_limited_per_client_page_and_api_together(
    tmp_path: Path,
) -> None:
    """Asking again for an analysis is answered at once, so it is counted (issue 24, item 1)."""
    config = {**CONFIG, "RATELIMIT_ENABLED": True, "ANALYSIS_QUEUE_URL": "memory://"}
    with fresh_app(tmp_path / "analyses.sqlite3", config) as app:
        client = app.test_client()
        answers = [client.post("/api/v1/analysis", json=HANDS) for _ in range(ANALYSES_PER_MINUTE)]
        assert [answer.status_code for answer in answers] == [200] * ANALYSES_PER_MINUTE
        refused = client.post("/api/v1/analysis", json=HANDS)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        assert refused.get_json() == {
            "error": "Demasiados pedidos de análise a partir deste endereço: espere um minuto e "
            "tente de novo.",
            "field": None,
            "code": "rate_limited",
        }
        # The page's own POST shares the count: refused before the page looks for the hand.
        page = client.post("/r/nosuchrubber/hands/1/analysis", headers={"Accept-Language": "en"})
        assert page.status_code == 429 and page.mimetype == "text/html"
        assert "Too many analyses asked for from this address" in page.get_data(as_text=True)
        other = client.post("/api/v1/analysis", json=HANDS, **from_address("192.0.2.7"))
        assert other.status_code == 200
        # Reading an analysis' state is never limited.
        assert client.get(answers[0].get_json()["status_url"]).status_code == 200


def test_groups_and_imports_are_limited(limited_app: Flask) -> None:
    client = limited_app.test_client()
    made = [client.post("/api/v1/groups", json={"name": f"Mesa {n}"}) for n in range(5)]
    for n in range(GROUPS_PER_MINUTE - 5):
        assert client.post("/groups/new", data={"name": f"Tasca {n}"}).status_code == 302
    assert client.post("/api/v1/groups", json={"name": "Mais"}).status_code == 429
    assert client.post("/groups/new", data={"name": "Mais"}).status_code == 429
    group = made[0].get_json()
    key = {"X-Group-Key": group["edit_key"]}
    url = f"/api/v1/groups/{group['id']}/import"
    answers = [client.post(url, json={"rubbers": []}, headers=key) for _ in range(6)]
    assert [answer.status_code for answer in answers] == [200] * 5 + [429]


def test_limits_off_in_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RATELIMIT_ENABLED", "0")
    with fresh_app(tmp_path / "off.sqlite3", CONFIG) as app:
        assert app.config["RATELIMIT_ENABLED"] is False
        client = app.test_client()
        for _ in range(RUBBERS_PER_MINUTE + 5):
            assert client.post("/api/v1/rubbers", json={}).status_code == 201


def test_limits_on_by_default(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RATELIMIT_ENABLED", raising=False)
    monkeypatch.delenv("RATELIMIT_STORAGE_URI", raising=False)
    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    assert app.config["RATELIMIT_ENABLED"] is True
    assert app.config["RATELIMIT_STORAGE_URI"] == "memory://"


def test_two_servers_share_the_count_in_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with redis_server(tmp_path) as url:
        monkeypatch.setenv("RATELIMIT_STORAGE_URI", url)
        with fresh_app(tmp_path / "shared.sqlite3", CONFIG) as first:
            second = create_app(
                {**CONFIG, "SQLALCHEMY_DATABASE_URI": first.config["SQLALCHEMY_DATABASE_URI"]}
            )
            assert first.config["RATELIMIT_STORAGE_URI"] == url
            clients = [first.test_client(), second.test_client()]
            for number in range(GROUPS_PER_MINUTE):
                answer = clients[number % 2].post("/api/v1/groups", json={"name": f"G{number}"})
                assert answer.status_code == 201, answer.get_json()
            assert clients[0].post("/api/v1/groups", json={"name": "x"}).status_code == 429
            assert clients[1].post("/api/v1/groups", json={"name": "y"}).status_code == 429
            for app in (first, second):
                app.extensions["scorekeeper.limits"].storage.storage.close()


def test_the_factor_raises_the_limits_through_configuration_only(tmp_path: Path) -> None:
    config = {**CONFIG, "RATELIMIT_ENABLED": True, "RATELIMIT_FACTOR": "2"}
    with fresh_app(tmp_path / "factor.sqlite3", config) as app:
        client = app.test_client()
        answers = [
            client.post("/api/v1/groups", json={"name": "T"}).status_code
            for _ in range(2 * GROUPS_PER_MINUTE + 1)
        ]
    assert answers == [201] * (2 * GROUPS_PER_MINUTE) + [429]
    assert limits.scaled(limits.RUBBERS, 3) == "90/minute;900/hour"
    with pytest.raises(ValueError, match="RATELIMIT_FACTOR"):
        create_app({**CONFIG, "RATELIMIT_FACTOR": "0"})


def test_under_ci_servers_sharing_the_work_need_redis(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Several app servers without REDIS_URL would each count alone.

    CI fails rather than starting without the shared count (.ci/run starts Redis and sets
    REDIS_URL)."""
    monkeypatch.setenv("CI", "true")
    monkeypatch.setattr(servers, "REDIS_URL", "")
    with pytest.raises(pytest.fail.Exception, match="REDIS_URL"):
        with servers.shared_limits(tmp_path, 2):
            pass
    with servers.shared_limits(tmp_path, 1) as alone:
        assert alone == {}
    monkeypatch.setattr(servers, "REDIS_URL", "redis://127.0.0.1:1")
    with servers.shared_limits(tmp_path, 2) as shared:
        assert shared["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:1"
        assert shared["RATELIMIT_KEY_PREFIX"].startswith("test-")


def test_only_a_limited_view_pays_for_the_limits(
    limited_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limiter's work is done by the limited views alone.

    A page that is not limited never reaches it (docs/performance.md); the limited ones still
    count."""
    from flask_limiter import Limiter

    asked: list[str] = []
    identify = Limiter.identify_request

    def counted(self: Limiter) -> str:
        asked.append(request.path)
        return identify(self)

    monkeypatch.setattr(Limiter, "identify_request", counted)
    client = limited_app.test_client()
    rubber = client.post("/api/v1/rubbers", json={}).get_json()
    assert set(asked) == {"/api/v1/rubbers"}
    for path in (f"/r/{rubber['id']}", "/", f"/api/v1/rubbers/{rubber['id']}", "/history"):
        assert client.get(path).status_code == 200, path
    assert set(asked) == {"/api/v1/rubbers"}
    for _ in range(RUBBERS_PER_MINUTE - 1):
        assert client.post("/rubbers").status_code == 302
    assert client.post("/rubbers").status_code == 429


def test_every_door_that_starts_a_bidding_game_is_limited(limited_app: Flask) -> None:
    """The bidding page's one-tap "same table again" and a group's new game count with the rest.

    980 games in 30 s from one address went through POST /bidding before, with no limit."""
    client = limited_app.test_client()
    group = client.post("/api/v1/groups", json={"name": "Mesa"}).get_json()
    assert client.get(f"/g/{group['id']}/edit/{group['edit_key']}").status_code == 302
    players = ["Ana", "Bruno", "Carla", "Duarte"]
    form = {f"player{seat}": name for seat, name in enumerate(players)} | {"target": "61"}
    answers = []
    for number in range(RUBBERS_PER_MINUTE):
        if number % 3 == 0:
            answers.append(client.post("/api/v1/bidding", json={"players": players}))
        elif number % 3 == 1:
            answers.append(client.post("/bidding"))
        else:
            answers.append(client.post(f"/g/{group['id']}/bidding/new", data=form))
    assert all(answer.status_code in (201, 302) for answer in answers), [
        answer.status_code for answer in answers
    ]
    for door in ("/bidding", f"/g/{group['id']}/bidding/new"):
        assert client.post(door, data=form).status_code == 429, door
    assert client.post("/api/v1/bidding", json={"players": players}).status_code == 429
    assert client.post("/api/v1/rubbers", json={}).status_code == 201  # a count of its own


def test_the_limits_count_in_memory_while_their_storage_is_down(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A Redis out of reach answers no 500: the counts go on in this process, said in the log.

    The limits still hold meanwhile (docs/decisions/limits.md, "When the limits' storage is
    down")."""
    monkeypatch.setenv("RATELIMIT_STORAGE_URI", f"redis://127.0.0.1:{servers.free_port()}")
    with fresh_app(tmp_path / "down.sqlite3", CONFIG) as app:
        client = app.test_client()
        with caplog.at_level("WARNING"):
            for number in range(GROUPS_PER_MINUTE):
                answer = client.post("/api/v1/groups", json={"name": f"G{number}"})
                assert answer.status_code == 201, answer.get_data(as_text=True)
            assert client.post("/api/v1/groups", json={"name": "x"}).status_code == 429
        said = "falling back to in-memory storage"
        assert any(said in record.getMessage() for record in caplog.records), [
            record.getMessage() for record in caplog.records
        ]
