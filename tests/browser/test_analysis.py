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
from playwright.sync_api import expect

from scorekeeper.engine import RuleSet, verify_record
from scorekeeper.engine.analysis import analyse_record, record_line, record_lines, turning_card
from tests.background.test_queue import start_consumer, stop_consumer
from tests.browser.conftest import PHONE
from tests.support.apps import fresh_app, served
from tests.support.records import FULL_RECORD


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    queue = f"sqlite:///{tmp_path / 'queue.sqlite3'}"
    config = {
        "SECRET_KEY": "browser-tests",
        "ANALYSIS_QUEUE_URL": queue,
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
            f"Com o 4♣ na 3.ª vaza, {turning.best[1]} pontos para Eles: 1 jogo para Eles."
        )
        costly = phone.locator("[data-costly]")
        assert costly.count() == sum(1 for card in expected.cards if card.cost)
        second = phone.inner_text("[data-trick='3'] [data-costly] >> nth=0")
        assert re.search(
            r"2♥\s+−10 pontos para Eles, contra o melhor jogo de todos a partir daqui: 67 pontos "
            r"para Eles antes desta carta, 57 depois dela; as melhores cartas eram 4♣, 2♣",
            second,
        ), second
        # Readable on the phone: nothing wider than its screen.
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["viewport"]["width"]

        step_through_the_line(phone, expected)

        english = browser.new_context(**{**PHONE, "locale": "en"})
        page = english.new_page()
        page.goto(phone.url)
        assert page.inner_text("[data-turning]").startswith("With 4♣ in trick 3, Eles would")
        english.close()
        brazilian = browser.new_context(**{**PHONE, "locale": "pt-BR"})
        page = brazilian.new_page()
        page.goto(phone.url)
        assert f"Com o 4♣ na 3ª vaza, {turning.best[1]} pontos para Eles" in page.inner_text(
            "[data-turning]"
        )
        brazilian.close()
    finally:
        if consumer is not None:
            stop_consumer(consumer)
        context.close()


def step_through_the_line(phone: Any, expected: Any) -> None:
    """From the costly 2♥ of trick 3, the best line to the end, then a card on, then back."""
    rules = RuleSet()
    record = verify_record("H", 1, FULL_RECORD, rules)
    lines = record_lines(record, rules, expected)
    phone.locator("[data-trick='3'] a.step").nth(2).tap()
    line = phone.locator("[data-line]")
    expect(line).to_have_attribute("data-line", "11")
    item = expected.cards[10]
    assert (str(item.card), item.cost) == ("2H", 10)
    expect(line.locator("h2")).to_have_text("Lugar 4 na 3.ª vaza: a melhor sequência daí em diante")
    expect(phone.locator("[data-line-intro]")).to_have_text(
        f"Em vez do 2♥, o 4♣: {item.best[1]} pontos para Eles."
    )
    shown = record_line(record, rules, 10, lines[10])
    tricks = phone.locator("[data-line-trick]")
    expect(tricks).to_have_count(len(shown))
    for number, trick in enumerate(shown):
        text = tricks.nth(number).inner_text()
        assert f"Nós {trick.taken[0]} – {trick.taken[1]} Eles" in text, text
        assert f"leva Lugar {trick.winner + 1}, {trick.points} pontos" in text, text
    assert "Lugar 2: 5♠" in tricks.first.inner_text()
    expect(phone.locator("[data-line-here]")).to_have_text("Lugar 4: 4♣")
    expect(phone.locator("[data-line-end]")).to_have_text(
        f"No fim: Nós {item.best[0]} – {item.best[1]} Eles: 1 jogo para Eles"
    )
    expect(phone.get_by_text("É uma das melhores sequências")).to_be_visible()
    # The line is on the screen the tap led to, and nothing is wider than the phone.
    assert phone.evaluate("document.getElementById('line').getBoundingClientRect().top") < 200
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    phone.locator("[data-line-next]").tap()
    expect(line).to_have_attribute("data-line", "12")
    after = expected.cards[11]
    expect(phone.locator("[data-line-intro]")).to_have_text(
        f"Em vez do A♣, o {after.best_cards[0].rank}♣: {after.best[0]} pontos para Nós."
    )
    phone.locator("[data-line-previous]").tap()
    expect(line).to_have_attribute("data-line", "11")


def test_the_replay_s_confirmation_page_analyses_the_hand(
    browser: Any, setup: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    """Replayed card by card, analysed before it is recorded; recorded, the same analysis."""
    url, env = setup
    rubber = requests.post(f"{url}/api/v1/rubbers", json={}, timeout=10).json()
    rules = RuleSet()
    expected = analyse_record(verify_record("H", 1, FULL_RECORD, rules), rules)
    assert expected.value is not None
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    phone = context.new_page()
    consumer = None
    try:
        phone.goto(rubber["edit_url"])
        phone.goto(f"{url}/r/{rubber['id']}/replay")
        phone.locator('button[data-trump="H"]').tap()
        for trick in FULL_RECORD:
            for card in trick:
                phone.locator(f'button[name="card"][data-card="{card}"]').tap()
                expect(
                    phone.locator(f'.slots [data-card="{card}"], .trick-list [data-card="{card}"]')
                ).to_have_count(1)
        phone.locator("[data-finish]").tap()
        expect(phone.get_by_role("heading", name="Confirmar e registar a mão")).to_be_visible()
        phone.get_by_role("button", name="Analisar a mão").tap()
        expect(phone.locator("[data-analysis-progress]")).to_contain_text("À espera da sua vez")
        consumer = start_consumer(env, tmp_path / "consumer.log")
        phone.wait_for_selector("[data-analysis-result]", timeout=90_000)
        best = phone.inner_text("[data-best]")
        assert best == f"Nós {expected.value[0]} – {expected.value[1]} Eles: 1 jogo para Eles"
        phone.locator("[data-trick='3'] a.step").nth(2).tap()
        expect(phone.locator("[data-line]")).to_have_attribute("data-line", "11")
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]

        # Back to the confirmation, the record as it was, and recorded from there.
        phone.get_by_role("button", name="Voltar a confirmar e registar a mão").tap()
        expect(phone.get_by_role("heading", name="Confirmar e registar a mão")).to_be_visible()
        expect(phone.locator("[data-result] [data-points]")).to_have_text("48 – 72")
        phone.get_by_role("button", name="Registar a mão").tap()
        expect(phone.locator(".scoreline .games")).to_have_text("0 – 1")
        stop_consumer(consumer)
        consumer = None
        # The hand's own analysis is the one already done: shown at once, with no consumer.
        phone.goto(f"{url}/r/{rubber['id']}/hands/1/analysis")
        expect(phone.locator("[data-best]")).to_have_text(best)
    finally:
        if consumer is not None:
            stop_consumer(consumer)
        context.close()


