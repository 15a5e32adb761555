"""Fuzzing: generated requests to every API operation and every hand form, on a live database.

Whatever is sent, the answer is never a 5xx; a refusal (4xx, or a page that says the write
was refused) says why (JSON with an ``error`` sentence, or a page with an error message) and
leaves every row of every table as it was. ``FUZZ_EXAMPLES`` sets the generated cases per API
operation and per HTML form; ``make fuzz`` runs many more.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance
from schemathesis.core import NotSet
from schemathesis.core.parameters import ParameterLocation
from sqlalchemy.orm import selectinload
from werkzeug.exceptions import HTTPException, default_exceptions

from scorekeeper.api.openapi import document
from scorekeeper.bidding import store as bidding_store
from scorekeeper.bidding.models import BiddingGame
from scorekeeper.extensions import db
from scorekeeper.groups import store as group_store
from scorekeeper.rubbers import store as rubber_store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import errors
from tests.support import fuzzing
from tests.support.apps import snapshot
from tests.support.fuzzing import detach, fuzzed
from tests.support.records import FULL_RECORD

PREFIX = "/api/v1"
OPERATIONS = sorted(
    (method.upper(), path) for path, item in document()["paths"].items() for method in item
)
WRITES = {
    "POST /api/v1/rubbers/{rubber_id}/hands",
    "PUT /api/v1/rubbers/{rubber_id}/hands/{number}",
    "DELETE /api/v1/rubbers/{rubber_id}/hands/last",
    "POST /api/v1/bidding/{game_id}/hands",
    "PUT /api/v1/bidding/{game_id}/hands/{number}",
    "DELETE /api/v1/bidding/{game_id}/hands/last",
}
"""Aimed at real rubbers and bidding games, so some of their generated cases must go through."""
RULES = [
    {},
    {"preset": "online", "games_to_win": 20, "melar": True},
    {"preset": "brasil", "tie": "double", "revoke": "offender_minus_two"},
    {"games_to_win": 3, "revoke": "lose_rubber", "bandeira": "points"},
]
"""The rubbers the writes go to: short and long ones, every tie and revoke rule, melar on."""
OPEN_DECK = [f"{rank}{suit}" for rank in "A7KJQ65432" for suit in "SHDC"]
"""The 40 cards, ace to two suit by suit, for open hands the fuzzing can deal."""
OPENING = [{"points": [61, 59]}, {"points": [60, 60]}, {"points": [30, 90]}, {"revoke": 1}]
"""Hands a rubber starts with, so there is something to replace and to undo (the last rule set
ends its rubber with them: a finished rubber is a target too)."""
TABLES = [
    {"players": ["Ana", "Bruno", "Carla", "Duarte"], "target": 2000},
    {"players": ["Ana", "Bruno", "Carla", "Duarte", "Eva"], "first_dealer": 4},
    {"players": ["Ana", "", "Carla", "Duarte", "Eva", "Fábio"], "target": 50},
]
"""The bidding games the writes go to: 4, 5 and 6 players, a long one and a short one."""
BIDS = [
    {"bidder": 1, "bid": 61, "partner": 3, "points": 70},
    {"passed": True},
    {"bidder": 0, "bid": 80, "partner": 0, "made": False},
]
"""Hands a bidding game starts with (the 6-player game to 50 is finished by them)."""


def assert_totals_are_the_fold(app: Flask) -> None:
    """Every rubber's cached totals are what the engine folds from its stored hands."""
    with app.app_context():
        query = db.select(Rubber).options(selectinload(Rubber.hands))
        for rubber in db.session.execute(query).scalars():
            state = rubber.state()
            assert (rubber.games0, rubber.games1) == state.games, rubber.id
            assert rubber.hand_count == len(state.hands) == len(rubber.hands), rubber.id
            assert rubber.finished == state.finished, rubber.id
            assert rubber.winner == state.winner, rubber.id
        for game in db.session.execute(db.select(BiddingGame)).scalars():
            fold = game.state()
            assert tuple(game.scores) == fold.scores, game.id
            assert game.hand_count == len(fold.hands) == len(game.hands), game.id
            assert (game.finished, game.winner, game.dealer) == (
                fold.finished,
                fold.winner,
                fold.dealer,
            ), game.id
        db.session.remove()


