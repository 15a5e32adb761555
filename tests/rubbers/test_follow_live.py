"""What a page that follows a rubber live asks with (API.md, "Following a rubber live").

The rubber page carries its own ETag for follow.js, and the API's state has one too."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient


def carried(html: str) -> str:
    found = re.search(r'<main data-follow="([0-9a-f]{16})">', html)
    assert found, "the page carries no ETag to follow with"
    return found.group(1)


def test_the_page_carries_the_etag_it_is_answered_with(app: Flask, client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    for phone in (client, app.test_client()):  # the scorer, a follower
        answer = phone.get(page)
        tag = carried(answer.get_data(as_text=True))
        assert answer.headers["ETag"] == f'W/"{tag}"'
        # follow.js asks with the tag as it is written in the page.
        assert phone.get(page, headers={"If-None-Match": f'"{tag}"'}).status_code == 304


def test_the_page_with_a_note_carries_the_etag_of_the_page_without_it(
    client: FlaskClient,
) -> None:
    """After a hand the page shows its note once, rendered on its own.

    It carries the ETag of the kept page of the same version, so the script asks without fetching
    the page again."""
    page = client.post("/rubbers").location
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    noted = client.get(page).get_data(as_text=True)
    assert "75 → 1 jogo" in noted
    kept = client.get(page)
    assert carried(noted) == carried(kept.get_data(as_text=True))
    assert client.get(page, headers={"If-None-Match": f'"{carried(noted)}"'}).status_code == 304


def test_a_new_hand_changes_the_carried_etag(app: Flask, client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    follower = app.test_client()
    before = carried(follower.get(page).get_data(as_text=True))
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    after = follower.get(page, headers={"If-None-Match": f'"{before}"'})
    assert after.status_code == 200
    assert carried(after.get_data(as_text=True)) != before


def test_the_api_state_has_an_etag_and_answers_304_while_unchanged(client: FlaskClient) -> None:
    created = client.post("/api/v1/rubbers", json={}).get_json()
    address = f"/api/v1/rubbers/{created['id']}"
    first = client.get(address)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and first.get_json()["version"] == created["version"]
    again = client.get(address, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    hand = client.post(
        address + "/hands", json={"points": [75, 45]}, headers={"X-Edit-Key": created["edit_key"]}
    )
    assert hand.status_code == 201
    changed = client.get(address, headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.get_json()["games"] == [1, 0]
    assert changed.headers["ETag"] != etag
    assert client.get("/api/v1/rubbers/" + "x" * 32).status_code == 404


def test_the_api_etag_is_weak_and_varies_with_the_language(client: FlaskClient) -> None:
    """The same state gzipped or not, and said in the reader's language: a weak ETag, and a Vary.

    The Vary names Accept-Language (each hand's summary is in it)."""
    created = client.post("/api/v1/rubbers", json={}).get_json()
    address = f"/api/v1/rubbers/{created['id']}"
    client.post(
        address + "/hands", json={"points": [75, 45]}, headers={"X-Edit-Key": created["edit_key"]}
    )
    english = client.get(address, headers={"Accept-Language": "en"})
    portuguese = client.get(address, headers={"Accept-Language": "pt-PT"})
    assert english.headers["ETag"].startswith('W/"')
    assert "Accept-Language" in english.headers["Vary"]
    assert english.get_json()["hands"][0]["summary"] != portuguese.get_json()["hands"][0]["summary"]
    assert english.headers["ETag"] != portuguese.headers["ETag"]
    gzipped = client.get(
        address,
        headers={
            "Accept-Language": "en",
            "Accept-Encoding": "gzip",
            "If-None-Match": english.headers["ETag"],
        },
    )
    assert gzipped.status_code == 304


@pytest.mark.parametrize(
    ("path", "operation"),
    [("/api/v1/rubbers/{rubber_id}", "getRubber"), ("/api/v1/bidding/{game_id}", "getBiddingGame")],
)
def test_the_document_lists_the_etag_and_the_304(
    client: FlaskClient, path: str, operation: str
) -> None:
    """Where the API answers If-None-Match, its OpenAPI document says so.

    See API.md, "Following a rubber live"."""
    found = client.get("/api/v1/openapi.json").get_json()["paths"][path]["get"]
    assert found["operationId"] == operation
    headers = [p["name"] for p in found["parameters"] if p["in"] == "header"]
    assert headers == ["If-None-Match"]
    assert "ETag" in found["responses"]["200"]["headers"]
    assert "304" in found["responses"] and "content" not in found["responses"]["304"]
