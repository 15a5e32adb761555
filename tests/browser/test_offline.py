"""Offline in the park: hands recorded with the network gone reach the server once, in order.

The phone loses its network to the server and gets it back (go_offline: the server stops hearing
it, and its browser says it is offline), so the reload in between is answered by the worker's
copy.
"""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from typing import Any

from playwright.sync_api import expect

from tests.support.apps import PHONE_COOKIE, plug, unplug

PAGE = re.compile(r"/r/([A-Za-z0-9_-]{32})$")
ORIGIN = re.compile(r"https?://[^/]+")

KEPT = """async () => {
    // The worker's copy of this page, waited for here: wait_for_function takes a promise for a
    // true value and returns at once, before the copy is there.
    for (let tries = 0; tries < 200; tries += 1) {
        const cache = await caches.open("sueca-pages");
        if (await cache.match(location.href)) {
            return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
}"""


def wait_until_kept(page: Any) -> None:
    """Until the service worker holds a copy of the page (10 s at most)."""
    assert page.evaluate(KEPT), f"the worker kept no copy of {page.url}"


def start_kept_rubber(live_server: str, phone: Any) -> str:
    """A rubber started on this phone once the service worker runs it: its page is kept."""
    phone.goto(live_server + "/")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(PAGE)
    wait_until_kept(phone)
    found = PAGE.search(phone.url)
    assert found
    return found.group(1)


def edit_link(live_server: str, phone: Any, rubber_id: str) -> str:
    """The rubber's edit link, from the key the phone's hand form holds for its offline sync."""
    key = phone.locator("form[data-offline]").get_attribute("data-edit-key")
    return f"{live_server}/r/{rubber_id}/edit/{key}"


def _name(phone: Any) -> str:
    """The phone's own name, for the server to know its requests by (one per browser context)."""
    context = phone.context
    if not hasattr(context, "test_phone_name"):
        context.test_phone_name = uuid.uuid4().hex
    return str(context.test_phone_name)


def _origin(phone: Any) -> str:
    found = ORIGIN.match(phone.url)
    assert found, phone.url
    return found.group(0)


def go_offline(phone: Any) -> None:
    """No network, and the page knows it (the switch reaches the page a moment later).

    The server stops hearing the phone: its requests, wherever they come from, are cut off by
    a cookie of the phone's own (tests.support.apps.unplug), so the page sees a network error
    and nothing arrives. The browser's offline switch makes ``navigator.onLine`` false. That
    switch alone is not enough: it is an emulation that Playwright sends to each target of the
    context, and a request made while a page is being replaced (a reload) can miss it and
    reach the server."""
    origin = _origin(phone)
    phone.context.add_cookies([{"name": PHONE_COOKIE, "value": _name(phone), "url": origin}])
    unplug(origin, _name(phone))
    phone.context.set_offline(True)
    phone.wait_for_function("() => !navigator.onLine")


def go_online(phone: Any) -> None:
    """The network back: requests reach the server again, then the page hears the online event."""
    plug(_origin(phone), _name(phone))
    phone.context.set_offline(False)


def hands_on_the_server(live_server: str, rubber_id: str) -> list[tuple[Any, ...]]:
    """The rubber's hands as the server has them, asked by the test (a phone may be offline)."""
    with urllib.request.urlopen(f"{live_server}/api/v1/rubbers/{rubber_id}") as answer:
        state = json.load(answer)
    return [(hand["kind"], hand["points"], hand["team"]) for hand in state["hands"]]


