"""Every page of the app looked at as a person would: at the table, on the TV and on paper.

An evening is seeded with the longest names a table has (tests/browser/sweep.js says what is
measured; docs/decisions/screens.md why): every page the app has, in each of its states, is
opened in pt-PT, pt-BR and English; a phone's page at 360×640, 390×844 and in print, a TV's at
1920×1080 and 1280×720; each once through axe-core. A defect fails the page's test, naming the
page, the size and the element. A page the app serves that the sweep does not know fails
``test_every_page_is_swept``."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import requests
from axe_playwright_python.sync_playwright import Axe
from flask import Flask

from tests.support.apps import fresh_app, served
from tests.support.records import FULL_RECORD

pytestmark = pytest.mark.one_database

CHECKS = (Path(__file__).parent / "sweep.js").read_text()
PHONES = ({"width": 360, "height": 640}, {"width": 390, "height": 844})
TVS = ({"width": 1920, "height": 1080}, {"width": 1280, "height": 720})
PAPER = {"width": 794, "height": 1123}
"""A sheet of A4 at 96 px an inch."""
LANGUAGES = ("pt-PT", "pt-BR", "en")

TEAMS = ["Os Reformados do Bairro Alto", "Benfica Sempre Campeão"]
PLAYERS = [
    "Maria da Conceição Albuquerque",
    "Joaquim Albuquerque Gonçalves",
    "Ana Sofia Carvalho Reformada",
    "Luís Filipe dos Compadres",
]
BIDDERS = [*PLAYERS, "Camila Gonçalves Pereira", "João Pedro Albuquerque"]
PAIR_NAMES = ["Os Reformados do Bairro Alto", "Os Compadres", "Os Primos da Serra"]


@dataclass(frozen=True)
class Page:
    """A page of the sweep: its name, its address, and how it is seen."""

    name: str
    path: str
    kind: str = "phone"
    """"phone" (360×640, 390×844 and print), "tv" (1920×1080, 1280×720) or "paper" (a print view,
    seen on a phone and in print)."""


# What the app serves that is no page a person looks at: each with why.
NOT_PAGES = {
    "static": "files",
    "web.manifest": "JSON for the browser",
    "web.service_worker": "a script",
    "web.language": "a redirect, then the page it came from",
    "rubbers.grant": "a redirect to the rubber",
    "groups.grant": "a redirect to the group",
    "bidding.grant": "a redirect to the game",
    "tournaments.grant": "a redirect to the tournament",
    "rubbers.back_to_the_rubber": "a redirect to the rubber",
    "rubbers.quick_rubber_again": "a redirect to the form",
    "groups.move_again": "a redirect to the group",
    "groups.tv": "a redirect to a TV",
    "groups.sheet": "a spreadsheet",
    "rubbers.sheet": "a spreadsheet",
    "tournament_export.standings_csv": "a spreadsheet",
    "tournament_export.export_json": "a file",
    "groups.cross_png": "an image",
    "groups.cross_svg": "an image",
    "tournaments.bracket_svg": "an image, swept inside the pages that show it",
    "cards.analysis_progress": "JSON for the waiting page's script",
    "rubbers.rubber_outlook": "JSON for the rubber page's script",
}


def api(base: str, path: str, body: Any = None, key: str | None = None, **headers: str) -> Any:
    """A write of the seed, through the API; its answer's JSON."""
    if key is not None:
        headers["X-Edit-Key"] = key
    answer = requests.post(f"{base}/api/v1/{path}", json=body, headers=headers, timeout=20)
    assert answer.status_code in (200, 201), (path, answer.text)
    return answer.json()


def hands(base: str, rubber: dict[str, Any], *bodies: dict[str, Any]) -> None:
    for body in bodies:
        api(base, f"rubbers/{rubber['id']}/hands", body, rubber["edit_key"])


def pairs(count: int) -> list[dict[str, Any]]:
    """Pairs of long names: the first few named as cafés name them."""
    made = []
    for number in range(1, count + 1):
        pair: dict[str, Any] = {
            "players": [f"Maria Albuquerque {number}", f"Joaquim Gonçalves {number}"]
        }
        if number <= len(PAIR_NAMES):
            pair["name"] = PAIR_NAMES[number - 1]
        made.append(pair)
    return made


