"""The screen stays on at the table: the wake-lock toggle on the rubber page.

A stand-in for navigator.wakeLock (installed before the page's scripts run) records each request
and lets a test hide and show the page, refuse the lock, or take the API away.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect

FAKE_WAKE_LOCK = """
(() => {
  window.__wake = { requests: 0, visible: true, refuse: null, sentinel: null };
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (window.__wake.visible ? "visible" : "hidden"),
  });
  const wakeLock = {
    request(type) {
      window.__wake.requests += 1;
      if (window.__wake.refuse) {
        return Promise.reject(new DOMException(window.__wake.refuse, "NotAllowedError"));
      }
      const sentinel = new EventTarget();
      sentinel.type = type;
      sentinel.released = false;
      sentinel.release = () => {
        sentinel.released = true;
        sentinel.dispatchEvent(new Event("release"));
        return Promise.resolve();
      };
      window.__wake.sentinel = sentinel;
      return Promise.resolve(sentinel);
    },
  };
  Object.defineProperty(Navigator.prototype, "wakeLock", { configurable: true, get: () => wakeLock });
})();
"""

NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"

HIDE = """() => {
  window.__wake.visible = false;
  window.__wake.sentinel.release();  // what the browser does to a hidden page's lock
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  window.__wake.visible = true;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def rubber_page(live_server: str, phone: Any) -> None:
    phone.goto(live_server + "/")
    phone.get_by_role("button", name="Nova partida: Nós contra Eles").tap()
    expect(phone).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{32}$"))


def requests(phone: Any) -> int:
    return int(phone.evaluate("() => window.__wake.requests"))


def test_the_toggle_holds_the_lock_and_takes_it_again_when_the_page_is_back(
    live_server: str, phone: Any
) -> None:
    phone.context.add_init_script(FAKE_WAKE_LOCK)
    rubber_page(live_server, phone)
    toggle = phone.get_by_role("button", name="Manter o ecrã ligado")
    status = phone.locator("[data-wake-status]")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(phone.get_by_text("Este navegador não consegue")).to_be_hidden()

    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(status).to_have_text("O ecrã fica ligado.")
    assert requests(phone) == 1

    phone.evaluate(HIDE)
    expect(status).to_contain_text("volta a ficar ligado")
    phone.evaluate(SHOW)
    expect(status).to_have_text("O ecrã fica ligado.")
    assert requests(phone) == 2

    # Every recorded hand loads the page again: the lock is taken again by itself.
    phone.get_by_label("Pontos", exact=True).fill("75")
    phone.get_by_role("button", name="Registar", exact=True).tap()
    expect(phone.locator(".scoreline .games")).to_have_text("1 – 0")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    expect(status).to_have_text("O ecrã fica ligado.")
    assert requests(phone) == 1  # a new page, a new count

    toggle.tap()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    expect(status).to_have_text("")
    assert phone.evaluate("() => window.__wake.sentinel.released") is True
    phone.evaluate(HIDE.replace("window.__wake.sentinel.release();", ""))
    phone.evaluate(SHOW)
    assert requests(phone) == 1  # switched off: not taken again


def test_a_refusal_is_said_with_the_browsers_reason(live_server: str, phone: Any) -> None:
    phone.context.add_init_script(FAKE_WAKE_LOCK)
    rubber_page(live_server, phone)
    phone.evaluate("() => { window.__wake.refuse = 'Wake Lock permission request denied'; }")
    toggle = phone.get_by_role("button", name="Manter o ecrã ligado")
    toggle.tap()
    expect(phone.locator("[data-wake-status]")).to_have_text(
        "O navegador recusou manter o ecrã ligado: Wake Lock permission request denied"
    )
    expect(toggle).to_have_attribute("aria-pressed", "false")


def test_without_the_api_a_note_instead_of_the_toggle(live_server: str, phone: Any) -> None:
    phone.context.add_init_script(NO_WAKE_LOCK)
    rubber_page(live_server, phone)
    expect(phone.get_by_text("Este navegador não consegue manter o ecrã ligado")).to_be_visible()
    expect(phone.get_by_role("button", name="Manter o ecrã ligado")).to_have_count(0)


def test_the_real_browser_answers_one_way_or_the_other(live_server: str, phone: Any) -> None:
    """Headless Chromium has the API; whether it grants the lock is up to it.

    The page says which."""
    rubber_page(live_server, phone)
    phone.get_by_role("button", name="Manter o ecrã ligado").tap()
    expect(phone.locator("[data-wake-status]")).to_have_text(
        re.compile(r"^(O ecrã fica ligado\.|O navegador recusou manter o ecrã ligado: .+)$")
    )
