"""A tournament's TV, paper and bracket on a real server in Chromium (issue 26).

The TV follows results within 10 s at one request per 5 s; the print view makes a PDF with type
of 14 px or more; the bracket scrolls sideways inside its own box on a phone."""

from __future__ import annotations

import io
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from pdfminer.high_level import extract_pages
from pdfminer.layout import LTChar, LTTextContainer
from playwright.sync_api import expect

from tests.support.servers import CountedServer, counted_server

from .test_display import TV_AGENT, tv  # noqa: F401  the fixture
from .test_follow import NO_RELOAD, PHONE

BANDEIRA = {"points": [120, 0], "all_tricks": True}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[CountedServer]:
    with counted_server(tmp_path / "tournament.sqlite3") as server:
        yield server


def new_tournament(base: str, count: int, **settings: Any) -> dict[str, Any]:
    body = {
        "name": "Torneio da Tasca",
        "pairs": [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, count + 1)],
        **settings,
    }
    created = requests.post(f"{base}/api/v1/tournaments", json=body, timeout=10)
    assert created.status_code == 201, created.text
    return dict(created.json())


def test_the_tv_follows_a_result_within_10_s_at_one_request_per_5_s(
    table: CountedServer,
    tv: Any,  # noqa: F811
) -> None:
    tournament = new_tournament(table.url, 4, format="knockout")
    first = tournament["rounds"][0]["matches"][0]
    tv.goto(f"{table.url}/t/{tournament['id']}/tv")
    tv.evaluate("() => { window.sameDocument = true; }")
    card = tv.locator(f'.table[data-table="{first["table"]}"]')
    expect(card.locator(".games")).to_have_text("0 – 0")
    size = card.locator(".games").evaluate("(e) => getComputedStyle(e).fontSize")
    assert float(size.removesuffix("px")) >= 0.05 * 1080
    start = time.monotonic()
    tv.wait_for_timeout(1_000)
    answer = requests.post(
        f"{table.url}/api/v1/rubbers/{first['rubbers'][0]}/hands",
        json=BANDEIRA,
        headers={"X-Edit-Key": tournament["edit_key"]},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text
    recorded = time.monotonic()
    expect(card.locator(".games")).to_have_text("4 – 0", timeout=10_000)
    assert time.monotonic() - recorded <= 10
    expect(tv.locator(".bracket .side.winner").first).to_contain_text("Ana 1 & Bruno 1")
    assert tv.evaluate(NO_RELOAD)
    tv.wait_for_timeout(max(0.0, 12 - (time.monotonic() - start)) * 1000)
    # Besides the service worker's caching of the app (static files, manifest), only its address.
    seen = [s for s in table.counted.by(TV_AGENT, since=start) if s.path.startswith("/t/")]
    assert {s.path for s in seen} == {f"/t/{tournament['id']}/tv"}
    assert 1 <= len(seen) <= 3, [round(s.at - start, 1) for s in seen]
    assert 200 in [s.status for s in seen] and 304 in [s.status for s in seen]


def test_the_tvs_standings_turn_their_pages_every_8_s_until_every_pair_has_shown(
    table: CountedServer,
    tv: Any,  # noqa: F811
) -> None:
    """24 pairs do not fit the side of a TV: a page of rows at a time, each for 8 s.

    A clock is installed in the page, so the test waits for no real time.
    """
    names = [
        {
            "name": f"Os Reformados do Bairro {n}",
            "players": [f"Maria Albuquerque {n}", f"Joaquim {n}"],
        }
        for n in range(1, 25)
    ]
    created = requests.post(
        f"{table.url}/api/v1/tournaments",
        json={"name": "Torneio da Tasca", "format": "swiss", "pairs": names},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    tv.clock.install(time=1_800_000_000)  # a whole page of 8 s began then
    tv.goto(f"{table.url}/t/{created.json()['id']}/tv")
    marker = tv.locator("[data-tv-page-of]")
    expect(marker).to_have_text(re.compile(r"^1 / [2-9]$"))
    pages = int(marker.inner_text().split(" / ")[1])
    rows = tv.locator(".standings tbody > tr:not([hidden])")
    seen: list[str] = []
    for page in range(1, pages + 1):
        expect(marker).to_have_text(f"{page} / {pages}")
        shown = rows.locator("th").all_inner_texts()
        assert shown and not set(shown) & set(seen), f"page {page} shows rows shown before"
        seen += shown
        tv.clock.fast_forward(8_000)
    assert sorted(seen) == sorted(pair["name"] for pair in names)
    expect(marker).to_have_text(f"1 / {pages}")  # and round again


def printed_pages(pdf: bytes) -> list[tuple[float, float, str, float]]:
    """Each page of a PDF as (width, height, its text, its smallest type in points)."""
    pages = []
    for page in extract_pages(io.BytesIO(pdf)):
        sizes: list[float] = []
        texts: list[str] = []
        stack: list[Any] = [page]
        while stack:
            item = stack.pop()
            if isinstance(item, LTChar) and item.get_text().strip():
                sizes.append(item.size)
            elif isinstance(item, LTTextContainer) and not isinstance(item, LTChar):
                texts.append(item.get_text())
            if not isinstance(item, LTChar) and hasattr(item, "__iter__"):
                stack.extend(item)
        pages.append((page.width, page.height, " ".join(texts), min(sizes, default=99.0)))
    return pages


def test_the_paper_prints_in_type_of_14_px_and_the_bracket_on_a_sheet_of_its_own(
    table: CountedServer, browser: Any
) -> None:
    """Read back from the PDF Chromium prints: 14 px is 10.5 pt; A4 is 595 × 842 pt."""
    tournament = new_tournament(table.url, 16, format="knockout", third_place=True)
    context = browser.new_context(locale="pt-PT")
    try:
        page = context.new_page()
        page.goto(f"{table.url}/t/{tournament['id']}/print")
        expect(page.get_by_role("heading", name="O sorteio")).to_be_visible()
        page.emulate_media(media="print")
        pages = printed_pages(page.pdf(prefer_css_page_size=True))
    finally:
        context.close()
    for number, (_, _, words, smallest) in enumerate(pages, start=1):
        assert smallest >= 10.5, f"page {number}: type of {smallest:.1f} pt in {words[:80]!r}"
    (bracket,) = [sheet for sheet in pages if "Eliminatória" in sheet[2]]
    width, height, words, _ = bracket
    assert (round(width), round(height)) == (842, 595), "the bracket's sheet is turned sideways"
    assert "Ana 16 & Bruno 16" in words and "3.º lugar" in words
    for other in ("O sorteio", "Resultado", "Classificação", "Classiﬁcação"):
        assert other not in words, f"{other} printed on the bracket's sheet"
    assert all((round(w), round(h)) == (595, 842) for w, h, _, _ in pages if (w, h) != bracket[:2])


def test_the_bracket_scrolls_sideways_in_its_box_on_a_phone(
    table: CountedServer, browser: Any
) -> None:
    tournament = new_tournament(table.url, 16, format="knockout")
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{table.url}/t/{tournament['id']}/print")
        box = page.locator(".bracket-scroll")
        assert box.evaluate("(e) => e.scrollWidth > e.clientWidth")
        assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth + 1")
        label = page.locator(".bracket text.label").first
        assert float(label.evaluate("(e) => getComputedStyle(e).fontSize").removesuffix("px")) >= 14
    finally:
        context.close()