def summary(capsys: pytest.CaptureFixture[str], line: str) -> None:
    """One line in the test run's output, with or without -s: the figures of docs/hardening.md."""
    with capsys.disabled():
        print(f"\n[hardening] {line}")


# The JSON API, every operation of its OpenAPI document -------------------------------------


class Rubbers:
    """A few real rubbers and a group, with their keys, that generated requests are aimed at."""

    def __init__(self, client: FlaskClient, *, grant: bool = False) -> None:
        self.client = client
        self.grant = grant
        self.rubbers = [self._new(rules) for rules in RULES]
        self.games = [self._new_game(table) for table in TABLES]
        self.group: dict[str, Any] | None = None
        if f"{PREFIX}/groups" in document()["paths"]:
            created = client.post(f"{PREFIX}/groups", json={"name": "Tasca do Fuzz"})
            assert created.status_code == 201, created.get_json()
            self.group = created.get_json()
            if grant:  # and the group's, as a regular of the table would
                group = self.group
                opened = client.get(f"/g/{group['id']}/edit/{group['edit_key']}")
                assert opened.status_code == 302

    def _new(self, rules: dict[str, Any]) -> dict[str, Any]:
        created = self.client.post(f"{PREFIX}/rubbers", json={"rules": rules})
        assert created.status_code == 201, created.get_json()
        rubber = created.get_json()
        for hand in OPENING:
            added = self.client.post(
                f"{PREFIX}/rubbers/{rubber['id']}/hands",
                json=hand,
                headers={"X-Edit-Key": rubber["edit_key"]},
            )
            assert added.status_code == 201, added.get_json()
        rubber["rules_given"] = rules
        if self.grant:  # the client's device opens the edit link, as a second phone would
            opened = self.client.get(f"/r/{rubber['id']}/edit/{rubber['edit_key']}")
            assert opened.status_code == 302
        return rubber

    def _new_game(self, table: dict[str, Any]) -> dict[str, Any]:
        created = self.client.post(f"{PREFIX}/bidding", json=table)
        assert created.status_code == 201, created.get_json()
        game = created.get_json()
        for hand in BIDS:
            added = self.client.post(
                f"{PREFIX}/bidding/{game['id']}/hands",
                json=hand,
                headers={"X-Edit-Key": game["edit_key"]},
            )
            assert added.status_code == 201, added.get_json()
        game["table"] = table
        if self.grant:
            opened = self.client.get(f"/b/{game['id']}/edit/{game['edit_key']}")
            assert opened.status_code == 302
        return game

    def pick_game(self, data: st.DataObject) -> dict[str, Any]:
        """One bidding game and its current state, as :meth:`pick` for rubbers."""
        slot = data.draw(st.integers(0, len(self.games) - 1), label="game")
        renew = data.draw(st.booleans(), label="renew the game if finished or empty")
        game = self.games[slot]
        state = self.client.get(f"{PREFIX}/bidding/{game['id']}").get_json()
        if len(state["hands"]) >= 30 or ((state["finished"] or not state["hands"]) and renew):
            game = self.games[slot] = self._new_game(game["table"])
            state = self.client.get(f"{PREFIX}/bidding/{game['id']}").get_json()
        return {**state, "edit_key": game["edit_key"]}

    def pick(self, data: st.DataObject) -> dict[str, Any]:
        """Return one rubber and its current state.

        A long one is started anew, and a finished or empty one sometimes.

        The draws never depend on the rubbers' state, so Hypothesis sees the same choices
        whatever earlier examples stored.
        """
        slot = data.draw(st.integers(0, len(self.rubbers) - 1), label="rubber")
        renew = data.draw(st.booleans(), label="renew if finished or empty")
        rubber = self.rubbers[slot]
        state = self.client.get(f"{PREFIX}/rubbers/{rubber['id']}").get_json()
        if len(state["hands"]) >= 30 or ((state["finished"] or not state["hands"]) and renew):
            rubber = self.rubbers[slot] = self._new(rubber["rules_given"])
            state = self.client.get(f"{PREFIX}/rubbers/{rubber['id']}").get_json()
        return {**state, "edit_key": rubber["edit_key"]}


