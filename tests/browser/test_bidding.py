"""Bidding Sueca on a 390×844 phone: a game started from home in one tap, a hand in at most 5 taps.

Every target is 48 px, a follower's page shows a new hand by itself, and hands kept offline are sent
once when the network returns."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_offline import go_offline, go_online, wait_until_kept
from tests.browser.test_one_thumb import Thumb, measure, too_small

PAGE = re.compile(r"/b/([A-Za-z0-9_-]{32})$")
FIVE = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]


def name_the_table(live_server: str, phone: Any, names: list[str] = FIVE) -> str:
    phone.goto(live_server + "/bidding/new")
    for seat, name in enumerate(names):
        phone.get_by_label(f"Jogador {seat + 1}", exact=True).fill(name)
    phone.get_by_role("button", name="Começar o jogo").tap()
    expect(phone).to_have_url(PAGE)
    return str(phone.url)


def scores(phone: Any) -> list[str]:
    return [text.strip() for text in phone.locator(".player-score .points").all_inner_texts()]


def chip(phone: Any, legend: str, text: str) -> Any:
    return phone.locator("fieldset.chips", has_text=legend).locator("label.chip", has_text=text)


def start_kept_game(live_server: str, phone: Any) -> str:
    """A game started on this phone once the service worker runs it, its page kept: its id."""
    phone.goto(live_server + "/")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    name_the_table(live_server, phone)
    wait_until_kept(phone)
    return PAGE.search(phone.url).group(1)  # type: ignore[union-attr]


def bid(phone: Any, bidder: str, amount: str, partner: str, outcome: str) -> None:
    """Record a hand with the chips: who bid, how much, the partner, and the outcome's button."""
    chip(phone, "Quem licitou", bidder).tap()
    chip(phone, "Quanto", amount).tap()
    chip(phone, "Parceiro", partner).tap()
    phone.get_by_role("button", name=outcome, exact=True).tap()


def test_start_in_one_tap_and_a_hand_in_five(live_server: str, phone: Any) -> None:
    name_the_table(live_server, phone)
    thumb = Thumb(phone)
    # The same table again, from the home page: one tap.
    phone.goto(live_server + "/")
    thumb.tap(phone.get_by_role("button", name="Novo jogo com licitação: Ana, Bruno, Carla"))
    expect(phone).to_have_url(PAGE)
    assert thumb.taps == 1
    expect(phone.locator(".player-score .name")).to_have_text(FIVE)

    # Who bid, how much, the partner, "fez": four taps.
    thumb.taps = 0
    thumb.tap(chip(phone, "Quem licitou", "Carla"))
    thumb.tap(chip(phone, "Quanto", "80"))
    thumb.tap(chip(phone, "Parceiro", "Eva"))
    thumb.tap(phone.get_by_role("button", name="Fez", exact=True))
    expect(phone.locator(".note-hand")).to_have_text("Carla licitou 80 com Eva: fez")
    assert scores(phone) == ["0", "0", "80", "0", "80"]
    assert thumb.taps <= 5, f"recording a hand took {thumb.taps} taps"
    made = thumb.taps

    # With the card points typed: the box and Registar, five taps.
    thumb.taps = 0
    thumb.tap(chip(phone, "Quem licitou", "Ana"))
    thumb.tap(chip(phone, "Quanto", "90"))
    thumb.tap(chip(phone, "Parceiro", "sozinho"))
    thumb.tap(phone.get_by_label("Pontos do lado de quem licitou"))
    phone.keyboard.type("85")
    thumb.tap(phone.get_by_role("button", name="Registar os pontos"))
    expect(phone.locator(".note-hand")).to_have_text("Ana licitou 90 sem parceiro: não fez (85)")
    assert scores(phone) == ["−90", "90", "170", "90", "170"]
    assert thumb.taps <= 5, f"recording a hand by its points took {thumb.taps} taps"

    # Everyone passed: one tap. Undo: one to open, one to confirm.
    thumb.taps = 0
    thumb.tap(phone.get_by_role("button", name="Todos passaram"))
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(3)
    thumb.tap(phone.get_by_text("Anular a última mão"))
    thumb.tap(phone.get_by_role("button", name="Sim, anular a mão 3"))
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(2)
    assert thumb.taps == 3
    print(f"\nbidding taps: start 1, a hand made {made}, by its points 5, passed 1, undo 2")


def test_a_refused_hand_says_why_in_portuguese(live_server: str, phone: Any) -> None:
    name_the_table(live_server, phone)
    chip(phone, "Quem licitou", "Ana").tap()
    phone.get_by_placeholder("outra").fill("150")
    chip(phone, "Parceiro", "Bruno").tap()
    phone.get_by_role("button", name="Fez", exact=True).tap()
    expect(phone.locator(".chips.bids .error")).to_contain_text("de 61 a 120")
    assert scores(phone) == ["0"] * 5


