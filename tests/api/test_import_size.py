"""A group import is capped and written in batches.

One of more rubbers or hands than an import takes is refused at once, before any of it is read or
scored, and stores nothing; one that is taken lets the other tables' hands through while it is
written (api/groups.py, "Import")."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.api import groups as groups_api
from scorekeeper.api.groups import IMPORT_BATCH, MAX_IMPORT_HANDS, MAX_IMPORT_RUBBERS
from scorekeeper.engine.scoring import MAX_HANDS
from tests.support.api_calls import new_group, new_rubber
from tests.support.apps import fresh_app, served, snapshot

TIE = {"kind": "tie", "points": [60, 60]}
PLAYERS = ["Ana", "Rui", "Zé", "Bia"]


def import_url(group: dict[str, Any]) -> tuple[str, dict[str, str]]:
    return f"/api/v1/groups/{group['id']}/import", {"X-Group-Key": group["edit_key"]}


def send(client: FlaskClient, group: dict[str, Any], body: Any) -> tuple[Any, float]:
    url, key = import_url(group)
    data = json.dumps(body).encode()
    started = time.perf_counter()
    headers = {**key, "Accept-Language": "en"}
    answer = client.post(url, data=data, content_type="application/json", headers=headers)
    return answer, (time.perf_counter() - started) * 1000


def test_ten_thousand_empty_rubbers_are_refused_at_once(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Refused before one rubber of the file is read or scored (the old import scored them all)."""
    group = new_group(client)
    before = snapshot(app)
    started: list[object] = []
    real_new_rubber = groups_api.engine.new_rubber

    def counted(*args: Any, **kwargs: Any) -> Any:
        started.append(args)
        return real_new_rubber(*args, **kwargs)

    monkeypatch.setattr(groups_api.engine, "new_rubber", counted)
    answer, took = send(client, group, {"rubbers": [{}] * 10_000})  # 40 KB
    assert answer.status_code == 413, answer.get_json()
    body = answer.get_json()
    assert body["code"] == "import_too_large" and body["field"] == "rubbers"
    assert f"at most {MAX_IMPORT_RUBBERS} rubbers" in body["error"]
    assert "10000" in body["error"] or "10,000" in body["error"]
    assert snapshot(app) == before
    assert started == []  # no rubber of the file was played by the engine
    print(f"\n10,000 empty rubbers refused in {took:.0f} ms")


def test_too_many_hands_are_refused_in_the_readers_language(
    app: Flask, client: FlaskClient
) -> None:
    group = new_group(client)
    before = snapshot(app)
    rubbers = [{"hands": [TIE] * 200}] * (MAX_IMPORT_HANDS // 200 + 1)
    url, key = import_url(group)
    answer = client.post(url, json={"rubbers": rubbers}, headers={**key, "Accept-Language": "pt"})
    assert answer.status_code == 413, answer.get_json()
    body = answer.get_json()
    assert body["code"] == "import_too_large" and body["field"] == "rubbers"
    assert "mãos" in body["error"] and f"{MAX_IMPORT_HANDS}" in body["error"].replace(" ", "")
    assert snapshot(app) == before


def test_an_import_at_the_rubber_cap_is_taken(client: FlaskClient) -> None:
    group = new_group(client)
    answer, took = send(client, group, {"rubbers": [{}] * MAX_IMPORT_RUBBERS})
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["created"] == MAX_IMPORT_RUBBERS
    stats = client.get(f"/api/v1/groups/{group['id']}").get_json()
    assert stats["rubbers"] == MAX_IMPORT_RUBBERS
    print(f"\n{MAX_IMPORT_RUBBERS} rubbers imported in {took:.0f} ms")


def test_an_import_in_batches_rates_like_one_written_at_once(client: FlaskClient) -> None:
    """Each batch is rated when it is written.

    The ratings after the import are those of the same rubbers played one by one."""
    won = {"kind": "played", "points": [91, 29]}
    rubbers = [
        {
            "players": PLAYERS if n % 2 else PLAYERS[::-1],
            "hands": [won] * 2,
            "created_at": f"2025-01-{1 + n // 24:02d}T{n % 24:02d}:00:00Z",
        }
        for n in range(IMPORT_BATCH * 2 + 3)
    ]
    imported = new_group(client, "Importada")
    assert send(client, imported, {"rubbers": rubbers})[0].status_code == 200
    one_by_one = new_group(client, "Uma a uma")
    for rubber in rubbers:
        assert send(client, one_by_one, {"rubbers": [rubber]})[0].status_code == 200
    first = client.get(f"/api/v1/groups/{imported['id']}/stats").get_json()["players"]
    second = client.get(f"/api/v1/groups/{one_by_one['id']}/stats").get_json()["players"]
    assert [(p["name"], p["won"], round(p["rating"], 9)) for p in first] == [
        (p["name"], p["won"], round(p["rating"], 9)) for p in second
    ]
    assert first[0]["rubbers"] == len(rubbers)


def test_a_hand_at_another_table_is_answered_while_a_large_import_is_written(
    tmp_path: Path,
) -> None:
    """On a real server on 127.0.0.1.

    A table records a hand every few milliseconds while the largest import is written; each is
    answered within a bound, and several during it."""
    config = {"SECRET_KEY": "x", "WTF_CSRF_ENABLED": False, "RATELIMIT_ENABLED": False}
    with fresh_app(tmp_path / "busy.sqlite3", config) as app, served(app) as base:
        client = app.test_client()
        group = new_group(client)
        table = new_rubber(client, None)
        per_rubber = MAX_IMPORT_HANDS // MAX_IMPORT_RUBBERS
        body = {"rubbers": [{"players": PLAYERS, "hands": [TIE] * per_rubber}] * 300}
        url, key = import_url(group)
        done: dict[str, Any] = {}

        def run_import() -> None:
            started = time.perf_counter()
            answer = requests.post(base + url, json=body, headers=key, timeout=120)
            done["status"], done["took"] = answer.status_code, time.perf_counter() - started

        importer = threading.Thread(target=run_import)
        hand_url = f"{base}/api/v1/rubbers/{table['id']}/hands"
        answered: list[float] = []
        with requests.Session() as phone:
            importer.start()
            try:
                time.sleep(0.2)  # the import is read and scored first
                while importer.is_alive():
                    if len(answered) % (MAX_HANDS - 1) == MAX_HANDS - 2:
                        # Ties never end a rubber, but one holds 200 hands: a slow machine's
                        # import outlasts them, and the table goes on with its next rubber.
                        table = new_rubber(client, None)
                        hand_url = f"{base}/api/v1/rubbers/{table['id']}/hands"
                    started = time.perf_counter()
                    answer = phone.post(
                        hand_url,
                        json={"points": [60, 60]},
                        headers={"X-Edit-Key": table["edit_key"]},
                        timeout=30,
                    )
                    took = time.perf_counter() - started
                    if importer.is_alive():
                        assert answer.status_code == 201, answer.text
                        answered.append(took)
                    time.sleep(0.01)
            finally:
                importer.join()  # before its tables are dropped under it
    assert done["status"] == 200, done
    print(
        f"\nimport of 300 rubbers, {300 * per_rubber} hands: {done['took'] * 1000:.0f} ms; "
        f"{len(answered)} hands answered during it, the slowest in {max(answered) * 1000:.0f} ms"
    )
    # Had the import held the writers' lock from start to end, the first hand would have waited
    # for its end, and none would be answered while it ran.
    assert len(answered) >= 5
