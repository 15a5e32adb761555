"""The organizer's way back (issue 42, item 12): the link offered to keep, and the history.

Right after creating a tournament from /t/new, its page asks on top to keep the organizer's link
(the phone's share sheet, a copy button); the phone's history then lists the tournament. The
screenshots at 390×844 and 360×640 go to $SCREENSHOTS, when it names a folder."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from .conftest import PHONE
from .test_share import SHARE_SHEET
from .test_tournament_evenings import start

OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


@pytest.fixture
def organizer(browser: Any, live_server: str) -> Iterator[Any]:
    """The organizer's phone, with a share sheet and the right to use the clipboard."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    context.add_init_script(SHARE_SHEET)
    yield context.new_page()
    context.close()


def screenshot(page: Any, name: str) -> None:
    folder = os.environ.get("SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def test_the_organizer_keeps_the_link_and_finds_the_tournament_in_the_history(
    live_server: str, organizer: Any
) -> None:
    tournament_id = start(organizer, live_server, 4)
    edit = re.compile(rf"^{re.escape(live_server)}/t/{tournament_id}/edit/[^/]+$")

    panel = organizer.locator(".keep-link")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("heading")).to_have_text("Guarde a ligação do organizador")
    expect(panel).to_contain_text("a única maneira de dirigir este torneio noutro telemóvel")
    assert panel.bounding_box()["y"] < 300  # on top, seen without scrolling
    link = panel.locator(".link a")
    assert edit.match(str(link.get_attribute("href")))
    assert organizer.evaluate(OVERFLOW) <= 0
    screenshot(organizer, "keep-link-390x844.png")

    panel.get_by_role("button", name="Copiar a ligação").tap()
    expect(panel.locator("[data-share-status]")).to_have_text("Ligação copiada.")
    assert edit.match(organizer.evaluate("navigator.clipboard.readText()"))
    panel.get_by_role("button", name="Partilhar…").tap()
    shared = organizer.evaluate("window.shared")
    assert len(shared) == 1 and edit.match(shared[0]["url"])
    assert shared[0]["title"] == "Torneio da Tasca · A ligação do organizador"

    organizer.set_viewport_size({"width": 360, "height": 640})
    assert organizer.evaluate(OVERFLOW) <= 0
    screenshot(organizer, "keep-link-360x640.png")

    # Once: the page opened again has the link folded at the foot, as before.
    organizer.reload()
    expect(organizer.locator("h1")).to_have_text("Torneio da Tasca")
    expect(organizer.locator(".keep-link")).to_have_count(0)
    expect(organizer.locator("details.organizer-link")).to_have_count(1)

    organizer.get_by_role("link", name="Histórico").tap()
    organizer.wait_for_url(f"{live_server}/history")
    held = organizer.locator(".tournaments-held a")
    expect(held).to_have_count(1)
    expect(held).to_contain_text("Torneio da Tasca")
    expect(held).to_contain_text("Eliminatória")
    expect(organizer.locator("main")).not_to_contain_text("Ainda não há partidas neste telemóvel")
    assert organizer.evaluate(OVERFLOW) <= 0
    screenshot(organizer, "history-360x640.png")
    organizer.set_viewport_size({"width": 390, "height": 844})
    screenshot(organizer, "history-390x844.png")
    held.tap()
    organizer.wait_for_url(f"{live_server}/t/{tournament_id}")