def test_every_tap_target_is_at_least_48_px(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    page_url = name_the_table(live_server, phone, [*FIVE, "Fábio"])
    game_id = PAGE.search(page_url).group(1)  # type: ignore[union-attr]
    chip(phone, "Quem licitou", "Fábio").tap()
    chip(phone, "Quanto", "61").tap()
    chip(phone, "Parceiro", "Ana").tap()
    phone.get_by_role("button", name="Fez", exact=True).tap()
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(1)
    second_phone.goto(page_url)
    group = phone.context.request.post(
        live_server + "/api/v1/groups", data={"name": "Tasca"}
    ).json()
    phone.goto(group["edit_url"])
    offenders = []
    for path in (
        "/",
        "/bidding/new",
        page_url,
        f"/b/{game_id}/hands/1/edit",
        f"/b/{game_id}/count",
        "/history",
        f"/g/{group['id']}",
        f"/g/{group['id']}/bidding",
        f"/g/{group['id']}/bidding/new",
    ):
        phone.goto(path if path.startswith("http") else live_server + path)
        offenders += [(path, target) for target in too_small(measure(phone))]
    offenders += [("read-only game", target) for target in too_small(measure(second_phone))]
    overflow = phone.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert not offenders, "\n".join(f"{where}: {target}" for where, target in offenders)
    assert overflow <= 0, f"the page scrolls sideways by {overflow} px"


ROLES_ON_ONE_LINE = """() => [...document.querySelectorAll(".player-score .role")].map((role) => {
  const cell = role.closest(".player-score").getBoundingClientRect();
  const box = role.getBoundingClientRect();
  return {text: role.textContent, lines: role.getClientRects().length,
          inside: box.left >= cell.left && box.right <= cell.right};
})"""


def test_the_dealer_and_first_bidder_tags_stay_on_one_line(live_server: str, browser: Any) -> None:
    """The dealer's and the first bidder's tags each on one line, inside the seat's box.

    "dá" and "licita primeiro" (pt-BR "primeiro lance"), on 390 and 360 px phones, six long names
    in three columns."""
    names = ["Conceição", "Albuquerque", "Maria da Graça", "Bartolomeu", "Filomena", "Sebastião"]
    for width, locale in ((390, "pt-PT"), (360, "pt-BR"), (360, "pt-PT")):
        context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 800}})
        phone = context.new_page()
        phone.set_extra_http_headers({"Accept-Language": locale})
        phone.goto(live_server + "/bidding/new")
        for seat, name in enumerate(names):
            phone.locator(f"[name=player{seat}]").fill(name)
        phone.locator("form button.primary[type=submit]").tap()
        expect(phone).to_have_url(PAGE)
        roles = phone.evaluate(ROLES_ON_ONE_LINE)
        assert len(roles) == 2, roles
        assert all(role["lines"] == 1 and role["inside"] for role in roles), (width, locale, roles)
        context.close()


