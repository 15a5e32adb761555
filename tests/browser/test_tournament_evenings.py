"""Whole tournament evenings on a real server, each phone a browser of its own (issue 26).

The organizer's phone starts the tournament through its form and reads the tables' links from its
page; the tables' phones open those links and record hands on the rubber's own page (a bandeira,
confirmed); the room's TV follows. To keep each test well under 90 s on a 2-core machine, only
some rubbers are played on the tables' phones (a whole best-of-3 match and the final, in the
evening in groups): the others are recorded through the rubber API with the tournament's key,
read from the organizer's link its page shows."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from playwright.sync_api import expect

from .conftest import PHONE
from .test_display import TV_AGENT
from .test_follow import NO_RELOAD

BANDEIRA = ({"points": [120, 0], "all_tricks": True}, {"points": [0, 120], "all_tricks": True})
"""A bandeira of team 0 (the match's first pair) or of team 1: four games, the whole rubber."""
TABLE_LINK = re.compile(r'href="(https?://[^"]+/t/[^/"]+/tables/\d+/[^/"]+)" data-rubber="([^"]+)"')
"""A table's link for the evening on the organizer's page, with the rubber it opens now."""


@pytest.fixture
def tables(browser: Any) -> Iterator[Any]:
    """The tables' phones: one device that opens each table's link in turn."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def room_tv(browser: Any) -> Iterator[Any]:
    context = browser.new_context(
        viewport={"width": 1920, "height": 1080}, locale="pt-PT", user_agent=TV_AGENT
    )
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def label(pair: int) -> str:
    return f"Ana {pair} & Bruno {pair}"


def start(organizer: Any, base: str, pairs: int, **fields: str) -> str:
    """The organizer fills in /t/new with the pairs pasted a line each; the tournament's id."""
    organizer.goto(f"{base}/t/new")
    organizer.locator("input[name='name']").fill("Torneio da Tasca")
    organizer.locator("textarea[name='pairs']").fill(
        "\n".join(f"Ana {n} e Bruno {n}" for n in range(1, pairs + 1))
    )
    for name, value in fields.items():
        field = organizer.locator(f"[name='{name}']")
        if field.evaluate("(e) => e.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
    organizer.locator("form.stack button[type='submit']").tap()
    organizer.wait_for_url(re.compile(r"/t/[^/]+$"))
    expect(organizer.locator("h1")).to_have_text("Torneio da Tasca")
    return str(organizer.url.rsplit("/", 1)[1])


def state(base: str, tournament_id: str) -> dict[str, Any]:
    answer = requests.get(f"{base}/api/v1/tournaments/{tournament_id}", timeout=10)
    assert answer.status_code == 200, answer.text
    return dict(answer.json())


def matches(current: dict[str, Any], number: int) -> list[dict[str, Any]]:
    (found,) = [drawn for drawn in current["rounds"] if drawn["number"] == number]
    return list(found["matches"])


def table_links(organizer: Any, base: str, tournament_id: str) -> dict[str, str]:
    """Each rubber in play's link, as the organizer's page shows it: {rubber id: link}."""
    page = organizer.request.get(f"{base}/t/{tournament_id}")
    assert page.ok
    return {rubber: link for link, rubber in TABLE_LINK.findall(page.text())}


def organizer_key(organizer: Any, tournament_id: str) -> str:
    """The tournament's edit key, from the organizer's own link on its page."""
    link = organizer.locator("details.organizer-link a", has_text=f"/t/{tournament_id}/edit/")
    expect(link).to_have_count(1)
    return str(link.get_attribute("href")).rsplit("/", 1)[1]


def by_api(base: str, key: str, rubber_id: str, side: int) -> None:
    """A bandeira recorded through the rubber API with the tournament's key."""
    answer = requests.post(
        f"{base}/api/v1/rubbers/{rubber_id}/hands",
        json=BANDEIRA[side],
        headers={"X-Edit-Key": key},
        timeout=10,
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["finished"]


def on_the_phone(phone: Any, side: int) -> None:
    """A bandeira tapped on the rubber's page and confirmed: the rubber is won 4-0."""
    score = phone.locator(".scoreline .games")
    expect(score).to_have_text("0 – 0")
    phone.locator(f"button[name='action'][value='bandeira-{side}']").tap()
    phone.locator("[data-confirm]").get_by_role("button", name="Sim, registar").tap()
    expect(score).to_have_text("4 – 0" if side == 0 else "0 – 4")
    expect(phone.locator(".winner")).to_be_visible()


def play_match_on_the_phone(phone: Any, link: str, winner_side: int, best_of: int) -> list[str]:
    """A table's phone plays a match from its link: the rubbers' ids, in order.

    Each finished rubber's page links the match's next rubber: the phone follows it."""
    phone.goto(link)
    played = [phone.url.rsplit("/", 1)[1]]
    on_the_phone(phone, winner_side)
    for _ in range(best_of // 2):
        onward = phone.get_by_role("link", name="Próxima partida nesta mesa →")
        expect(onward).to_be_visible()
        onward.tap()
        phone.wait_for_url(re.compile(r"/r/(?!" + re.escape(played[-1]) + r")[^/]+$"))
        played.append(phone.url.rsplit("/", 1)[1])
        on_the_phone(phone, winner_side)
    expect(phone.get_by_role("link", name="Próxima partida nesta mesa →")).to_have_count(0)
    # The match is decided: no rubber outside the tournament is offered at its table.
    expect(phone.get_by_role("button", name="Outra partida, mesma mesa")).to_have_count(0)
    expect(phone.locator(".match-of")).to_contain_text("Torneio da Tasca")
    return played


def play_by_api(
    key: str, base: str, tournament_id: str, number: int, winner: Callable[[int, int], int]
) -> None:
    """Every undecided match of the round, by the API: `winner` names who wins each rubber."""
    while True:
        undecided = [
            m
            for m in matches(state(base, tournament_id), number)
            if m["winner"] is None and m["pairs"][1] is not None
        ]
        if not undecided:
            return
        for match in undecided:
            side = match["pairs"].index(winner(*match["pairs"]))
            by_api(base, key, match["rubbers"][-1], side)


def standings_rows(page: Any, selector: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in row]
        for row in page.locator(f"{selector} tbody tr").evaluate_all(
            "(rows) => rows.map((r) => [...r.children].map((c) => c.textContent))"
        )
    ]


def group_winner(first: int, second: int) -> int:
    """The better seed wins, except in group D (pairs 4, 5, 12, 13), where the worse one does."""
    if {first, second} <= {4, 5, 12, 13}:
        return max(first, second)
    return min(first, second)


def test_an_evening_of_16_pairs_in_4_groups_then_a_best_of_3_knockout(
    live_server: str, organizer: Any, tables: Any, room_tv: Any
) -> None:
    base = live_server
    tournament_id = start(
        organizer, base, 16, format="groups", best_of="3", groups="4", advance="2"
    )
    key = organizer_key(organizer, tournament_id)
    current = state(base, tournament_id)
    assert current["best_of"] == 3
    # Snake order of seed: A 1, 8, 9, 16; B 2, 7, 10, 15; C 3, 6, 11, 14; D 4, 5, 12, 13.
    first_round = matches(current, 1)
    assert [sorted(m["pairs"]) for m in first_round] == [
        [1, 16], [8, 9], [2, 15], [7, 10], [3, 14], [6, 11], [4, 13], [5, 12]
    ]  # fmt: skip

    # The TV's address and the paper, from the tournament's page.
    to_tv = organizer.get_by_role("link", name="Mostrar na televisão do café")
    expect(to_tv).to_have_attribute("href", f"/t/{tournament_id}/tv")
    to_paper = organizer.get_by_role("link", name="O torneio em papel")
    expect(to_paper).to_have_attribute("href", f"/t/{tournament_id}/print")
    room_tv.goto(base + str(to_tv.get_attribute("href")))
    room_tv.evaluate("() => { window.sameDocument = true; }")
    card = room_tv.locator('.table[data-round="1"][data-table="1"]')
    expect(card.locator(".games")).to_have_text("0 – 0")

    # Table 1 of round 1 (1 against 16) on its phone: the link from the organizer's page.
    (table_1,) = [m for m in first_round if m["table"] == 1]
    link = table_links(organizer, base, tournament_id)[table_1["rubbers"][0]]
    organizer.reload()
    mine = organizer.locator("section[aria-labelledby='round-1'] li[data-table='1']")
    expect(mine.locator("details.table-link a.button")).to_have_attribute("href", link)
    tables.goto(link)
    on_the_phone(tables, table_1["pairs"].index(1))
    recorded = time.monotonic()
    expect(card.locator(".match-line")).to_contain_text(
        f"Partidas ganhas: {label(1)} 1 – 0 {label(16)}", timeout=10_000
    )
    assert time.monotonic() - recorded <= 10
    # The match's second rubber: its link on the finished rubber's page, followed.
    onward = tables.get_by_role("link", name="Próxima partida nesta mesa →")
    expect(onward).to_be_visible()
    onward.tap()
    expect(tables.locator(".match-of")).to_contain_text("Ronda 1 · Mesa 1")
    on_the_phone(tables, table_1["pairs"].index(1))
    expect(tables.get_by_role("link", name="Próxima partida nesta mesa →")).to_have_count(0)
    expect(card.locator(".next")).to_have_text(f"Vencedores: {label(1)}", timeout=10_000)

    for number in (1, 2, 3):
        play_by_api(key, base, tournament_id, number, group_winner)
    current = state(base, tournament_id)
    groups = {
        row["pair"]: (row["rank"], row["won"], row["lost"], row["games_won"], row["games_lost"])
        for row in current["standings"]
    }
    assert groups == {
        1: (1, 3, 0, 24, 0), 8: (2, 2, 1, 16, 8), 9: (3, 1, 2, 8, 16), 16: (4, 0, 3, 0, 24),
        2: (1, 3, 0, 24, 0), 7: (2, 2, 1, 16, 8), 10: (3, 1, 2, 8, 16), 15: (4, 0, 3, 0, 24),
        3: (1, 3, 0, 24, 0), 6: (2, 2, 1, 16, 8), 11: (3, 1, 2, 8, 16), 14: (4, 0, 3, 0, 24),
        13: (1, 3, 0, 24, 0), 12: (2, 2, 1, 16, 8), 5: (3, 1, 2, 8, 16), 4: (4, 0, 3, 0, 24),
    }  # fmt: skip
    organizer.reload()
    # The phone's standings have the TV's and the paper's columns, in their order.
    shown = standings_rows(organizer, "table.standings")
    assert shown[:4] == [
        ["1", "A", label(1), "3", "3", "0", "24 – 0"],
        ["2", "A", label(8), "3", "2", "1", "16 – 8"],
        ["3", "A", label(9), "3", "1", "2", "8 – 16"],
        ["4", "A", label(16), "3", "0", "3", "0 – 24"],
    ]
    assert shown[12:14] == [
        ["1", "D", label(13), "3", "3", "0", "24 – 0"],
        ["2", "D", label(12), "3", "2", "1", "16 – 8"],
    ]

    # The TV moves on to the quarter-finals by itself, the groups' standings beside them.
    expect(room_tv.locator('.table[data-round="4"]')).to_have_count(4, timeout=10_000)
    on_tv = standings_rows(room_tv, ".standings-table")
    assert on_tv[0] == ["1", "A", label(1), "3", "3", "0", "24 – 0"]
    assert on_tv[12:14] == [
        ["1", "D", label(13), "3", "3", "0", "24 – 0"],
        ["2", "D", label(12), "3", "2", "1", "16 – 8"],
    ]

    # The knockout: A1-D2, D1-A2, B1-C2, C1-B2.
    quarters = matches(current, 4)
    assert [m["pairs"] for m in quarters] == [[1, 12], [13, 8], [2, 6], [3, 7]]
    quarter_section = organizer.locator("section[aria-labelledby='round-4']")
    expect(quarter_section.locator("li .score")).to_have_text(
        [
            f"{label(1)} 0 – 0 {label(12)}",
            f"{label(13)} 0 – 0 {label(8)}",
            f"{label(2)} 0 – 0 {label(6)}",
            f"{label(3)} 0 – 0 {label(7)}",
        ]
    )
    for number in (4, 5):
        play_by_api(key, base, tournament_id, number, min)
    (final,) = matches(state(base, tournament_id), 6)
    assert final["pairs"] == [1, 2]

    # The final, on a table's phone: pair 2 wins it 2-0 from the second place.
    link = table_links(organizer, base, tournament_id)[final["rubbers"][0]]
    played = play_match_on_the_phone(tables, link, 1, 3)
    current = state(base, tournament_id)
    (final,) = matches(current, 6)
    assert final["rubbers"] == played and final["wins"] == [0, 2] and final["winner"] == 2
    assert current["finished"] and current["winner"] == 2
    organizer.reload()
    expect(organizer.locator("p.status")).to_have_text(f"Vencedores: {label(2)}")
    expect(room_tv.locator(".champion")).to_have_text(f"Vencedores: {label(2)}", timeout=10_000)
    expect(room_tv.locator(".bracket .side.winner").last).to_contain_text(label(2))
    assert room_tv.evaluate(NO_RELOAD)


def test_a_swiss_of_12_pairs_over_4_rounds_with_a_walkover(
    live_server: str, organizer: Any, tables: Any, room_tv: Any
) -> None:
    base = live_server
    tournament_id = start(organizer, base, 12, format="swiss", rounds="4")
    key = organizer_key(organizer, tournament_id)
    room_tv.goto(f"{base}/t/{tournament_id}/tv")
    room_tv.evaluate("() => { window.sameDocument = true; }")
    met: set[frozenset[int]] = set()
    for number in range(1, 5):
        if number > 1:
            organizer.get_by_role("button", name=f"Sortear a ronda {number}").tap()
            expect(organizer.locator(f"#round-{number}")).to_be_visible()
        drawn = matches(state(base, tournament_id), number)
        pairs = [frozenset(m["pairs"]) for m in drawn]
        assert not met & set(pairs), f"a rematch in round {number}"
        met |= set(pairs)
        assert len(drawn) == 6
        if number == 1:
            assert [m["pairs"] for m in drawn] == [
                [1, 7], [2, 8], [3, 9], [4, 10], [5, 11], [6, 12]
            ]  # fmt: skip
            # Table 1 on its phone; the first pair wins.
            link = table_links(organizer, base, tournament_id)[drawn[0]["rubbers"][0]]
            play_match_on_the_phone(tables, link, 0, 1)
        if number == 2:
            # Table 6's second pair did not come: the organizer's form gives the walkover.
            (last,) = [m for m in drawn if m["table"] == 6]
            organizer.reload()
            item = organizer.locator("section[aria-labelledby='round-2'] li[data-table='6']")
            item.locator("details.walkover summary").tap()
            item.get_by_role(
                "button", name=f"Falta de comparência: ganham {label(last['pairs'][0])}"
            ).tap()
            # Asked first, on a page of its own; then said, and offered to be undone.
            expect(organizer.locator("#question-heading")).to_have_text(
                f"Ronda 2 · Mesa 6: {label(last['pairs'][1])} não compareceram?"
            )
            organizer.get_by_role("button", name="Sim, dar a falta de comparência").tap()
            expect(organizer.locator(".note-done")).to_have_text(
                f"Falta de comparência na mesa 6 da ronda 2: ganham {label(last['pairs'][0])}."
            )
            expect(item).to_contain_text(f"Falta de comparência: ganham {label(last['pairs'][0])}")
        play_by_api(key, base, tournament_id, number, min)
        organizer.reload()

    current = state(base, tournament_id)
    assert current["finished"] and current["winner"] == 1
    (walkover,) = [m for m in matches(current, 2) if m["walkover"]]
    assert walkover["pairs"] == [9, 10] and walkover["winner"] == 9
    # Rank, pair, matches won and lost, games, Buchholz. Pair 9's walkover gave it a match and no
    # games; 4 and 6 are level on everything and share 5th place, so the next is 7th.
    final = [
        ("1", 1, "4", "0", "16 – 0", "9"),
        ("2", 2, "3", "1", "12 – 4", "11"),
        ("3", 3, "3", "1", "12 – 4", "9"),
        ("4", 5, "3", "1", "12 – 4", "7"),
        ("5", 4, "2", "2", "8 – 8", "9"),
        ("5", 6, "2", "2", "8 – 8", "9"),
        ("7", 9, "2", "2", "4 – 8", "8"),
        ("8", 7, "2", "2", "8 – 8", "7"),
        ("9", 8, "1", "3", "4 – 12", "9"),
        ("10", 10, "1", "3", "4 – 8", "6"),
        ("11", 11, "1", "3", "4 – 12", "6"),
        ("12", 12, "0", "4", "0 – 16", "6"),
    ]
    expect(organizer.locator("p.status")).to_have_text(f"Vencedores: {label(1)}")
    expect(organizer.get_by_role("button", name=re.compile("Sortear a ronda"))).to_have_count(0)
    assert standings_rows(organizer, "table.standings") == [
        [rank, label(pair), "4", won, lost, games, buchholz]
        for rank, pair, won, lost, games, buchholz in final
    ]
    expect(room_tv.locator(".champion")).to_have_text(f"Vencedores: {label(1)}", timeout=10_000)
    assert standings_rows(room_tv, ".standings-table") == [
        [rank, label(pair), "4", won, lost, games, buchholz]
        for rank, pair, won, lost, games, buchholz in final
    ]
    assert room_tv.evaluate(NO_RELOAD)
