"""Sharing a rubber from the phone at the table: share sheet, copy button and QR codes.

The phone's share sheet where it has one, a copy button, and QR codes of the follow and edit
links that a camera reads (decoded here with zxing-cpp from what Chromium drew)."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterator
from typing import Any

import pytest
import zxingcpp
from playwright.sync_api import expect

from .conftest import PHONE
from .test_offline import PAGE

SHARE_SHEET = """
// A phone's share sheet (Chromium on Linux has none): it notes what it was asked to share.
window.shared = [];
navigator.share = (data) => {
    window.shared.push({title: data.title, url: data.url});
    return Promise.resolve();
};
navigator.canShare = () => true;
"""
PIXELS = """async (png) => {
    // The screenshot's pixels, as grey levels, through the browser's own PNG decoder.
    const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0));
    const image = await createImageBitmap(new Blob([bytes], {type: "image/png"}));
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const rgba = context.getImageData(0, 0, image.width, image.height).data;
    let grey = "";
    for (let i = 0; i < rgba.length; i += 4) {
        grey += String.fromCharCode(rgba[i + 1]);
    }
    return [image.width, image.height, btoa(grey)];
}"""
SHARE_LINK = "Ligações e códigos QR para partilhar a partida"


def read_qr(page: Any, element: Any) -> list[str]:
    """What a camera reads from the QR code as it is on the screen."""
    png = element.screenshot()
    width, height, grey = page.evaluate(PIXELS, base64.b64encode(png).decode())
    image = memoryview(base64.b64decode(grey)).cast("B", (height, width))
    return [found.text for found in zxingcpp.read_barcodes(image)]


@pytest.fixture
def sharing_phone(browser: Any, live_server: str) -> Iterator[Any]:
    """The scorer's phone, with a share sheet and the right to use the clipboard."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    context.add_init_script(SHARE_SHEET)
    yield context.new_page()
    context.close()


def start(phone: Any, live_server: str) -> tuple[str, str]:
    """A rubber started on the phone: its page's address and its edit key."""
    phone.goto(live_server + "/")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(PAGE)
    key = phone.locator("form[data-offline]").get_attribute("data-edit-key")
    assert key
    return phone.url, key


def test_the_links_go_by_share_sheet_copy_and_qr_code(
    live_server: str, sharing_phone: Any, second_phone: Any
) -> None:
    phone = sharing_phone
    rubber_url, key = start(phone, live_server)
    edit_url = f"{rubber_url}/edit/{key}"
    phone.get_by_role("link", name=SHARE_LINK).tap()
    expect(phone).to_have_url(rubber_url + "/share")
    follow, edit = phone.locator("[data-share-link]").all()

    # The whole links, as text that wraps, not boxes that cut them off.
    expect(follow.get_by_role("link", name=rubber_url, exact=True)).to_be_visible()
    expect(edit.get_by_role("link", name=edit_url, exact=True)).to_be_visible()
    for box in (follow, edit):
        link = box.locator(".link a")
        assert link.evaluate("(a) => a.scrollWidth <= a.parentElement.clientWidth")

    # Each QR code, as drawn on the screen, reads as its link.
    follow_qr = follow.get_by_role("img", name="Código QR da ligação para acompanhar o resultado")
    edit_qr = edit.get_by_role("img", name="Código QR da ligação para registar mãos")
    assert read_qr(phone, follow_qr) == [rubber_url]
    expect(edit_qr).to_be_hidden()  # folded, so a camera reads the follower's code
    edit.get_by_text("Mostrar o código para quem vai registar").tap()
    assert read_qr(phone, edit_qr) == [edit_url]

    # Copy: the clipboard holds the link, and the page says so.
    edit.get_by_role("button", name="Copiar a ligação").tap()
    expect(edit.get_by_role("status")).to_have_text("Ligação copiada.")
    assert phone.evaluate("() => navigator.clipboard.readText()") == edit_url
    follow.get_by_role("button", name="Copiar a ligação").tap()
    assert phone.evaluate("() => navigator.clipboard.readText()") == rubber_url

    # The phone's share sheet gets the link and a title with the score.
    follow.get_by_role("button", name="Partilhar…").tap()
    assert phone.evaluate("() => window.shared") == [
        {"title": "Sueca: Nós 0 – 0 Eles", "url": rubber_url}
    ]

    # Another phone's camera reads the edit link's code and records a hand with it.
    [scanned] = read_qr(phone, edit_qr)
    second_phone.goto(scanned)
    expect(second_phone).to_have_url(rubber_url)
    second_phone.get_by_label("Pontos", exact=True).fill("75")
    second_phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(second_phone.locator(".scoreline .games")).to_have_text("1 – 0")


def test_a_follower_is_offered_only_the_follow_link(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    rubber_url, key = start(phone, live_server)
    second_phone.goto(rubber_url)
    second_phone.get_by_role("link", name=SHARE_LINK).tap()
    boxes = second_phone.locator("[data-share-link]")
    expect(boxes).to_have_count(1)
    [qr] = boxes.get_by_role("img").all()
    assert read_qr(second_phone, qr) == [rubber_url]
    assert key not in second_phone.content()


def test_without_a_share_sheet_or_a_script_the_link_and_its_code_remain(
    live_server: str, phone: Any, browser: Any
) -> None:
    rubber_url, _key = start(phone, live_server)
    phone.goto(rubber_url + "/share")
    has_share_sheet = phone.evaluate("() => 'share' in navigator")
    share_button = phone.get_by_role("button", name="Partilhar…").first
    if has_share_sheet:
        expect(share_button).to_be_visible()
    else:
        expect(share_button).to_be_hidden()  # nothing that would do nothing
    expect(phone.get_by_role("button", name="Copiar a ligação").first).to_be_visible()

    context = browser.new_context(java_script_enabled=False, **PHONE)
    try:
        plain = context.new_page()
        plain.goto(rubber_url + "/share")
        expect(plain.get_by_role("button")).to_have_count(0)  # both need a script
        [qr] = plain.get_by_role("img", name=re.compile("^Código QR")).all()
        assert read_qr(phone, qr) == [rubber_url]
        expect(plain.get_by_role("link", name=rubber_url, exact=True)).to_be_visible()
    finally:
        context.close()
