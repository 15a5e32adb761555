"""A hand recorded card by card, analysed from the phone: queued, followed, then shown.

The server is a real HTTP server in this process; the analysis runs in a real huey consumer
process (`make worker`'s), on the same database and queue files.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from scorekeeper.engine import RuleSet, verify_record
from scorekeeper.engine.analysis import analyse_record, turning_card
from tests.analysis.test_queue import start_consumer, stop_consumer
from tests.browser.conftest import PHONE
from tests.support.apps import fresh_app, served
from tests.support.records import FULL_RECORD


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    queue = f"sqlite:///{tmp_path / 'queue.sqlite3'}"
    config = {
        "SECRET_KEY": "browser-tests",
        "ANALYSIS_QUEUE_URL": queue,
        "ANALYSIS_WAIT": 0.0,
    }
    with fresh_app(tmp_path / "live.sqlite3", config) as app, served(app) as url:
        env = {  # the consumer works on the app's own database (PostgreSQL in CI's second run)
            **os.environ,
            "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
            "ANALYSIS_QUEUE_URL": queue,
            "SECRET_KEY": "browser-tests",
        }
        yield url, env


def test_a_hand_is_analysed_from_the_phone(
    browser: Any, setup: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    url, env = setup
    rubber = requests.post(f"{url}/api/v1/rubbers", json={}, timeout=10).json()
    added = requests.post(
        f"{url}/api/v1/rubbers/{rubber['id']}/hands",
        json={"trump": "H", "tricks": FULL_RECORD},
        headers={"X-Edit-Key": rubber["edit_key"]},
        timeout=10,
    )
    assert added.status_code == 201
    rules = RuleSet()
    expected = analyse_record(verify_record("H", 1, FULL_RECORD, rules), rules)
    turning = turning_card(expected, rules)
    assert turning is not None and (turning.trick, str(turning.card)) == (3, "2H")

    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    phone = context.new_page()
    consumer = None
    try:
        phone.goto(f"{url}/r/{rubber['id']}/hands/1")
        phone.click("[data-analyse]")
        assert "À espera da sua vez" in phone.inner_text("[data-analysis-progress]")
        consumer = start_consumer(env, tmp_path / "consumer.log")
        phone.wait_for_selector("[data-analysis-result]", timeout=90_000)

        played = phone.inner_text("[data-played]")
        assert played == "Nós 48 – 72 Eles: 1 jogo para Eles"
        value = expected.value
        assert value is not None
        best = phone.inner_text("[data-best]")
        assert best == f"Nós {value[0]} – {value[1]} Eles: 1 jogo para Eles"
        assert phone.inner_text("[data-turning]") == (
            f"Com o 4♣ na 3.ª vaza, Eles faziam {turning.best[1]}: 1 jogo para Eles."
        )
        costly = phone.locator("[data-costly]")
        assert costly.count() == sum(1 for card in expected.cards if card.cost)
        second = phone.inner_text("[data-trick='3'] [data-costly] >> nth=0")
        assert re.search(r"2♥\s+−10\s+a melhor carta era 4♣, 2♣", second), second
        # Readable on the phone: nothing wider than its screen.
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"]

        english = browser.new_context(**{**PHONE, "locale": "en"})
        page = english.new_page()
        page.goto(phone.url)
        assert page.inner_text("[data-turning]").startswith("With 4♣ in trick 3, Eles would")
        english.close()
        brazilian = browser.new_context(**{**PHONE, "locale": "pt-BR"})
        page = brazilian.new_page()
        page.goto(phone.url)
        assert "Com o 4♣ na 3ª vaza, Eles teriam feito" in page.inner_text("[data-turning]")
        brazilian.close()
    finally:
        if consumer is not None:
            stop_consumer(consumer)
        context.close()