def play_round(base: str, tournament: dict[str, Any], number: int, *, leave: int = 0) -> None:
    """Every match of round ``number`` won 4-0 by its first pair, but the last ``leave``."""
    state = requests.get(f"{base}/api/v1/tournaments/{tournament['id']}", timeout=20).json()
    (drawn,) = [r for r in state["rounds"] if r["number"] == number]
    playing = [m for m in drawn["matches"] if m["pairs"][1] is not None and m["winner"] is None]
    for match in playing[: len(playing) - leave]:
        while True:
            rubber = match["rubbers"][-1]
            won = api(
                base,
                f"rubbers/{rubber}/hands",
                {"points": [120, 0], "all_tricks": True},
                tournament["edit_key"],
            )
            assert won["finished"]
            state = requests.get(f"{base}/api/v1/tournaments/{tournament['id']}", timeout=20).json()
            (drawn,) = [r for r in state["rounds"] if r["number"] == number]
            (match,) = [m for m in drawn["matches"] if m["table"] == match["table"]]
            if match["winner"] is not None:
                break


def tournament(base: str, **body: Any) -> dict[str, Any]:
    return dict(api(base, "tournaments", {"name": "Torneio da Tasca do Zé da Esquina", **body}))


def seed(app: Flask, base: str) -> tuple[list[Page], list[str]]:
    """The evening: every page's address, and the edit links a phone opens first."""
    pages: list[Page] = [
        Page("home", "/"),
        Page("history", "/history"),
        Page("glossary", "/glossary"),
        Page("new rubber", "/rubbers/new"),
        Page("new group", "/groups/new"),
        Page("new bidding game", "/bidding/new"),
        Page("new tournament", "/t/new"),
    ]
    grants: list[str] = []
    group = api(base, "groups", {"name": "Tasca do Zé da Esquina"})
    grants.append(group["edit_url"])
    in_group = {"X-Group-Key": group["edit_key"]}

    def rubber(**body: Any) -> dict[str, Any]:
        made = api(
            base,
            "rubbers",
            {"group": group["id"], "teams": TEAMS, "players": PLAYERS, **body},
            **in_group,
        )
        grants.append(made["edit_url"])
        return dict(made)

    finished = rubber()
    hands(
        base,
        finished,
        {"points": [70, 50]},
        {"revoke": 1},
        {"points": [30, 90]},
        {"points": [120, 0], "all_tricks": True},
    )
    carried = rubber()
    hands(base, carried, {"points": [61, 59]}, {"points": [60, 60]})
    empty = rubber()
    brazil = rubber(rules={"preset": "brasil"})
    hands(base, brazil, {"points": [70, 50]})
    cards = rubber()
    hands(base, cards, {"trump": "H", "tricks": FULL_RECORD}, {"points": [45, 75]})
    with app.test_request_context():
        from scorekeeper.background import queue
        from scorekeeper.cards.analysis_page import _content
        from scorekeeper.extensions import db
        from scorekeeper.rubbers.models import Rubber

        row = db.session.get(Rubber, cards["id"])
        queue.submit(_content(row, 1), "sweep")
        queue.compute()
    r = "/r/"
    pages += [
        Page("rubber finished", r + finished["id"]),
        Page("rubber with a carry", r + carried["id"]),
        Page("rubber empty", r + empty["id"]),
        Page("rubber in play", r + cards["id"]),
        Page("rubber share", f"{r}{carried['id']}/share"),
        Page("edit a hand", f"{r}{carried['id']}/hands/1/edit"),
        Page("count a pile", f"{r}{carried['id']}/count"),
        Page("melar", f"{r}{brazil['id']}/melar"),
        Page("replay the tricks", f"{r}{carried['id']}/replay"),
        Page("verifier", f"{r}{cards['id']}/hands/1"),
        Page("analysis", f"{r}{cards['id']}/hands/1/analysis"),
        Page(
            "replay's analysis",
            f"{r}{empty['id']}/replay/analysis?trump=H&record="
            + "|".join(" ".join(trick) for trick in FULL_RECORD),
        ),
        Page("sitting", f"{r}{finished['id']}/sitting"),
    ]

    four = api(base, "bidding", {"players": BIDDERS[:4], "group": group["id"]}, **in_group)
    six = api(base, "bidding", {"players": BIDDERS, "group": group["id"]}, **in_group)
    grants += [four["edit_url"], six["edit_url"]]
    for game, played in (
        (four, [{"bidder": 0, "bid": 70, "partner": 2, "points": 80}, {"passed": True}]),
        (
            six,
            [
                {"bidder": 4, "bid": 75, "partner": 4, "points": 80, "trump": "H"},
                {"bidder": 1, "bid": 90, "partner": 5, "points": 60, "called": "AS"},
            ],
        ),
    ):
        for body in played:
            api(base, f"bidding/{game['id']}/hands", body, game["edit_key"])
    b = "/b/"
    pages += [
        Page("bidding of 4", b + four["id"]),
        Page("bidding of 6", b + six["id"]),
        Page("bidding count", f"{b}{six['id']}/count"),
        Page("bidding edit a hand", f"{b}{six['id']}/hands/1/edit"),
    ]
    g = f"/g/{group['id']}"
    pages += [
        Page("group", g),
        Page("group's bidding", f"{g}/bidding"),
        Page("group's new bidding game", f"{g}/bidding/new"),
        Page("group's new rubber", f"{g}/rubbers/new"),
        Page("group's statistics", f"{g}/stats"),
        Page("group's player", f"{g}/player?name={PLAYERS[0]}"),
        Page("group's TV", f"{g}/display", "tv"),
    ]

    swiss = tournament(base, format="swiss", rounds=3, pairs=pairs(10))
    play_round(base, swiss, 1)
    api(base, f"tournaments/{swiss['id']}/rounds", None, swiss["edit_key"])
    play_round(base, swiss, 2, leave=2)
    done = tournament(base, format="swiss", rounds=2, pairs=pairs(5))
    for number in (1, 2):
        if number > 1:
            api(base, f"tournaments/{done['id']}/rounds", None, done["edit_key"])
        play_round(base, done, number)
    knockout = tournament(base, format="knockout", best_of=3, pairs=pairs(6))
    won = tournament(base, format="knockout", pairs=pairs(6), third_place=True)
    for number in (1, 2, 3):
        play_round(base, won, number)
    robin = tournament(base, format="round_robin", pairs=pairs(5))
    play_round(base, robin, 1, leave=1)
    grouped = tournament(base, format="round_robin", groups=2, advance=2, pairs=pairs(8))
    play_round(base, grouped, 1)
    for found, state in (
        (swiss, "Swiss in play"),
        (done, "Swiss finished"),
        (knockout, "knockout before"),
        (won, "knockout finished"),
        (robin, "round robin in play"),
        (grouped, "groups in play"),
    ):
        grants.append(found["edit_url"])
        t = f"/t/{found['id']}"
        pages += [
            Page(f"tournament, {state}", t),
            # A TV with a bracket shows the tables and the bracket in turn: each pinned here.
            Page(f"tournament's TV, {state}", f"{t}/tv#tables", "tv"),
            Page(f"tournament on paper, {state}", f"{t}/print", "paper"),
        ]
        if "knockout" in state or "groups" in state:
            pages.append(Page(f"tournament's bracket on the TV, {state}", f"{t}/tv#bracket", "tv"))
    links = requests.get(
        f"{base}/api/v1/tournaments/{robin['id']}",
        headers={"X-Edit-Key": robin["edit_key"]},
        timeout=20,
    ).json()["tables"]
    pages.append(Page("a table with nothing in play", str(links[-1]["edit_url"])[len(base) :]))
    return pages, grants