def aim(case: Any, rubbers: Rubbers, data: st.DataObject) -> dict[str, str]:  # noqa: C901, PLR0912  one branch per part of a case it points at a real row
    """Point most generated cases at a real rubber and group, so they reach the game's logic.

    The cases get the rubber and group with their keys, a hand the rubber has, its version and
    points that add up; the rest go as generated.

    A part that schemathesis made invalid on purpose (a negative case) is left as it is, so the
    case stays as invalid as it was meant to be. Returns the headers to send beside the case's
    own: the real keys, given to schemathesis as explicit credentials (its auth check then also
    tries the request without them).
    """
    rubber = rubbers.pick(data)
    game = rubbers.pick_game(data)
    group = rubbers.group or {"id": "", "edit_key": ""}
    aimed = data.draw(st.integers(0, 9), label="aimed") < 9
    hand = data.draw(st.integers(0, 40), label="hand")
    current_version = data.draw(st.booleans(), label="current version")
    add_up = data.draw(st.booleans(), label="points add up")
    first = data.draw(st.integers(0, 120), label="points")
    in_group = data.draw(st.booleans(), label="in the group")
    cards = data.draw(st.integers(1, 3), label="cards per open hand")
    meta = case.meta
    if not aimed or meta is None:
        return {}
    path = case.path_parameters or {}
    if "game_id" in path:  # a bidding game's operation: the game takes the rubber's place
        rubber = game
    if not meta.is_negative_at(ParameterLocation.PATH):
        if "game_id" in path:
            path["game_id"] = game["id"]
        if "rubber_id" in path:
            path["rubber_id"] = rubber["id"]
        if "group_id" in path and rubbers.group:
            path["group_id"] = group["id"]
        if "number" in path:
            # Mostly a hand the rubber has; sometimes the one after its last.
            path["number"] = 1 + hand % (len(rubber["hands"]) + 1)
    keys = {"editKey": ("X-Edit-Key", rubber["edit_key"])}
    if rubbers.group:
        keys["groupKey"] = ("X-Group-Key", group["edit_key"])
    declared = {
        scheme
        for requirement in case.operation.definition.raw.get("security", [])
        for scheme in requirement
    }
    if isinstance(case.body, dict) and not meta.is_negative_at(ParameterLocation.BODY):
        if "version" in case.body and current_version:
            case.body["version"] = rubber["version"]
        if isinstance(case.body.get("points"), list) and add_up:
            case.body["points"] = [first, 120 - first]
        # Ids only where the body holds an id (an exported file's "group" is an object).
        if isinstance(case.body.get("rubber"), str):
            case.body["rubber"] = rubber["id"]
        if isinstance(case.body.get("hands"), list):
            # Open hands that can be dealt, so the analysis is queued (202), or refused by the
            # queue's bounds (429): the first cards of each suit, dealt round the table.
            case.body["hands"] = [OPEN_DECK[seat::4][:cards] for seat in range(4)]
        if in_group and rubbers.group and isinstance(case.body.get("group", 0), str | None):
            case.body["group"] = group["id"]
            declared.add("groupKey")
    if meta.is_negative_at(ParameterLocation.HEADER):
        return {}
    headers = dict(keys[scheme] for scheme in declared if scheme in keys)
    if case.headers is None:
        case.headers = {}
    case.headers.update(headers)
    return headers


