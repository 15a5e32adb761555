"""The one path that adds a hand (``recording.record_hand``), proven on a real database.

A phone opens the rubber's page and posts its hand form as a browser would: the CSRF token, the
write key and the version the page carries, the team that is checked, and what the person
chose. Nothing is mocked: the app runs with CSRF on over its own SQLite file (or DATABASE_URL).

After every hand the rubber's row keeps the engine's tally of its stored hands (the full fold
``rubber.state()``, and the fold of the hands that were sent), the stored hands are the ones
sent, in order, and the page says what the hand earned. The statements each hand sends show the
way it went: one conditional UPDATE of the row's whole tally, and no hand read (a rubber stored
before its tally reads its hands once). A rubber of a group takes the same way, its group's
seats and totals moved in the same transaction, and equal to a full recompute after every hand;
a write that lands between the read and the write is retried, or refused as stale when the form
carried a version; refusals store nothing; SQLite writers queue at the lock file.
"""

from __future__ import annotations

import fcntl
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa
from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups import store as group_store
from scorekeeper.rubbers import offers, recording, store
from scorekeeper.rubbers.models import Hand, Rubber, WriteKey
from scorekeeper.web import sqlite, wording
from tests.support import api_calls
from tests.support.apps import counted_queries, fresh_app, served, snapshot
from tests.support.recompute import full_recompute

SECRET = "record-hand-test"
ALREADY = "That hand was already recorded: here is the score."
STALE = (
    "Your hand was not recorded: %s. Someone else recorded a hand first, counted above. "
    "If yours is another hand, record it as the next one."
)
STALE_WON = (
    "Your hand was not recorded: %s. Someone else recorded a hand first, and the rubber is won."
)
BUSY = "The rubber is busy: try again."
FINISHED = "This rubber is already won: no more hands can be added."
KEY_REUSED = "This page had already sent a different hand: check the score, then record again."
TIMEOUT = 30


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app as in production, CSRF on, on a database file of this test's own."""
    with fresh_app(tmp_path / "hands.sqlite3", {"TESTING": True, "SECRET_KEY": SECRET}) as app:
        yield app


def sqlite_file(app: Flask) -> Path | None:
    """The app's SQLite file, None on another database."""
    url = sa.engine.make_url(app.config["SQLALCHEMY_DATABASE_URI"])
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database)


# What a phone sees and sends ------------------------------------------------------------------


class Page(HTMLParser):
    """A page as a phone sees it: the hand form as its browser would send it, and a CSRF token.

    The form is as sent with hidden fields and checked choices. The page also holds the notes
    flashed above the score, the errors by the fields, and the edit link to share (on the
    share page)."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.form: dict[str, str] | None = None
        self.csrf: str | None = None
        self.notes: list[tuple[str, str]] = []
        self.errors: list[str] = []
        self.edit_url: str | None = None
        self._in_hand_form = False
        self._collecting: str | None = None  # "note" or "error" while inside one
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._in_hand_form = values.get("action", "").endswith("/hands")
            if self._in_hand_form:
                self.form = {}
        elif tag == "input":
            if values.get("name") == "csrf_token" and self.csrf is None:
                self.csrf = values.get("value")
            sent = values.get("type") == "hidden" or "checked" in values
            if self._in_hand_form and self.form is not None and sent:
                self.form[values["name"]] = values.get("value", "")
        elif tag == "a" and values.get("id") == "edit-url":
            self.edit_url = values.get("href")
        elif tag == "p":
            classes = values.get("class", "").split()
            if "note" in classes:
                kind = next(name[5:] for name in classes if name.startswith("note-"))
                self.notes.append((kind, ""))
                self._collecting = "note"
            elif "error" in classes:
                self.errors.append("")
                self._collecting = "error"

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_hand_form = False
        elif tag == "p":
            self._collecting = None

    def handle_data(self, data: str) -> None:
        if self._collecting == "note":
            kind, text = self.notes[-1]
            self.notes[-1] = (kind, text + data)
        elif self._collecting == "error":
            self.errors[-1] += data


def rubber_id_of(location: str) -> str:
    found = re.fullmatch(r"(?:https?://[^/]+)?/r/([A-Za-z0-9_-]+)", location)
    assert found, location
    return found.group(1)


class Phone:
    """A browser on the Flask test client, in English, with its own session (its device)."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.client = app.test_client()
        self.client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"

    def token(self) -> str:
        token = Page(self.client.get("/rubbers/new").get_data(as_text=True)).csrf
        assert token
        return token

    def start(self, **fields: str) -> str:
        """A rubber started from the new rubber form: its id."""
        data = {"csrf_token": self.token(), "preset": "portugal", "first_dealer": "0", **fields}
        response = self.client.post("/rubbers/new", data=data)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        return rubber_id_of(response.location)

    def page(self, rubber_id: str) -> Page:
        response = self.client.get(f"/r/{rubber_id}")
        assert response.status_code == 200
        return Page(response.get_data(as_text=True))

    def form(self, rubber_id: str) -> dict[str, str]:
        """The hand form of the rubber's page, as it would be sent untouched."""
        form = self.page(rubber_id).form
        assert form is not None and {"csrf_token", "key", "version", "team"} <= set(form), form
        return form

    def post(self, rubber_id: str, data: dict[str, str]) -> Any:
        """Post the hand form; a revoke or a bandeira as confirmed (its own page asks first)."""
        if data.get("action") in offers.CONFIRMED:
            data = {"confirm": data["action"], **data}
        return self.client.post(f"/r/{rubber_id}/hands", data=data)

    def send(self, rubber_id: str, data: dict[str, str]) -> Page:
        """Post the form; it answers with the way back to the rubber page: that page."""
        response = self.post(rubber_id, data)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        assert rubber_id_of(response.location) == rubber_id
        return self.page(rubber_id)


# What is stored -------------------------------------------------------------------------------

Row = tuple[str, int | None, int | None, bool, int | None, str | None]
"""A stored hand: kind, points0, points1, all_tricks, team, trump."""


