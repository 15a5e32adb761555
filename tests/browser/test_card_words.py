"""The replay on a phone: cards in the page's letters, only a real record offered back (issue 25)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from .test_card_entry import play, start_replay


def test_the_card_buttons_and_the_typed_cards_speak_portuguese(
    live_server: str, phone: Any
) -> None:
    """Issue 25, item 8: R, V, D on the buttons of a pt-PT page, and typed as RE, VE, DE."""
    start_replay(phone, live_server)
    buttons = phone.locator('button[name="card"]')
    expect(buttons.and_(phone.locator('[data-card="KS"]'))).to_have_text("R♠")
    expect(buttons.and_(phone.locator('[data-card="JH"]'))).to_have_text("V♥")
    expect(buttons.and_(phone.locator('[data-card="QC"]'))).to_have_text("D♣")
    phone.get_by_text("Escrever as cartas").tap()
    expect(phone.get_by_text("Figuras: R rei, V valete, D dama.")).to_be_visible()
    phone.locator('input[name="typed"]').fill("RE ve")
    phone.get_by_role("button", name="Acrescentar").tap()
    expect(phone.locator(".slots .face")).to_have_text(["R♠", "V♠", "·", "·"])


def test_a_trump_alone_is_not_offered_back_as_a_record(live_server: str, phone: Any) -> None:
    """Issue 25, item 15: "0 de 40 cartas" was offered back after only a trump was chosen."""
    start_replay(phone, live_server)
    kept = phone.locator("[data-kept]")
    phone.reload()
    expect(phone.locator('button[data-trump="H"]')).to_be_visible()  # the trump asked again
    expect(kept).to_be_hidden()
    expect(phone.locator("form[data-swap]")).not_to_have_attribute("inert", "")
    phone.locator('button[data-trump="H"]').tap()
    play(phone, ["AS"])
    phone.reload()
    expect(kept).to_contain_text("(1 de 40 cartas)")
