"""An organizer withdraws a pair on a real server at 390x844, confirming, and undoes it (issue 42).

The withdrawal is asked on a page of its own, said once done, marked in the standings (the
phone's, the TV's and the paper's), and undone from the organizer's page; nothing on the page is
wider than the phone."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

BANDEIRA = {"points": [120, 0], "all_tricks": True}
NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"


def test_an_organizer_withdraws_a_pair_confirming_and_undoes_it(
    live_server: str, organizer: Any
) -> None:
    body = {
        "name": "Torneio da Tasca",
        "format": "swiss",
        "rounds": 3,
        "pairs": [
            {"players": ["Ana", "Bruno"]},
            {"players": ["Carla", "Duarte"]},
            {"players": ["Eva", "Filipe"], "name": "Os Primos"},
            {"players": ["Gil", "Helena"]},
            {"players": ["Inês", "João"]},
            {"players": ["Luís", "Marta"]},
        ],
    }
    created = requests.post(f"{live_server}/api/v1/tournaments", json=body, timeout=10)
    assert created.status_code == 201, created.text
    tournament = created.json()
    address = f"{live_server}/api/v1/tournaments/{tournament['id']}"
    organizer.goto(tournament["edit_url"])

    organizer.locator("details.withdrawals summary").tap()
    organizer.get_by_role("button", name="Os Primos desistem").tap()
    expect(organizer.locator("#question-heading")).to_have_text("Os Primos desistem?")
    assert organizer.evaluate(NO_SIDEWAYS)
    organizer.get_by_role("button", name="Sim, desistem").tap()

    expect(organizer.locator(".note-done")).to_have_text(
        "Os Primos desistem: os encontros que lhes faltam são ganhos pela outra dupla."
    )
    standings = organizer.locator("table.standings")
    expect(standings).to_contain_text("Os Primos (desistiram)")
    assert requests.get(address, timeout=10).json()["pairs"][2]["withdrawn"] is True
    for page in ("tv", "print"):
        shown = requests.get(f"{live_server}/t/{tournament['id']}/{page}", timeout=10).text
        assert "(desistiram)" in shown, page
    assert organizer.evaluate(NO_SIDEWAYS)

    organizer.get_by_role("button", name="Anular a desistência").tap()
    expect(organizer.locator(".note-done")).to_have_text(
        "Desistência anulada: Os Primos continuam a jogar."
    )
    expect(standings).not_to_contain_text("(desistiram)")
    expect(organizer.get_by_role("button", name="Anular a desistência")).to_have_count(0)
    assert requests.get(address, timeout=10).json()["pairs"][2]["withdrawn"] is False