def expected_row(choice: dict[str, str]) -> Row:
    """The hand the form's choice stands for, worked out here and not by the form's code."""
    action = choice.get("action", "points")
    trump = choice.get("trump") or None
    if action == "tie":
        return ("tie", 60, 60, False, None, trump)
    if action == "spoiled":
        return ("spoiled", None, None, False, None, trump)
    if action.startswith("revoke-"):
        return ("revoke", None, None, False, int(action[-1]), trump)
    if action.startswith("bandeira-"):
        points = (120, 0) if action == "bandeira-0" else (0, 120)
        return ("played", *points, True, None, trump)
    typed = int(choice["points"])
    points = (typed, 120 - typed) if choice.get("team", "0") == "0" else (120 - typed, typed)
    kind = "tie" if points == (60, 60) else "played"
    return (kind, *points, bool(choice.get("all_tricks")), None, trump)


def columns_of(tally: engine.Tally) -> dict[str, Any]:
    """Return the row's tally columns for the engine's Tally, written out here.

    Not store.tally_columns, which the lean write itself uses."""
    return {
        "hand_count": tally.hand_count,
        "games0": tally.games[0],
        "games1": tally.games[1],
        "pending_extra": tally.pending_extra,
        "pending_multiplier": tally.pending_multiplier,
        "finished": tally.finished,
        "winner": tally.winner,
        "outcome": None if tally.outcome is None else tally.outcome.value,
        "dealer": tally.dealer,
        "brink0": tally.brink[0],
        "brink1": tally.brink[1],
    }


def engine_input(row: Row) -> engine.Hand:
    kind, points0, points1, all_tricks, team, _trump = row
    points = None if points0 is None or points1 is None else (points0, points1)
    return engine.Hand(engine.HandKind(kind), points, all_tricks, team)


@dataclass
class Stored:
    """A rubber's row and hands as stored, and the engine's fold of those hands."""

    version: int
    columns: dict[str, Any]
    folded: dict[str, Any]
    hands: list[Row]
    numbers: list[int]
    rules: engine.RuleSet
    first_dealer: int
    group_id: str | None


def stored(app: Flask, rubber_id: str) -> Stored:
    with app.app_context():
        rubber = db.session.get(Rubber, rubber_id)
        assert rubber is not None
        rows = db.session.execute(
            sa.select(
                Hand.number,
                Hand.kind,
                Hand.points0,
                Hand.points1,
                Hand.all_tricks,
                Hand.team,
                Hand.trump,
            )
            .where(Hand.rubber_id == rubber_id)
            .order_by(Hand.number)
        ).all()
        found = Stored(
            version=rubber.version,
            columns={name: getattr(rubber, name) for name in store.TALLY_COLUMNS},
            folded=store.tally_columns(rubber.state().tally),
            hands=[tuple(row[1:]) for row in rows],  # type: ignore[misc]
            numbers=[row[0] for row in rows],
            rules=rubber.rule_set(),
            first_dealer=rubber.first_dealer,
            group_id=rubber.group_id,
        )
        db.session.remove()
        return found


def in_english(app: Flask, say: Callable[[], str]) -> str:
    with app.test_request_context(headers={"Accept-Language": "en"}):
        return str(say())


def reads_hands(statements: list[str]) -> bool:
    return any(re.search(r"\bFROM hands\b", statement) for statement in statements)


GROUP_TABLES = re.compile(
    r"\b(groups|group_seats|group_players|group_partners|group_opponents|group_outcomes)\b"
)


def went_the_lean_way(statements: list[str], *, group: bool = False, ends: bool = False) -> bool:
    """Return whether the statements are those of the tally path.

    They are the row with the device's right, maybe the write key, one conditional UPDATE of the
    whole tally, the hand, maybe the key; no hand read. In a group, the group's own statements
    besides (its lock, the rubber's seat rows: four; more for the hand that ends the rubber, which
    counts it and rates again), on its tables only."""
    updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE RUBBERS")]
    whole_tally = len(updates) == 1 and all(
        re.search(rf"\b{name}=", updates[0]) for name in store.TALLY_COLUMNS
    )
    rubbers = [s for s in statements if not GROUP_TABLES.search(s)]
    lean = not reads_hands(statements) and whole_tally and len(rubbers) <= 5
    if not group:
        return lean and len(statements) <= 5
    return lean and (ends or len(statements) <= 9)


class Table:
    """A rubber played through its page's form by one phone, checked after every hand."""

    def __init__(self, app: Flask, phone: Phone, rubber_id: str) -> None:
        self.app = app
        self.phone = phone
        self.id = rubber_id
        self.rows: list[Row] = []
        first = stored(app, rubber_id)
        assert first.hands == [] and first.columns == first.folded
        self.rules = first.rules
        self.first_dealer = first.first_dealer

    def play(self, **choice: str) -> Stored:
        """Record the hand from the page's form, the lean way."""
        return self.record(choice, lean=True)

    def record(self, choice: dict[str, str], *, lean: bool) -> Stored:
        """Record the hand from the page's form; check what is stored and what the page says.

        Also check which way the write went (``lean``: reading no hand)."""
        before = stored(self.app, self.id)
        data = {**self.phone.form(self.id), **choice}
        with counted_queries(self.app) as statements:
            response = self.phone.post(self.id, data)
        assert response.status_code == 302, response.get_data(as_text=True)[:2000]
        assert rubber_id_of(response.location) == self.id
        shown = self.phone.page(self.id)
        self.rows.append(expected_row(choice))
        after = self.check()
        assert after.version == before.version + 1
        assert after.group_id == before.group_id
        # The way it went: the tally path reads no hand; a rubber without its tally folds them.
        group = after.group_id is not None
        ends = bool(after.columns["finished"])
        assert went_the_lean_way(statements, group=group, ends=ends) is lean, statements
        assert reads_hands(statements) is not lean, statements
        updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE RUBBERS")]
        assert len(updates) == 1 and "brink0" in updates[0] and "dealer" in updates[0], statements
        # The page says what this hand earned, as the engine scores it.
        reference = engine.replay(self.rules, map(engine_input, self.rows), self.first_dealer)
        teams = self.teams()
        note = wording.recorded_note
        summary = in_english(self.app, lambda: note(reference.hands[-1], teams).striptags())
        assert shown.notes == [("hand", summary)], (shown.notes, summary)
        return after

    def check(self) -> Stored:
        """The stored hands are the ones sent, in order; the row's tally is their fold."""
        now = stored(self.app, self.id)
        assert now.hands == self.rows
        assert now.numbers == list(range(1, len(self.rows) + 1))
        assert now.columns == now.folded
        reference = engine.replay(self.rules, map(engine_input, self.rows), self.first_dealer)
        assert now.columns == store.tally_columns(reference.tally) == columns_of(reference.tally)
        return now

    def teams(self) -> tuple[str, str]:
        with self.app.app_context():
            rubber = db.session.get(Rubber, self.id)
            assert rubber is not None
            teams = rubber.teams
            db.session.remove()
            return teams


