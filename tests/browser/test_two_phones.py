"""Two phones recording one rubber: a hand refused as stale is said, kept and offered again.

Issue 25, item 7: the stale phone's typed "Nós 65" vanished with only "Outra pessoa registou
uma mão"; a player could not tell whether the hand counted.
"""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.test_follow import new_rubber, record


def test_a_hand_refused_as_stale_is_kept_and_sent_as_the_next_hand(
    live_server: str, second_phone: Any
) -> None:
    rubber = new_rubber(live_server)
    second_phone.goto(rubber["edit_url"])
    box = second_phone.get_by_label("Pontos", exact=True)
    box.fill("65")  # typed while the other phone records a hand
    record(live_server, rubber, {"points": [40, 80]})
    second_phone.get_by_role("button", name="Registar", exact=True).tap()

    unsent = second_phone.locator("[data-unsent]")
    expect(unsent).to_contain_text(
        "A sua mão não foi registada: Nós 65 – 55 Eles. Outra pessoa registou uma mão antes"
    )
    expect(second_phone.locator(".scoreline .games")).to_have_text("0 – 1")
    expect(box).to_have_value("65")
    expect(second_phone.locator("input[name='team'][value='0']")).to_be_checked()
    second_phone.get_by_role("button", name="Registar como a mão 2").tap()

    expect(second_phone.locator(".scoreline .games")).to_have_text("1 – 1")
    expect(unsent).to_have_count(0)
    state = requests.get(f"{live_server}/api/v1/rubbers/{rubber['id']}", timeout=10).json()
    assert [hand["points"] for hand in state["hands"]] == [[40, 80], [65, 55]]


def test_a_revoke_refused_as_stale_says_what_it_would_have_given(
    live_server: str, second_phone: Any
) -> None:
    rubber = new_rubber(live_server)
    second_phone.goto(rubber["edit_url"])
    second_phone.locator("button[name='action'][value='revoke-1']").tap()
    expect(second_phone.locator("[data-confirm]")).to_contain_text("fica 2-0")
    record(live_server, rubber, {"points": [91, 29]})  # while the question is on the screen
    second_phone.get_by_role("button", name="Sim, registar").tap()
    unsent = second_phone.locator("[data-unsent]")
    expect(unsent).to_contain_text(
        "A sua mão não foi registada: Renunciou: Eles, 2 jogos para Nós — a partida acaba 4-0."
    )
    second_phone.get_by_role("button", name="Registar como a mão 2").tap()
    expect(second_phone.locator(".scoreline .games")).to_have_text("4 – 0")