def test_each_seed_tries_cases_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """CI's two runs (FUZZ_SEED 1 and 2, .ci/run) try different cases; one seed, the same."""

    def drawn(fuzz_seed: int) -> list[int]:
        monkeypatch.setattr(fuzzing, "FUZZ_SEED", fuzz_seed)
        seen: list[int] = []

        @fuzzed
        @given(number=st.integers(0, 10**9))
        def fuzz(number: int) -> None:
            seen.append(number)

        fuzz()
        return seen

    first = drawn(1)
    assert len(first) > 1
    assert drawn(1) == first
    assert set(drawn(2)) != set(first)


# Every operation of the document the app serves: a new one is fuzzed as soon as it is there.
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[" ".join(op) for op in OPERATIONS])
def test_api_operation(
    app: Flask, client: FlaskClient, method: str, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operation = schema[path][method]
    strategy = st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )
    rubbers = Rubbers(client)
    statuses: Counter[int] = Counter()
    label = f"{method} {path}"

    @fuzzed
    @given(case=strategy, data=st.data())
    def fuzz(case: Any, data: st.DataObject) -> None:
        detach(case)  # aimed below: the strategy's own values stay as drawn
        headers: dict[str, str] = {}
        if case.path_parameters or not isinstance(case.body, NotSet):  # something to aim
            headers = aim(case, rubbers, data)
            case.meta  # noqa: B018  (reading it makes schemathesis check the aimed case again)
        before = snapshot(app)
        # Schemathesis' WSGI client asks for gzip but does not unpack it, and the export comes
        # gzipped to a client that asks (web/downloads.py): this one asks for the bytes as such.
        response = case.call(headers={**headers, "Accept-Encoding": "identity"})
        statuses[response.status_code] += 1
        assert response.status_code < 500, (case.as_curl_command(), response.text[:500])
        if 400 <= response.status_code < 500:
            body = response.json()
            assert isinstance(body, dict), response.text[:500]
            assert isinstance(body.get("error"), str) and body["error"].strip(), body
            assert snapshot(app) == before, (case.as_curl_command(), body)
        # Schemathesis' own checks: status codes, content types and bodies as documented. A
        # schema-valid body may still be refused by the game (points no hand can make: 422).
        case.validate_response(
            response, headers=headers, excluded_checks=[positive_data_acceptance]
        )
        if response.status_code < 400:
            assert_totals_are_the_fold(app)

    fuzz()
    assert sum(statuses.values()) > 0
    if label in WRITES:
        assert any(200 <= status < 300 for status in statuses), statuses
    summary(
        capsys, f"fuzz api {label}: {sum(statuses.values())} cases {dict(sorted(statuses.items()))}"
    )


# The HTML forms, through the test client (CSRF is off in the test app) ----------------------

VERSION = "<the rubber's version>"
"""Replaced by the rubber's current version when the form is sent, as a fresh page would."""
NUMBERS = st.integers(-(10**30), 10**30).map(str)
ODD_TEXT = st.sampled_from(
    ["", " ", "0", "-1", "121", "1e3", "1.5", "²", "٣", "１２", "0x10", "NaN", "inf", "on", "y"]
)
TEXT = st.one_of(
    st.text(max_size=60),
    NUMBERS,
    ODD_TEXT,
    st.integers(4000, 5000).map(lambda n: "9" * n),
    st.builds(
        lambda char, n: char * n, st.characters(exclude_categories=["Cs"]), st.integers(0, 3000)
    ),
)
"""Anything a person, a broken browser or a script could type: unicode, numbers too long for
``int()``, superscript digits."""
OVERSIZED = st.integers(256 * 1024, 300 * 1024).map(lambda n: "x" * n)
"""A field that takes the body over the app's size limit."""


def offered(*values: str) -> st.SearchStrategy[str]:
    """The values a page's form field can send."""
    return st.sampled_from(values)


