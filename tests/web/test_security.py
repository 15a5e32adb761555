"""Security: headers and cookies, hashed edit keys, edit rights on every route, escaped names."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from flask import Flask, request
from flask.testing import FlaskClient
from werkzeug.routing import Rule

from scorekeeper import create_app
from scorekeeper.api import export
from scorekeeper.extensions import db
from scorekeeper.groups.models import Group
from scorekeeper.rubbers import store
from tests.support.apps import fresh_app, held_key

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
WRONG_KEY = "not-the-edit-key-of-this-rubber-at-all"

Snapshot = dict[str, list[tuple[str, ...]]]


def snapshot(app: Flask) -> Snapshot:
    """Every row of every table, each value as its repr: equal snapshots are the same data."""
    with app.app_context():
        with db.engine.connect() as connection:
            tables: Snapshot = {}
            for table in db.metadata.sorted_tables:
                order = list(table.primary_key.columns) or list(table.columns)
                rows = connection.execute(table.select().order_by(*order)).all()
                tables[table.name] = [tuple(repr(value) for value in row) for row in rows]
    return tables


def added_only(before: Snapshot, after: Snapshot) -> bool:
    """Whether ``after`` keeps every row of ``before`` exactly, whatever it added."""
    return all(set(rows) <= set(after[name]) for name, rows in before.items())


def changed_tables(before: Snapshot, after: Snapshot) -> dict[str, tuple[int, int]]:
    return {
        name: (len(rows), len(after[name])) for name, rows in before.items() if rows != after[name]
    }


def csrf_token(html: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', html) or re.search(
        r'value="([^"]+)"[^>]*name="csrf_token"', html
    )
    assert found, "no CSRF token on the page"
    return found.group(1)


@pytest.fixture
def csrf_app(app: Flask) -> Flask:
    """The test app with CSRF protection on, as in production."""
    app.config["WTF_CSRF_ENABLED"] = True
    return app


# Headers and cookies ------------------------------------------------------------------------


def assert_security_headers(response: Any) -> None:
    policy = response.headers.get("Content-Security-Policy", "")
    directives = {part.strip().split(" ")[0]: part.strip() for part in policy.split(";")}
    assert directives.get("default-src") == "default-src 'self'", policy
    assert directives.get("frame-ancestors") == "frame-ancestors 'none'", policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert response.headers.get("Referrer-Policy") == "same-origin"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"


def assert_static_headers(response: Any) -> None:
    """A static file's: what a style sheet or a script is read with, no document's policies."""
    assert response.headers.get("Referrer-Policy") == "same-origin"
    assert response.headers.get("X-Content-Type-Options") == "nosniff"
    assert response.headers.get("Cross-Origin-Resource-Policy") == "same-origin"
    for name in ("Content-Security-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy"):
        assert name not in response.headers, name


def test_a_static_file_goes_without_a_documents_headers_but_its_error_page_has_them(
    app: Flask, client: FlaskClient
) -> None:
    """The rubber page's style sheet and scripts: 344 bytes fewer each (docs/decisions/security.md)."""
    for name in ("app.css", "app.js", "hands.js", "icons/icon.svg"):
        with client.get(f"/static/{name}") as static:
            assert static.status_code == 200, name
            assert_static_headers(static)
        etag = static.headers["ETag"]
        with client.get(f"/static/{name}", headers={"If-None-Match": etag}) as again:
            assert again.status_code == 304, name
            assert_static_headers(again)
    with client.get("/static/no-such-file.js") as missing:
        assert missing.status_code == 404
        assert_security_headers(missing)
    with client.get("/sw.js") as worker:  # a worker's script: its CSP governs the worker
        assert worker.status_code == 200
        assert_security_headers(worker)


