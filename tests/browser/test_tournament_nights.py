"""The evenings of issue 42 on a real server, as a café plays them, phones and TV.

The organizer's phone at 390x844, the tables' phones at 360x640, and the room's TV at 1920x1080
opened from its short address.

A Swiss of 10 takes a late pair; a round-1 correction is refused while round 2 is drawn, done
once the organizer undraws it, and round 2 drawn again with the late pair; a table that kept
its score on paper gives it from the organizer's page. A knockout of 6, best of 3: each table's
phone opens its one link for the evening again after every rubber, and it leads on to the next
rubber and the next round. The TV follows throughout, in the language the organizer chose for
it, never reloading. Rubbers that are not the point are recorded through the API with the
tournament's key (tests/browser/test_tournament_evenings.py, whose helpers these are)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .conftest import PHONE
from .test_display import TV_AGENT
from .test_follow import NO_RELOAD
from .test_tournament_evenings import (
    label,
    matches,
    on_the_phone,
    organizer_key,
    play_by_api,
    start,
    state,
)

NO_SIDEWAYS = "() => document.documentElement.scrollWidth <= window.innerWidth"


@pytest.fixture
def english_tv(browser: Any) -> Iterator[Any]:
    """The café's TV, whose browser speaks English: the organizer's choice overrides it."""
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="en-GB", user_agent=TV_AGENT
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def table_phone(browser: Any) -> Any:
    """A table's own phone, at 360x640."""
    context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 640}})
    context.set_default_timeout(15_000)
    return context.new_page()


def open_tv(organizer: Any, tv: Any, base: str) -> None:
    """The TV types the short address the organizer's page shows, and follows from then on."""
    organizer.locator("details.tv-link summary").tap()
    address = organizer.locator("details.tv-link .tv-address").inner_text()
    assert re.fullmatch(r"[^/]+/tv/[a-z]{10}", address), address
    expect(organizer.locator("details.tv-link svg.qr")).to_be_visible()
    tv.goto(f"{base}/tv/{address.rsplit('/', 1)[1].upper()}")  # a remote types capitals too
    tv.wait_for_url(re.compile(r"/t/[^/]+/tv$"))
    assert tv.evaluate("() => document.documentElement.lang") == "pt-PT"
    tv.evaluate("() => { window.sameDocument = true; }")


def tables_for_the_evening(base: str, tournament_id: str, key: str) -> dict[int, str]:
    """Each table's one link, as the state read with the tournament's key gives them."""
    answer = requests.get(
        f"{base}/api/v1/tournaments/{tournament_id}", headers={"X-Edit-Key": key}, timeout=10
    )
    assert answer.status_code == 200, answer.text
    return {table["table"]: table["edit_url"] for table in answer.json()["tables"]}


