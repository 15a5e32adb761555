"""Calls to the JSON API that tests of groups make again and again.

A group, a rubber (in a group or not), hands played in it; each answered as it should be."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient


def new_group(client: FlaskClient, name: str = "Tasca") -> dict[str, Any]:
    created = client.post("/api/v1/groups", json={"name": name})
    assert created.status_code == 201, created.get_json()
    return dict(created.get_json())


def new_rubber(client: FlaskClient, group: dict[str, Any] | None, **body: Any) -> dict[str, Any]:
    """A rubber started with this body, in the group (by its key) if one is given."""
    headers = {}
    if group is not None:
        body["group"] = group["id"]
        headers["X-Group-Key"] = group["edit_key"]
    created = client.post("/api/v1/rubbers", json=body, headers=headers)
    assert created.status_code == 201, created.get_json()
    return dict(created.get_json())


def play(client: FlaskClient, rubber: dict[str, Any], *hands: dict[str, Any]) -> dict[str, Any]:
    """Record the hands one after another: the rubber's state after the last."""
    state: dict[str, Any] = {}
    for hand in hands:
        response = client.post(
            f"/api/v1/rubbers/{rubber['id']}/hands",
            json=hand,
            headers={"X-Edit-Key": rubber["edit_key"]},
        )
        assert response.status_code == 201, response.get_json()
        state = response.get_json()
    return state
