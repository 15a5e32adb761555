"""A revoke or a bandeira, one tap worth 2 or 4 games, is recorded only once confirmed.

Issue 25, item 6: one tap gave 2 or 4 games and could end the rubber. The confirmation says the
outcome as the engine scores it, and "Não" records nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import requests
from playwright.sync_api import expect

from tests.browser.test_follow import new_rubber, record
from tests.browser.test_offline import go_offline, go_online, hands_on_the_server, start_kept_rubber
from tests.browser.test_offline_score import OUTLOOK_KEPT


def hands_of(base: str, rubber_id: str) -> list[Any]:
    state = requests.get(f"{base}/api/v1/rubbers/{rubber_id}", timeout=10).json()
    return [(hand["kind"], hand.get("team")) for hand in state["hands"]]


def test_a_revoke_and_a_bandeira_say_their_outcome_before_they_count(
    live_server: str, phone: Any
) -> None:
    rubber = new_rubber(live_server)
    record(live_server, rubber, {"points": [91, 29]})
    record(live_server, rubber, {"points": [75, 45]})
    phone.goto(rubber["edit_url"])
    score = phone.locator(".scoreline .games")
    expect(score).to_have_text("3 – 0")

    # A bandeira of Eles, then "Não": nothing recorded.
    phone.locator("button[name='action'][value='bandeira-1']").tap()
    question = phone.locator("[data-confirm]")
    expect(question).to_contain_text("Eles: 120 → bandeira, 4 jogos — a partida acaba 3-4")
    expect(score).to_have_text("3 – 0")
    question.get_by_role("link", name="Não").tap()
    expect(question).to_have_count(0)
    assert len(hands_of(live_server, rubber["id"])) == 2

    # A revoke by Eles ends the rubber: said, then recorded once confirmed.
    phone.locator("button[name='action'][value='revoke-1']").tap()
    expect(question).to_contain_text("Renunciou: Eles, 2 jogos para Nós — a partida acaba 5-0")
    assert len(hands_of(live_server, rubber["id"])) == 2
    question.get_by_role("button", name="Sim, registar").tap()
    expect(score).to_have_text("5 – 0")
    expect(phone.locator(".winner")).to_contain_text("Nós")
    assert hands_of(live_server, rubber["id"])[-1] == ("revoke", 1)


def test_offline_a_revoke_is_confirmed_with_the_engines_outcome(
    live_server: str, phone: Any
) -> None:
    """Offline the question comes from the engine's outlook the phone keeps (outlook.js)."""
    rubber_id = start_kept_rubber(live_server, phone)
    score = phone.locator(".scoreline .games")
    for points, games in (("75", "1 – 0"), ("80", "2 – 0")):
        phone.get_by_label("Pontos", exact=True).fill(points)
        phone.get_by_role("button", name="Registar", exact=True).tap()
        expect(score).to_have_text(games)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    go_offline(phone)
    asked: list[str] = []

    def answer(accept: bool) -> Callable[[Any], None]:
        def said(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return said

    def tap_and_answer(accept: bool) -> None:
        count = len(asked)
        phone.once("dialog", answer(accept))
        phone.locator("button[name='action'][value='revoke-1']").tap()
        for _ in range(100):  # the question comes once outlook.js is loaded
            if len(asked) > count:
                return
            phone.wait_for_timeout(50)

    tap_and_answer(False)
    assert asked == ["Renunciou: Eles — a partida acaba 4-0"]
    expect(phone.locator(".pending-hand")).to_have_count(0)
    tap_and_answer(True)
    expect(phone.locator(".pending-hand")).to_have_count(1)
    assert asked[1] == asked[0]
    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(score).to_have_text("4 – 0")
    assert hands_on_the_server(live_server, rubber_id)[-1][0] == "revoke"
