"""An edited hand says when it was changed (issue 25, item 18: "edits leave no trace").

A hand replaced with other values (its edit page, the API's PUT) keeps the time of its last
change; the rubber's list of hands and the hand's own page write it as "alterada às 01:49" in
the reader's time zone. A new hand, an undo, or an edit that changes nothing is no edit."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.bidding import store as bidding_store
from scorekeeper.rubbers import store
from scorekeeper.web.i18n import TIME_ZONE_COOKIE

from .test_pages import record, start

EDITED = datetime(2026, 12, 2, 1, 49)
"""01:49 UTC on 2 December: 01:49 in Lisbon (winter), 22:49 the day before in São Paulo."""


@pytest.fixture(autouse=True)
def _clock(monkeypatch: pytest.MonkeyPatch) -> None:
    for module in (store, bidding_store):
        monkeypatch.setattr(module, "utcnow", lambda: EDITED)


def marks(html: str) -> list[str]:
    """The list's hands, newest first: each one's change mark, or "" when it has none."""
    items = re.findall(r"<li>\s*<a href=\"[^\"]+/hands/\d+\">(.*?)</li>", html, re.S)
    assert items, html
    return [" ".join(re.findall(r'class="edited">(.*?)</small>', item, re.S)) for item in items]


def text(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def a_rubber_with_hand_1_edited(client: FlaskClient) -> str:
    page = start(client)
    record(client, page, points="75")
    record(client, page, points="40")
    edited = client.post(
        page + "/hands/1/edit", data={"action": "points", "team": "0", "points": "80"}
    )
    assert edited.status_code == 302
    return page


def test_the_list_and_the_hands_page_say_when_a_hand_was_changed(client: FlaskClient) -> None:
    page = a_rubber_with_hand_1_edited(client)
    html = client.get(page).get_data(as_text=True)
    # Newest first: hand 2 as recorded, hand 1 changed at 01:49 in Lisbon.
    assert [text(mark) for mark in marks(html)] == ["", "alterada às 01:49"]
    assert '<time datetime="2026-12-02T01:49:00Z" data-clock>01:49</time>' in html
    hand = client.get(page + "/hands/1").get_data(as_text=True)
    assert "alterada às 01:49" in text(hand)
    assert "alterada às" not in text(client.get(page + "/hands/2").get_data(as_text=True))


def test_the_mark_is_in_the_readers_zone_and_language(client: FlaskClient) -> None:
    page = a_rubber_with_hand_1_edited(client)
    assert "alterada às 01:49" in text(client.get(page).get_data(as_text=True))
    # The same phone's zone said afterwards: the kept page is not another zone's.
    client.set_cookie(TIME_ZONE_COOKIE, "America/Sao_Paulo")
    assert [text(m) for m in marks(client.get(page).get_data(as_text=True))] == [
        "",
        "alterada às 22:49",
    ]
    hand = client.get(page + "/hands/1", headers={"Accept-Language": "pt-BR"})
    assert "alterada às 22:49" in text(hand.get_data(as_text=True))
    client.set_cookie(TIME_ZONE_COOKIE, "Asia/Tokyo")
    english = client.get(page, headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert [text(m) for m in marks(english)] == ["", "changed at 10:49"]


def test_a_new_hand_an_undo_and_an_unchanged_save_are_no_edit(client: FlaskClient) -> None:
    page = start(client)
    record(client, page, points="75")
    record(client, page, points="40")
    # Saved as it was: nothing changed, nothing to say.
    same = client.post(
        page + "/hands/1/edit", data={"action": "points", "team": "0", "points": "75"}
    )
    assert same.status_code == 302
    assert client.post(page + "/undo", data={}).status_code == 302
    html = client.get(page).get_data(as_text=True)
    assert marks(html) == [""]
    assert "alterada às" not in text(html)


def test_the_api_gives_each_hand_its_edited_at(client: FlaskClient) -> None:
    rubber = client.post("/api/v1/rubbers", json={}).get_json()
    url, key = f"/api/v1/rubbers/{rubber['id']}/hands", {"X-Edit-Key": rubber["edit_key"]}
    for points in ([75, 45], [40, 80]):
        assert client.post(url, json={"points": points}, headers=key).status_code == 201
    replaced = client.put(url + "/1", json={"points": [80, 40]}, headers=key)
    assert replaced.status_code == 200
    edited = [hand["edited_at"] for hand in replaced.get_json()["hands"]]
    assert edited == ["2026-12-02T01:49:00Z", None]
    undone = client.delete(url + "/last", headers=key).get_json()
    assert [hand["edited_at"] for hand in undone["hands"]] == ["2026-12-02T01:49:00Z"]
    added = client.post(url, json={"points": [60, 60]}, headers=key).get_json()
    assert [hand["edited_at"] for hand in added["hands"]] == ["2026-12-02T01:49:00Z", None]


def test_a_bidding_games_edited_hand_says_so_too(app: Flask, client: FlaskClient) -> None:
    players = ["Ana", "Bruno", "Carla", "Duarte"]
    game: dict[str, Any] = client.post(
        "/api/v1/bidding", json={"players": players, "target": 200}
    ).get_json()
    url, key = f"/api/v1/bidding/{game['id']}/hands", {"X-Edit-Key": game["edit_key"]}
    for bidder in (0, 1):
        body = {"bidder": bidder, "bid": 70, "partner": 2, "made": True}
        assert client.post(url, json=body, headers=key).status_code == 201
    body = {"bidder": 0, "bid": 80, "partner": 2, "made": True}
    replaced = client.put(url + "/1", json=body, headers=key)
    assert replaced.status_code == 200, replaced.get_json()
    assert [hand["edited_at"] for hand in replaced.get_json()["hands"]] == [
        "2026-12-02T01:49:00Z",
        None,
    ]
    page = client.get(f"/b/{game['id']}").get_data(as_text=True)
    assert text(page).count("alterada às 01:49") == 1
