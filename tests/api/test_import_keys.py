"""An import whose answer was lost gives its rubbers' edit keys again (issue 24, item 5).

An import may carry an idempotency key, as a hand does: the same file sent again under it
answers every rubber the key made, with edit keys that open them, and makes nothing twice.
"""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.support.api_calls import new_group
from tests.support.apps import snapshot

WON = {"kind": "played", "points": [91, 29]}


def backup(exported: int, plain: int) -> dict[str, Any]:
    """An export file: rubbers with the id they had, and some written by hand without one."""
    rubbers: list[dict[str, Any]] = [
        {"id": f"backup-rubber-{n}", "players": ["Ana", "Rui", "Zé", "Bia"], "hands": [WON] * 2}
        for n in range(exported)
    ]
    rubbers += [{"hands": [WON]}] * plain
    return {"format": "sueca-group", "version": 1, "rubbers": rubbers}


def send(client: FlaskClient, group: dict[str, Any], body: Any) -> Any:
    return client.post(
        f"/api/v1/groups/{group['id']}/import",
        json=body,
        headers={"X-Group-Key": group["edit_key"], "Accept-Language": "en"},
    )


def test_an_import_whose_answer_was_lost_gives_its_edit_keys_again(client: FlaskClient) -> None:
    group = new_group(client)
    file = {**backup(exported=3, plain=2), "key": "restore-2026-12-02"}
    send(client, group, file)  # its answer lost: never read
    again = send(client, group, file)
    assert again.status_code == 200, again.get_json()
    answer = again.get_json()
    assert (answer["created"], answer["skipped"]) == (5, 0)
    assert sorted(r["origin"] for r in answer["rubbers"] if r["origin"]) == [
        f"backup-rubber-{n}" for n in range(3)
    ]
    assert client.get(f"/api/v1/groups/{group['id']}").get_json()["rubbers"] == 5
    for rubber in answer["rubbers"]:  # each key is the rubber's
        hand = client.post(
            f"/api/v1/rubbers/{rubber['id']}/hands",
            json={"points": [60, 60]},
            headers={"X-Edit-Key": rubber["edit_key"]},
        )
        assert hand.status_code in (201, 409), hand.get_json()  # 409: a rubber already over
        assert hand.get_json().get("code") != "edit_key_wrong"
    third = send(client, group, file).get_json()
    assert third["rubbers"] == answer["rubbers"]


def test_the_same_import_key_with_another_file_is_refused(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    assert send(client, group, {**backup(1, 0), "key": "k1"}).status_code == 200
    before = snapshot(app)
    refused = send(client, group, {**backup(2, 0), "key": "k1"})
    assert refused.status_code == 409, refused.get_json()
    assert refused.get_json()["code"] == "key_reused" and refused.get_json()["field"] == "key"
    assert snapshot(app) == before


def test_an_import_without_a_key_answers_only_what_it_made(client: FlaskClient) -> None:
    group = new_group(client)
    assert send(client, group, backup(2, 0)).get_json()["created"] == 2
    again = send(client, group, backup(2, 0)).get_json()
    assert (again["created"], again["skipped"], again["rubbers"]) == (0, 2, [])