@dataclass(frozen=True)
class Evening:
    base: str
    pages: dict[str, Page]
    storage: dict[str, Any]
    """The phone's cookies once it opened every edit link: it may edit everything."""


@pytest.fixture(scope="module")
def evening(browser: Any, tmp_path_factory: Any) -> Iterator[Evening]:
    folder = tmp_path_factory.mktemp("sweep")
    config = {"SECRET_KEY": "sweep", "ANALYSIS_QUEUE_URL": f"sqlite:///{folder / 'queue.db'}"}
    with fresh_app(folder / "sweep.sqlite3", config) as app, served(app) as base:
        pages, grants = seed(app, base)
        context = browser.new_context()
        phone = context.new_page()
        for link in grants:
            phone.goto(link)
        storage = context.storage_state()
        context.close()
        yield Evening(base, {page.name: page for page in pages}, storage)


SWEPT = [
    "home", "history", "glossary", "new rubber", "new group", "new bidding game",
    "new tournament", "rubber finished", "rubber with a carry", "rubber empty", "rubber in play",
    "rubber share", "edit a hand", "count a pile", "melar", "replay the tricks", "verifier",
    "analysis", "replay's analysis", "sitting", "bidding of 4", "bidding of 6",
    "bidding count", "bidding edit a hand", "group", "group's bidding",
    "group's new bidding game", "group's new rubber", "group's statistics", "group's player",
    "group's TV",
    *(
        f"{what}, {state}"
        for state in (
            "Swiss in play", "Swiss finished", "knockout before", "knockout finished",
            "round robin in play", "groups in play",
        )
        for what in ("tournament", "tournament's TV", "tournament on paper")
    ),
    *(
        f"tournament's bracket on the TV, {state}"
        for state in ("knockout before", "knockout finished", "groups in play")
    ),
    "a table with nothing in play",
]  # fmt: skip
"""The pages' names, known before the seed runs, for the tests' parameters."""


