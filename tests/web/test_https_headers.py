"""The headers a phone gets over https, on every kind of answer.

Also no-store on every page that shows an edit key (a cache that kept one would hand the key to
whoever reads it)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.support.apps import held_key
from tests.web.test_security import Table, build

HTTPS = {"wsgi.url_scheme": "https"}
EXPECTED = {
    "Strict-Transport-Security": "max-age=31536000",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}


def assert_https_headers(response: Any, where: str) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, f"{where}: {name}"
    policy = response.headers.get("Permissions-Policy", "")
    features = dict(part.strip().split("=", 1) for part in policy.split(","))
    for feature in ("camera", "microphone", "geolocation", "payment", "usb"):
        assert features.get(feature) == "()", f"{where}: {feature} in {policy!r}"
    assert features.get("screen-wake-lock") == "(self)", f"{where}: the table needs the screen"


def test_every_answer_over_https_carries_the_headers(app: Flask) -> None:
    table = Table(app)
    phone = table.owner
    static = sorted(path.name for path in Path(app.static_folder or "").iterdir() if path.is_file())
    answers = {
        "home": phone.get("/", environ_overrides=HTTPS),
        "rubber page": phone.get(f"/r/{table.id}", environ_overrides=HTTPS),
        "new rubber (redirect)": phone.post("/rubbers", environ_overrides=HTTPS),
        "API state": phone.get(f"/api/v1/rubbers/{table.id}", environ_overrides=HTTPS),
        "API 404": phone.get("/api/v1/rubbers/nope", environ_overrides=HTTPS),
        "service worker": phone.get("/sw.js", environ_overrides=HTTPS),
        "page 404": phone.get("/no/such/page", environ_overrides=HTTPS),
        "language switch": phone.get("/language/en?next=/", environ_overrides=HTTPS),
    }
    for where, response in answers.items():
        assert_https_headers(response, where)
        response.close()
    with phone.get(f"/static/{static[0]}", environ_overrides=HTTPS) as static_file:
        assert static_file.headers.get("Strict-Transport-Security") == "max-age=31536000"
        assert static_file.headers.get("Cross-Origin-Resource-Policy") == "same-origin"
        assert "Permissions-Policy" not in static_file.headers  # a document's (test_security.py)
    cookie = answers["new rubber (redirect)"].headers["Set-Cookie"]
    assert cookie.startswith("__Host-session=") and "Secure" in cookie


def test_over_plain_http_only_hsts_is_left_out(app: Flask) -> None:
    answer = app.test_client().get("/")
    assert "Strict-Transport-Security" not in answer.headers
    for name in (
        "Cross-Origin-Opener-Policy",
        "Cross-Origin-Resource-Policy",
        "Permissions-Policy",
    ):
        assert name in answer.headers


def test_a_server_error_over_https_carries_them_too(tmp_path: Path) -> None:
    app = create_app(
        {"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'e.db'}"}
    )

    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("a bug")

    response = app.test_client().get("/boom", environ_overrides=HTTPS)
    assert response.status_code == 500
    assert_https_headers(response, "500")


@pytest.fixture
def owner_of_both(app: Flask) -> Table:
    """A rubber and a group whose edit links the owner's phone has opened."""
    table = Table(app)
    group_id, group_key = table.group()
    assert table.owner.get(f"/g/{group_id}/edit/{group_key}").status_code == 302
    with app.app_context():
        db.session.remove()
    return table


