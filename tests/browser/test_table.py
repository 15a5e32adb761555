"""The table flow in a real browser on a phone: start, record to a pente, undo, edit, share."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def record_points(page: Any, points: str) -> None:
    page.get_by_label("Pontos", exact=True).fill(points)
    page.get_by_role("button", name="Registar", exact=True).tap()


def test_a_rubber_to_a_pente_undo_edit_and_the_read_only_link(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    phone.goto(live_server + "/")
    expect(phone.locator("html")).to_have_attribute("lang", "pt-PT")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))
    rubber_url = phone.url
    score = phone.locator(".scoreline .games")
    expect(score).to_have_text("0 – 0")

    record_points(phone, "75")
    expect(score).to_have_text("1 – 0")
    expect(phone.get_by_role("status").first).to_contain_text("75 → 1 jogo")
    record_points(phone, "95")
    expect(score).to_have_text("3 – 0")

    # Undo takes a tap to open and one to confirm.
    phone.get_by_text("Anular a última mão").tap()
    phone.get_by_role("button", name="Sim, anular a mão 2").tap()
    expect(score).to_have_text("1 – 0")

    record_points(phone, "70")
    expect(score).to_have_text("2 – 0")
    # Edit hand 1 from 75 to 95: two games instead of one.
    phone.locator(".hands li").last.get_by_role("link", name="Editar").tap()
    phone.get_by_label("Pontos", exact=True).fill("95")
    phone.get_by_role("button", name="Guardar a mão").tap()
    expect(score).to_have_text("3 – 0")

    # The read-only link on another phone: the score, and no form at all.
    second_phone.goto(rubber_url)
    expect(second_phone.locator(".scoreline .games")).to_have_text("3 – 0")
    expect(second_phone.locator("form")).to_have_count(0)

    record_points(phone, "61")
    expect(score).to_have_text("4 – 0")
    expect(phone.locator(".winner")).to_contain_text("pente")
    cross = phone.get_by_role("img", name=re.compile("^Cruz: Nós 4, Eles 0"))
    expect(cross).to_be_visible()
    expect(phone.locator("circle.pente")).to_have_count(1)

    second_phone.reload()
    expect(second_phone.locator(".scoreline .games")).to_have_text("4 – 0")
    expect(second_phone.locator(".winner")).to_contain_text("pente")
    expect(second_phone.locator(".hands li")).to_have_count(3)