def messy(tidy: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """A field's value from a tidy page, or anything at all, sometimes sent twice."""
    one = st.one_of(tidy, TEXT)
    return st.one_of(one, one, st.lists(one, min_size=2, max_size=3))


HAND_FIELDS = {
    "action": offered(
        "points", "tie", "revoke-0", "revoke-1", "spoiled", "bandeira-0", "bandeira-1"
    ),
    "team": offered("0", "1"),
    "points": st.integers(0, 120).map(str),
    "all_tricks": offered("y", ""),
    "trump": offered("C", "D", "H", "S"),
    # A revoke or a bandeira confirmed (its question's button), or not.
    "confirm": offered("", "revoke-0", "revoke-1", "bandeira-0", "bandeira-1"),
    # Keys that come back (a double tap, a retry) and keys never seen before.
    "key": st.one_of(st.text(alphabet="abc", min_size=1, max_size=3), st.uuids().map(str)),
    # Mostly a fresh page; sometimes one left open while the rubber went on.
    "version": offered(VERSION, VERSION, VERSION, "1", "2"),
}
NAME = st.text(max_size=40)
NEW_RUBBER_FIELDS = {
    "team0": NAME,
    "team1": NAME,
    **{f"player{seat}": NAME for seat in range(4)},
    "first_dealer": offered("0", "1", "2", "3", "random"),
    "preset": offered("portugal", "brasil", "acores", "online"),
    "games_to_win": st.integers(1, 20).map(str),
    "tie": offered("", "carry", "void", "double"),
    "bandeira": offered("", "tricks", "points"),
    "bandeira_wins_rubber": offered("", "yes", "no"),
    "revoke": offered("", "opponents_two", "offender_minus_two", "lose_rubber"),
    "manilha": offered("", "7", "10"),
    "queen_over_jack": offered("", "yes", "no"),
    "direction": offered("", "counterclockwise", "clockwise"),
    "melar": offered("", "yes", "no"),
}
GROUP_RUBBER_FIELDS = {
    **NEW_RUBBER_FIELDS,
    "pick": NAME,
    "unpick": offered("0", "1", "2", "3", "4", "-1"),
    "action": offered("start", "", "pick"),
}
BID_FIELDS = {
    "action": offered("made", "failed", "points", "passed"),
    "bidder": offered("0", "1", "2", "3", "4", "5", "6"),
    "bid": offered("61", "70", "80", "90", "100", "120"),
    "other_bid": st.integers(55, 125).map(str),
    "partner": offered("0", "1", "2", "3", "4", "5", "alone"),
    "points": st.integers(-1, 121).map(str),
    "trump": offered("C", "D", "H", "S"),
    "key": HAND_FIELDS["key"],
    "version": HAND_FIELDS["version"],
}
NEW_GAME_FIELDS = {
    **{f"player{seat}": NAME for seat in range(6)},
    "target": st.integers(40, 2100).map(str),
    "first_dealer": offered("0", "1", "2", "3", "4", "5", "random"),
}
WHOLE_RECORD = "|".join(" ".join(trick) for trick in FULL_RECORD)
REPLAY_FIELDS = {
    "trump": offered("C", "D", "H", "S"),
    # The confirmation page's record: whole (seat 1 leads it), cut short, or none.
    "record": offered(WHOLE_RECORD, WHOLE_RECORD.rsplit("|", 1)[0], ""),
    "trump_card": offered("", "2H", "AS"),
    "version": HAND_FIELDS["version"],
}
FORMS: dict[str, dict[str, st.SearchStrategy[str]]] = {
    "/groups/new": {"name": NAME},
    "/g/<group>/rubbers/new": GROUP_RUBBER_FIELDS,
    "/rubbers/new": NEW_RUBBER_FIELDS,
    "/rubbers": NEW_RUBBER_FIELDS,
    "/r/<id>/hands": HAND_FIELDS,
    "/r/<id>/hands/<n>/edit": HAND_FIELDS,
    "/r/<id>/undo": {"key": HAND_FIELDS["key"], "version": HAND_FIELDS["version"]},
    "/r/<id>/replay/analysis": REPLAY_FIELDS,
    "/bidding/new": NEW_GAME_FIELDS,
    "/g/<group>/bidding/new": NEW_GAME_FIELDS,
    "/bidding": {"previous": offered("<game>", "", "x")},
    "/b/<game>/hands": BID_FIELDS,
    "/b/<game>/hands/<n>/edit": BID_FIELDS,
    "/b/<game>/undo": {"key": HAND_FIELDS["key"], "version": HAND_FIELDS["version"]},
}


def form_data(fields: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[dict[str, Any]]:
    """A form as a page sends it (any field may be missing), or the same with anything in it."""
    return st.one_of(
        st.fixed_dictionaries({}, optional=fields),
        st.fixed_dictionaries({}, optional={name: messy(tidy) for name, tidy in fields.items()}),
    )


def error_pages(app: Flask) -> list[str]:
    """The message of each error page, as the page writes it."""
    with app.test_request_context():
        said = [
            errors._explain(error())[1]
            for code, error in default_exceptions.items()
            if 400 <= code < 500 and issubclass(error, HTTPException)
        ]
        # A feature's own 403 for a phone without its edit link (web.errors.ReadOnly).
        for grants in (group_store.GRANTS, rubber_store.GRANTS, bidding_store.GRANTS):
            if grants.read_only is not None:
                said.append(grants.read_only())
        return [html.escape(sentence) for sentence in said]


def shows_a_message(page: str, error_messages: list[str]) -> bool:
    return 'class="error"' in page or any(message in page for message in error_messages)


@pytest.mark.parametrize("target", list(FORMS))
def test_html_form(  # noqa: C901  one branch per kind of field it fills
    app: Flask, client: FlaskClient, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    rubbers = Rubbers(client, grant=True)
    stranger = app.test_client()
    messages = error_pages(app)
    statuses: Counter[int] = Counter()
    form_strategy = form_data(FORMS[target])

    @fuzzed
    @given(form=form_strategy, data=st.data())
    def fuzz(form: dict[str, Any], data: st.DataObject) -> None:
        rubber = rubbers.pick(data)
        game = rubbers.pick_game(data)
        if "<game>" in target:  # a bidding game's form: the game takes the rubber's place
            rubber = game
        who = data.draw(st.sampled_from(["editor"] * 8 + ["stranger", "unknown rubber"]))
        hand = data.draw(st.integers(-1, 40), label="hand")
        if data.draw(st.integers(0, 29), label="oversized") == 17:
            form[data.draw(st.sampled_from(sorted(FORMS[target])))] = data.draw(OVERSIZED)
        url = target.replace("<id>", rubber["id"] if who != "unknown rubber" else "x" * 32)
        url = url.replace("<game>", game["id"] if who != "unknown rubber" else "x" * 32)
        group_id = rubbers.group["id"] if rubbers.group else ""
        url = url.replace("<group>", group_id if who != "unknown rubber" else "x" * 32)
        # Mostly a hand the rubber has; sometimes hand 0 or the one after its last.
        url = url.replace("<n>", str(hand % (len(rubber["hands"]) + 1) + 1 if hand >= 0 else 0))
        for name, value in form.items():
            if value == VERSION:
                form[name] = str(rubber["version"])
            elif value == "<game>":
                form[name] = game["id"]
            elif isinstance(value, list):
                form[name] = [str(rubber["version"]) if item == VERSION else item for item in value]
        before = snapshot(app)
        response = (stranger if who == "stranger" else client).post(url, data=form)
        statuses[response.status_code] += 1
        page = response.get_data(as_text=True)
        assert response.status_code < 500, (url, form, page[:500])
        if 400 <= response.status_code < 500:
            assert shows_a_message(page, messages), (url, form, page[:2000])
            assert snapshot(app) == before, (url, form)
        if response.status_code == 302:
            shown = client.get(response.headers["Location"])
            assert shown.status_code == 200, (url, form, response.headers["Location"])
            if "note-conflict" in shown.get_data(as_text=True):  # refused, and the page says so
                assert snapshot(app) == before, (url, form)
            assert_totals_are_the_fold(app)

    fuzz()
    summary(
        capsys,
        f"fuzz html POST {target}: {sum(statuses.values())} cases {dict(sorted(statuses.items()))}",
    )
