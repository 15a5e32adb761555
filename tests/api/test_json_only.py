"""The API takes a body only as application/json.

A web page can make a visitor's browser send text/plain, or a form, anywhere without asking, never
JSON."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.support.apps import snapshot


@pytest.mark.parametrize(
    "content_type",
    ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None],
)
def test_a_body_not_declared_json_is_415(
    app: Flask, client: FlaskClient, content_type: str | None
) -> None:
    before = snapshot(app)
    headers = {"Content-Type": content_type} if content_type else {}
    answer = client.post("/api/v1/rubbers", data=b'{"teams": ["A", "B"]}', headers=headers)
    assert answer.status_code == 415
    body = answer.get_json()
    assert body["field"] is None and body["code"] == "not_json"
    assert "JSON" in body["error"] and body["error"] != "Send the body as JSON"
    assert snapshot(app) == before
    english = client.post(
        "/api/v1/groups", data=b'{"name": "G"}', headers={**headers, "Accept-Language": "en"}
    )
    assert english.status_code == 415
    assert english.get_json()["error"].startswith("Send the body as JSON")


def test_json_with_a_charset_and_bodiless_writes_pass(client: FlaskClient) -> None:
    made = client.post(
        "/api/v1/rubbers", data=b"{}", content_type="application/json; charset=utf-8"
    )
    assert made.status_code == 201
    rubber = made.get_json()
    undo = client.delete(
        f"/api/v1/rubbers/{rubber['id']}/hands/last", headers={"X-Edit-Key": rubber["edit_key"]}
    )
    assert undo.status_code == 409  # no hand to undo: the body check let it through


@pytest.mark.parametrize("content_type", ["text/plain", None])
@pytest.mark.parametrize("path", ["/api/v1/rubbers", "/api/v1/groups", "/api/v1/bidding"])
def test_a_bodiless_write_that_takes_a_body_must_say_json(
    app: Flask, client: FlaskClient, path: str, content_type: str | None
) -> None:
    """Another site's page may POST nothing, as text/plain or with no type, without asking.

    Before, the check skipped an empty body, and an empty POST from anywhere started a rubber."""
    before = snapshot(app)
    headers = {"Origin": "https://elsewhere.example"}
    if content_type:
        headers["Content-Type"] = content_type
    answer = client.post(path, data=b"", headers=headers)
    assert answer.status_code == 415, answer.get_data(as_text=True)[:200]
    assert answer.get_json()["code"] == "not_json"
    assert snapshot(app) == before


def test_an_empty_json_write_still_starts_a_rubber(client: FlaskClient) -> None:
    made = client.post("/api/v1/rubbers", data=b"", content_type="application/json")
    assert made.status_code == 201
