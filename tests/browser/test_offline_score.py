"""Offline, the screen moves with the hands waiting on the phone (issue 14, item 16).

The phone scores nothing itself: it walks the engine's outlook of the rubber (fetched with the
page) along the hands it keeps, and marks what it shows as not yet sent.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

from tests.browser.conftest import PHONE
from tests.browser.test_offline import (
    edit_link,
    go_offline,
    go_online,
    hands_on_the_server,
    start_kept_rubber,
    wait_until_kept,
)

OUTLOOK_KEPT = (
    "(id) => ((JSON.parse(localStorage.getItem('sueca.outlook')) || {}).page || '').endsWith(id)"
)


def dealer(phone: Any) -> str:
    return phone.locator(".seat", has=phone.locator(".role-deals")).locator(".player").inner_text()


def test_waiting_hands_move_the_score_the_cross_and_the_hand_number(
    live_server: str, phone: Any
) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    score = phone.locator(".scoreline .games")
    expect(score).to_have_text("1 – 0")
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    heading = phone.locator(".table-view h2")
    expect(heading).to_contain_text("Mão 2")
    first_dealer = dealer(phone)
    marker = phone.locator(".score .projected-note")
    expect(marker).to_have_count(0)

    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("95")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".pending-hand")).to_have_count(1)
    expect(score).to_have_text("3 – 0")  # 1 + a capote's 2, not yet sent
    expect(marker).to_have_text("com as mãos ainda não enviadas")
    expect(heading).to_contain_text("Mão 3")
    assert dealer(phone) != first_dealer  # the deal moved on
    cross = phone.locator("svg.cross")
    expect(cross.locator(".dot.team0")).to_have_count(1)  # the game the server holds
    expect(cross.locator("circle.place.projected.team0")).to_have_count(2)

    phone.get_by_role("button", name="Empate 60-60").tap()
    expect(heading).to_contain_text("Mão 4")
    expect(phone.locator(".score p.pending:visible")).to_have_text(
        ["Empate: a próxima mão decidida vale mais 1 jogo"]
    )
    phone.get_by_label("Eles", exact=True).check()
    phone.get_by_label("Pontos", exact=True).fill("95")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".pending-hand")).to_have_count(3)
    expect(score).to_have_text("3 – 3")  # the tie's game carried to the capote
    expect(phone.locator(".score p.pending:visible")).to_have_count(0)
    expect(cross.locator("circle.place.projected.team1")).to_have_count(3)
    # The list of waiting hands goes below the cross and the seats, which stay in sight above
    # the hand form; undo (of the server's last hand, not these) waits for them.
    seats = phone.locator(".seats").bounding_box()
    sheet = phone.locator("#record").bounding_box()
    assert seats and sheet and seats["y"] + seats["height"] <= sheet["y"], (seats, sheet)
    expect(phone.locator("details.undo")).to_be_hidden()

    # A reload with no network: the worker's copy, and still the score the hands make.
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(score).to_have_text("3 – 3")
    expect(marker).to_be_visible()

    # Discarding the last one takes it off the screen again, and the seats back.
    projected_dealer = dealer(phone)
    phone.locator(".pending-hand").nth(2).get_by_role("button", name="Descartar").tap()
    expect(score).to_have_text("3 – 0")
    expect(heading).to_contain_text("Mão 4")
    assert dealer(phone) != projected_dealer
    projected_dealer = dealer(phone)

    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(phone.locator("html")).not_to_have_attribute("data-offline-copy", "")
    expect(score).to_have_text("3 – 0")  # the server's own score now
    assert dealer(phone) == projected_dealer  # as the screen said while they waited
    expect(heading).to_contain_text("Mão 4")
    expect(marker).to_have_count(0)
    expect(phone.locator(".score p.pending:visible")).to_have_text(
        ["Empate: a próxima mão decidida vale mais 1 jogo"]
    )
    assert [kind for kind, _points, _team in hands_on_the_server(live_server, rubber_id)] == [
        "played",
        "played",
        "tie",
    ]


def test_the_winning_hand_offline_says_who_won(live_server: str, phone: Any) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    go_offline(phone)
    for points in ("95", "100"):  # the same hand twice at once is a double tap
        phone.get_by_label("Pontos", exact=True).fill(points)
        phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".scoreline .games")).to_have_text("4 – 0")
    heading = phone.locator(".table-view h2")
    expect(heading).to_contain_text("Vencedores da partida: Nós")
    # Won with hands waiting, the page looks finished (issue 25, item 10): no turn arrow, no one
    # to deal, no panel to record another hand (the server would refuse it), and the sentence
    # that says so in sight, not behind the panel.
    assert heading.inner_text().strip() == "Vencedores da partida: Nós"
    expect(phone.locator(".seats .role-deals")).to_be_hidden()
    expect(phone.locator("#record")).to_be_hidden()
    refusal = phone.locator("[data-pending-alert]")
    expect(refusal).to_have_text("Esta partida já acabou: não se podem registar mais mãos.")
    expect(refusal).to_be_in_viewport()
    expect(phone.locator(".pending-hand")).to_have_count(2)
    go_online(phone)
    expect(phone.locator(".winner")).to_contain_text("Vencedores da partida: Nós")


def test_a_revoke_offline_strikes_the_games_it_takes_away(live_server: str, phone: Any) -> None:
    """Under "the offender loses 2 games", a revoke waiting on the phone fades two of its dots."""
    phone.goto(live_server + "/")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    created = phone.context.request.post(
        f"{live_server}/api/v1/rubbers", data={"rules": {"revoke": "offender_minus_two"}}
    )
    assert created.status == 201, created.text()
    rubber_id = created.json()["id"]
    phone.goto(created.json()["edit_url"])
    expect(phone).to_have_url(f"{live_server}/r/{rubber_id}")
    wait_until_kept(phone)
    score = phone.locator(".scoreline .games")
    for points, games in (("75", "1 – 0"), ("80", "2 – 0")):
        phone.get_by_label("Pontos", exact=True).fill(points)
        phone.get_by_role("button", name="Registar", exact=True).tap()
        expect(score).to_have_text(games)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    cross = phone.locator("svg.cross")
    expect(cross.locator(".dot.team0")).to_have_count(2)

    go_offline(phone)
    phone.once("dialog", lambda dialog: dialog.accept())  # its outcome, asked (issue 25, item 6)
    phone.get_by_role("button", name="Renunciou: Nós", exact=True).first.tap()
    expect(phone.locator(".pending-hand")).to_have_count(1)
    expect(score).to_have_text("0 – 0")
    expect(cross.locator(".dot.team0.struck")).to_have_count(2)  # still drawn, faded
    expect(cross.locator(".projected")).to_have_count(0)

    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(score).to_have_text("0 – 0")
    expect(cross.locator(".struck")).to_have_count(0)
    assert [kind for kind, _points, _team in hands_on_the_server(live_server, rubber_id)] == [
        "played",
        "played",
        "revoke",
    ]


def test_more_hands_waiting_than_the_outlook_follows_show_the_servers_score(
    live_server: str, phone: Any
) -> None:
    """The outlook follows 10 hands: past them the page shows no guess, only the hands waiting."""
    rubber_id = start_kept_rubber(live_server, phone)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    heading = phone.locator(".table-view h2")
    marker = phone.locator(".score .projected-note")
    phone.clock.install()  # each tie 2 s after the last: not a double tap of the same hand
    go_offline(phone)
    for count in range(1, 11):
        phone.get_by_role("button", name="Empate 60-60").tap()
        expect(phone.locator(".pending-hand")).to_have_count(count)
        phone.clock.fast_forward(2000)
    expect(heading).to_contain_text("Mão 11")
    expect(marker).to_have_text("com as mãos ainda não enviadas")

    phone.get_by_role("button", name="Empate 60-60").tap()
    expect(phone.locator(".pending-hand")).to_have_count(11)
    expect(marker).to_have_count(0)
    # The server's page, not a wrong hand number ("Mão 1", then who deals).
    expect(heading).to_have_text(re.compile(r"^Mão 1\b"))
    expect(phone.locator(".scoreline .games")).to_have_text("0 – 0")

    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(heading).to_contain_text("Mão 12")
    assert len(hands_on_the_server(live_server, rubber_id)) == 11


def test_a_hand_sent_anyway_stops_the_projection(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    """A hand sent anyway goes on top of another phone's hand, which this page does not show.

    So the screen keeps the server's score ("Enviar mesmo assim") rather than guess."""
    rubber_id = start_kept_rubber(live_server, phone)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    second_phone.goto(edit_link(live_server, phone, rubber_id))
    pending = phone.locator(".pending-hand")
    score = phone.locator(".scoreline .games")
    marker = phone.locator(".score .projected-note")
    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("70")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(score).to_have_text("1 – 0")  # projected
    second_phone.get_by_label("Pontos", exact=True).fill("30")
    second_phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(second_phone.locator(".scoreline .games")).to_have_text("0 – 1")
    go_online(phone)
    expect(pending).to_contain_text("Outra pessoa registou uma mão")
    expect(marker).to_have_count(0)  # a refused hand is not counted

    go_offline(phone)
    pending.get_by_role("button", name="Enviar mesmo assim").tap()
    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(pending).to_have_count(2)
    expect(marker).to_have_count(0)
    expect(score).to_have_text("0 – 0")  # the page's tally, not 1 – 0 or 2 – 0 on top of it

    go_online(phone)
    expect(pending).to_have_count(0)
    expect(score).to_have_text("2 – 1")
    assert [points for _kind, points, _team in hands_on_the_server(live_server, rubber_id)] == [
        [30, 90],
        [70, 50],
        [75, 45],
    ]


