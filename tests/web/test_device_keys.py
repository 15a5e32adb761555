"""A phone's edit keys are kept in its rows on the server.

Its session cookie holds only its id, whatever it has done, and every edit link it was given is
shown again (web/device.py)."""

from __future__ import annotations

import re

import pytest
import sqlalchemy as sa
from cryptography.fernet import Fernet
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.web.device import DeviceKey, seal, unseal
from tests.support.apps import held_key

COOKIE_AT_MOST = 300
"""Bytes of the session cookie's value, after a hundred rubbers and a hundred groups (it was
about 3.4 KB with 30 rubbers' and 8 groups' keys, the most it kept)."""
EDIT_LINK = re.compile(r"/(?:r|g|b)/[\w-]+/edit/([\w-]+)")


def cookie_size(client: FlaskClient) -> int:
    cookie = client.get_cookie("session")
    assert cookie is not None
    return len(cookie.value)


def test_after_a_hundred_rubbers_and_groups_the_cookie_is_small_and_every_link_works(
    app: Flask, client: FlaskClient
) -> None:
    rubbers = [client.post("/rubbers").location for _ in range(100)]
    groups = [client.post("/groups/new", data={"name": f"Mesa {n}"}).location for n in range(100)]
    game = client.post("/bidding/new", data={f"player{n}": f"P{n}" for n in range(4)}).location
    size = cookie_size(client)
    print(f"\nsession cookie after 100 rubbers, 100 groups and a bidding game: {size} bytes")
    assert size <= COOKIE_AT_MOST
    for page in [*rubbers, *groups, game]:
        shown = page + "/share" if page in rubbers else page  # a rubber's links: its share page
        html = client.get(shown).get_data(as_text=True)
        found = EDIT_LINK.search(html)
        assert found, page
        other = app.test_client()  # the link gives another phone the right to edit
        assert other.get(found.group(0)).status_code == 302, page
        assert EDIT_LINK.search(other.get(shown).get_data(as_text=True)), page
    with app.app_context():
        books = dict(
            db.session.execute(
                sa.select(DeviceKey.book, sa.func.count()).group_by(DeviceKey.book)
            ).all()
        )
    # the first phone's keys, and the other phones' one each
    assert books == {"keys": 200, "group_keys": 200, "bidding_keys": 2}


def test_an_older_sessions_keys_move_from_the_cookie_to_the_rows(
    app: Flask, client: FlaskClient
) -> None:
    page = client.post("/rubbers").location
    rubber_id = page.rsplit("/", 1)[-1]
    with app.app_context():
        row = db.session.get(DeviceKey, (device_of(client), "keys", rubber_id))
        assert row is not None
        key = held_key(app, client, rubber_id)
        db.session.delete(row)
        db.session.commit()
    with client.session_transaction() as session:  # as an older version kept it
        session["keys"] = {rubber_id: key}
    assert key in client.get(page).get_data(as_text=True)
    client.post("/groups/new", data={"name": "Tasca"})  # the next key remembered moves it
    with client.session_transaction() as session:
        assert "keys" not in session
    with app.app_context():
        assert db.session.get(DeviceKey, (device_of(client), "keys", rubber_id)) is not None
    assert key in client.get(page).get_data(as_text=True)


def device_of(client: FlaskClient) -> str:
    with client.session_transaction() as session:
        return str(session["device"])


def test_a_sealed_key_is_decrypted_once_and_only_with_its_secret(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rubber page unseals the phone's key on every request: once per key is enough."""
    secret, other = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    sealed = seal(secret, "k" * 43)
    decrypted: list[str] = []
    decrypt = Fernet.decrypt

    def counted(self: Fernet, token: bytes | str, ttl: int | None = None) -> bytes:
        decrypted.append(str(token))
        return decrypt(self, token, ttl)

    monkeypatch.setattr(Fernet, "decrypt", counted)
    assert [unseal(secret, sealed) for _ in range(5)] == ["k" * 43] * 5
    assert len(decrypted) == 1
    assert unseal(other, sealed) is None  # the same row under another phone's secret
    assert unseal(secret, sealed[:-4] + "AAAA") is None  # a row changed
    assert len(decrypted) == 3