def test_two_hands_recorded_offline_are_sent_once_when_the_network_returns(
    live_server: str, phone: Any
) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    score = phone.locator(".scoreline .games")
    pending = phone.locator(".pending-hand")

    phone.wait_for_function(
        "(id) => ((JSON.parse(localStorage.getItem('sueca.outlook')) || {}).page || '').endsWith(id)",
        arg=rubber_id,
    )
    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(pending).to_have_count(1)
    phone.get_by_role("button", name="Empate 60-60").tap()
    expect(pending).to_have_count(2)
    expect(phone.get_by_role("heading", name="Mãos ainda não enviadas")).to_be_visible()
    expect(pending.nth(0)).to_contain_text("Nós 75 – 45 Eles")
    expect(pending.nth(1)).to_contain_text("Empate 60-60")
    for row in pending.all():
        expect(row).to_contain_text("ainda não enviada")
    expect(phone.get_by_text("Sem rede: as mãos registadas aqui ficam")).to_be_visible()
    # The engine's outlook, kept with the page, scores them on the screen until they are sent
    # (tests/browser/test_offline_score.py).
    expect(score).to_have_text("1 – 0")

    # A reload with no network: the worker's copy of the page, the hands still waiting.
    phone.reload()
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(phone.get_by_text("Sem rede: esta é a última versão vista")).to_be_visible()
    # Said once: the list below says what waits.
    expect(phone.get_by_text("Sem rede", exact=False).locator("visible=true")).to_have_count(1)
    expect(pending).to_have_count(2)
    expect(pending.nth(0)).to_contain_text("ainda não enviada")
    assert hands_on_the_server(live_server, rubber_id) == []

    go_online(phone)
    expect(pending).to_have_count(0)
    expect(score).to_have_text("1 – 0")  # the page came back from the server
    expect(phone.locator("html")).not_to_have_attribute("data-offline-copy", "")
    assert hands_on_the_server(live_server, rubber_id) == [
        ("played", [75, 45], None),
        ("tie", [60, 60], None),
    ]

    # Nothing is sent twice: another load finds nothing waiting and the server unchanged.
    phone.reload()
    expect(score).to_have_text("1 – 0")
    expect(pending).to_have_count(0)
    waiting = "() => Object.keys(localStorage).filter((key) => key.startsWith('sueca.pending'))"
    assert phone.evaluate(waiting) == []
    assert len(hands_on_the_server(live_server, rubber_id)) == 2