def test_a_swiss_of_10_with_a_late_pair_a_correction_and_a_result_kept_on_paper(
    live_server: str, browser: Any, organizer: Any, english_tv: Any
) -> None:
    base = live_server
    tournament_id = start(organizer, base, 10, format="swiss", rounds="4", tv_language="pt_PT")
    key = organizer_key(organizer, tournament_id)
    open_tv(organizer, english_tv, base)
    expect(english_tv.locator('.table[data-round="1"]')).to_have_count(5)
    expect(english_tv.locator("body")).to_contain_text("Ronda 1 · Mesa 1")

    # Round 1: table 1 on its phone from its link; the rest by the API. The better seed wins.
    links = tables_for_the_evening(base, tournament_id, key)
    table = table_phone(browser)
    table.goto(links[1])
    expect(table.locator(".match-of")).to_contain_text("Ronda 1 · Mesa 1")
    on_the_phone(table, 0)
    card = english_tv.locator('.table[data-round="1"][data-table="1"]')
    expect(card.locator(".next")).to_have_text(f"Vencedores: {label(1)}", timeout=10_000)
    play_by_api(key, base, tournament_id, 1, min)

    # Round 2 drawn; then a late pair arrives, which the page takes for the next round.
    organizer.reload()
    organizer.get_by_role("button", name="Sortear a ronda 2").tap()
    expect(organizer.locator("#round-2")).to_be_visible()
    organizer.locator("details.late-pair summary").tap()
    organizer.locator("details.late-pair input[name='player0']").fill("Zé")
    organizer.locator("details.late-pair input[name='player1']").fill("Xana")
    organizer.locator("details.late-pair input[name='name']").fill("Os Atrasados")
    organizer.get_by_role("button", name="Juntar a dupla").tap()
    expect(organizer.locator(".note-done")).to_have_text(
        "Os Atrasados entram no torneio: são sorteados a partir da próxima ronda."
    )

    # A result of round 1 corrected while round 2 is drawn: refused, naming round 2.
    (fifth,) = [m for m in matches(state(base, tournament_id), 1) if m["table"] == 5]
    rubber = fifth["rubbers"][0]
    corrected = {"points": [0, 120], "all_tricks": True}
    refused = requests.put(
        f"{base}/api/v1/rubbers/{rubber}/hands/1",
        json=corrected,
        headers={"X-Edit-Key": key, "Accept-Language": "pt-PT"},
        timeout=10,
    )
    assert refused.status_code == 409 and refused.json()["code"] == "result_used"
    assert refused.json()["error"].startswith("O sorteio da ronda 2") or "ronda 2" in (
        refused.json()["error"].lower()
    ), refused.json()
    # The way back: the organizer undraws round 2 (no hand in it yet), then corrects.
    organizer.locator("details.undraw summary").tap()
    organizer.get_by_role("button", name="Sim, anular o sorteio da ronda 2").tap()
    expect(organizer.locator(".note-done")).to_have_text(
        "Sorteio da ronda 2 anulado: corrija o que for preciso e volte a sorteá-la."
    )
    done = requests.put(
        f"{base}/api/v1/rubbers/{rubber}/hands/1",
        json=corrected,
        headers={"X-Edit-Key": key},
        timeout=10,
    )
    assert done.status_code == 200, done.text
    (fifth,) = [m for m in matches(state(base, tournament_id), 1) if m["table"] == 5]
    assert fifth["winner"] == fifth["pairs"][1]
    # Round 2 drawn again, with the late pair: 11 pairs, five matches and a bye.
    organizer.get_by_role("button", name="Sortear a ronda 2").tap()
    expect(organizer.locator("#round-2")).to_be_visible()
    drawn = matches(state(base, tournament_id), 2)
    assert sorted(p for m in drawn for p in m["pairs"] if p is not None) == list(range(1, 12))
    assert sum(1 for m in drawn if m["pairs"][1] is None) == 1
    expect(english_tv.locator('.table[data-round="2"]')).to_have_count(5, timeout=10_000)
    expect(english_tv.locator("body")).to_contain_text("Os Atrasados", timeout=10_000)

    # Table 1 of round 2 kept its score on paper: the organizer gives it from the page.
    (first,) = [m for m in drawn if m["table"] == 1]
    organizer.reload()
    item = organizer.locator("section[aria-labelledby='round-2'] li[data-table='1']")
    item.locator("details.paper-result summary").tap()
    item.locator("input[name='games0']").fill("1")
    item.locator("input[name='games1']").fill("4")
    assert organizer.evaluate(NO_SIDEWAYS)
    item.get_by_role("button", name="Registar o resultado").tap()
    pairs = state(base, tournament_id)["pairs"]
    names = {p["number"]: p["name"] or " & ".join(p["players"]) for p in pairs}
    score = f"{names[first['pairs'][0]]} 1 – 4 {names[first['pairs'][1]]}"
    expect(organizer.locator(".note-done")).to_have_text(
        f"Ronda 2 · Mesa 1: a partida registada em papel conta, {score}."
    )
    (first,) = [m for m in matches(state(base, tournament_id), 2) if m["table"] == 1]
    assert first["winner"] == first["pairs"][1]
    card = english_tv.locator('.table[data-round="2"][data-table="1"]')
    expect(card.locator(".next")).to_have_text(
        f"Vencedores: {names[first['pairs'][1]]}", timeout=10_000
    )
    play_by_api(key, base, tournament_id, 2, min)

    # Rounds 3 and 4; the TV follows to the end without a reload.
    for number in (3, 4):
        organizer.reload()
        organizer.get_by_role("button", name=f"Sortear a ronda {number}").tap()
        expect(organizer.locator(f"#round-{number}")).to_be_visible()
        play_by_api(key, base, tournament_id, number, min)
    current = state(base, tournament_id)
    assert current["finished"] and len(current["standings"]) == 11
    champion = names[current["winner"]]
    expect(english_tv.locator(".champion")).to_have_text(f"Vencedores: {champion}", timeout=10_000)
    assert english_tv.evaluate(NO_RELOAD)
    table.context.close()


