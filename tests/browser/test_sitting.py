"""The sitting on the rubber page: the count of rubbers at the table, and the link to the next.

The running count of rubbers at the table, and a won rubber's link to the next one at the same
table, which a follower sees by itself."""

from __future__ import annotations

from typing import Any

import requests
from playwright.sync_api import expect

from .test_follow import NO_RELOAD, follow, record


def test_the_count_of_the_sitting_and_the_way_to_the_next_rubber(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    created = requests.post(
        f"{live_server}/api/v1/rubbers", json={"rules": {"games_to_win": 1}}, timeout=10
    ).json()
    phone.goto(created["edit_url"])
    follower = second_phone
    follow(follower, created["url"])
    count = ".sitting-count"
    for page in (phone, follower):
        expect(page.locator(count)).to_have_text(
            "1.ª partida da sessão — partidas ganhas: Nós 0 – 0 Eles"
        )

    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".winner")).to_contain_text("Vencedores da partida: Nós")
    for page in (phone, follower):  # the follower within 10 s, by itself
        expect(page.locator(count)).to_have_text(
            "1.ª partida da sessão — partidas ganhas: Nós 1 – 0 Eles", timeout=10_000
        )
    next_link = follower.get_by_role("link", name="Próxima partida nesta mesa →")
    expect(next_link).to_have_count(0)  # not started yet

    phone.get_by_role("button", name="Outra partida, mesma mesa").tap()
    expect(phone.locator(count)).to_have_text(
        "2.ª partida da sessão — partidas ganhas: Nós 1 – 0 Eles"
    )
    second_url = phone.url
    assert second_url != created["url"]

    # The follower's page of the rubber won shows the way to the next one, without a reload.
    expect(next_link).to_be_visible(timeout=10_000)
    assert follower.evaluate(NO_RELOAD)
    next_link.tap()
    expect(follower).to_have_url(second_url)
    expect(follower.locator(count)).to_have_text(
        "2.ª partida da sessão — partidas ganhas: Nós 1 – 0 Eles"
    )
    expect(follower.locator("form")).to_have_count(0)  # still a follower

    key = phone.locator("form[data-offline]").get_attribute("data-edit-key")
    record(
        live_server, {"id": second_url.rsplit("/", 1)[-1], "edit_key": key}, {"points": [30, 90]}
    )
    expect(follower.locator(count)).to_have_text(
        "2.ª partida da sessão — partidas ganhas: Nós 1 – 1 Eles", timeout=10_000
    )
    # The first rubber's hand undone after the second started: the count follows on both.
    follower.goto(created["url"])
    undone = requests.delete(
        f"{live_server}/api/v1/rubbers/{created['id']}/hands/last",
        headers={"X-Edit-Key": created["edit_key"]},
        timeout=10,
    )
    assert undone.status_code == 200
    expect(follower.locator(".scoreline .games")).to_have_text("0 – 0", timeout=10_000)
    expect(follower.locator(count)).to_have_text(
        "1.ª partida da sessão — partidas ganhas: Nós 0 – 0 Eles"
    )
    expect(next_link).to_have_count(0)  # not won any more
    phone.reload()
    expect(phone.locator(count)).to_have_text(
        "2.ª partida da sessão — partidas ganhas: Nós 0 – 1 Eles"
    )