def test_a_reload_between_two_sends_still_counts_the_hand_sent(
    live_server: str, phone: Any
) -> None:
    """The worker's copy is the page before the first hand went: that hand is counted too."""
    rubber_id = start_kept_rubber(live_server, phone)
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)
    go_offline(phone)
    for points in ("75", "80"):
        phone.get_by_label("Pontos", exact=True).fill(points)
        phone.get_by_role("button", name="Registar", exact=True).tap()
    score = phone.locator(".scoreline .games")
    expect(score).to_have_text("2 – 0")

    sent: list[str] = []

    def first_only(route: Any) -> None:
        sent.append(route.request.url)
        if len(sent) == 1:
            route.continue_()
        else:
            route.abort("internetdisconnected")

    phone.context.route("**/api/v1/rubbers/*/hands", first_only)
    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(1)
    assert len(hands_on_the_server(live_server, rubber_id)) == 1
    go_offline(phone)
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(score).to_have_text("2 – 0")  # the copy shows 0 – 0: one sent, one waiting
    expect(phone.locator(".table-view h2")).to_contain_text("Mão 3")

    phone.context.unroute("**/api/v1/rubbers/*/hands", first_only)
    go_online(phone)
    expect(phone.locator(".pending-hand")).to_have_count(0)
    expect(phone.locator("html")).not_to_have_attribute("data-offline-copy", "")
    expect(score).to_have_text("2 – 0")
    expect(phone.locator(".score .projected-note")).to_have_count(0)


