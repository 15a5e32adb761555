"""Behind a reverse proxy: PROXY_COUNT=N believes N proxies' forwarded headers, and no others.

With it, every link the app builds names the address the phone used (https, host, prefix);
without it, a client's X-Forwarded-* headers never reach a link, a cookie or a header.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import create_app
from scorekeeper.config import proxy_count
from tests.support.apps import fresh_app

FORWARDED = {
    "X-Forwarded-For": "203.0.113.7",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "sueca.example",
    "X-Forwarded-Prefix": "/tasca",
}
EVIL = {
    "X-Forwarded-For": "198.51.100.1",
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "evil.example",
    "X-Forwarded-Prefix": "/evil",
}


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[Flask]:
    """The app as `PROXY_COUNT=1 make serve` runs it behind one proxy."""
    config = {"TESTING": True, "SECRET_KEY": "proxy", "WTF_CSRF_ENABLED": False, "PROXY_COUNT": 1}
    with fresh_app(tmp_path / "proxied.sqlite3", config) as app:
        yield app


def links(client: FlaskClient, headers: dict[str, str]) -> dict[str, Any]:
    """Every link a phone is given: the API's, the page's share and edit links, a redirect."""
    created = client.post("/api/v1/rubbers", json={}, headers=headers)
    assert created.status_code == 201
    rubber = created.get_json()
    group = client.post("/api/v1/groups", json={"name": "Tasca"}, headers=headers).get_json()
    edit_path = "/r/" + rubber["edit_url"].split("/r/", 1)[1]
    granted = client.get(edit_path, headers=headers)
    assert granted.status_code == 302
    page = client.get(f"/r/{rubber['id']}", headers=headers).get_data(as_text=True)
    return {
        "rubber": rubber,
        "group": group,
        "location": granted.headers["Location"],
        "created_location": created.headers["Location"],
        "page": page,
        "page_links": re.findall(r'value="(https?://[^"]+)"', page),
        "cookies": granted.headers.getlist("Set-Cookie"),
        "hsts": granted.headers.get("Strict-Transport-Security"),
    }


def test_links_name_the_address_the_phone_used_behind_the_proxy(proxied: Flask) -> None:
    found = links(proxied.test_client(), FORWARDED)
    base = "https://sueca.example/tasca"
    rubber, group = found["rubber"], found["group"]
    assert rubber["url"] == f"{base}/r/{rubber['id']}"
    assert rubber["edit_url"] == f"{base}/r/{rubber['id']}/edit/{rubber['edit_key']}"
    assert group["url"] == f"{base}/g/{group['id']}"
    assert group["edit_url"] == f"{base}/g/{group['id']}/edit/{group['edit_key']}"
    assert found["created_location"] == f"{base}/api/v1/rubbers/{rubber['id']}"
    assert found["location"] in (f"/tasca/r/{rubber['id']}", f"{base}/r/{rubber['id']}")
    assert sorted(found["page_links"]) == sorted([rubber["url"], rubber["edit_url"]])
    assert 'href="/tasca/static/' in found["page"] and 'href="/static/' not in found["page"]
    # Over https: the session cookie with the __Host- prefix, Secure, and HSTS.
    (cookie,) = [c for c in found["cookies"] if "session=" in c]
    assert cookie.startswith("__Host-session=") and "Secure" in cookie and "Path=/;" in cookie
    assert "Domain" not in cookie
    assert found["hsts"] == "max-age=31536000"


def test_only_the_proxys_own_value_is_believed(proxied: Flask) -> None:
    """A client's own header comes first; the proxy appends (For) or replaces (the others).

    With one proxy, its value is the last one."""
    client = proxied.test_client()
    headers = {name: f"{EVIL[name]}, {value}" for name, value in FORWARDED.items()}
    rubber = client.post("/api/v1/rubbers", json={}, headers=headers).get_json()
    assert rubber["url"].startswith("https://sueca.example/tasca/r/")


def test_without_proxy_count_forwarded_headers_are_ignored(client: FlaskClient) -> None:
    assert client.application.config["PROXY_COUNT"] == 0
    found = links(client, EVIL)
    everything = repr(found)
    assert "evil" not in everything
    assert found["rubber"]["url"].startswith("http://localhost/r/")
    assert all(link.startswith("http://localhost/") for link in found["page_links"])
    (cookie,) = [c for c in found["cookies"] if "session=" in c]
    assert cookie.startswith("session=") and "Secure" not in cookie
    assert found["hsts"] is None


def test_proxy_count_comes_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    database = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'p.sqlite3'}", "SECRET_KEY": "x"}
    monkeypatch.setenv("PROXY_COUNT", "2")
    assert create_app(database).config["PROXY_COUNT"] == 2
    monkeypatch.setenv("PROXY_COUNT", "")
    assert create_app(database).config["PROXY_COUNT"] == 0
    monkeypatch.setenv("PROXY_COUNT", "yes")
    with pytest.raises(ValueError, match="PROXY_COUNT must be a whole number"):
        create_app(database)


@pytest.mark.parametrize("value", ["-1", "1.5", "¹", "11", "one"])
def test_a_proxy_count_that_is_not_a_small_whole_number_is_refused(value: str) -> None:
    with pytest.raises(ValueError):
        proxy_count(value)


def test_two_proxies_each_add_their_own(tmp_path: Path) -> None:
    config = {"TESTING": True, "SECRET_KEY": "proxy", "PROXY_COUNT": 2}
    with fresh_app(tmp_path / "two.sqlite3", config) as app:
        headers = {
            "X-Forwarded-For": "198.51.100.1, 203.0.113.7, 10.0.0.2",
            "X-Forwarded-Proto": "http, https, http",
            "X-Forwarded-Host": "evil.example, sueca.example, inner.local",
        }
        rubber = app.test_client().post("/api/v1/rubbers", json={}, headers=headers).get_json()
        assert rubber["url"].startswith("https://sueca.example/r/")