def test_a_knockout_of_6_best_of_3_where_each_table_keeps_its_one_link(
    live_server: str, browser: Any, organizer: Any, english_tv: Any
) -> None:
    base = live_server
    tournament_id = start(organizer, base, 6, format="knockout", best_of="3", tv_language="pt_PT")
    key = organizer_key(organizer, tournament_id)
    open_tv(organizer, english_tv, base)
    links = tables_for_the_evening(base, tournament_id, key)
    first_round = [m for m in matches(state(base, tournament_id), 1) if m["pairs"][1] is not None]
    assert len(first_round) == 2

    # Each table's phone opens its link once per rubber: the same link, the next rubber.
    phones = {}
    for match in first_round:
        phone = table_phone(browser)
        phones[match["table"]] = phone
        better = match["pairs"].index(min(match["pairs"]))
        seen = []
        for rubber in range(2):
            phone.goto(links[match["table"]])
            phone.wait_for_url(re.compile(r"/r/[^/]+$"))
            seen.append(phone.url.rsplit("/", 1)[1])
            expect(phone.locator(".match-of")).to_contain_text(f"Ronda 1 · Mesa {match['table']}")
            on_the_phone(phone, better)
            if rubber == 0:
                card = english_tv.locator(f'.table[data-round="1"][data-table="{match["table"]}"]')
                expect(card.locator(".match-line")).to_contain_text("1 – 0", timeout=10_000)
        assert len(set(seen)) == 2  # two rubbers, one link
        decided = [
            m for m in matches(state(base, tournament_id), 1) if m["table"] == match["table"]
        ]
        assert decided[0]["rubbers"] == seen and decided[0]["winner"] == min(match["pairs"])

    # The semi-finals: each link now opens its table's semi-final, if it has one.
    semis = matches(state(base, tournament_id), 2)
    assert len(semis) == 2 and all(m["pairs"][1] is not None for m in semis)
    for semi in semis:
        link = links[semi["table"]]
        if semi["table"] not in phones:
            phones[semi["table"]] = table_phone(browser)
        phone = phones[semi["table"]]
        phone.goto(link)
        phone.wait_for_url(re.compile(r"/r/[^/]+$"))
        assert phone.url.rsplit("/", 1)[1] == semi["rubbers"][0]
        expect(phone.locator(".match-of")).to_contain_text(f"Ronda 2 · Mesa {semi['table']}")
    play_by_api(key, base, tournament_id, 2, min)
    play_by_api(key, base, tournament_id, 3, min)
    current = state(base, tournament_id)
    assert current["finished"] and current["winner"] == 1
    expect(english_tv.locator(".champion")).to_have_text(f"Vencedores: {label(1)}", timeout=10_000)
    assert english_tv.evaluate(NO_RELOAD)
    for phone in phones.values():
        phone.context.close()
