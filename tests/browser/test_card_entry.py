"""Card entry in a real browser on a phone: count a pile, replay a hand trick by trick."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
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
    phone.get_by_role("button", name="Usar estes pontos na mão").tap()

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
            expect(results.nth(number - 1)).to_contain_text(f"{WINNERS[number - 1]} leva a vaza")
        if number == 1:
            expect(results.first).to_have_text("Lugar 2 leva a vaza (24 pontos) e sai na vaza 2.")
            # The new trick says how the last one ended, above the grid (item 14).
            expect(phone.locator("[data-to-play]")).to_have_text(
                "Lugar 2 leva a vaza (24 pontos) e sai na vaza 2."
            )

    # A wrong card is put right before anything is stored: tap it in its trick, then the card.
    phone.locator('button[name="pick"][value="1.4"]').tap()
    expect(phone.get_by_text("Toque na carta que fica no lugar de V♠.")).to_be_visible()
    phone.get_by_role("button", name="Cancelar").tap()
    expect(phone.locator("[data-finish]")).to_be_visible()

    expect(phone.locator("[data-points='0']")).to_have_text("48")
    expect(phone.locator("[data-points='1']")).to_have_text("72")
    phone.locator("[data-finish]").tap()
    expect(phone.get_by_role("heading", name="Confirmar e registar a mão")).to_be_visible()
    expect(phone.locator("[data-result] [data-points]")).to_have_text("48 – 72")
    expect(phone.locator("[data-result] .summary")).to_have_text("Eles: 72 → 1 jogo")
    phone.get_by_role("button", name="Registar a mão").tap()

    expect(phone.locator(".scoreline .games")).to_have_text("0 – 1")
    expect(phone.get_by_role("status").first).to_contain_text("72 → 1 jogo")
    phone.locator(".hands li").first.locator("a").first.tap()
    expect(phone.locator("li[data-trick]")).to_have_count(10)
    expect(phone.locator("li[data-trick='1']")).to_contain_text("leva Lugar 2, 24 pontos")


def test_the_count_says_its_points_only_fill_the_hand_form(live_server: str, phone: Any) -> None:
    new_rubber(phone, live_server)
    phone.get_by_role("link", name="Contar um monte").tap()
    fill = phone.get_by_role("button", name="Usar estes pontos na mão")
    expect(fill).to_be_visible()
    expect(fill).to_have_accessible_description(
        "Nada fica registado aqui: a mão regista-se na partida, com «Registar»."
    )
    expect(phone.get_by_text("Nada fica registado aqui")).to_be_visible()


def start_replay(page: Any, live_server: str) -> str:
    rubber_url = new_rubber(page, live_server)
    page.get_by_role("link", name="Registar vaza a vaza").tap()
    page.locator('button[data-trump="H"]').tap()
    expect(page.locator("[data-to-play]")).to_have_text("Vaza 1: sai Lugar 2.")
    return rubber_url


def play(page: Any, cards: list[str]) -> None:
    for card in cards:
        page.locator(f'button[name="card"][data-card="{card}"]').tap()
        expect(
            page.locator(f'.slots [data-card="{card}"], .trick-list [data-card="{card}"]')
        ).to_have_count(1)


def test_a_record_in_progress_survives_a_reload_and_a_return(live_server: str, phone: Any) -> None:
    rubber_url = start_replay(phone, live_server)
    play(phone, FULL_RECORD[0] + FULL_RECORD[1][:2])
    kept = phone.locator("[data-kept]")

    phone.reload()  # pull-to-refresh: a fresh page, and the record is offered back
    expect(kept).to_be_visible()
    expect(kept).to_contain_text("(6 de 40 cartas)")
    phone.get_by_role("button", name="Continuar esta mão").tap()
    expect(kept).to_be_hidden()
    expect(phone.locator("strong[data-trump]")).to_contain_text("copas")
    expect(phone.locator(".trick-list [data-card]")).to_have_count(4)
    expect(phone.locator(".slots [data-card]")).to_have_count(2)
    expect(phone.locator("[data-to-play]")).to_have_text("Joga Lugar 4.")
    play(phone, FULL_RECORD[1][2:])
    expect(phone.locator(".trick-result")).to_have_count(2)

    # Back to the rubber and in again: the record is still there, asked about first.
    phone.get_by_role("link", name="Voltar à partida").tap()
    expect(phone).to_have_url(rubber_url)
    phone.get_by_role("link", name="Registar vaza a vaza").tap()
    expect(kept).to_contain_text("(8 de 40 cartas)")
    # Nothing else can be tapped until the question is answered.
    expect(phone.locator("form[data-swap]")).to_have_attribute("inert", "")
    phone.get_by_role("button", name="Descartar e começar de novo").tap()
    expect(kept).to_be_hidden()
    phone.reload()
    expect(phone.locator('button[data-trump="H"]')).to_be_visible()
    expect(kept).to_be_hidden()  # thrown away, as asked


def test_a_recorded_hand_leaves_no_record_to_offer(live_server: str, phone: Any) -> None:
    start_replay(phone, live_server)
    play(phone, [card for trick in FULL_RECORD for card in trick])
    phone.locator("[data-finish]").tap()
    phone.get_by_role("button", name="Registar a mão").tap()
    expect(phone.locator(".scoreline .games")).to_have_text("0 – 1")
    phone.get_by_role("link", name="Registar vaza a vaza").tap()
    expect(phone.get_by_text("Mão 2: dá Lugar 2, sai Lugar 3.")).to_be_visible()
    expect(phone.locator("[data-kept]")).to_be_hidden()
    assert (
        phone.evaluate(
            "() => Object.keys(localStorage).filter((k) => k.startsWith('sueca.replay'))"
        )
        == []
    )


@pytest.fixture(params=[(390, 844), (360, 640)], ids=["390x844", "360x640"])
def sized_phone(request: Any, browser: Any) -> Iterator[Any]:
    width, height = request.param
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": height}})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def test_the_card_grid_stays_in_place_as_tricks_are_entered(
    live_server: str, sized_phone: Any
) -> None:
    page = sized_phone
    start_replay(page, live_server)
    height = page.viewport_size["height"]
    deck_top = (
        "() => Math.round(document.querySelector('.deck').getBoundingClientRect().top + scrollY)"
    )
    scroll = "() => scrollY"
    tops = []
    for number, trick in enumerate(FULL_RECORD[:8], start=1):
        for card in trick:
            button = page.locator(f'button[name="card"][data-card="{card}"]')
            box = button.bounding_box()
            assert box is not None
            # Each card is on screen where the thumb is: tapped without a scroll first.
            assert box["y"] >= 0 and box["y"] + box["height"] <= height, (number, card, box)
            page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
            expect(
                page.locator(f'.slots [data-card="{card}"], .trick-list [data-card="{card}"]')
            ).to_have_count(1)
        expect(page.locator(".trick-result")).to_have_count(number)
        tops.append((page.evaluate(deck_top), page.evaluate(scroll)))
    assert len(set(tops)) == 1, tops  # neither the grid nor the page moved


def test_the_replay_fits_a_small_phone_with_the_last_tricks_result(
    live_server: str, sized_phone: Any
) -> None:
    """Issue 25, item 14: at 360×640 the deck ended at 669 px, the last trick's result below it.

    After each trick, the whole deck and the result of the trick just finished are on the first
    screen as the page is left after the tap, without a scroll, on both phones."""
    page = sized_phone
    start_replay(page, live_server)
    height = page.viewport_size["height"]
    box = """(selector) => {
      const rect = document.querySelector(selector).getBoundingClientRect();
      return {top: rect.top, bottom: rect.bottom};
    }"""
    for number, trick in enumerate(FULL_RECORD[:3], start=1):
        play(page, trick)
        expect(page.locator(".trick-result")).to_have_count(number)
        result = page.locator("[data-last-trick]")
        expect(result).to_contain_text(f"{WINNERS[number - 1]} leva a vaza")
        deck, last = page.evaluate(box, ".deck"), page.evaluate(box, "[data-last-trick]")
        assert 0 <= deck["top"] and deck["bottom"] <= height, f"the deck: {deck} of {height} px"
        assert 0 <= last["top"] and last["bottom"] <= height, (number, last)