def test_every_page_that_shows_an_edit_key_is_no_store(app: Flask, owner_of_both: Table) -> None:
    table = owner_of_both
    group_id, group_key = table.group()
    keys = (table.key, group_key)
    holding: set[str] = set()
    gets = [rule for rule in app.url_map.iter_rules() if "GET" in (rule.methods or set())]
    for rule in gets:
        if rule.endpoint in ("rubbers.grant", "groups.grant"):
            continue  # a redirect, with no body to keep
        url = build(app, rule, table)
        for environ in ({}, HTTPS):
            response = table.owner.get(url, environ_overrides=environ)
            body = response.get_data()  # pictures and gzip too: the bytes as sent
            shown = [key for key in keys if key.encode() in body]
            if shown and not url.startswith("/api/"):
                holding.add(rule.endpoint)
            if shown:
                assert response.headers.get("Cache-Control") == "no-store", (url, rule.endpoint)
            response.close()
    assert {"rubbers.rubber", "groups.group"} <= holding, holding

    # The same pages on their other paths: with a note shown once (rendered for this answer),
    # and sent back with a refused hand.
    page = f"/r/{table.id}"
    recorded = table.owner.post(
        f"{page}/hands", data={"action": "points", "team": "0", "points": "75"}
    )
    assert recorded.status_code == 302
    noted = table.owner.get(page)
    assert (
        table.key in noted.get_data(as_text=True) and noted.headers["Cache-Control"] == "no-store"
    )
    refused = table.owner.post(f"{page}/hands", data={"action": "points", "points": "999"})
    assert refused.status_code == 422
    assert table.key in refused.get_data(as_text=True)
    assert refused.headers["Cache-Control"] == "no-store"


def test_a_followers_page_shows_no_key_and_stays_cacheable(
    app: Flask, owner_of_both: Table
) -> None:
    follower = app.test_client()
    for url in (f"/r/{owner_of_both.id}", f"/g/{owner_of_both.group()[0]}"):
        answer = follower.get(url)
        assert answer.status_code == 200
        assert owner_of_both.key not in answer.get_data(as_text=True)
        assert answer.headers.get("Cache-Control") != "no-store", url
    assert follower.get(f"/r/{owner_of_both.id}").headers["Cache-Control"] == "private, no-cache"


def test_a_bidding_games_page_with_its_edit_link_is_no_store(app: Flask) -> None:
    owner = app.test_client()
    names = {f"player{seat}": name for seat, name in enumerate(["Ana", "Rui", "Eva", "Zé"])}
    started = owner.post("/bidding/new", data=names)
    assert started.status_code == 302
    url = started.headers["Location"]
    game_id = url.rsplit("/", 1)[-1]
    key = held_key(app, owner, game_id, "bidding_keys")
    answer = owner.get(url)
    assert key in answer.get_data(as_text=True)
    assert answer.headers["Cache-Control"] == "no-store"
    refused = owner.post(f"{url}/hands", data={"points": "999"})
    assert refused.status_code == 422 and key in refused.get_data(as_text=True)
    assert refused.headers["Cache-Control"] == "no-store"
    follower = app.test_client().get(url)
    assert key not in follower.get_data(as_text=True)
    assert follower.headers["Cache-Control"] == "private, no-cache"


def test_every_api_json_answer_is_an_attachment(app: Flask) -> None:
    """A JSON answer opened in a tab is saved, never rendered.

    Its Content-Type alone is no guarantee to an old browser that sniffs."""
    client = app.test_client()
    created = client.post("/api/v1/rubbers", json={}, environ_overrides=HTTPS)
    rubber = created.get_json()
    answers = {
        "201": created,
        "200": client.get(f"/api/v1/rubbers/{rubber['id']}", environ_overrides=HTTPS),
        "422": client.post("/api/v1/rubbers", json={"teams": ["a"]}, environ_overrides=HTTPS),
        "404 of an address": client.get("/api/v1/nothing", environ_overrides=HTTPS),
        "415": client.post(
            "/api/v1/rubbers", data="{}", content_type="text/plain", environ_overrides=HTTPS
        ),
        "document": client.get("/api/v1/openapi.json", environ_overrides=HTTPS),
    }
    for where, answer in answers.items():
        assert answer.mimetype == "application/json", where
        disposition = answer.headers.get("Content-Disposition", "")
        assert disposition.startswith("attachment"), (where, disposition)
    csv = client.get(f"/api/v1/rubbers/{rubber['id']}/export.csv")
    assert csv.headers["Content-Disposition"] == f'attachment; filename="sueca-{rubber["id"]}.csv"'