# 1. A varied rubber through the form: the tally after every hand is the fold ------------------


def test_an_arrepio_with_capotes_a_carried_tie_and_a_revoke(app: Flask) -> None:
    phone = Phone(app)
    table = Table(app, phone, phone.start(first_dealer="0"))
    assert table.rules.tie is engine.Tie.CARRY
    table.play(team="1", points="75")  # Eles 75: 0-1
    after = table.play(team="1", points="95", trump="S")  # a capote: 0-3, Eles one short
    assert after.columns["brink1"] is True and after.columns["games1"] == 3
    after = table.play(action="tie", trump="D")  # carried: the next decided hand is worth 1 more
    assert after.columns["pending_extra"] == 1
    after = table.play(team="0", points="95")  # 2 + 1 from the tie: 3-3
    assert (after.columns["games0"], after.columns["games1"]) == (3, 3)
    assert after.columns["pending_extra"] == 0
    after = table.play(action="revoke-1", trump="H")  # Eles revoke: Nós marks 2, 5-3
    assert after.columns == {
        "hand_count": 5,
        "games0": 5,
        "games1": 3,
        "pending_extra": 0,
        "pending_multiplier": 1,
        "finished": True,
        "winner": 0,
        "outcome": "arrepio",
        "dealer": 1,
        "brink0": False,
        "brink1": True,
    }


def test_a_pente_with_spoiled_deals_and_doubled_ties(app: Flask) -> None:
    phone = Phone(app)
    rubber_id = phone.start(preset="brasil", tie="double", games_to_win="6", first_dealer="3")
    table = Table(app, phone, rubber_id)
    assert table.rules.tie is engine.Tie.DOUBLE and table.rules.melar
    after = table.play(action="spoiled")  # the same dealer deals again
    assert after.columns["dealer"] == 3
    after = table.play(action="tie")
    assert (after.columns["pending_multiplier"], after.columns["dealer"]) == (2, 0)
    after = table.play(team="1", points="29", trump="C")  # Nós 91: a capote doubled, 4-0
    assert (after.columns["games0"], after.columns["pending_multiplier"]) == (4, 1)
    table.play(action="spoiled")
    table.play(action="tie")
    after = table.play(action="tie")
    assert after.columns["pending_multiplier"] == 4
    after = table.play(team="0", points="61")  # one game times 4: 8-0
    assert after.columns == {
        "hand_count": 7,
        "games0": 8,
        "games1": 0,
        "pending_extra": 0,
        "pending_multiplier": 1,
        "finished": True,
        "winner": 0,
        "outcome": "pente",
        "dealer": 0,
        "brink0": False,
        "brink1": False,
    }


def test_a_bandeira_after_a_void_tie_and_a_revoke_that_costs_a_game(app: Flask) -> None:
    phone = Phone(app)
    rubber_id = phone.start(preset="online", revoke="offender_minus_two", first_dealer="1")
    table = Table(app, phone, rubber_id)
    assert table.rules.tie is engine.Tie.VOID
    table.play(team="0", points="70", trump="C")  # 1-0
    after = table.play(action="tie")  # nothing carried
    assert (after.columns["pending_extra"], after.columns["pending_multiplier"]) == (0, 1)
    after = table.play(action="revoke-0")  # Nós had one game to lose: 0-0
    assert (after.columns["games0"], after.columns["games1"]) == (0, 0)
    table.play(team="1", points="85")  # 0-1
    after = table.play(action="bandeira-1")
    assert after.columns["outcome"] == "bandeira" and after.columns["winner"] == 1
    assert (after.columns["games0"], after.columns["games1"]) == (0, 5)


RULES = [
    {"preset": "portugal"},
    {"preset": "brasil", "tie": "double", "games_to_win": "6"},
    {"preset": "online", "revoke": "offender_minus_two", "games_to_win": "2"},
    {"preset": "acores", "revoke": "lose_rubber", "melar": "yes", "tie": "void"},
]
"""Every tie and revoke rule, both bandeiras, short and long rubbers, melar on and off."""
TRUMPS = st.sampled_from(["", "C", "D", "H", "S"])
CHOICES = st.one_of(
    st.fixed_dictionaries(
        {
            "team": st.sampled_from(["0", "1"]),
            "points": st.sampled_from([0, 2, 29, 30, 59, 60, 61, 75, 90, 91, 100, 118, 120]).map(
                str
            ),
            "trump": TRUMPS,
        }
    ),
    st.fixed_dictionaries(
        {"team": st.sampled_from(["0", "1"]), "points": st.sampled_from(["0", "120"])},
        optional={"all_tricks": st.just("y")},
    ),
    st.fixed_dictionaries(
        {
            "action": st.sampled_from(
                ["tie", "tie", "revoke-0", "revoke-1", "spoiled", "bandeira-0", "bandeira-1"]
            ),
            "trump": TRUMPS,
        }
    ),
)


