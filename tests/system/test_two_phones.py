"""Two phones (and more) recording hands of one rubber at once, on a real server.

Or, with APP_SERVERS=2, on two gunicorn servers behind nginx, one database.

Clients in threads write through the JSON API (idempotency keys, some with ``version``, some
sent twice) and through the HTML form (the edit link, CSRF and all). Every acknowledged hand is
in the final rubber exactly once, a retried key adds nothing, a stale version is refused and
said so, and the cached totals are the engine's fold.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import requests

from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from tests.support.apps import fresh_app, served
from tests.support.servers import APP_SERVERS, behind_proxy

API_CLIENTS = 4
HTML_CLIENTS = 2
TIES_PER_CLIENT = 8
PLAYED_PER_CLIENT = 3
ATTEMPTS = 60
"""A hand is tried at most this often (each try after a refusal reads the rubber again)."""
TIMEOUT = 30
SUITS = ("C", "D", "H", "S")
EN = {"Accept-Language": "en"}
ALREADY = "That hand was already recorded: here is the score."
STALE = "Someone else recorded a hand first"
"""The page's note for a hand refused because another phone recorded first: it says the hand was
not recorded and offers it again as the next one (issue 25, item 7)."""


def refused_as_stale(notes: list[str]) -> bool:
    return any(STALE in note for note in notes)


BUSY = "The rubber is busy: try again."


@dataclass
class Tally:
    """What the clients were told, shared between their threads."""

    acknowledged: list[tuple[str, tuple[int, int] | None, str | None]] = field(default_factory=list)
    conflicts: Counter[str] = field(default_factory=Counter)
    replays: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def ack(self, kind: str, points: tuple[int, int] | None, trump: str | None) -> None:
        with self.lock:
            self.acknowledged.append((kind, points if kind != "tie" else None, trump))

    def conflict(self, code: str) -> None:
        with self.lock:
            self.conflicts[code] += 1


def marker(hand: dict[str, Any]) -> tuple[str, tuple[int, int] | None, str | None]:
    """A stored hand as the clients told it apart: its kind, its points, its trump."""
    points = tuple(hand["points"]) if hand["kind"] != "tie" else None
    return (hand["kind"], points, hand["trump"])  # type: ignore[return-value]


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Any]]:
    """Return the app, CSRF and all, served by a threaded HTTP server on a free port of 127.0.0.1.

    With APP_SERVERS=2, it is served by that many gunicorn servers behind nginx, which sends each
    request to the next server in turn (every client's own certificate check trusts the proxy's)."""
    if APP_SERVERS > 1:
        with behind_proxy(tmp_path, servers=APP_SERVERS) as stack:
            monkeypatch.setenv("REQUESTS_CA_BUNDLE", stack.front.cert)
            yield stack.url, stack.app
        return
    with (
        fresh_app(tmp_path / "phones.sqlite3", {"SECRET_KEY": "two-phones"}) as app,
        served(app) as url,
    ):
        yield url, app


# The JSON API -------------------------------------------------------------------------------


def api_client(
    base: str, rubber: dict[str, Any], number: int, hands: list[dict[str, Any]], tally: Tally
) -> None:
    """One phone's app: each hand with its own idempotency key.

    Every other hand carries the version it last saw (refused when another phone got there first:
    read again, try again); every third is sent twice, as after a lost answer."""
    url = f"{base}/api/v1/rubbers/{rubber['id']}/hands"
    headers = {"X-Edit-Key": rubber["edit_key"], **EN}
    with requests.Session() as session:
        seen = rubber["version"]
        for index, hand in enumerate(hands):
            key = f"api-{number}-{index}"
            with_version = index % 2 == 1
            for _ in range(ATTEMPTS):
                body = {**hand, "key": key}
                if with_version:
                    body["version"] = seen
                answer = session.post(url, json=body, headers=headers, timeout=TIMEOUT)
                if answer.status_code == 409:
                    error = answer.json()
                    assert error["code"] in ("stale", "busy"), error
                    assert error["error"].strip()
                    tally.conflict(error["code"])
                    state = session.get(f"{base}/api/v1/rubbers/{rubber['id']}", timeout=TIMEOUT)
                    seen = state.json()["version"]
                    continue
                assert answer.status_code == 201, answer.text[:500]
                first = answer.json()
                seen = first["version"]
                stored = first["hands"][-1]
                tally.ack(stored["kind"], tuple(stored["points"]), stored["trump"])
                if index % 3 == 2:
                    again = session.post(url, json=body, headers=headers, timeout=TIMEOUT)
                    assert again.status_code == 201, again.text[:500]
                    assert again.headers.get("Idempotent-Replayed") == "true"
                    assert again.json() == first
                    with tally.lock:
                        tally.replays += 1
                break
            else:
                pytest.fail(f"hand {key} was refused {ATTEMPTS} times")


# The HTML form ------------------------------------------------------------------------------


class HandFormReader(HTMLParser):
    """The hidden fields of the hand form on a rubber page, and the notes flashed above it."""

    def __init__(self) -> None:
        super().__init__()
        self.fields: dict[str, str] = {}
        self.notes: list[str] = []
        self._in_form = False
        self._in_note = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._in_form = values.get("action", "").endswith("/hands")
        elif tag == "input" and self._in_form and values.get("type") == "hidden":
            self.fields[values["name"]] = values.get("value", "")
        elif tag == "p" and "note" in values.get("class", "").split():
            self._in_note = True
            self.notes.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_form = False
        elif tag == "p":
            self._in_note = False

    def handle_data(self, data: str) -> None:
        if self._in_note:
            self.notes[-1] += data


def read_page(text: str) -> HandFormReader:
    reader = HandFormReader()
    reader.feed(text)
    return reader


def html_client(
    base: str, rubber: dict[str, Any], number: int, hands: list[dict[str, str]], tally: Tally
) -> None:
    """A second phone in a browser: it opens the edit link, then posts the page's form.

    A page gone stale while another phone recorded is refused with a note; it reads the new page and
    sends again. Every other hand is posted twice with the same key, as a double tap."""
    with requests.Session() as session:
        # As a browser posts a page's form: from that page (over https, CSRF checks it).
        session.headers.update({**EN, "Referer": f"{base}/r/{rubber['id']}"})
        page = session.get(f"{base}/r/{rubber['id']}/edit/{rubber['edit_key']}", timeout=TIMEOUT)
        assert page.status_code == 200 and page.url.endswith(f"/r/{rubber['id']}")
        form = read_page(page.text).fields
        assert {"csrf_token", "key", "version"} <= set(form), form
        for index, hand in enumerate(hands):
            for _ in range(ATTEMPTS):
                data = {**form, **hand}
                answer = session.post(f"{base}/r/{rubber['id']}/hands", data=data, timeout=TIMEOUT)
                assert answer.status_code == 200, answer.text[:500]
                assert answer.history and answer.history[0].status_code == 302
                shown = read_page(answer.text)
                form = shown.fields
                if refused_as_stale(shown.notes) or BUSY in shown.notes:
                    tally.conflict("stale page" if refused_as_stale(shown.notes) else "busy page")
                    continue
                assert shown.notes, answer.text[:2000]
                state = session.get(f"{base}/api/v1/rubbers/{rubber['id']}", timeout=TIMEOUT).json()
                mine = [h for h in state["hands"] if h["summary"] in shown.notes]
                assert mine, (shown.notes, state["hands"][-3:])
                if hand["action"] == "tie":
                    tally.ack("tie", None, hand.get("trump"))
                else:
                    points = int(hand["points"])
                    tally.ack("played", (points, 120 - points), hand.get("trump"))
                if index % 2 == 1:
                    again = session.post(
                        f"{base}/r/{rubber['id']}/hands", data=data, timeout=TIMEOUT
                    )
                    assert again.status_code == 200 and again.history
                    # The same key again: nothing more recorded, and the page says so.
                    assert read_page(again.text).notes == [ALREADY]
                    form = read_page(again.text).fields
                    with tally.lock:
                        tally.replays += 1
                break
            else:
                pytest.fail(f"HTML hand {index} of client {number} was refused {ATTEMPTS} times")


# The test -----------------------------------------------------------------------------------


def test_phones_record_at_once(server: tuple[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    base, app = server
    created = requests.post(
        f"{base}/api/v1/rubbers",
        json={"rules": {"preset": "online", "games_to_win": 20}},
        timeout=TIMEOUT,
    )
    assert created.status_code == 201, created.text
    rubber = created.json()
    assert rubber["rules"]["tie"] == "void"

    # Distinct card points, each worth one game, so every played hand is told apart; with
    # games_to_win 20 and a dozen games at most, the rubber never ends.
    team0_wins = iter(range(61, 91))
    team1_wins = iter(range(59, 29, -1))
    api_hands = []
    for number in range(API_CLIENTS):
        hands: list[dict[str, Any]] = [
            {"points": [60, 60], "trump": SUITS[number]} for _ in range(TIES_PER_CLIENT)
        ]
        for index in range(PLAYED_PER_CLIENT):
            points = next(team0_wins if index % 2 == 0 else team1_wins)
            hands.insert(index * 3, {"points": [points, 120 - points], "trump": SUITS[number]})
        api_hands.append(hands)
    html_hands = []
    for _number in range(HTML_CLIENTS):
        hands_html: list[dict[str, str]] = []
        for index in range(PLAYED_PER_CLIENT):
            points = next(team0_wins if index % 2 == 0 else team1_wins)
            hands_html.append({"action": "points", "team": "0", "points": str(points)})
            hands_html.append({"action": "tie", "trump": "H"})
        html_hands.append(hands_html)

    tally = Tally()
    started = time.monotonic()
    with ThreadPoolExecutor(API_CLIENTS + HTML_CLIENTS) as pool:
        futures = [
            pool.submit(api_client, base, rubber, number, hands, tally)
            for number, hands in enumerate(api_hands)
        ] + [
            pool.submit(html_client, base, rubber, number, hands, tally)
            for number, hands in enumerate(html_hands)
        ]
        for future in futures:
            future.result(timeout=300)
    elapsed = time.monotonic() - started

    final = requests.get(f"{base}/api/v1/rubbers/{rubber['id']}", timeout=TIMEOUT).json()
    expected = sum(len(hands) for hands in api_hands) + sum(len(hands) for hands in html_hands)
    # No lost update, no duplicate: the stored hands are the acknowledged ones, each once.
    assert len(tally.acknowledged) == expected
    assert Counter(marker(hand) for hand in final["hands"]) == Counter(tally.acknowledged)
    assert [hand["number"] for hand in final["hands"]] == list(range(1, expected + 1))
    assert not final["finished"]

    # A page or a client that saw an older version is refused, and says so.
    stale = requests.post(
        f"{base}/api/v1/rubbers/{rubber['id']}/hands",
        json={"points": [60, 60], "version": 1},
        headers={"X-Edit-Key": rubber["edit_key"], **EN},
        timeout=TIMEOUT,
    )
    assert stale.status_code == 409 and stale.json()["field"] == "version"
    with requests.Session() as phone:
        phone.headers.update({**EN, "Referer": f"{base}/r/{rubber['id']}"})
        page = phone.get(f"{base}/r/{rubber['id']}/edit/{rubber['edit_key']}", timeout=TIMEOUT)
        form = read_page(page.text).fields
        old = {**form, "version": str(int(form["version"]) - 1), "action": "tie"}
        shown = phone.post(f"{base}/r/{rubber['id']}/hands", data=old, timeout=TIMEOUT)
        assert shown.status_code == 200 and refused_as_stale(read_page(shown.text).notes)
    after = requests.get(f"{base}/api/v1/rubbers/{rubber['id']}", timeout=TIMEOUT).json()
    assert after["version"] == final["version"] and len(after["hands"]) == expected

    # The cached totals are the engine's fold of the stored hands.
    with app.app_context():
        row = db.session.get(Rubber, rubber["id"])
        assert row is not None
        state = row.state()
        assert (row.games0, row.games1) == state.games == tuple(final["games"])
        assert row.hand_count == len(state.hands) == expected
        assert (row.finished, row.winner) == (state.finished, state.winner)
        db.session.remove()

    conflicts = sum(tally.conflicts.values())
    with capsys.disabled():
        print(
            f"\n[hardening] two phones: {API_CLIENTS} API + {HTML_CLIENTS} HTML clients, "
            f"{'one server' if APP_SERVERS == 1 else f'{APP_SERVERS} servers behind nginx'}, "
            f"{expected} hands in {elapsed:.1f} s, {conflicts} conflicts resolved "
            f"{dict(tally.conflicts)}, {tally.replays} retries with the same key stored nothing"
        )
