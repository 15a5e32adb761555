"""Dates and times in the reader's own time zone (issue 25, item 23).

The server writes a time in the zone of the phone's ``tz`` cookie (which the pages' script sets to
the phone's own zone), else in its language's country: Lisbon for European Portuguese and
English, São Paulo for Brazilian Portuguese. A stored time is UTC."""

from __future__ import annotations

from datetime import datetime

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web.i18n import TIME_ZONE_COOKIE, known_zone

UTC_LATE = datetime(2026, 12, 2, 1, 55)
"""01:55 UTC on 2 December: 22:55 on 1 December in São Paulo, 01:55 in Lisbon (winter)."""


def _a_rubber_at(app: Flask, client: FlaskClient) -> None:
    created = client.post("/api/v1/rubbers", json={})
    assert created.status_code == 201
    rubber_json = created.get_json()
    # Opened on this phone by its edit link: the phone's history lists it.
    assert client.get("/r/" + rubber_json["edit_url"].split("/r/", 1)[1]).status_code == 302
    with app.app_context():
        rubber = db.session.get(Rubber, rubber_json["id"])
        assert rubber is not None
        rubber.created_at = UTC_LATE
        db.session.commit()


@pytest.mark.parametrize(
    ("cookie", "language", "shown"),
    [
        ("America/Sao_Paulo", "pt-PT", "01/12/2026 22:55"),
        (None, "pt-BR", "01/12/2026 22:55"),
        (None, "pt-PT", "02/12/2026 01:55"),
        ("Asia/Tokyo", "en", "2 Dec 2026, 10:55"),
        ("Not/A_Zone", "pt-BR", "01/12/2026 22:55"),
        ("../../etc/passwd", "pt-PT", "02/12/2026 01:55"),
    ],
)
def test_the_history_shows_the_readers_time(
    app: Flask, client: FlaskClient, cookie: str | None, language: str, shown: str
) -> None:
    _a_rubber_at(app, client)
    if cookie:
        client.set_cookie(TIME_ZONE_COOKIE, cookie)
    page = client.get("/history", headers={"Accept-Language": language})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert shown in text, text[text.find("<time") : text.find("<time") + 200]
    assert 'datetime="2026-12-02T01:55:00Z"' in text


def test_only_a_zone_the_server_knows_is_taken() -> None:
    assert known_zone("America/Sao_Paulo") and known_zone("Europe/Lisbon")
    assert not known_zone("") and not known_zone("Nowhere/Else") and not known_zone("x" * 200)
