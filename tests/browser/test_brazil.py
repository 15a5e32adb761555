"""At a Brazilian table (issue 19), in a real browser on a pt-BR phone."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE

LOW_HAND = ["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"]  # 6 points


@pytest.fixture
def br_phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(**{**PHONE, "locale": "pt-BR"})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def start_brasil(page: Any, live_server: str) -> str:
    page.goto(live_server + "/rubbers/new")
    page.get_by_label("Regras", exact=True).select_option("brasil")
    page.get_by_role("button", name="Começar a partida").tap()
    expect(page).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))
    return str(page.url)


def test_melou_goes_when_the_cards_change_and_records_only_what_is_checked(
    live_server: str, br_phone: Any
) -> None:
    page = br_phone
    start_brasil(page, live_server)
    page.get_by_role("link", name="Conferir se pode melar").tap()
    for card in LOW_HAND:
        page.locator(f'label[data-card="{card}"]').tap()
    page.get_by_role("button", name="Conferir").tap()
    expect(page.get_by_text("6 pontos: Lugar 2 pode melar.")).to_be_visible()
    melou = page.get_by_role("button", name="Melou")
    expect(melou).to_be_visible()
    # A♠ and 7♠ in place of 2♠ and 3♠, without checking again: the verdict and Melou go.
    for card in ("2S", "3S", "AS", "7S"):
        page.locator(f'label[data-card="{card}"]').tap()
    expect(page.get_by_text("6 pontos: Lugar 2 pode melar.")).to_have_count(0)
    expect(melou).to_have_count(0)
    page.get_by_role("button", name="Conferir").tap()
    expect(page.get_by_text("27 pontos: 10 ou mais, Lugar 2 tem que jogar a mão.")).to_be_visible()
    expect(page.get_by_role("button", name="Melou")).to_have_count(0)
    page.get_by_role("link", name="Voltar para a partida").tap()
    expect(page.locator(".hands li")).to_have_count(0)


def test_the_brasil_table_shuffles_on_the_dealers_right_and_leads_on_the_left(
    live_server: str, br_phone: Any
) -> None:
    """RULES.md, clockwise: dealer+1 cuts and leads (the dealer's left), dealer+3 shuffles."""
    page = br_phone
    start_brasil(page, live_server)

    def centre(role: str) -> tuple[float, float]:
        box = page.locator(f".seat:has(.role-{role})").bounding_box()
        assert box is not None, role
        return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2

    dealer, shuffler, cutter = centre("deals"), centre("shuffles"), centre("cuts")
    assert dealer[1] > shuffler[1] and dealer[1] > cutter[1]  # the dealer at the bottom
    assert shuffler[0] > dealer[0] > cutter[0]  # his right hand, his left hand
    assert centre("leads") == cutter
    # The direction arrow follows the hand's number (the felt square is gone:
    # docs/decisions/rubber-page.md, "At a real table").
    expect(page.locator(".table-view h2 .direction")).to_have_text("↻")


def test_typed_cards_take_portuguese_suit_letters_and_show_symbols(
    live_server: str, br_phone: Any
) -> None:
    page = br_phone
    start_brasil(page, live_server)
    page.get_by_role("link", name="Registrar vaza a vaza").tap()
    page.locator('button[data-trump="H"]').tap()
    page.get_by_text("Digitar as cartas").tap()
    expect(page.get_by_text("Naipes: C copas ♥, O ouros ♦, E espadas ♠, P paus ♣.")).to_be_visible()
    page.locator("input[name=typed]").fill("7C")
    page.get_by_role("button", name="Adicionar").tap()
    expect(page.locator('.current-trick .face[data-card="7H"]')).to_have_text("7♥")
    expect(page.locator("input[name=record]")).to_have_value("7H")  # sete de copas, not paus
    page.get_by_text("Digitar as cartas").tap()
    page.locator("input[name=typed]").fill("AH")
    page.get_by_role("button", name="Adicionar").tap()
    expect(page.get_by_text("AH: H não é uma letra de naipe aqui.", exact=False)).to_be_visible()
    expect(page.locator("input[name=record]")).to_have_value("7H")


def test_a_pt_br_phone_starts_on_brasil_and_then_on_its_last_rules(
    live_server: str, br_phone: Any
) -> None:
    page = br_phone
    page.goto(live_server + "/")
    expect(page.get_by_text("Regras: Brasil.")).to_be_visible()
    page.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(page.locator(".rules summary")).to_have_text("Regras: Brasil.")
    expect(page.get_by_role("link", name="Melou")).to_be_visible()
    page.get_by_role("button", name="Empate 60-60").tap()
    expect(page.locator(".hands li")).to_have_count(1)

    # One tap away: the rules page, already on Brasil; a change, and the next start keeps it.
    page.goto(live_server + "/")
    page.get_by_role("link", name="Dar nome aos jogadores e escolher as regras").tap()
    expect(page.get_by_label("Regras", exact=True)).to_have_value("brasil")
    page.get_by_text("Regras da casa").tap()
    bandeira = page.get_by_role("group", name="Bandeira (4 jogos)")
    expect(bandeira.locator(".choice span").first).to_have_text("como nas regras: os 120 pontos")
    page.get_by_label("Regras", exact=True).select_option("portugal")
    expect(bandeira.locator(".choice span").first).to_have_text("como nas regras: as 10 vazas")
    page.get_by_label("Regras", exact=True).select_option("brasil")
    page.get_by_label("Jogos para vencer a partida").fill("6")
    page.get_by_role("button", name="Começar a partida").tap()
    expect(page.locator(".rules summary")).to_have_text(
        "Regras: Brasil, com Jogos para vencer a partida: 6."
    )
    page.goto(live_server + "/")
    expect(page.get_by_text("Regras: Brasil, com Jogos para vencer a partida: 6.")).to_be_visible()


def test_half_a_point_typed_is_refused_and_a_follower_can_count(
    live_server: str, br_phone: Any, browser: Any
) -> None:
    page = br_phone
    rubber_url = start_brasil(page, live_server)
    page.get_by_label("Pontos", exact=True).fill("60,5")
    page.get_by_role("button", name="Registrar", exact=True).tap()
    expect(page.get_by_text("nenhuma carta vale meio ponto (60,5)", exact=False)).to_be_visible()
    expect(page.locator(".scoreline .games")).to_have_text("0 – 0")
    expect(page.locator(".hands li")).to_have_count(0)
    expect(page.locator('svg[aria-label="Nós: 0 jogos"]')).to_have_count(1)

    follower = browser.new_context(**{**PHONE, "locale": "pt-BR"}).new_page()
    try:
        follower.goto(rubber_url)
        follower.get_by_role("link", name="Contar um monte").tap()
        for card in ("AS", "7S", "KS", "JS"):
            follower.locator(f'label[data-card="{card}"]').tap()
        expect(follower.locator("[data-total]")).to_have_text("28")
        expect(follower.get_by_role("button", name="Usar estes pontos na mão")).to_have_count(0)
    finally:
        follower.context.close()
