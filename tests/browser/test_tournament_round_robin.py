"""A round robin of 5 pairs on a real server, at a small phone's size (issue 42, item 7).

Every round is drawn at the start, but the tables play one at a time: the organizer's page shows
round 1's tables, labelled with their round, and round 2's once round 1 is played."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .conftest import PHONE

BANDEIRA = {"points": [120, 0], "all_tricks": True}
SMALL_PHONE = {**PHONE, "viewport": {"width": 360, "height": 640}}


@pytest.fixture
def organizer(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**SMALL_PHONE)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def play_round(base: str, tournament: dict[str, Any], number: int) -> None:
    """Each match of the round won by its first pair, through the API with the organizer's key."""
    state = requests.get(f"{base}/api/v1/tournaments/{tournament['id']}", timeout=10).json()
    (drawn,) = [r for r in state["rounds"] if r["number"] == number]
    for match in drawn["matches"]:
        if match["pairs"][1] is None:
            continue
        answer = requests.post(
            f"{base}/api/v1/rubbers/{match['rubbers'][-1]}/hands",
            json=BANDEIRA,
            headers={"X-Edit-Key": tournament["edit_key"]},
            timeout=10,
        )
        assert answer.status_code == 201, answer.text


def test_a_round_robin_of_five_shows_one_round_at_the_tables(
    live_server: str, organizer: Any
) -> None:
    body = {
        "name": "Torneio da Tasca",
        "format": "round_robin",
        "pairs": [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, 6)],
    }
    created = requests.post(f"{live_server}/api/v1/tournaments", json=body, timeout=10)
    assert created.status_code == 201, created.text
    tournament = created.json()
    assert tournament["current_round"] == 1
    organizer.goto(tournament["edit_url"])  # the organizer's link: this phone runs it
    at_tables = organizer.locator(".tables-in-play > li")
    expect(at_tables).to_have_count(2)
    expect(at_tables.locator("strong")).to_have_text(["Ronda 1 · Mesa 1", "Ronda 1 · Mesa 2"])
    expect(organizer.locator("details.table-link")).to_have_count(2)
    # The first table link on the page is round 1's, in a list of rounds in order.
    expect(organizer.locator("section h2[id^=round-]").first).to_have_text("Ronda 1")
    first_link = organizer.locator("details.table-link").first
    expect(first_link.locator("xpath=ancestor::section/h2")).to_have_text("Ronda 1")
    # Nothing wider than the phone.
    assert organizer.evaluate("() => document.documentElement.scrollWidth") <= 360
    # One pair rests in round 1: only that rest counts yet (no "played 1, won 1" for all).
    won = organizer.locator("table.standings tbody tr td:nth-child(4)").all_inner_texts()
    assert sorted(won) == ["0", "0", "0", "0", "1"]

    play_round(live_server, tournament, 1)
    organizer.reload()
    expect(at_tables.locator("strong")).to_have_text(["Ronda 2 · Mesa 1", "Ronda 2 · Mesa 2"])
    expect(organizer.locator("details.table-link")).to_have_count(2)
    first_link = organizer.locator("details.table-link").first
    expect(first_link.locator("xpath=ancestor::section/h2")).to_have_text("Ronda 2")
    assert organizer.evaluate("() => document.documentElement.scrollWidth") <= 360