SETTLED = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
"""Two frames: the page's own answer to a new size (a TV's pages laid out again) is done."""


def look(page: Any, **options: bool) -> list[list[str]]:
    page.wait_for_load_state("load")
    page.evaluate(SETTLED)
    return list(page.evaluate(CHECKS, options))


def said(defects: list[tuple[str, list[list[str]]]]) -> str:
    return "\n".join(
        f"  {where}: {what}: {element} ({detail})"
        for where, found in defects
        for what, element, detail in found
    )


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", SWEPT)
def test_the_page_fits_and_reads(browser: Any, evening: Evening, name: str, language: str) -> None:
    page_of = evening.pages[name]
    tv = page_of.kind == "tv"
    sizes = TVS if tv else PHONES
    context = browser.new_context(
        viewport=sizes[0],
        locale=language,
        is_mobile=not tv,
        has_touch=not tv,
        storage_state=evening.storage,
    )
    page = context.new_page()
    try:
        answer = page.goto(evening.base + page_of.path)
        assert answer is not None and answer.status == 200, (name, answer and answer.status)
        assert page.evaluate("() => document.documentElement.lang") == language
        defects: list[tuple[str, list[list[str]]]] = []
        for size in sizes:
            page.set_viewport_size(size)
            found = look(page, tv=tv, phone=not tv)
            if found:
                defects.append((f"{size['width']}×{size['height']}", found))
        if not tv:
            page.set_viewport_size(PAPER)
            page.emulate_media(media="print")
            found = look(page, print=True)
            if found:
                defects.append(("print", found))
            page.emulate_media(media="screen")
            page.set_viewport_size(sizes[0])
        violations = Axe().run(page).response["violations"]
        if violations:
            defects.append(
                (
                    "axe-core",
                    [
                        [v["id"], node["target"][0] if node["target"] else "?", v["impact"]]
                        for v in violations
                        for node in v["nodes"][:3]
                    ],
                )
            )
        assert not defects, f"{name} ({language}):\n{said(defects)}"
    finally:
        context.close()


def test_every_page_is_swept(app: Flask) -> None:
    """A page added to the app and not to the sweep fails here, by its endpoint."""
    endpoints = {
        rule.endpoint
        for rule in app.url_map.iter_rules()
        if "GET" in (rule.methods or ()) and not rule.endpoint.startswith("api.")
    }
    swept = {
        "home.home", "home.history", "web.glossary", "rubbers.new_rubber", "groups.new_group",
        "bidding.new_game", "tournaments.new_tournament", "rubbers.rubber", "rubbers.share",
        "rubbers.edit_hand", "cards.count_pile", "cards.melar", "cards.replay", "cards.hand",
        "cards.analysis", "cards.replay_analysis", "groups.sitting",
        "bidding.game", "bidding.count_pile", "bidding.edit_hand", "groups.group",
        "groups.bidding_games", "groups.new_bidding_game", "groups.new_rubber", "groups.stats",
        "groups.player", "groups.display", "tournaments.tournament", "tournaments.tv",
        "tournaments.print_view", "tournaments.table",
    }  # fmt: skip
    assert endpoints - swept - set(NOT_PAGES) == set(), "pages the sweep does not open"
    assert (swept | set(NOT_PAGES)) - endpoints == set(), "the sweep names pages that are none"
    assert len(SWEPT) == len(set(SWEPT))