def test_a_hand_refused_when_it_is_sent_is_shown_and_kept(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    second_phone.goto(edit_link(live_server, phone, rubber_id))
    pending = phone.locator(".pending-hand")

    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("70")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(pending).to_have_count(1)

    # Meanwhile the other phone, online, records a hand: the offline one is now out of date.
    second_phone.get_by_label("Pontos", exact=True).fill("30")
    second_phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(second_phone.locator(".scoreline .games")).to_have_text("0 – 1")

    go_online(phone)
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("não enviada")
    expect(pending).to_contain_text("Outra pessoa registou uma mão")
    assert hands_on_the_server(live_server, rubber_id) == [("played", [30, 90], None)]
    phone.reload()
    expect(pending).to_have_count(1)  # never dropped
    expect(pending).to_contain_text("Outra pessoa registou uma mão")

    # The scorer decides: recorded anyway, on top of the other phone's hand.
    pending.get_by_role("button", name="Enviar mesmo assim").tap()
    expect(pending).to_have_count(0)
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 1")
    assert hands_on_the_server(live_server, rubber_id) == [
        ("played", [30, 90], None),
        ("played", [70, 50], None),
    ]


def test_a_refused_hand_can_be_discarded(live_server: str, phone: Any) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    pending = phone.locator(".pending-hand")
    go_offline(phone)
    phone.get_by_label("Pontos", exact=True).fill("119")  # no cards add up to 119
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(pending).to_have_count(1)
    go_online(phone)
    expect(pending.locator(".error")).to_contain_text("119")
    pending.get_by_role("button", name="Descartar").tap()
    expect(pending).to_have_count(0)
    assert hands_on_the_server(live_server, rubber_id) == []


def test_a_post_that_gets_no_answer_keeps_the_hand_and_sends_it_once(
    live_server: str, phone: Any
) -> None:
    """The phone thinks it is online but the post never comes back.

    As on a café's Wi-Fi with no internet behind it: the hand is kept with the form's key and sent
    once the way is clear."""
    rubber_id = start_kept_rubber(live_server, phone)
    form_post = f"{live_server}/r/{rubber_id}/hands"
    phone.route(form_post, lambda route: route.abort("internetdisconnected"))
    phone.get_by_label("Pontos", exact=True).fill("80")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    pending = phone.locator(".pending-hand")
    expect(pending).to_have_count(1)
    expect(pending).to_contain_text("Nós 80 – 40 Eles")
    phone.unroute(form_post)
    phone.evaluate("() => window.dispatchEvent(new Event('online'))")
    expect(pending).to_have_count(0)
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 0")
    assert hands_on_the_server(live_server, rubber_id) == [("played", [80, 40], None)]


def test_a_post_that_arrived_but_lost_its_answer_is_not_recorded_twice(
    live_server: str, phone: Any
) -> None:
    rubber_id = start_kept_rubber(live_server, phone)
    form_post = f"{live_server}/r/{rubber_id}/hands"

    def arrive_then_fail(route: Any) -> None:
        route.fetch(max_redirects=0)  # the server records the hand...
        route.abort("connectionreset")  # ...and its answer is lost on the way back

    phone.route(form_post, arrive_then_fail)
    phone.get_by_label("Pontos", exact=True).fill("80")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    pending = phone.locator(".pending-hand")
    expect(pending).to_have_count(1)
    phone.unroute(form_post)
    phone.evaluate("() => window.dispatchEvent(new Event('online'))")
    # Sent again with the same key: the server knows it, nothing is stored twice.
    expect(pending).to_contain_text("parece já ter chegado ao servidor")
    assert hands_on_the_server(live_server, rubber_id) == [("played", [80, 40], None)]
    expect(pending.get_by_role("button", name="Enviar mesmo assim")).to_be_hidden()
    pending.get_by_role("button", name="Descartar").tap()
    expect(pending).to_have_count(0)
    assert hands_on_the_server(live_server, rubber_id) == [("played", [80, 40], None)]


def test_a_rubber_opened_before_the_worker_ran_is_kept_too(
    live_server: str, phone: Any, second_phone: Any
) -> None:
    """The second phone's very first page is the rubber, from its edit link.

    The worker was not there to see it load, so the page asks it to keep a copy."""
    rubber_id = start_kept_rubber(live_server, phone)
    second_phone.goto(edit_link(live_server, phone, rubber_id))
    expect(second_phone).to_have_url(PAGE)
    wait_until_kept(second_phone)
    go_offline(second_phone)
    second_phone.reload()
    expect(second_phone.locator("html")).to_have_attribute("data-offline-copy", "")
    expect(second_phone.locator(".scoreline .games")).to_have_text("0 – 0")
    second_phone.get_by_label("Pontos", exact=True).fill("65")
    second_phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(second_phone.locator(".pending-hand")).to_contain_text("ainda não enviada")


SHELL_ANSWER = """async (address) => {
    // What the page gets for a shell file's address, through the worker: its Cache-Control
    // (a hashed address is immutable; the server answers any other with no-cache).
    try {
        const response = await fetch(address);
        return [response.status, response.headers.get("Cache-Control")];
    } catch (error) {
        return [0, String(error)];
    }
}"""


def test_a_page_of_a_new_release_gets_the_new_files_not_the_workers_old_copy(
    live_server: str, phone: Any
) -> None:
    """The worker answers the very stylesheet a page names from its copy.

    An address of another release (another hash) goes to the server, so new HTML never comes with an
    old stylesheet. Offline, any copy of the file does rather than none."""
    start_kept_rubber(live_server, phone)
    named = phone.evaluate("() => document.querySelector('link[rel=stylesheet]').href")
    assert "?v=" in named
    other = re.sub(r"\?v=[^&]+", "?v=0123456789abcdef", named)
    assert phone.evaluate(SHELL_ANSWER, named) == [200, "public, max-age=31536000, immutable"]
    assert phone.evaluate(SHELL_ANSWER, other) == [200, "no-cache"]  # from the server
    go_offline(phone)
    assert phone.evaluate(SHELL_ANSWER, named)[0] == 200
    assert phone.evaluate(SHELL_ANSWER, other) == [200, "public, max-age=31536000, immutable"]


def test_a_new_rubber_offline_says_it_needs_the_network(live_server: str, phone: Any) -> None:
    phone.goto(live_server + "/")
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    wait_until_kept(phone)
    go_offline(phone)
    phone.reload()  # the worker's copy of the home page
    expect(phone.locator("html")).to_have_attribute("data-offline-copy", "")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    alert = phone.get_by_role("alert").filter(has_text="Sem rede")
    expect(alert).to_have_text(
        "Sem rede: começar uma partida ou um jogo precisa dela. Tente de novo quando a rede voltar."
    )
    expect(phone).to_have_url(live_server + "/")
    go_online(phone)
    phone.wait_for_function("() => navigator.onLine")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(PAGE)  # online, the same button starts it
