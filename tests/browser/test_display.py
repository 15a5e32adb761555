"""The café's TV: a group's display page shows every rubber being played now, and the standings.

Each rubber comes with its cross and score; the page follows them by itself at one request per
5 s, has no controls, fills the screen, and comes back by itself after a reload while the server
was down."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa
from playwright.sync_api import expect

from scorekeeper.extensions import db
from scorekeeper.rubbers import store as rubber_store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web.columns import utcnow
from tests.support.apps import fresh_app
from tests.support.servers import CountedServer, Gunicorn, counted_server, gunicorn_env

from .test_follow import NO_RELOAD, SHORTEST_GAP_SEEN, follow, gaps, record

TV_AGENT = "Mozilla/5.0 (Linux; SMART-TV) SuecaTV/1"
BANDEIRA = {"points": [120, 0], "all_tricks": True}
NO_CONTROLS = "a, button, input, select, textarea, form, summary, [tabindex]"


@pytest.fixture
def table(tmp_path: Path) -> Iterator[CountedServer]:
    """A live server whose every request is noted."""
    with counted_server(tmp_path / "display.sqlite3") as server:
        yield server


@pytest.fixture
def tv(browser: Any) -> Iterator[Any]:
    """The café's TV: a big screen, no touch."""
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="pt-PT", user_agent=TV_AGENT
    )
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


def new_group(base: str) -> dict[str, Any]:
    created = requests.post(f"{base}/api/v1/groups", json={"name": "Tasca do Zé"}, timeout=10)
    assert created.status_code == 201, created.text
    return dict(created.json())


def group_rubber(base: str, group: dict[str, Any], players: list[str]) -> dict[str, Any]:
    created = requests.post(
        f"{base}/api/v1/rubbers",
        json={"group": group["id"], "players": players},
        headers={"X-Group-Key": group["edit_key"]},
        timeout=10,
    )
    assert created.status_code == 201, created.text
    return dict(created.json())


def display_of(base: str, group: dict[str, Any]) -> str:
    return f"{base}/g/{group['id']}/display"