def test_a_small_phone_offline_keeps_the_score_the_seats_and_the_hand_just_entered_in_sight(
    live_server: str, browser: Any
) -> None:
    """At 360x640 offline, the panel follows the seats down rather than cover them.

    The network's note and the projection's line push the seats down; the line of the last
    hand says the hand just kept, not the one before it.
    """
    context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 640}})
    phone = context.new_page()
    rubber_id = start_kept_rubber(live_server, phone)
    phone.get_by_label("Pontos", exact=True).fill("70")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    line = phone.locator(".note-hand")
    expect(line).to_have_text("Nós: 70 → 1 jogo")
    phone.wait_for_function(OUTLOOK_KEPT, arg=rubber_id)

    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("95")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".pending-hand")).to_have_count(1)
    expect(phone.locator(".scoreline .games")).to_have_text("3 – 0")
    expect(line).to_have_text("Nós 95 – 25 Eles · ainda não enviada")
    phone.evaluate("window.scrollTo(0, 0)")
    sheet = phone.locator(".thumb-sheet").bounding_box()
    for shown in (".scoreline", ".seats"):
        box = phone.locator(shown).bounding_box()
        assert box and sheet, shown
        covered = (
            phone.evaluate(
                "() => getComputedStyle(document.querySelector('.thumb-sheet')).position"
            )
            == "sticky"
            and box["y"] + box["height"] > sheet["y"]
        )
        assert not covered, (shown, box, sheet)
    context.close()