def test_the_waiting_page_says_nothing_analyses_and_follows_without_reloading(
    browser: Any, setup: tuple[str, dict[str, str]], tmp_path: Path
) -> None:
    """Say that nothing analyses, and follow the status without reloading (issue 25, item 1).

    The page reloaded itself every 2 s for ever; now it reads its status as JSON in place, and
    once a consumer is started the note goes and the result comes."""
    url, env = setup
    rubber = requests.post(f"{url}/api/v1/rubbers", json={}, timeout=10).json()
    added = requests.post(
        f"{url}/api/v1/rubbers/{rubber['id']}/hands",
        json={"trump": "H", "tricks": FULL_RECORD},
        headers={"X-Edit-Key": rubber["edit_key"]},
        timeout=10,
    )
    assert added.status_code == 201
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    phone = context.new_page()
    loads: list[str] = []
    phone.on("load", lambda page: loads.append(page.url))
    consumer = None
    try:
        phone.goto(f"{url}/r/{rubber['id']}/hands/1")
        # Count loads from the analysis page's own: its text can show before its load event.
        with phone.expect_event("load"):
            phone.click("[data-analyse]")
        assert loads[-1].endswith("/hands/1/analysis"), loads
        idle = phone.locator("[data-analysis-idle]")
        expect(idle).to_have_text(
            "Não há nenhum analisador a funcionar neste servidor: "
            "a análise fica na fila e começa quando houver um."
        )
        expect(phone.locator("[data-analysis-progress]")).to_have_text("À espera da sua vez…")
        waiting = len(loads)
        with phone.expect_response(lambda answer: answer.url.endswith("/progress")) as asked:
            pass
        status = asked.value.json()
        assert (status["status"], status["consumer"]) == ("queued", False), status
        assert len(loads) == waiting  # followed in place: no reload
        # Without a script, and only then, the page reloads itself.
        page = requests.get(phone.url, timeout=10).text
        assert '<noscript><meta http-equiv="refresh" content="5"></noscript>' in page

        consumer = start_consumer(env, tmp_path / "consumer.log")
        phone.wait_for_selector("[data-analysis-result]", timeout=60_000)
        expect(idle).to_have_count(0)
        assert len(loads) == waiting + 1  # one load, to show the result
    finally:
        if consumer is not None:
            stop_consumer(consumer)
        context.close()


def test_the_waiting_page_says_about_how_long_is_left(
    browser: Any, setup: tuple[str, dict[str, str]]
) -> None:
    """Issue 27, item 4: while the analysis runs, "cerca de N s" from the cards done so far.

    The status is the consumer's progress (cards done of 40); the page estimates the rest from
    the time the last cards took, and says nothing until it has seen the count move."""
    url, _env = setup
    rubber = requests.post(f"{url}/api/v1/rubbers", json={}, timeout=10).json()
    added = requests.post(
        f"{url}/api/v1/rubbers/{rubber['id']}/hands",
        json={"trump": "H", "tricks": FULL_RECORD},
        headers={"X-Edit-Key": rubber["edit_key"]},
        timeout=10,
    )
    assert added.status_code == 201
    context = browser.new_context(**PHONE)
    context.set_default_timeout(10_000)
    phone = context.new_page()
    answers = iter([(0, "queued"), (8, "running"), (16, "running"), (16, "running")])
    said: list[int] = []

    def progress(route: Any) -> None:
        done, status = next(answers, (16, "running"))
        said.append(done)
        route.fulfill(
            json={
                "status": status,
                "done": done,
                "total": 40,
                "text": f"A analisar: {done} de 40 cartas.",
                "consumer": True,
            }
        )

    phone.route("**/analysis/*/progress", progress)
    try:
        phone.goto(f"{url}/r/{rubber['id']}/hands/1")
        phone.click("[data-analyse]")
        left = phone.locator("[data-analysis-left]")
        expect(phone.locator("[data-analysis-progress]")).to_have_text(
            "A analisar: 8 de 40 cartas.", timeout=15_000
        )
        expect(left).to_be_hidden()  # one count seen: nothing to estimate from
        expect(phone.locator("[data-analysis-progress]")).to_have_text(
            "A analisar: 16 de 40 cartas.", timeout=15_000
        )
        expect(left).to_be_visible()
        found = re.fullmatch(r"Faltam cerca de (\d+) s\.", left.inner_text())
        assert found, left.inner_text()
        # 8 cards in one step of about 3 s, 24 to go: about 9 s.
        assert 6 <= int(found.group(1)) <= 14, found.group(0)
        assert said[:3] == [0, 8, 16]
    finally:
        context.close()