def test_the_tv_shows_the_rubbers_being_played_and_the_standings_as_they_change(
    table: CountedServer, tv: Any
) -> None:
    group = new_group(table.url)
    won = group_rubber(table.url, group, ["Ana", "Bruno", "Carla", "Duarte"])
    record(table.url, won, BANDEIRA)
    playing = group_rubber(table.url, group, ["Eva", "Filipe", "Gil", "Hugo"])
    record(table.url, playing, {"points": [75, 45]})
    starting = group_rubber(table.url, group, ["Ivo", "João", "Luís", "Marta"])
    # Not being played now: a rubber left three hours ago, and one of no group.
    left = group_rubber(table.url, group, ["Rui", "Sara", "Tó", "Vera"])
    with table.app.app_context():
        db.session.execute(
            sa.update(Rubber)
            .where(Rubber.id == left["id"])
            .values(updated_at=utcnow() - timedelta(hours=3, minutes=1))
        )
        db.session.commit()
    requests.post(f"{table.url}/api/v1/rubbers", json={}, timeout=10)

    follow(tv, display_of(table.url, group))
    expect(tv).to_have_title("Tasca do Zé · A jogar agora · Marcador de Sueca")
    tables = tv.locator(".table")
    expect(tables).to_have_count(3)
    expect(tables.nth(0)).to_contain_text("Ana & Carla")
    expect(tables.nth(0).locator(".games")).to_have_text("4 – 0")
    expect(tables.nth(0)).to_contain_text("Vencedores da partida: Nós · bandeira")
    expect(tables.nth(1).locator(".games")).to_have_text("1 – 0")
    expect(tables.nth(1).get_by_role("img", name="Cruz: Nós 1, Eles 0")).to_be_visible()
    expect(tables.nth(1)).to_contain_text("Mão 2 · dá Filipe")
    expect(tables.nth(2)).to_contain_text("Ivo & Luís")
    expect(tables.nth(2).locator(".games")).to_have_text("0 – 0")
    expect(tv.get_by_text("Rui & Tó")).to_have_count(0)
    rows = tv.locator(".standings tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.nth(0).locator("th")).to_have_text("Ana")
    expect(rows.nth(0).locator("td").nth(1)).to_have_text("1")  # won

    # No controls, the whole screen, type for across the room.
    assert tv.locator(NO_CONTROLS).count() == 0
    assert tv.evaluate(
        "() => document.documentElement.scrollHeight <= innerHeight"
        " && document.documentElement.scrollWidth <= innerWidth"
    )
    score_size = tables.nth(1).locator(".games").evaluate("(e) => getComputedStyle(e).fontSize")
    # With three tables, the score is 6 % of the screen's height or more: on a 50-inch TV,
    # figures 3 cm high, read from 9 m.
    assert float(score_size.removesuffix("px")) >= 0.06 * 1080

    # Hands, a new rubber and a win show by themselves, the standings with them.
    record(table.url, playing, {"points": [95, 25]})
    expect(tables.nth(1).locator(".games")).to_have_text("3 – 0", timeout=10_000)
    group_rubber(table.url, group, ["Xana", "Zé", "Beto", "Célia"])
    expect(tables).to_have_count(4, timeout=10_000)
    record(table.url, playing, {"points": [61, 59]})
    expect(tables.nth(1)).to_contain_text("Vencedores da partida: Nós", timeout=10_000)
    expect(rows).to_have_count(8)
    expect(tv.locator(".standings tbody th")).to_contain_text(["Ana", "Carla", "Eva", "Gil"])
    record(table.url, starting, {"points": [30, 90]})
    expect(tables.nth(2).locator(".games")).to_have_text("0 – 1", timeout=10_000)
    assert tv.evaluate(NO_RELOAD)


def test_the_tv_asks_at_most_once_every_5_s(table: CountedServer, tv: Any) -> None:
    group = new_group(table.url)
    playing = group_rubber(table.url, group, ["Eva", "Filipe", "Gil", "Hugo"])
    follow(tv, display_of(table.url, group))
    start = time.monotonic()
    tv.wait_for_timeout(7_000)
    record(table.url, playing, {"points": [75, 45]})
    expect(tv.locator(".table .games")).to_have_text("1 – 0", timeout=10_000)
    tv.wait_for_timeout(max(0.0, 21 - (time.monotonic() - start)) * 1000)
    window = time.monotonic() - start
    seen = table.counted.by(TV_AGENT, since=start)
    assert {(s.method, s.path) for s in seen} == {("GET", f"/g/{group['id']}/display")}
    assert 3 <= len(seen) <= window / 5 + 1, [round(s.at - start, 1) for s in seen]
    assert min(gaps(seen)) >= SHORTEST_GAP_SEEN, gaps(seen)
    assert [s.status for s in seen].count(200) == 1, [s.status for s in seen]


def test_a_tv_reloaded_while_the_server_is_down_comes_back_by_itself(
    tmp_path: Path, tv: Any
) -> None:
    with fresh_app(tmp_path / "tv.sqlite3", {"SECRET_KEY": "browser-tests"}) as app:
        server = Gunicorn(env=gunicorn_env(app), log=tmp_path / "gunicorn.log")
        server.start()
        try:
            group = new_group(server.url)
            playing = group_rubber(server.url, group, ["Eva", "Filipe", "Gil", "Hugo"])
            record(server.url, playing, {"points": [75, 45]})
            follow(tv, display_of(server.url, group))
            server.kill()  # down at once, every connection closed
            tv.reload()  # the TV's browser reloaded (a power cut, a remote's button)
            expect(tv.locator("html")).to_have_attribute("data-offline-copy", "")
            expect(
                tv.get_by_text("Sem rede: este é o último resultado visto neste ecrã.")
            ).to_be_visible()
            expect(tv.locator(".table .games")).to_have_text("1 – 0")
            tv.evaluate("() => { window.sameDocument = true; }")

            server.start()
            record(server.url, playing, {"points": [95, 25]})
            expect(tv.locator(".table .games")).to_have_text("3 – 0", timeout=25_000)
            expect(tv.get_by_text("Sem rede: este é o último resultado visto")).to_be_hidden()
            expect(tv.locator("html")).not_to_have_attribute("data-offline-copy", "")
            assert tv.evaluate(NO_RELOAD)
        finally:
            server.stop()


def test_a_table_is_one_card_its_current_rubber(table: CountedServer, tv: Any) -> None:
    """A rubber won and the next one at the same table: one card, the next one's (issue 25, 4).

    The same table is the next rubber started from the won one, or the same two pairs starting
    again on their own; another table's rubber won a moment ago keeps its card."""
    group = new_group(table.url)
    won = group_rubber(table.url, group, ["Ana", "Bruno", "Carla", "Duarte"])
    record(table.url, won, BANDEIRA)
    other = group_rubber(table.url, group, ["Eva", "Filipe", "Gil", "Hugo"])
    record(table.url, other, BANDEIRA)
    with table.app.app_context():
        previous = db.session.get(Rubber, won["id"])
        assert previous is not None
        rubber_store.create_rubber(
            teams=previous.teams,
            players=previous.players,
            first_dealer=previous.state().dealer,
            rules=previous.rule_set(),
            previous_id=previous.id,
            group_id=previous.group_id,
        )
        db.session.commit()
    again = group_rubber(table.url, group, ["Gil", "Hugo", "Eva", "Filipe"])  # sides swapped
    record(table.url, again, {"points": [75, 45]})

    follow(tv, display_of(table.url, group))
    tables = tv.locator(".table")
    expect(tables).to_have_count(2)
    expect(tables.nth(0)).to_contain_text("Ana & Carla")
    expect(tables.nth(0).locator(".games")).to_have_text("0 – 0")
    expect(tables.nth(1)).to_contain_text("Gil & Eva")
    expect(tables.nth(1).locator(".games")).to_have_text("1 – 0")
    assert tv.locator(".table.finished").count() == 0


LONG_NAMES = ["Conceição Albuquerque", "Maria da Graça", "Ana", "Bruno"]
MEASURE = """() => [...document.querySelectorAll(".table:not([hidden])")].map((card) => {
    const size = (selector) => parseFloat(getComputedStyle(card.querySelector(selector)).fontSize);
    const box = card.getBoundingClientRect();
    const inside = [...card.querySelectorAll(".scoreline span, .games, .cross, p")].every((e) => {
        const r = e.getBoundingClientRect();
        return r.width === 0 || r.top >= box.top - 1 && r.bottom <= box.bottom + 1
            && r.left >= box.left - 1 && r.right <= box.right + 1
            && e.scrollWidth <= e.clientWidth + 1;
    });
    return {score: size(".games"), names: size(".scoreline small"), line: size(".target"),
            bottom: box.bottom, right: box.right, inside};
})"""


def measured(tv: Any, base: str, tables: int) -> list[dict[str, Any]]:
    """The TV's cards with ``tables`` tables playing: type sizes and whether all of each shows."""
    group = new_group(base)
    for number in range(tables):
        names = [f"{name} {number}" if seat else name for seat, name in enumerate(LONG_NAMES)]
        group_rubber(base, group, names)
    tv.goto(display_of(base, group))
    # Every table has its card; those that do not fit the screen together wait for their page
    # (static/display.js), and the cards shown now are measured.
    assert tv.locator(".table").count() == tables
    cards: list[dict[str, Any]] = tv.evaluate(MEASURE)
    assert 1 <= len(cards) <= tables
    assert all(card["inside"] for card in cards), cards
    assert all(card["bottom"] <= 1080 and card["right"] <= 1920 for card in cards), cards
    return cards


def test_the_tv_is_read_across_the_room_with_3_tables_and_with_8(live_server: str, tv: Any) -> None:
    """Issue 25, item 5: at 1920×1080, scores 96 px and names 32 px with three tables.

    With eight, every card still shows whole, the score still 6 % of the screen's height."""
    cards = measured(tv, live_server, 3)
    assert min(card["score"] for card in cards) >= 96, cards
    assert min(card["names"] for card in cards) >= 32, cards
    assert min(card["line"] for card in cards) >= 28, cards
    cards = measured(tv, live_server, 8)
    assert min(card["score"] for card in cards) >= 0.06 * 1080, cards
    assert min(card["names"] for card in cards) >= 24, cards


def test_the_tv_is_opened_by_a_short_address_or_its_qr_code(live_server: str, tv: Any) -> None:
    """Issue 25, item 5: a short address a TV's remote can type, and a QR code of it.

    Ten letters with none that reads as a figure (docs/decisions/groups.md); any case will do."""
    group = new_group(live_server)
    group_rubber(live_server, group, ["Ana", "Bruno", "Carla", "Duarte"])
    tv.goto(f"{live_server}/g/{group['id']}")
    address = tv.locator(".tv-address").first.inner_text()
    host = live_server.removeprefix("http://")
    assert address.startswith(f"{host}/tv/"), address
    code = address.removeprefix(f"{host}/tv/")
    assert len(code) == 10 and set(code) <= set("abcdefghjkmnpqrstuvwxyz"), code
    qr = tv.get_by_role("img", name="Código QR da ligação da televisão")
    expect(qr).to_be_visible()

    tv.goto(f"{live_server}/tv/{code.upper()}")
    expect(tv).to_have_url(display_of(live_server, group))
    expect(tv.locator(".table")).to_have_count(1)
    # The TV shows them too, for a phone or another screen, big enough to scan across a room.
    expect(tv.locator(".tv-address")).to_have_text(address)
    box = tv.get_by_role("img", name="Código QR da ligação da televisão").bounding_box()
    assert box is not None and box["width"] >= 180, box
    assert tv.evaluate("() => document.documentElement.scrollHeight <= innerHeight")

    wrong = "".join("b" if letter != "b" else "c" for letter in code)
    assert requests.get(f"{live_server}/tv/{wrong}", timeout=10).status_code == 404