def test_generated_rubbers_keep_their_fold_after_every_hand(app: Flask) -> None:
    phone = Phone(app)
    hands = 0

    @settings(
        max_examples=int(os.environ.get("RECORD_HAND_EXAMPLES", "12")),
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=os.environ.get("CI") == "true",
    )
    @given(
        rules=st.sampled_from(RULES),
        dealer=st.sampled_from("0123"),
        choices=st.lists(CHOICES, min_size=1, max_size=12),
    )
    def play(rules: dict[str, str], dealer: str, choices: list[dict[str, str]]) -> None:
        nonlocal hands
        table = Table(app, phone, phone.start(first_dealer=dealer, **rules))
        for choice in choices:
            if choice.get("action") == "spoiled" and not table.rules.melar:
                before = snapshot(app)
                refused = phone.post(table.id, {**phone.form(table.id), **choice})
                assert refused.status_code == 422
                assert (
                    "A deal can only be spoiled (melar) when the melar rule is on."
                    in Page(refused.get_data(as_text=True)).errors
                )
                assert snapshot(app) == before
                continue
            after = table.play(**choice)
            hands += 1
            if after.columns["finished"]:
                break

    play()
    assert hands > 0


# 2. A rubber stored before its tally ---------------------------------------------------------


def test_a_rubber_stored_before_its_tally_folds_once_then_goes_the_lean_way(app: Flask) -> None:
    phone = Phone(app)
    table = Table(app, phone, phone.start(first_dealer="2"))
    table.play(team="1", points="95")  # 0-2
    table.play(team="1", points="75")  # 0-3: Eles one short, Nós on none
    table.play(action="tie")  # the next decided hand is worth one more
    # The row as migration 2fb27e069385 left a rubber stored before it: no dealer, and the
    # rest of the tally at the columns' defaults.
    with app.app_context():
        db.session.execute(
            sa.update(Rubber)
            .where(Rubber.id == table.id)
            .values(dealer=None, pending_extra=0, pending_multiplier=1, brink0=False, brink1=False)
        )
        db.session.commit()
        db.session.remove()
    old = stored(app, table.id)
    assert old.columns["dealer"] is None and old.columns != old.folded

    # Folded from its hands: the carried tie counts, and the columns are filled.
    after = table.record({"team": "0", "points": "95"}, lean=False)
    assert (after.columns["games0"], after.columns["games1"]) == (3, 3)
    assert after.columns["dealer"] == 2 and after.columns["brink1"] is True
    # Then the lean way, from the columns the fold filled: the arrepio is told from them.
    after = table.play(team="0", points="70")
    assert after.columns["finished"] and after.columns["outcome"] == "arrepio"


# 3. A rubber in a group ----------------------------------------------------------------------


