"""A phone in another time zone reads the history's times in its own (issue 25, item 23).

Before the phone has said its zone, the server writes Lisbon's (or São Paulo's for pt-BR); the
pages' script writes the times in the phone's zone at once and keeps it in a cookie, so the
next page comes from the server in it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
import requests
from babel.dates import format_datetime, get_timezone

from .conftest import PHONE

ZONE = "Asia/Tokyo"
"""Nine hours from UTC and from Lisbon in winter: a time written in the wrong zone shows."""


@pytest.fixture
def far_phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**{**PHONE, "locale": "pt-BR", "timezone_id": ZONE})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def _shown_in(zone: str, stamp: str) -> str:
    when = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(UTC)
    return format_datetime(when, "dd/MM/yyyy HH:mm", tzinfo=get_timezone(zone), locale="pt_BR")


def test_the_history_is_in_the_phones_own_zone(live_server: str, far_phone: Any) -> None:
    made = requests.post(f"{live_server}/api/v1/rubbers", json={}, timeout=10).json()
    far_phone.goto(made["edit_url"])  # on this phone's history from now on
    far_phone.goto(f"{live_server}/history")
    time = far_phone.locator("time[datetime]").first
    stamp = time.get_attribute("datetime")
    assert stamp
    assert time.inner_text() == _shown_in(ZONE, stamp)
    assert _shown_in(ZONE, stamp) != _shown_in("America/Sao_Paulo", stamp)
    cookies = {cookie["name"]: cookie["value"] for cookie in far_phone.context.cookies()}
    assert cookies.get("tz") == "Asia/Tokyo"
    # The next page comes from the server in the phone's zone, script or not.
    served = far_phone.request.get(f"{live_server}/history").text()
    assert _shown_in(ZONE, stamp) in served


def test_an_edited_hands_hour_is_in_the_phones_own_zone(live_server: str, far_phone: Any) -> None:
    """Issue 25, item 18: the hand's page says "alterada às" in the phone's zone at once."""
    made = requests.post(f"{live_server}/api/v1/rubbers", json={}, timeout=10).json()
    hands, key = (
        f"{live_server}/api/v1/rubbers/{made['id']}/hands",
        {"X-Edit-Key": made["edit_key"]},
    )
    requests.post(hands, json={"points": [75, 45]}, headers=key, timeout=10)
    replaced = requests.put(f"{hands}/1", json={"points": [80, 40]}, headers=key, timeout=10)
    stamp = replaced.json()["hands"][0]["edited_at"]
    hour = _shown_in(ZONE, stamp)[-5:]
    assert hour != _shown_in("America/Sao_Paulo", stamp)[-5:]
    far_phone.goto(f"{made['url']}/hands/1")  # the first page this phone opens: no cookie yet
    mark = far_phone.locator(".edited")
    assert mark.inner_text() == f"alterada às {hour}"
    assert mark.locator("time").get_attribute("datetime") == stamp