def test_a_follower_sees_a_new_hand_without_reloading(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    page_url = name_the_table(live_server, phone)
    second_phone.goto(page_url)
    requests: list[str] = []
    second_phone.on("request", lambda request: requests.append(request.url))
    expect(second_phone.locator(".bidding-log")).to_have_count(0)
    chip(phone, "Quem licitou", "Duarte").tap()
    chip(phone, "Quanto", "100").tap()
    chip(phone, "Parceiro", "Bruno").tap()
    phone.get_by_role("button", name="Não fez", exact=True).tap()
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(1)
    # Within 10 seconds of the write, with no tap on the follower's phone.
    expect(second_phone.locator(".bidding-log tr.changes")).to_have_count(1, timeout=10_000)
    expect(second_phone.locator(".player-score .points")).to_have_text(
        ["100", "−100", "100", "−100", "100"]
    )
    asked = [url for url in requests if "/api/v1/bidding/" in url]
    assert 1 <= len(asked) <= 3, asked  # one question per 5 seconds


def test_hands_recorded_offline_are_sent_once(live_server: str, phone: Any) -> None:
    game_id = start_kept_game(live_server, phone)
    pending = phone.locator(".pending-hand")
    go_offline(phone)
    bid(phone, "Bruno", "70", "Carla", "Fez")
    expect(pending).to_have_count(1)
    phone.get_by_role("button", name="Todos passaram").tap()
    expect(pending).to_have_count(2)
    expect(pending.nth(0)).to_contain_text("Bruno 70 · Carla · Fez")
    expect(pending.nth(0)).to_contain_text("ainda não enviada")
    phone.reload()  # the worker's copy, the hands still waiting
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(pending).to_have_count(2)
    go_online(phone)
    expect(pending).to_have_count(0)
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(2)
    state = phone.context.request.get(f"{live_server}/api/v1/bidding/{game_id}").json()
    assert [hand["kind"] for hand in state["hands"]] == ["bid", "passed"]
    assert state["scores"] == [0, 70, 70, 0, 0]


def test_offline_the_page_counts_the_waiting_hands_and_undo_discards_them(
    live_server: str, phone: Any
) -> None:
    """Offline, the page follows the hands waiting, and undo discards the last of them.

    The scores, the hand's number, the dealer and the first bidder move with each waiting hand;
    undo names the waiting hand, discards it, and says so beside its button."""
    game_id = start_kept_game(live_server, phone)
    heading = phone.locator("#record h2")
    bid(phone, "Bruno", "70", "Carla", "Fez")
    expect(heading).to_have_text("Mão 2: dá Bruno, licita primeiro Carla")
    assert scores(phone) == ["0", "70", "70", "0", "0"]

    go_offline(phone)
    bid(phone, "Ana", "80", "sozinho", "Não fez")
    expect(phone.locator(".pending-hand")).to_have_count(1)
    expect(heading).to_have_text("Mão 3: dá Carla, licita primeiro Duarte")
    assert scores(phone) == ["\u221280", "150", "150", "80", "80"]
    expect(phone.locator(".player-score.unsent")).to_have_count(5)
    expect(phone.locator(".player-score", has_text="Carla").locator(".role-deals")).to_have_count(1)
    expect(phone.locator(".player-score", has_text="Duarte").locator(".role-opens")).to_have_count(
        1
    )
    # By its card points: 95 makes a bid of 90 (the engine's threshold, sent with the page).
    chip(phone, "Quem licitou", "Bruno").tap()
    chip(phone, "Quanto", "90").tap()
    chip(phone, "Parceiro", "Duarte").tap()
    phone.get_by_label("Pontos do lado de quem licitou").fill("95")
    phone.get_by_role("button", name="Registar os pontos").tap()
    expect(phone.locator(".pending-hand")).to_have_count(2)
    expect(heading).to_have_text("Mão 4: dá Duarte, licita primeiro Eva")
    assert scores(phone) == ["\u221280", "240", "150", "170", "80"]

    phone.get_by_text("Anular a última mão").tap()
    button = phone.locator("[data-undo-button]")
    expect(button).to_have_text("Sim, descartar a mão 3, ainda não enviada")
    button.tap()
    expect(phone.locator(".pending-hand")).to_have_count(1)
    assert scores(phone) == ["\u221280", "150", "150", "80", "80"]
    expect(button).to_have_text("Sim, descartar a mão 2, ainda não enviada")
    button.tap()
    note = phone.locator("[data-undo-note]")
    expect(note).to_have_text("Mão 2 descartada: nunca foi enviada.")
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(heading).to_have_text("Mão 2: dá Bruno, licita primeiro Carla")
    assert scores(phone) == ["0", "70", "70", "0", "0"]
    gap = phone.evaluate(
        """() => document.querySelector("[data-undo-note]").getBoundingClientRect().top
              - document.querySelector("[data-undo-button]").getBoundingClientRect().bottom"""
    )
    assert 0 <= gap <= 48, f"the note is {gap} px from the button"

    # Nothing waiting, no network: undo of a hand on the server waits, and says so there.
    expect(button).to_have_text("Sim, anular a mão 1")
    button.tap()
    expect(note).to_contain_text("Sem rede")
    go_online(phone)
    state = phone.context.request.get(f"{live_server}/api/v1/bidding/{game_id}").json()
    assert [hand["kind"] for hand in state["hands"]] == ["bid"]


def test_a_hand_refused_as_stale_can_be_sent_anyway(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    """Another phone's hand came first: the waiting hand says so and can be recorded on top.

    The bidding page keeps its hands in the rubber page's queue (static/hands.js): sent anyway,
    a hand no longer moves the scores on screen, since it goes after a hand this page does not
    show; the server's score comes once it is sent."""
    game_id = start_kept_game(live_server, phone)
    second_phone.goto(phone.locator("#edit-url").input_value())
    expect(second_phone.locator("[name=bidder]").first).to_be_attached()
    pending = phone.locator(".pending-hand")

    go_offline(phone)
    bid(phone, "Bruno", "70", "Carla", "Fez")
    expect(pending).to_have_count(1)
    assert scores(phone) == ["0", "70", "70", "0", "0"]
    bid(second_phone, "Ana", "80", "sozinho", "Fez")
    expect(second_phone.locator(".bidding-log tr.changes")).to_have_count(1)

    go_online(phone)
    expect(pending).to_contain_text("Outra pessoa registou uma mão")
    expect(phone.locator(".player-score.unsent")).to_have_count(0)
    assert scores(phone) == ["0"] * 5  # a refused hand is not counted

    go_offline(phone)
    pending.get_by_role("button", name="Enviar mesmo assim").tap()
    expect(pending).to_contain_text("ainda não enviada")
    expect(phone.locator(".player-score.unsent")).to_have_count(0)
    assert scores(phone) == ["0"] * 5  # not 70 on top of a score without Ana's hand

    go_online(phone)
    expect(pending).to_have_count(0)
    expect(phone.locator(".bidding-log tr.changes")).to_have_count(2)
    assert scores(phone) == ["80", "70", "70", "0", "0"]
    state = phone.context.request.get(f"{live_server}/api/v1/bidding/{game_id}").json()
    assert [hand["bidder"] for hand in state["hands"]] == [0, 1]
