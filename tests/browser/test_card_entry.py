"""Card entry in a real browser on a phone: count a pile, replay a hand trick by trick."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.support.records import FULL_RECORD

from .conftest import PHONE

WINNERS = ["Lugar 2", "Lugar 2", "Lugar 4", "Lugar 4", "Lugar 4", "Lugar 1", "Lugar 3", "Lugar 3"]


def new_rubber(page: Any, live_server: str) -> str:
    page.goto(live_server + "/")
    page.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(page).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))
    return str(page.url)


def test_count_a_pile_by_tapping_its_cards_then_record_it(live_server: str, phone: Any) -> None:
    rubber_url = new_rubber(phone, live_server)
    phone.get_by_role("link", name="Contar um monte").tap()
    expect(phone.get_by_role("heading", name="Contar um monte")).to_be_visible()
    total, other = phone.locator("[data-total]"), phone.locator("[data-other]")
    expect(total).to_have_text("0")
    for card, running in (("AS", "11"), ("7S", "21"), ("KH", "25"), ("2C", "25")):
        phone.locator(f'label[data-card="{card}"]').tap()
        expect(total).to_have_text(running)  # counted as it is tapped, before any page load
    expect(other).to_have_text("95")
    phone.locator('label[data-card="2C"]').tap()  # tapped again: out of the pile
    expect(phone.locator('label[data-card="2C"] input')).not_to_be_checked()
    phone.get_by_role("button", name="Limpar").tap()
    expect(total).to_have_text("0")
    expect(other).to_have_text("120")
    for card in ("AS", "7S", "KH", "2C"):  # one trick: a pile holds 4 cards a trick
        phone.locator(f'label[data-card="{card}"]').tap()
    phone.get_by_role("radio", name="Eles").check()
    phone.get_by_role("button", name="Usar estes pontos").tap()

    # Back on the hand form, filled in for the person to confirm.
    expect(phone).to_have_url(re.compile(re.escape(rubber_url) + r"\?points=25&team=1"))
    expect(phone.get_by_label("Pontos", exact=True)).to_have_value("25")
    expect(phone.get_by_role("radio", name="Eles")).to_be_checked()
    expect(phone.locator(".scoreline .games")).to_have_text("0 – 0")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".scoreline .games")).to_have_text("2 – 0")  # Nós 95: capote


def test_count_a_pile_without_javascript(live_server: str, browser: Any) -> None:
    context = browser.new_context(java_script_enabled=False, **PHONE)
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        new_rubber(page, live_server)
        page.get_by_role("link", name="Contar um monte").tap()
        for card in ("AS", "7S", "KH"):
            page.locator(f'label[data-card="{card}"]').tap()
        page.get_by_role("button", name="Contar").tap()  # the server counts
        expect(page.locator("[data-total]")).to_have_text("25")
        expect(page.locator("[data-other]")).to_have_text("95")
        expect(page.locator('label[data-card="KH"] input')).to_be_checked()
    finally:
        context.close()


def test_replay_the_tricks_by_tapping_cards_then_confirm(live_server: str, phone: Any) -> None:
    new_rubber(phone, live_server)
    phone.get_by_role("link", name="Registar vaza a vaza").tap()
    expect(phone.get_by_text("Mão 1: dá Lugar 1, sai Lugar 2.")).to_be_visible()
    phone.locator('button[data-trump="H"]').tap()
    expect(phone.locator("strong[data-trump]")).to_contain_text("copas")
    expect(phone.locator("[data-to-play]")).to_have_text("Vaza 1: sai Lugar 2.")

    results = phone.locator(".trick-result")
    for number, trick in enumerate(FULL_RECORD, start=1):
        for card in trick:
            phone.locator(f'button[name="card"][data-card="{card}"]').tap()
            # The page answers in place: the card joins the record, and the grid greys it out.
            expect(
                phone.locator(f'.slots [data-card="{card}"], .trick-list [data-card="{card}"]')
            ).to_have_count(1)
            if number < 10:
                expect(phone.locator(f'button[name="card"][data-card="{card}"]')).to_be_disabled()
        expect(results).to_have_count(number)
        if number <= len(WINNERS):
            expect(results.nth(number - 1)).to_contain_text(f"{WINNERS[number - 1]} ganha")
        if number == 1:
            expect(results.first).to_have_text("Lugar 2 ganha, 24 pontos, e sai na vaza 2.")
            expect(phone.locator("[data-to-play]")).to_have_text("Vaza 2: sai Lugar 2.")

    # A wrong card is put right before anything is stored: tap it in its trick, then the card.
    phone.locator('button[name="pick"][value="1.4"]').tap()
    expect(phone.get_by_text("Toque na carta que fica no lugar de J♠.")).to_be_visible()
    phone.get_by_role("button", name="Cancelar").tap()
    expect(phone.locator("[data-finish]")).to_be_visible()

    expect(phone.locator("[data-points='0']")).to_have_text("48")
    expect(phone.locator("[data-points='1']")).to_have_text("72")
    phone.locator("[data-finish]").tap()
    expect(phone.get_by_role("heading", name="Confirmar e registar a mão")).to_be_visible()
    expect(phone.locator("[data-result] [data-points]")).to_have_text("48 – 72")
    expect(phone.locator("[data-result] .summary")).to_have_text("72 → 1 jogo")
    phone.get_by_role("button", name="Registar a mão").tap()

    expect(phone.locator(".scoreline .games")).to_have_text("0 – 1")
    expect(phone.get_by_role("status").first).to_contain_text("72 → 1 jogo")
    phone.locator(".hands li").first.locator("a").first.tap()
    expect(phone.locator("li[data-trick]")).to_have_count(10)
    expect(phone.locator("li[data-trick='1']")).to_contain_text("vaza de Lugar 2, 24 pontos")
