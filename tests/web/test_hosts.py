"""The Host a request names: one that cannot be an address is 400, one not allowed is 400.

``TRUSTED_HOSTS`` (a comma-separated list in the environment, Flask's setting) names the hosts the
links may name; unset, any host is taken, as `make run` on a laptop needs."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask

from scorekeeper.config import trusted_hosts
from tests.support.apps import fresh_app

PAGES = ("/", "/history", "/rubbers/new", "/glossary", "/api/v1/rubbers/nope")
LONG_LABEL = "a" * 64 + ".example"


def config(**more: object) -> dict[str, object]:
    return {"TESTING": True, "SECRET_KEY": "hosts", "WTF_CSRF_ENABLED": False, **more}


@pytest.fixture
def plain(tmp_path: Path) -> Iterator[Flask]:
    with fresh_app(tmp_path / "plain.sqlite3", config()) as app:
        yield app


@pytest.fixture
def trusting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Flask]:
    """The app as `TRUSTED_HOSTS=sueca.example,www.sueca.example PROXY_COUNT=1 make serve`."""
    monkeypatch.setenv("TRUSTED_HOSTS", " sueca.example, www.sueca.example ")
    with fresh_app(tmp_path / "trusting.sqlite3", config(PROXY_COUNT=1)) as app:
        yield app


@pytest.mark.parametrize("host", [LONG_LABEL, "a" * 300, "sueca..example"])
def test_a_host_that_is_no_address_is_400_on_every_page(
    plain: Flask, host: str, caplog: pytest.LogCaptureFixture
) -> None:
    client = plain.test_client()
    with caplog.at_level(logging.ERROR):
        for path in PAGES:
            answer = client.get(path, headers={"Host": host, "Accept-Language": "en"})
            assert answer.status_code == 400, (host, path, answer.status_code)
            text = answer.get_data(as_text=True)
            assert "Host" in text, (path, text[:200])
            if path.startswith("/api/"):
                assert answer.get_json()["code"] == "bad_host"
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_the_sentence_is_in_the_readers_language(plain: Flask) -> None:
    answer = plain.test_client().get("/", headers={"Host": LONG_LABEL})
    assert answer.status_code == 400
    assert "Pedido" in answer.get_data(as_text=True)


def test_a_host_not_trusted_is_400_and_links_name_a_trusted_one(trusting: Flask) -> None:
    client = trusting.test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    forwarded = {"Host": "127.0.0.1:8000", "X-Forwarded-Host": "evil.example"}
    refused = client.post("/api/v1/rubbers", json={}, headers=forwarded)
    assert refused.status_code == 400 and refused.get_json()["code"] == "bad_host"
    good = {
        "Host": "127.0.0.1:8000",
        "X-Forwarded-Host": "sueca.example",
        "X-Forwarded-Proto": "https",
    }
    made = client.post("/api/v1/rubbers", json={}, headers=good)
    assert made.status_code == 201
    assert made.get_json()["edit_url"].startswith("https://sueca.example/r/")
    assert client.get("/", headers={"Host": "www.sueca.example"}).status_code == 200


def test_unset_any_host_is_served(plain: Flask) -> None:
    assert plain.config["TRUSTED_HOSTS"] is None
    assert plain.test_client().get("/", headers={"Host": "192.168.1.20:5000"}).status_code == 200


def test_the_setting_is_read_as_a_list() -> None:
    assert trusted_hosts("") is None
    assert trusted_hosts(" a.example ,b.example,, ") == ["a.example", "b.example"]


def test_the_sentence_is_in_each_language(plain: Flask) -> None:
    client = plain.test_client()
    for language, words in (("pt-PT", "sítio"), ("pt-BR", "site"), ("en", "site")):
        answer = client.get("/", headers={"Host": LONG_LABEL, "Accept-Language": language})
        assert words in answer.get_data(as_text=True), language
