"""A real server on 127.0.0.1 and Debian's Chromium driven by Playwright, at a phone's size.

Locally a missing Chromium skips these tests with one loud line; under CI (CI=true) it fails.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.apps import fresh_app, served

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
ASSERTION_TIMEOUT = 10_000
"""Milliseconds an action or an assertion waits for the page before it fails."""
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
    "locale": "pt-PT",
}


def _missing(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests need {reason}, and CI must have it")
    print(f"\n*** SKIPPING BROWSER TESTS: {reason} ***")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        _missing("the playwright package")
    # An assertion waits as long as an action (a context's default, _new_phone): 5 s, its own
    # default, was too short for a tap's navigation when the machine was busy (a page
    # installing its service worker on a loaded CI machine).
    expect.set_options(timeout=ASSERTION_TIMEOUT)
    if not Path(CHROMIUM).exists():
        _missing(f"Chromium at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def live_server(tmp_path: Path) -> Iterator[str]:
    """The app, CSRF and all, served by a real HTTP server on a free port of 127.0.0.1."""
    with (
        fresh_app(tmp_path / "live.sqlite3", {"SECRET_KEY": "browser-tests"}) as app,
        served(app) as url,
    ):
        yield url


@pytest.fixture
def organizer(browser: Any) -> Iterator[Any]:
    """The phone that runs a tournament: a phone's size, 15 s for its heavier pages' actions."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(15_000)
    yield context.new_page()
    context.close()


def _new_phone(browser: Any) -> Iterator[Any]:
    """A page in a fresh phone-sized touch context (its own cookies: its own device)."""
    context = browser.new_context(**PHONE)
    context.set_default_timeout(ASSERTION_TIMEOUT)
    yield context.new_page()
    context.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    yield from _new_phone(browser)


@pytest.fixture
def second_phone(browser: Any) -> Iterator[Any]:
    """Another phone at the same table: a device of its own."""
    yield from _new_phone(browser)