def start_in_group(
    phone: Phone, group_id: str, players: tuple[str, str, str, str] = ("Ana", "Rui", "Eva", "Zé")
) -> str:
    token = Page(phone.client.get(f"/g/{group_id}/rubbers/new").get_data(as_text=True)).csrf
    assert token
    response = phone.client.post(
        f"/g/{group_id}/rubbers/new",
        data={
            "csrf_token": token,
            "action": "start",
            **{f"player{seat}": name for seat, name in enumerate(players)},
            "preset": "portugal",
            "first_dealer": "0",
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    return rubber_id_of(response.location)


def new_group(phone: Phone) -> str:
    made = phone.client.post("/groups/new", data={"csrf_token": phone.token(), "name": "Tasca"})
    assert made.status_code == 302
    return str(made.location.rsplit("/", 1)[-1])


def totals_are_a_full_recompute(app: Flask, group_id: str) -> statistics.GroupStats:
    """The group's stored totals equal those counted from scratch from every stored hand."""
    with app.app_context():
        kept = group_store.stats(group_id)
        assert kept == full_recompute(group_id)
        db.session.remove()
        return kept


def test_a_rubber_in_a_group_keeps_the_groups_totals(app: Flask) -> None:
    phone = Phone(app)
    group_id = new_group(phone)
    pente = Table(app, phone, start_in_group(phone, group_id))
    arrepio = Table(app, phone, start_in_group(phone, group_id))
    assert stored(app, pente.id).group_id == group_id
    played = [
        (arrepio, {"team": "1", "points": "75"}),
        (pente, {"team": "0", "points": "95"}),
        (arrepio, {"team": "1", "points": "95"}),
        (arrepio, {"action": "tie"}),
        (pente, {"team": "1", "points": "9"}),  # Nós 111: 4-0
        (arrepio, {"team": "0", "points": "95"}),
        (arrepio, {"action": "revoke-1"}),
    ]
    for table, choice in played:
        table.play(**choice)  # the tally path, the group's totals moved by the hand alone
        totals_are_a_full_recompute(app, group_id)
    kept = totals_are_a_full_recompute(app, group_id)
    assert kept.rubbers == 2
    assert kept.outcomes == {"pente": 1, "arrepio": 1, "shutout": 1}
    ana = kept.players["ana"]
    assert (ana.rubbers, ana.won) == (2, 2)


def seat_rows(app: Flask, rubber_id: str) -> list[tuple[Any, ...]]:
    with app.app_context():
        seats = sa.table("group_seats", sa.column("rubber_id"), sa.column("seat"))
        rows = db.session.execute(
            sa.select(sa.text("*")).select_from(seats).where(seats.c.rubber_id == rubber_id)
        ).all()
        db.session.remove()
        return sorted(tuple(row) for row in rows)


def test_a_group_rubber_without_its_tally_or_a_seat_row_is_folded_once(app: Flask) -> None:
    """A group's rubber without its tally, or without a named seat's row, folds its hands once.

    That is a rubber of a group stored before its tally, or whose seat rows lack a named seat: it
    folds its hands for that one hand (and the group's totals still equal a full recompute), then
    takes the tally path again; a seat left unnamed has no row to move."""
    phone = Phone(app)
    group_id = new_group(phone)
    table = Table(app, phone, start_in_group(phone, group_id, ("Ana", "Rui", "", "Zé")))
    assert len(seat_rows(app, table.id)) == 3
    table.play(team="1", points="75")
    table.play(action="tie")
    totals_are_a_full_recompute(app, group_id)
    with app.app_context():
        db.session.execute(
            sa.update(Rubber)
            .where(Rubber.id == table.id)
            .values(dealer=None, pending_extra=0, pending_multiplier=1, brink0=False, brink1=False)
        )
        db.session.commit()
        db.session.remove()
    after = table.record({"team": "0", "points": "95"}, lean=False)  # the tie carried: 3-1
    assert (after.columns["games0"], after.columns["games1"]) == (3, 1)
    totals_are_a_full_recompute(app, group_id)
    kept = seat_rows(app, table.id)
    with app.app_context():
        db.session.execute(
            sa.text("DELETE FROM group_seats WHERE rubber_id = :id AND seat = 1"), {"id": table.id}
        )
        db.session.commit()
        db.session.remove()
    table.record({"team": "1", "points": "70"}, lean=False)  # 3-2; Rui's row written again
    rows = seat_rows(app, table.id)
    assert [row[1] for row in rows] == [row[1] for row in kept] == [0, 1, 3]
    totals_are_a_full_recompute(app, group_id)
    table.play(team="1", points="61")  # 3-3
    ended = table.play(team="0", points="100")  # a capote: 5-3, won
    assert ended.columns["finished"] and ended.columns["winner"] == 0
    kept_stats = totals_are_a_full_recompute(app, group_id)
    assert kept_stats.rubbers == 1 and kept_stats.players["ana"].won == 1
    assert "" not in kept_stats.players


def test_the_apis_hand_takes_the_same_path_and_answers_with_the_rubber(app: Flask) -> None:
    """POST /api/v1/rubbers/<id>/hands adds its hand the same way, in a group or not.

    One conditional UPDATE of the whole tally, no hand read before it (its answer, the whole rubber,
    reads them after the write, in the same transaction, and is kept with the key)."""
    client = app.test_client()
    group = api_calls.new_group(client)
    for in_group in (False, True):
        players = ["Ana", "Rui", "Eva", "Zé"]
        rubber = api_calls.new_rubber(client, group if in_group else None, players=players)
        api_calls.play(client, rubber, {"points": [70, 50]})
        url, headers = f"/api/v1/rubbers/{rubber['id']}/hands", {"X-Edit-Key": rubber["edit_key"]}
        body = {"points": [30, 90], "key": "api-1"}
        with counted_queries(app) as statements:
            first = client.post(url, json=body, headers=headers)
        assert first.status_code == 201, first.get_json()
        written = [
            index
            for index, statement in enumerate(statements)
            if statement.lstrip().upper().startswith("UPDATE RUBBERS")
        ]
        assert len(written) == 1, statements
        assert all(
            re.search(rf"\b{name}=", statements[written[0]]) for name in store.TALLY_COLUMNS
        ), statements
        assert not reads_hands(statements[: written[0]]), statements
        answer = first.get_json()
        assert answer["games"] == [1, 1] and len(answer["hands"]) == 2
        assert answer["version"] == rubber["version"] + 2
        assert answer == client.get(f"/api/v1/rubbers/{rubber['id']}").get_json()
        again = client.post(url, json=body, headers=headers)
        assert again.status_code == 201 and again.get_json() == answer
        assert again.headers.get("Idempotent-Replayed") == "true"
        if in_group:
            totals_are_a_full_recompute(app, group["id"])


# 4. Overtaken between the read and the write ---------------------------------------------------


@contextmanager
def another_phone_writes_first(
    app: Flask, monkeypatch: pytest.MonkeyPatch, write: Callable[[], object]
) -> Iterator[list[engine.Tally]]:
    """While inside, the first hand this thread scores waits for another phone to ``write``.

    The other phone is a thread with its own app context, session and connection; this write's read
    is then one version behind. It gives the tallies this thread scored from, in order."""
    scored: list[engine.Tally] = []
    real = engine.next_hand
    failures: list[BaseException] = []
    here = threading.current_thread()

    def other_phone() -> None:
        try:
            with app.app_context():
                write()
                db.session.remove()
        except BaseException as error:  # re-raised in the test's thread
            failures.append(error)

    def next_hand(tally: engine.Tally, played: engine.Hand) -> Any:
        if threading.current_thread() is not here:  # the other phone's own hand
            return real(tally, played)
        if not scored:
            thread = threading.Thread(target=other_phone)
            thread.start()
            thread.join(timeout=TIMEOUT)
            assert not thread.is_alive(), "the other phone's write hung"
        scored.append(tally)
        return real(tally, played)

    monkeypatch.setattr(engine, "next_hand", next_hand)  # what recording.record_hand calls
    try:
        yield scored
    finally:
        monkeypatch.undo()
    if failures:
        raise failures[0]


@pytest.mark.parametrize("other", ["records a hand", "changes hand 1"])
def test_a_write_between_the_read_and_the_write_is_not_lost(
    app: Flask, monkeypatch: pytest.MonkeyPatch, other: str
) -> None:
    """The other phone records a hand (the new hand's number is taken too), or changes hand 1.

    When it changes hand 1, the hands' count stays: only the row's version tells the tally read is
    stale."""
    phone = Phone(app)
    table = Table(app, phone, phone.start())
    table.play(team="0", points="70")

    def other_phone(points: int, trump: str) -> Callable[[], object]:
        """The other phone's write, and the stored hands it leaves in ``table.rows``."""
        hand, row = engine.Hand.played(points), ("played", points, 120 - points, False, None, trump)
        if other == "records a hand":
            table.rows.append(row)
            return lambda: recording.add_hand(
                table.id, lambda _tally: recording.NewHand(hand, trump)
            )
        table.rows[0] = row
        return lambda: store.write(table.id, store.replace_hand(1, hand, trump))

    def tally_of(rows: list[Row]) -> engine.Tally:
        return engine.replay(table.rules, map(engine_input, rows), table.first_dealer).tally

    # Without a version: read again, scored again, both writes kept.
    form = phone.form(table.id)
    read = tally_of(table.rows)
    with another_phone_writes_first(app, monkeypatch, other_phone(59, "S")) as scored:
        shown = phone.send(table.id, {**form, "version": "", "action": "tie"})
    assert scored == [read, tally_of(table.rows)]  # the retry scored from the other's write
    table.rows.append(("tie", 60, 60, False, None, None))
    after = table.check()
    assert after.version == int(form["version"]) + 2
    assert shown.notes == [("hand", "60-60: a tie.")]  # what it carries is under the score
    with app.app_context():
        assert db.session.get(WriteKey, (table.id, form["key"])) is not None
        db.session.remove()

    # With the version its page was read at: refused as stale, nothing of it stored.
    form = phone.form(table.id)
    with another_phone_writes_first(app, monkeypatch, other_phone(30, "C")) as scored:
        shown = phone.send(table.id, {**form, "team": "1", "points": "95"})
    assert len(scored) == 1
    assert shown.notes == [("conflict", STALE % "Nós 25 – 95 Eles")]
    after = table.check()  # the other phone's write only
    assert after.version == int(form["version"]) + 1
    with app.app_context():
        assert db.session.get(WriteKey, (table.id, form["key"])) is None
        db.session.remove()
    # The page shown after it records the same hand the lean way.
    table.play(team="1", points="95")


def test_a_double_tap_that_races_itself_is_answered_as_the_repeat(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same POST twice at once (same write key, same body, same version) is the repeat.

    The one that loses the race reads again, finds its key and says the hand was already recorded,
    where "someone else recorded a hand" would tell the scorer about a phone that is not there."""
    phone = Phone(app)
    table = Table(app, phone, phone.start())
    table.play(team="0", points="70")
    data = {**phone.form(table.id), "action": "tie"}
    with phone.client.session_transaction() as session:
        device = session["device"]

    def twin() -> object:
        """The same POST as the view makes it: the phone's device, the form's key and body."""
        return recording.record_hand(
            table.id, device, engine.Hand.tie(), key=data["key"], body=data, version=None
        )

    with another_phone_writes_first(app, monkeypatch, twin) as scored:
        shown = phone.send(table.id, data)
    assert len(scored) == 1  # scored once, then found its key
    assert shown.notes == [("conflict", "That hand was already recorded: here is the score.")]
    table.rows.append(("tie", 60, 60, False, None, None))
    assert table.check().version == int(data["version"]) + 1  # one hand, stored once


# 5. Refusals store nothing, with the statuses the form always had ----------------------------


def test_refusals_store_nothing(app: Flask) -> None:
    owner = Phone(app)
    table = Table(app, owner, owner.start())
    table.play(team="0", points="70")
    form = owner.form(table.id)
    choice = {"team": "0", "points": "80"}

    def refused(phone: Phone, rubber_id: str, data: dict[str, str]) -> Any:
        before = snapshot(app)
        response = phone.post(rubber_id, data)
        assert snapshot(app) == before, data
        return response

    # No such rubber (well-formed, or not even an id).
    assert refused(owner, store.new_token(), {**form, **choice}).status_code == 404
    assert refused(owner, "no-such-rubber!", {**form, **choice}).status_code == 404
    # A phone that never opened the edit link: without a device yet, and with one.
    stranger = Phone(app)
    theirs = {**form, **choice, "csrf_token": stranger.token()}
    assert refused(stranger, table.id, theirs).status_code == 403
    stranger.start()  # a rubber of its own: it has a device now, but no right to this one
    assert refused(stranger, table.id, theirs).status_code == 403
    # A CSRF token missing, forged, or another session's.
    without = {name: value for name, value in form.items() if name != "csrf_token"}
    assert refused(owner, table.id, {**without, **choice}).status_code == 400
    assert refused(owner, table.id, {**form, **choice, "csrf_token": "forged"}).status_code == 400
    assert refused(owner, table.id, theirs).status_code == 400
    # Points no hand can make: the page again, with why.
    for team, points, error in [
        ("0", "1", "1 is impossible: no set of cards is worth exactly 1 point."),
        (
            "1",
            "119",
            "119 is impossible: the other team would have 1 point, and no set of cards is worth exactly 1.",
        ),
        ("0", "121", "Type a whole number from 0 to 120."),
        ("1", "70", "All the tricks means all 120 card points."),
    ]:
        data = {**form, "team": team, "points": points}
        if points == "70":
            data["all_tricks"] = "y"
        response = refused(owner, table.id, data)
        assert response.status_code == 422
        assert error in Page(response.get_data(as_text=True)).errors

    # The same key twice with the same body: one hand, and the page says so.
    table.play(**choice)
    sent = {**form, **choice}
    before = snapshot(app)
    assert owner.send(table.id, sent).notes == [("conflict", ALREADY)]
    assert snapshot(app) == before
    # The same key with another hand: refused as such.
    assert owner.send(table.id, {**sent, "points": "90"}).notes == [("conflict", KEY_REUSED)]
    assert snapshot(app) == before
    with app.app_context():
        keys = db.session.execute(
            sa.select(sa.func.count()).select_from(WriteKey).where(WriteKey.key == form["key"])
        ).scalar()
        assert keys == 1
        db.session.remove()
    table.check()

    # A finished rubber takes no more hands, whatever the form says of its version.
    table.play(action="bandeira-0")
    assert stored(app, table.id).columns["finished"]
    last = stored(app, table.id).version
    assert owner.page(table.id).form is None  # a won rubber's page has no hand form
    for version in ("", str(last)):
        data = {**form, **choice, "key": store.new_token(), "version": version}
        before = snapshot(app)
        assert owner.send(table.id, data).notes == [("conflict", FINISHED)]
        assert snapshot(app) == before
    # A page left open from before the last hand is told the rubber moved on.
    before = snapshot(app)
    told = owner.send(table.id, {**form, **choice, "key": "old"}).notes
    assert told == [("conflict", STALE_WON % "Nós 80 – 40 Eles")]
    assert snapshot(app) == before


# 6. SQLite writers queue at the lock file, and none is lost -----------------------------------


def test_the_writer_waits_at_the_lock_file(app: Flask) -> None:
    database = sqlite_file(app)
    if database is None:
        pytest.skip("the writer lock is SQLite's: DATABASE_URL is another database")
    lock_file = Path(f"{database}-writer.lock")
    phone = Phone(app)
    table = Table(app, phone, phone.start())
    assert not lock_file.exists()
    table.play(team="0", points="70")
    assert lock_file.exists()

    # Another process's writer holds the lock (an open file of its own): the hand waits.
    data = {**phone.form(table.id), "action": "tie"}
    answers: list[Any] = []
    holder = os.open(lock_file, os.O_RDWR)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX)
        writer = threading.Thread(target=lambda: answers.append(phone.post(table.id, data)))
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive(), "the hand was written while another writer held the lock"
        assert stored(app, table.id).hands == table.rows  # and nothing was written meanwhile
        fcntl.flock(holder, fcntl.LOCK_UN)
        writer.join(timeout=TIMEOUT)
        assert not writer.is_alive()
    finally:
        os.close(holder)
    assert answers[0].status_code == 302
    table.rows.append(expected_row(data))
    table.check()


class HttpPhone:
    """A browser on a real HTTP server: the same form, CSRF and all, over requests."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.session = requests.Session()
        self.session.headers["Accept-Language"] = "en"
        self.retries: Counter[str] = Counter()

    def get(self, path: str) -> Page:
        response = self.session.get(self.base + path, timeout=TIMEOUT)
        assert response.status_code == 200, response.text[:500]
        return Page(response.text)

    def start(self) -> str:
        token = self.get("/rubbers/new").csrf
        assert token
        response = self.session.post(
            f"{self.base}/rubbers/new",
            data={"csrf_token": token, "preset": "online", "games_to_win": "20"},
            allow_redirects=False,
            timeout=TIMEOUT,
        )
        assert response.status_code == 302, response.text[:500]
        return rubber_id_of(response.headers["Location"])

    def edit_link(self, rubber_id: str) -> str:
        link = self.get(f"/r/{rubber_id}/share").edit_url
        assert link
        return link

    def open(self, link: str) -> None:
        response = self.session.get(link, timeout=TIMEOUT)
        assert response.status_code == 200 and response.history, response.text[:500]

    def record(self, rubber_id: str, choice: dict[str, str], *, with_version: bool) -> None:
        """Post the page's form until the hand is recorded.

        A page another phone made stale is read again (the phone's choice is kept, as a person would
        press again)."""
        for _ in range(60):
            form = self.get(f"/r/{rubber_id}").form
            assert form is not None
            data = {**form, **choice}
            if not with_version:
                data["version"] = ""
            answer = self.session.post(
                f"{self.base}/r/{rubber_id}/hands", data=data, allow_redirects=False, timeout=30
            )
            assert answer.status_code == 302, answer.text[:500]
            notes = self.get(f"/r/{rubber_id}").notes
            if notes == [("conflict", BUSY)]:
                self.retries[BUSY] += 1
                continue
            if len(notes) == 1 and notes[0][1].startswith(STALE.split(":")[0]):
                self.retries["stale"] += 1
                continue
            assert len(notes) == 1 and notes[0][0] == "hand", notes
            return
        pytest.fail(f"a hand for {rubber_id} was refused 60 times")


def test_a_writer_of_another_process_holds_the_hand_back(app: Flask) -> None:
    """Another process holding the lock with filelock's own FileLock holds the hand back.

    It does as a worker of another release, or a tool, would: the hand waits for it, then is
    recorded."""
    database = sqlite_file(app)
    if database is None:
        pytest.skip("the writer lock is SQLite's: DATABASE_URL is another database")
    phone = Phone(app)
    table = Table(app, phone, phone.start())
    data = {**phone.form(table.id), "team": "0", "points": "70"}
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import filelock, sys; lock = filelock.FileLock(sys.argv[1]); lock.acquire(); "
            "print('held', flush=True); sys.stdin.read(); lock.release()",
            f"{database}-writer.lock",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    answers: list[Any] = []
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        writer = threading.Thread(target=lambda: answers.append(phone.post(table.id, data)))
        writer.start()
        writer.join(timeout=0.5)
        assert writer.is_alive(), "the hand was written while another process held the lock"
        assert stored(app, table.id).hands == []
    finally:
        holder.communicate(timeout=TIMEOUT)  # its stdin closed: it lets go and ends
    writer.join(timeout=TIMEOUT)
    assert not writer.is_alive() and answers[0].status_code == 302
    table.rows.append(expected_row(data))
    table.check()


def test_without_a_lock_file_the_hand_is_still_recorded(
    app: Flask, caplog: pytest.LogCaptureFixture
) -> None:
    """A folder the app may not make its lock file in (here the name is taken by a folder).

    SQLite's own lock alone orders the writers, and the hand is recorded, said so in the log."""
    database = sqlite_file(app)
    if database is None:
        pytest.skip("the writer lock is SQLite's: DATABASE_URL is another database")
    Path(f"{database}-writer.lock").mkdir()
    phone = Phone(app)
    table = Table(app, phone, phone.start())
    table.play(team="0", points="70")
    table.play(team="1", points="95")
    assert "no writer lock file" in caplog.text


def test_threads_of_one_process_take_turns_too(app: Flask) -> None:
    """flock holds per open file, and a process opens the lock file once.

    Its threads also queue at a lock of the process's own, else two of them would be writing at
    once."""
    if sqlite_file(app) is None:
        pytest.skip("the writer lock is SQLite's: DATABASE_URL is another database")
    inside = threading.Event()
    leave = threading.Event()
    order: list[str] = []

    def write(name: str, hold: bool) -> None:
        with app.app_context(), db.engine.connect() as connection:
            with sqlite.one_writer(connection):
                order.append(f"{name} in")
                if hold:
                    inside.set()
                    leave.wait(TIMEOUT)
                order.append(f"{name} out")

    first = threading.Thread(target=write, args=("first", True))
    first.start()
    assert inside.wait(TIMEOUT)
    second = threading.Thread(target=write, args=("second", False))
    second.start()
    second.join(timeout=0.5)
    assert second.is_alive(), "a second thread wrote while the first held the turn"
    leave.set()
    for thread in (first, second):
        thread.join(timeout=TIMEOUT)
        assert not thread.is_alive()
    assert order == ["first in", "first out", "second in", "second out"]


def both_at_once(*work: Callable[[], None]) -> None:
    """Run each in a thread of its own, released together; re-raise the first failure."""
    barrier = threading.Barrier(len(work))
    failures: list[BaseException] = []

    def run(job: Callable[[], None]) -> None:
        try:
            barrier.wait(timeout=TIMEOUT)
            job()
        except BaseException as error:  # re-raised in the test's thread below
            failures.append(error)

    threads = [threading.Thread(target=run, args=(job,)) for job in work]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a phone hung"
    if failures:
        raise failures[0]


HANDS_EACH = 20


def phone_hands(team: str, trump: str) -> list[dict[str, str]]:
    """Return twenty hands told apart from the other phone's by their trump.

    Ties are void under the online preset, so three decided hands each keep a rubber to 20 far from
    its end."""
    hands = [{"action": "tie", "trump": trump} for _ in range(HANDS_EACH)]
    for index, place in enumerate((3, 10, 17)):
        hands[place] = {"team": team, "points": str(61 + index), "trump": trump}
    return hands


def phones_record_at_once(app: Flask, base: str) -> Counter[str]:
    """Two phones, one sending the version its page was read at, the other none.

    Twenty hands each, one into each of twenty rubbers, then twenty each into one rubber."""
    first, second = HttpPhone(base), HttpPhone(base)
    rubbers = [first.start() for _ in range(HANDS_EACH + 1)]
    for rubber_id in rubbers:
        second.open(first.edit_link(rubber_id))
    many, one = rubbers[:HANDS_EACH], rubbers[HANDS_EACH]
    hands = {"C": phone_hands("0", "C"), "D": phone_hands("1", "D")}

    def into_each(phone: HttpPhone, sent: list[dict[str, str]], with_version: bool) -> None:
        for rubber_id, hand in zip(many, sent, strict=True):
            phone.record(rubber_id, hand, with_version=with_version)

    def into_one(phone: HttpPhone, sent: list[dict[str, str]], with_version: bool) -> None:
        for hand in sent:
            phone.record(one, hand, with_version=with_version)

    both_at_once(
        lambda: into_each(first, hands["C"], True), lambda: into_each(second, hands["D"], False)
    )
    for index, rubber_id in enumerate(many):
        now = stored(app, rubber_id)
        assert sorted(now.hands, key=lambda row: str(row[-1])) == [
            expected_row(hands["C"][index]),
            expected_row(hands["D"][index]),
        ]
        assert now.numbers == [1, 2] and now.columns == now.folded

    both_at_once(
        lambda: into_one(first, hands["C"], True), lambda: into_one(second, hands["D"], False)
    )
    now = stored(app, one)
    assert now.numbers == list(range(1, 2 * HANDS_EACH + 1))
    for trump, sent in hands.items():
        assert [row for row in now.hands if row[-1] == trump] == list(map(expected_row, sent))
    assert now.columns == now.folded
    assert (now.columns["games0"], now.columns["games1"]) == (3, 3)
    assert not now.columns["finished"]
    return first.retries + second.retries


def report(capsys: pytest.CaptureFixture[str], how: str, retries: Counter[str]) -> None:
    with capsys.disabled():
        print(
            f"\n[record_hand] two phones on {how}: {4 * HANDS_EACH} hands stored, none lost; "
            f"pages sent again after {dict(retries) or 'no'} conflicts"
        )


def test_two_phones_in_two_threads_lose_no_hand(
    app: Flask, capsys: pytest.CaptureFixture[str]
) -> None:
    with served(app, threaded=True) as base:
        report(capsys, "one process's threads", phones_record_at_once(app, base))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def gunicorn(app: Flask, tmp_path: Path) -> Iterator[tuple[str, int]]:
    """The app on gunicorn with two sync worker processes, as in production, on the test's database.

    Each worker opens the lock file for itself. It gives the app's URL and the master's pid."""
    port = free_port()
    log = tmp_path / "gunicorn.log"
    env = {
        **os.environ,
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SECRET_KEY": SECRET,
        "PYTHONUNBUFFERED": "1",
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        "2",
        "--timeout",
        "30",
        "scorekeeper:create_app()",
    ]
    with log.open("ab") as out:
        process = subprocess.Popen(command, env=env, stdout=out, stderr=out, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        started = time.monotonic()
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                if requests.get(f"{url}/api/v1/openapi.json", timeout=1).status_code == 200:
                    break
            except (requests.ConnectionError, requests.Timeout):
                pass
            assert time.monotonic() - started < TIMEOUT, log.read_text()[-3000:]
            time.sleep(0.05)
        yield url, process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)  # the group of the gunicorn started above
        try:
            process.wait(timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=TIMEOUT)


def workers_holding(master: int, lock_file: Path) -> int:
    """How many of gunicorn's workers hold the lock file open (Linux's /proc)."""
    holding = 0
    for worker in Path(f"/proc/{master}/task/{master}/children").read_text().split():
        for handle in Path(f"/proc/{worker}/fd").iterdir():
            try:
                if os.readlink(handle) == str(lock_file):
                    holding += 1
                    break
            except OSError:
                continue
    return holding


def test_two_phones_on_two_worker_processes_lose_no_hand(
    app: Flask, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = sqlite_file(app)
    with gunicorn(app, tmp_path) as (base, master):
        report(capsys, "two gunicorn workers", phones_record_at_once(app, base))
        if database is not None and Path(f"/proc/{master}/task/{master}/children").exists():
            # Both processes wrote the lean way, each through a lock file handle of its own.
            assert workers_holding(master, Path(f"{database}-writer.lock")) == 2
