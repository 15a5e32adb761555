"""A phone on the real address: Chromium through deploy/nginx.conf's nginx over https.

The nginx has a certificate of the test's own, so the context ignores that it is self-signed;
gunicorn is behind it.

The service worker registers, every link the page gives is https, the answers carry HSTS and
the session cookie is the __Host- one, Secure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, PHONE
from tests.support.servers import Stack, behind_proxy

PAGE = re.compile(r"/r/([A-Za-z0-9_-]{32})$")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with behind_proxy(tmp_path) as running:
        yield running


@pytest.fixture
def https_phone(browser: Any, stack: Stack) -> Iterator[Any]:
    """Return a phone that trusts the proxy's certificate.

    The context ignores certificate errors for pages, but Chromium refuses a service worker's script
    behind one all the same: this browser trusts the certificate by its key, as a phone trusts a
    real one."""
    trust = f"--ignore-certificate-errors-spki-list={stack.front.spki}"
    trusting = browser.browser_type.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, trust])
    context = trusting.new_context(**PHONE, ignore_https_errors=True)
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()
    trusting.close()


def test_a_phone_over_https_gets_the_worker_https_links_hsts_and_the_host_cookie(
    stack: Stack, https_phone: Any
) -> None:
    phone = https_phone
    home = phone.goto(stack.url + "/")
    assert home is not None and home.ok
    assert home.headers["strict-transport-security"] == "max-age=31536000"
    phone.wait_for_function("() => navigator.serviceWorker.controller !== null")
    scope = phone.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope == stack.url + "/"

    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(PAGE)
    assert phone.url.startswith(stack.url + "/r/")
    rubber_url = phone.url
    links = phone.eval_on_selector_all(
        "a[href], link[href], script[src]",
        """(elements) =>
        elements.map((e) => e.href || e.src)""",
    )
    assert links and all(link.startswith(stack.url + "/") for link in links), links

    # The links to pass on are on the share page, one tap from the rubber's.
    phone.get_by_role("link", name="Ligações e códigos QR para partilhar a partida").tap()
    expect(phone).to_have_url(rubber_url + "/share")
    share = phone.locator("#share-url")
    edit = phone.locator("#edit-url")
    expect(share).to_have_text(rubber_url)
    assert share.get_attribute("href") == rubber_url
    edit_url = edit.get_attribute("href")
    assert edit_url is not None and edit_url.startswith(f"{rubber_url}/edit/"), edit_url
    expect(edit).to_have_text(edit_url)
    links = phone.eval_on_selector_all(
        "a[href], link[href], script[src]",
        """(elements) =>
        elements.map((e) => e.href || e.src)""",
    )
    assert links and all(link.startswith(stack.url + "/") for link in links), links
    phone.get_by_role("link", name=re.compile(r"^← ")).tap()
    expect(phone).to_have_url(rubber_url)

    cookies = {cookie["name"]: cookie for cookie in phone.context.cookies()}
    assert "session" not in cookies, cookies
    session = cookies["__Host-session"]
    assert session["secure"] and session["httpOnly"] and session["path"] == "/"
    assert session["domain"] == "127.0.0.1" and session["sameSite"] == "Lax"

    # The phone records a hand over https: its session (and the CSRF token in it) holds.
    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 0")