def test_headers_on_pages_api_static_files_and_errors(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/rubbers", json={})
    rubber_id = created.get_json()["id"]
    static_file = sorted(
        path.name for path in Path(app.static_folder or "").iterdir() if path.is_file()
    )[0]
    responses = {
        "home": client.get("/"),
        "new rubber form": client.get("/rubbers/new"),
        "rubber page": client.get(f"/r/{rubber_id}"),
        "history": client.get("/history"),
        "API create": created,
        "API state": client.get(f"/api/v1/rubbers/{rubber_id}"),
        "API error 403": client.post(f"/api/v1/rubbers/{rubber_id}/hands", json={}),
        "API error 404": client.get("/api/v1/rubbers/nope"),
        "API openapi": client.get("/api/v1/openapi.json"),
        "CSV export": client.get(f"/api/v1/rubbers/{rubber_id}/export.csv"),
        "page 404": client.get("/no/such/page"),
        "page 405": client.put("/"),
        "page 403": client.post(f"/r/{rubber_id}/hands", data={"points": "70"}),
        "edit link 404": client.get(f"/r/{rubber_id}/edit/{WRONG_KEY}"),
        "redirect": client.post("/rubbers"),
    }
    for name, response in responses.items():
        try:
            assert_security_headers(response)
        except AssertionError as error:
            raise AssertionError(f"{name} ({response.status_code}): {error}") from None
    assert responses["page 404"].status_code == 404
    with client.get(f"/static/{static_file}") as static:
        assert static.status_code == 200
        assert_static_headers(static)
    for response in responses.values():
        response.close()


def test_headers_on_a_server_error_page(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e.db'}"}
    )

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("a bug")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    assert_security_headers(response)
    assert "a bug" not in response.get_data(as_text=True)


def session_cookie(response: Any, name: str = "session") -> str:
    cookies = [c for c in response.headers.getlist("Set-Cookie") if c.startswith(f"{name}=")]
    assert len(cookies) == 1, response.headers.getlist("Set-Cookie")
    return cookies[0]


def cookie_flags(cookie: str) -> set[str]:
    return {part.strip().split("=")[0].lower() for part in cookie.split(";")[1:]}


def test_session_cookie_is_httponly_lax_and_secure_over_https(client: FlaskClient) -> None:
    plain = session_cookie(client.post("/rubbers"))
    assert {"httponly", "samesite"} <= cookie_flags(plain)
    assert "SameSite=Lax" in plain
    assert "secure" not in cookie_flags(plain)

    secure_client = client.application.test_client()
    https = {"wsgi.url_scheme": "https"}
    started = secure_client.post("/rubbers", environ_overrides=https)
    cookie = session_cookie(started, "__Host-session")
    assert {"httponly", "samesite", "secure", "path"} <= cookie_flags(cookie)
    assert "SameSite=Lax" in cookie and "Path=/;" in cookie and "domain" not in cookie_flags(cookie)
    assert not [c for c in started.headers.getlist("Set-Cookie") if c.startswith("session=")]
    # The phone is known by that cookie on its next request.
    page = secure_client.get(started.headers["Location"], environ_overrides=https)
    assert 'action="/r/' in page.get_data(as_text=True)  # the scorer's hand form
    assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in client.get("/").headers


def test_https_cookie_prefix_and_hsts_are_configuration(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    config = {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": database, "WTF_CSRF_ENABLED": False}
    app = create_app({**config, "SESSION_COOKIE_HTTPS_PREFIX": "", "HSTS_MAX_AGE": 0})
    with app.app_context():
        db.create_all()
    https = {"wsgi.url_scheme": "https"}
    started = app.test_client().post("/rubbers", environ_overrides=https)
    assert "secure" in cookie_flags(session_cookie(started))
    assert "Strict-Transport-Security" not in started.headers


def test_language_cookie_is_secure_over_https_too(client: FlaskClient) -> None:
    https = client.get("/language/en", environ_overrides={"wsgi.url_scheme": "https"})
    cookie = https.headers["Set-Cookie"]
    assert {"httponly", "samesite", "secure"} <= cookie_flags(cookie)
    plain = client.get("/language/en").headers["Set-Cookie"]
    assert "secure" not in cookie_flags(plain)


# Edit keys ---------------------------------------------------------------------------------


def every_value(app: Flask) -> list[str]:
    return [value for rows in snapshot(app).values() for row in rows for value in row]


def test_the_database_never_holds_a_raw_edit_key(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/rubbers", json={"teams": ["A", "B"]}).get_json()
    api_key = created["edit_key"]
    headers = {"X-Edit-Key": api_key}
    assert client.post(f"/api/v1/rubbers/{created['id']}/hands", json={"points": [70, 50]},
                       headers=headers).status_code == 201  # fmt: skip

    page = client.post("/rubbers").location
    page_key = held_key(app, client, page.rsplit("/", 1)[-1])
    phone = app.test_client()
    assert phone.get(f"{page}/edit/{page_key}").status_code == 302  # a grant is stored too
    assert phone.post(page + "/hands", data={"points": "70", "team": "0"}).status_code == 302

    values = every_value(app)
    assert values
    for key in (api_key, page_key):
        assert not [value for value in values if key in value]
        assert any(hashlib.sha256(key.encode()).hexdigest() in value for value in values)


def test_edit_keys_are_compared_in_constant_time(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def spy(first: Any, second: Any) -> bool:
        calls.append((first, second))
        return real(first, second)

    monkeypatch.setattr(store.hmac, "compare_digest", spy)
    created = client.post("/api/v1/rubbers", json={}).get_json()
    url = f"/api/v1/rubbers/{created['id']}/hands"
    key = created["edit_key"]
    assert (
        client.post(url, json={"points": [70, 50]}, headers={"X-Edit-Key": WRONG_KEY}).status_code
        == 403
    )
    assert (
        client.post(url, json={"points": [70, 50]}, headers={"X-Edit-Key": key}).status_code == 201
    )
    assert client.get(f"/r/{created['id']}/edit/{WRONG_KEY}").status_code == 404
    assert client.get(f"/r/{created['id']}/edit/{key}").status_code == 302
    digest = hashlib.sha256(key.encode()).hexdigest()
    wrong = hashlib.sha256(WRONG_KEY.encode()).hexdigest()
    assert calls.count((wrong, digest)) == 2
    assert calls.count((digest, digest)) >= 2


# Edit rights on every route --------------------------------------------------------------


class Table:
    """A rubber with two hands, its owner's phone (granted by its edit link) and its key."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.owner = app.test_client()
        created = self.owner.post(
            "/api/v1/rubbers", json={"teams": ["Nós", "Eles"], "rules": {"melar": True}}
        )
        assert created.status_code == 201
        data = created.get_json()
        self.id: str = data["id"]
        self.key: str = data["edit_key"]
        for points in ([70, 50], [30, 90]):
            hand = self.owner.post(
                f"/api/v1/rubbers/{self.id}/hands", json={"points": points}, headers=self.headers
            )
            assert hand.status_code == 201
        assert self.owner.get(f"/r/{self.id}/edit/{self.key}").status_code == 302
        # A bidding game of the same phone, with two hands, for the bidding routes.
        game = self.owner.post("/api/v1/bidding", json={"players": ["A", "B", "C", "D"]})
        assert game.status_code == 201
        self.game_id: str = game.get_json()["id"]
        self.game_key: str = game.get_json()["edit_key"]
        for hand in ({"passed": True}, {"bidder": 0, "bid": 70, "partner": 2, "made": True}):
            added = self.owner.post(
                f"/api/v1/bidding/{self.game_id}/hands",
                json=hand,
                headers={"X-Edit-Key": self.game_key},
            )
            assert added.status_code == 201
        assert self.owner.get(f"/b/{self.game_id}/edit/{self.game_key}").status_code == 302
        self._group: tuple[str, str] | None = None
        self._tournament: tuple[str, str] | None = None

    @property
    def headers(self) -> dict[str, str]:
        return {"X-Edit-Key": self.key}

    def headers_for(self, url: str) -> dict[str, str]:
        """The edit key of the rubber, or of the bidding game, that ``url`` writes to."""
        return {"X-Edit-Key": self.game_key} if "/bidding/" in url else self.headers

    def group(self) -> tuple[str, str]:
        """A group of API.md (id and key), made the first time a route needs one."""
        if self._group is None:
            made = self.owner.post("/api/v1/groups", json={"name": "Tasca"})
            assert made.status_code == 201, "a route takes a group_id: POST /api/v1/groups failed"
            self._group = (made.get_json()["id"], made.get_json()["edit_key"])
        return self._group

    def tournament(self) -> tuple[str, str]:
        """A knockout of four pairs (id and key), made the first time a route needs one."""
        if self._tournament is None:
            pairs = [{"players": [f"A{n}", f"B{n}"]} for n in range(4)]
            made = self.owner.post(
                "/api/v1/tournaments",
                json={"name": "Torneio", "format": "knockout", "pairs": pairs},
            )
            assert made.status_code == 201, "a route takes a tournament_id: its POST failed"
            self._tournament = (made.get_json()["id"], made.get_json()["edit_key"])
        return self._tournament

    def finish(self) -> None:
        """A bandeira by Nós: the rubber is won, for the routes that need a finished one."""
        hand = self.owner.post(
            f"/api/v1/rubbers/{self.id}/hands",
            json={"points": [120, 0], "all_tricks": True},
            headers=self.headers,
        )
        assert hand.status_code == 201 and hand.get_json()["finished"]

    def owner_token(self) -> str:
        return csrf_token(self.owner.get(f"/r/{self.id}").get_data(as_text=True))


def url_values(app: Flask, table: Table, key: str) -> dict[str, Callable[[], Any]]:
    """How to fill each argument a route takes. A new argument name must be taught here."""
    static = Path(app.static_folder or "")
    return {
        "rubber_id": lambda: table.id,
        "number": lambda: 1,
        "key": lambda: key,
        "locale": lambda: "en",
        "filename": lambda: sorted(path.name for path in static.iterdir() if path.is_file())[0],
        "group_id": lambda: table.group()[0],
        "game_id": lambda: table.game_id,
        # An analysis' id is the hash of what it analysed (scorekeeper/background/work.py).
        "analysis_id": lambda: "0" * 64,
        # A group's TV code (/tv/<code>): the table's group's, read from the database.
        "code": lambda: _tv_code(app, table.group()[0]),
        "tournament_id": lambda: table.tournament()[0],
        "round_number": lambda: 1,
        "table": lambda: 1,
        "pair": lambda: 1,
    }


def _tv_code(app: Flask, group_id: str) -> str:
    with app.app_context():
        group = db.session.get(Group, group_id)
        assert group is not None
        return group.tv_code


def build(app: Flask, rule: Rule, table: Table, key: str = WRONG_KEY) -> str:
    known = url_values(app, table, key)
    unknown = sorted(set(rule.arguments) - set(known))
    if unknown:
        pytest.fail(
            f"{rule.endpoint} {rule.rule}: test_security cannot build a URL for {unknown}; "
            "teach url_values() how"
        )
    built = rule.build({name: known[name]() for name in rule.arguments}, append_unknown=False)
    assert built is not None, rule.rule
    return built[1]


OPEN_WRITES = {
    "rubbers.new_rubber": "anyone may start a rubber (with the form's CSRF token)",
    "rubbers.quick_rubber": "anyone may start a rubber (with the form's CSRF token)",
    "api.rubbers.create_rubber": "anyone may start a rubber (API.md)",
    "api.rubbers.verify": "checks a record of tricks; stores nothing",
    "groups.new_group": "anyone may start a group (with the form's CSRF token)",
    "api.groups.create_group": "anyone may start a group (API.md)",
    "bidding.new_game": "anyone may start a bidding game (with the form's CSRF token)",
    "bidding.quick_game": "starts the phone's own last table again, or none",
    "api.bidding.create_game": "anyone may start a bidding game (API.md)",
    "tournaments.new_tournament": "anyone may start a tournament (with the form's CSRF token)",
    "api.tournaments.create_tournament": "anyone may start a tournament (API.md)",
}
"""Writes that need no edit rights: they may add rows of their own, never touch others."""

FORM = {"action": "points", "team": "0", "points": "75", "trump": "H"}
HAND = {"points": [75, 45]}
CONTROL_BODIES: dict[str, dict[str, Any] | None] = {
    "rubbers.record_hand": FORM,
    "rubbers.edit_hand": FORM,
    "rubbers.undo": {},
    "rubbers.next_rubber": {},
    "api.rubbers.add_hand": HAND,
    "api.rubbers.replace_hand": HAND,
    "api.rubbers.undo_hand": None,
    "bidding.record_hand": {"action": "passed"},
    "bidding.edit_hand": {"action": "passed"},
    "bidding.undo": {},
    "api.bidding.add_hand": {"passed": True},
    "api.bidding.replace_hand": {"passed": True},
    "api.bidding.undo_hand": None,
}
"""Bodies that change the rubber when its owner sends them: proof the refusals are the
rights check at work, not a bad body."""
FINISHED_FIRST = {"rubbers.next_rubber"}
"""Routes that act only once the rubber is won."""


def write_rules(app: Flask) -> list[tuple[Rule, str]]:
    return [
        (rule, method)
        for rule in app.url_map.iter_rules()
        for method in sorted((rule.methods or set()) - SAFE_METHODS)
    ]


def test_every_write_route_refuses_a_request_without_edit_rights(csrf_app: Flask) -> None:
    app = csrf_app
    writes = write_rules(app)
    assert len(writes) >= 10
    checked = []
    for rule, method in writes:
        table = Table(app)
        if rule.endpoint in FINISHED_FIRST:
            table.finish()
        url = build(app, rule, table)
        where = f"{method} {url} ({rule.endpoint})"
        api = url.startswith("/api/")
        stranger = app.test_client()
        attempts: list[tuple[str, dict[str, Any]]]
        if api:
            body = CONTROL_BODIES.get(rule.endpoint) or HAND
            attempts = [
                ("no key", {"json": body}),
                (
                    "a wrong key",
                    {"json": body, "headers": {"X-Edit-Key": WRONG_KEY, "X-Group-Key": WRONG_KEY}},
                ),
            ]
        else:
            body = CONTROL_BODIES.get(rule.endpoint) or FORM
            token = csrf_token(stranger.get("/rubbers/new").get_data(as_text=True))
            attempts = [
                ("no CSRF token", {"data": body}),
                ("a forged CSRF token", {"data": {**body, "csrf_token": "forged"}}),
                ("a phone without the edit link", {"data": {**body, "csrf_token": token}}),
            ]
        for attempt, kwargs in attempts:
            before = snapshot(app)
            response = stranger.open(url, method=method, **kwargs)
            after = snapshot(app)
            status = response.status_code
            if rule.endpoint in OPEN_WRITES and attempt not in (
                "no CSRF token",
                "a forged CSRF token",
            ):
                assert status < 500, f"{where} with {attempt}: {status}"
                assert added_only(before, after), f"{where} with {attempt} changed rows"
                continue
            assert 400 <= status < 500, f"{where} with {attempt}: {status}"
            assert after == before, f"{where} with {attempt} wrote {changed_tables(before, after)}"
        if rule.endpoint in CONTROL_BODIES:
            control = CONTROL_BODIES[rule.endpoint]
            before = snapshot(app)
            if api:
                response = table.owner.open(
                    url, method=method, json=control, headers=table.headers_for(url)
                )
            else:
                data = {**(control or {}), "csrf_token": table.owner_token()}
                response = table.owner.open(url, method=method, data=data)
            assert response.status_code < 400, f"{where} by its owner: {response.status_code}"
            assert snapshot(app) != before, f"{where} by its owner changed nothing"
        checked.append(rule.endpoint)
    assert {
        "rubbers.record_hand",
        "rubbers.undo",
        "api.rubbers.add_hand",
        "api.rubbers.undo_hand",
        "bidding.record_hand",
        "api.bidding.add_hand",
    } <= set(checked)


def test_every_get_route_leaves_the_database_as_it_was(app: Flask) -> None:
    table = Table(app)
    reader = app.test_client()
    with_key = app.test_client()
    visitors = [
        ("the owner's phone", table.owner, {}),
        ("a phone with the read-only link", reader, {}),
        ("an API client with the edit key", with_key, table.headers),
    ]
    gets = [rule for rule in app.url_map.iter_rules() if "GET" in (rule.methods or set())]
    assert len(gets) >= 8
    for rule in gets:
        url = build(app, rule, table)  # the edit link with a wrong key
        for who, visitor, headers in visitors:
            before = snapshot(app)
            response = visitor.get(url, headers=headers)
            response.close()
            assert response.status_code < 500, f"GET {url} by {who}: {response.status_code}"
            after = snapshot(app)
            assert after == before, f"GET {url} by {who} wrote {changed_tables(before, after)}"
            if rule.endpoint == "rubbers.grant":
                assert response.status_code == 404

    # The one documented exception: the edit link with the right key records a device grant,
    # and the key, sealed, in the device's rows (web/device.py).
    grant = next(rule for rule in gets if rule.endpoint == "rubbers.grant")
    url = build(app, grant, table, key=table.key)
    before = snapshot(app)
    assert table.owner.get(url).status_code == 302
    assert snapshot(app) == before  # the owner already holds the grant
    assert reader.get(url).status_code == 302
    after = snapshot(app)
    assert changed_tables(before, after) == {
        "device_rubbers": (len(before["device_rubbers"]), len(before["device_rubbers"]) + 1),
        "device_keys": (len(before["device_keys"]), len(before["device_keys"]) + 1),
    }
    assert added_only(before, after)


def test_a_route_with_an_unknown_argument_fails_the_walk(app: Flask) -> None:
    table = Table(app)
    rule = Rule("/made/up/<widget>", endpoint="made_up")
    rule.bind(app.url_map)
    with pytest.raises(pytest.fail.Exception, match="widget"):
        build(app, rule, table)


# Names that look like code -----------------------------------------------------------------

PAYLOADS = (
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "</svg><script>",
    "'><svg onload=alert(1)>",
    '=HYPERLINK("http://x")',
    "</title><b>x",
)
TEAMS = [PAYLOADS[0], PAYLOADS[1]]
PLAYERS = [PAYLOADS[2], PAYLOADS[3], PAYLOADS[4], PAYLOADS[5]]


class Markup(HTMLParser):
    """The elements, attributes and text of a page as a browser would read them."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.starts: list[str] = []
        self.ends: list[str] = []
        self.attributes: list[tuple[str, str, str]] = []
        self.scripts: list[str] = []
        self.text: list[str] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.starts.append(tag)
        self.attributes.extend((tag, name, value or "") for name, value in attrs)
        if tag == "script":
            self.scripts.append(dict(attrs).get("src") or "")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        self.ends.append(tag)

    def handle_endtag(self, tag: str) -> None:
        self.ends.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)

    def shown(self) -> str:
        return "\n".join(self.text + [value for _, _, value in self.attributes])


def assert_escaped(html: str, where: str) -> Markup:
    page = Markup(html)
    # The app's own scripts come from its static folder; nothing else is a script.
    assert all(src.startswith("/static/") for src in page.scripts), f"{where}: {page.scripts}"
    assert "b" not in page.starts, where
    handlers = [(tag, name) for tag, name, _ in page.attributes if name.startswith("on")]
    assert not handlers, f"{where}: event handler attributes {handlers}"
    assert ("img", "src", "x") not in page.attributes, where
    for tag in ("svg", "title"):
        assert page.starts.count(tag) == page.ends.count(tag), f"{where}: <{tag}> unbalanced"
    for payload in PAYLOADS:
        if any(char in payload for char in '<>"'):
            assert payload not in html, f"{where}: {payload!r} unescaped"
    return page


@pytest.fixture
def named(app: Flask) -> Iterator[tuple[FlaskClient, list[str]]]:
    """A phone that started two rubbers with code for names: one by the form, one by the API."""
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    fields = {"team0": TEAMS[0], "team1": TEAMS[1], "preset": "portugal", "first_dealer": "0"}
    fields.update({f"player{seat}": name for seat, name in enumerate(PLAYERS)})
    page = phone.post("/rubbers/new", data=fields).location
    created = phone.post("/api/v1/rubbers", json={"teams": TEAMS, "players": PLAYERS})
    assert created.status_code == 201
    api_id = created.get_json()["id"]
    assert phone.get(f"/r/{api_id}/edit/{created.get_json()['edit_key']}").status_code == 302
    ids = [page.rsplit("/", 1)[-1], api_id]
    for rubber_id in ids:
        for fields in (
            {"action": "revoke-0", "confirm": "revoke-0"},
            {"points": "75", "team": "1", "trump": "S"},
        ):
            response = phone.post(f"/r/{rubber_id}/hands", data={"action": "points", **fields})
            assert response.status_code == 302
    yield phone, ids


def test_names_are_escaped_on_every_page(app: Flask, named: tuple[FlaskClient, list[str]]) -> None:
    phone, ids = named
    reader = app.test_client()
    for rubber_id in ids:
        # The page right after a write carries the flashed summary with a team's name.
        phone.post(f"/r/{rubber_id}/hands", data={"action": "revoke-1", "confirm": "revoke-1"})
        flashed = phone.get(f"/r/{rubber_id}").get_data(as_text=True)
        page = assert_escaped(flashed, "rubber page with a flashed summary")
        shown = page.shown()
        assert all(name in shown for name in TEAMS + PLAYERS)
        # The flashed summary, the team's name in a span of its colour.
        assert any(text.startswith("Revoke (renúncia) by") for text in page.text)
        labels = [value for _, name, value in page.attributes if name == "aria-label"]
        assert any(TEAMS[0] in label and TEAMS[1] in label for label in labels)
        assert "svg" in page.starts and "title" in page.starts
        assert any(TEAMS[1] in text for text in page.text if "hand" in text)  # a dot's title

        for rule in app.url_map.iter_rules():
            if "GET" not in (rule.methods or set()) or set(rule.arguments) - {
                "rubber_id",
                "number",
            }:
                continue
            url = rule.build({"rubber_id": rubber_id, "number": 1}, append_unknown=False)
            assert url is not None
            for visitor in (phone, reader):
                response = visitor.get(url[1])
                response.close()
                if response.mimetype == "text/html":
                    assert_escaped(response.get_data(as_text=True), f"GET {url[1]}")

        hand = assert_escaped(phone.get(f"/r/{rubber_id}/hands/1").get_data(as_text=True), "hand")
        assert TEAMS[0] in hand.shown()
        edit = phone.get(f"/r/{rubber_id}/hands/2/edit").get_data(as_text=True)
        assert TEAMS[1] in assert_escaped(edit, "edit hand").shown()

    history = assert_escaped(phone.get("/history").get_data(as_text=True), "history")
    assert all(name in history.shown() for name in TEAMS)
    home = assert_escaped(phone.get("/").get_data(as_text=True), "home")
    assert TEAMS[0] in home.shown()


def test_names_are_escaped_when_the_form_comes_back_with_errors(client: FlaskClient) -> None:
    fields = {"team0": TEAMS[0], "team1": TEAMS[1], "games_to_win": "99", "preset": "portugal"}
    fields.update({f"player{seat}": name for seat, name in enumerate(PLAYERS)})
    response = client.post("/rubbers/new", data=fields)
    assert response.status_code == 422
    page = assert_escaped(response.get_data(as_text=True), "new rubber form")
    values = [value for tag, name, value in page.attributes if tag == "input" and name == "value"]
    assert set(TEAMS + PLAYERS) <= set(values)


def test_the_api_keeps_names_as_data(named: tuple[FlaskClient, list[str]]) -> None:
    phone, ids = named
    for rubber_id in ids:
        response = phone.get(f"/api/v1/rubbers/{rubber_id}")
        assert response.mimetype == "application/json"
        state = response.get_json()
        assert state["teams"] == TEAMS
        assert state["players"] == PLAYERS
        assert TEAMS[0] in state["hands"][0]["summary"]


def test_the_csv_export_has_no_names_and_no_formulas(named: tuple[FlaskClient, list[str]]) -> None:
    phone, ids = named
    for rubber_id in ids:
        response = phone.get(f"/api/v1/rubbers/{rubber_id}/export.csv")
        assert response.status_code == 200 and response.mimetype == "text/csv"
        text = response.get_data(as_text=True)
        assert not any(payload in text for payload in PAYLOADS)
        for row in list(csv.reader(io.StringIO(text)))[1:]:
            for value in row:
                assert not value.startswith(("=", "+", "@")), row
                assert not value.startswith("-") or value.lstrip("-").isdigit(), row


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+SUM(A1)", "'+SUM(A1)"),
        ("-2+3", "'-2+3"),
        ("@cmd", "'@cmd"),
        ("\t=1", "'\t=1"),
        ("H", "H"),
        ("played", "played"),
        (-2, "-2"),
        (0, "0"),
        (True, "true"),
        (False, "false"),
        (None, ""),
    ],
)
def test_csv_cells_defuse_formulas_and_keep_numbers(value: Any, cell: str) -> None:
    assert export.cell(value) == cell


def test_the_fixed_headers_keep_each_answer_whole_whatever_the_order() -> None:
    """The middleware's headers, whatever order the view's came in.

    An edit key's no-store replaces the view's Cache-Control in its place; the JSON answer named
    after it is still an attachment; the view's own headers win over the fixed ones."""
    from scorekeeper.web.security import HOLDS_EDIT_KEY, FixedHeaders

    class Answering:
        config = {"HSTS_MAX_AGE": 60}
        static_url_path = "/static"

        def wsgi_app(self, environ: Any, start_response: Any) -> list[bytes]:
            start_response(
                "200 OK",
                [
                    ("Cache-Control", "private"),
                    ("Referrer-Policy", "no-referrer"),
                    ("Content-Type", "application/json"),
                ],
            )
            return [b"{}"]

    sent: list[list[tuple[str, str]]] = []
    middleware = FixedHeaders(Answering())  # type: ignore[arg-type]
    environ = {HOLDS_EDIT_KEY: True, "wsgi.url_scheme": "https"}
    middleware(environ, lambda status, headers, exc_info=None: sent.append(headers))
    headers = sent[0]
    assert headers.count(("Cache-Control", "no-store")) == 1
    assert not any(name == "Cache-Control" and value != "no-store" for name, value in headers)
    assert ("Content-Disposition", 'attachment; filename="answer.json"') in headers
    assert ("Referrer-Policy", "no-referrer") in headers
    assert [name for name, _ in headers].count("Referrer-Policy") == 1
    assert ("Strict-Transport-Security", "max-age=60") in headers


def test_the_apps_log_never_holds_an_edit_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A view that fails on an edit link's address: its log line names the address, not the key.

    Flask's "Exception on <path>" line carried the key of a rubber's, a group's or a game's edit
    link (issue 24, item 4)."""
    key = "s3cr3t-EditKey_0123456789abcdef"
    with fresh_app(tmp_path / "log.sqlite3", {"SECRET_KEY": "log"}) as app:
        app.config["PROPAGATE_EXCEPTIONS"] = False  # answered 500 and logged, as in production

        def fails(**_: str) -> str:
            raise RuntimeError(f"a view that fails at {request.path}")  # the key in its traceback

        app.add_url_rule("/r/<rubber_id>/edit/<key>/fails", "fails", fails)
        with caplog.at_level("ERROR"):
            answer = app.test_client().get(f"/r/abc/edit/{key}/fails")
        assert answer.status_code == 500
        logged = "\n".join(record.getMessage() for record in caplog.records)
        assert "/r/abc/edit/[redacted]/fails" in logged, logged
        assert "RuntimeError: a view that fails at /r/abc/edit/[redacted]" in caplog.text
        assert key not in caplog.text
