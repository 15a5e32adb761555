"""The phone's anonymous identity in its session cookie, and the edit keys it was given, in its
rows on the server: the cookie holds the device's id and a secret of its own, and never grows
with what the phone has done (docs/decisions.md, "The session cookie's size").

The rows hold each key sealed with the cookie's secret: the database alone gives no edit key
away (it keeps only hashes of them elsewhere), nor does the cookie alone."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from datetime import datetime

from flask import session
from sqlalchemy import String
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model, db
from scorekeeper.web.columns import TOKEN_LENGTH, utcnow

SEALED_LENGTH = 88
"""A sealed key of up to 64 bytes in URL-safe base64 (a key is 43)."""
BOOKS = ("keys", "group_keys", "bidding_keys")
"""The books of keys: a rubber's, a group's, a bidding game's. Older sessions kept them in the
cookie under these names; the first key remembered moves them here."""


class DeviceKey(Model):
    """An edit key this device was given (it started the book or opened its edit link), so that
    the book's page shows the edit link again."""

    __tablename__ = "device_keys"

    device: Mapped[str] = mapped_column(String(64), primary_key=True)
    book: Mapped[str] = mapped_column(String(16), primary_key=True)
    owner_id: Mapped[str] = mapped_column(String(TOKEN_LENGTH), primary_key=True)
    sealed: Mapped[str] = mapped_column(String(SEALED_LENGTH))
    """The key, sealed with the device's secret (see :func:`seal`)."""
    added_at: Mapped[datetime] = mapped_column(default=utcnow)


def current_device() -> str | None:
    return session.get("device")


def ensure_device() -> str:
    """The device's anonymous id, made on its first write: no accounts."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(24)
    session.permanent = True
    return str(session["device"])


def _pad(secret: str, book: str, owner_id: str, length: int) -> bytes:
    """Bytes only the holder of the secret can make, one run for each book and id (HMAC-SHA256
    in counter mode)."""
    blocks = (
        hmac.new(secret.encode(), f"{book}\0{owner_id}\0{n}".encode(), hashlib.sha256).digest()
        for n in range(-(-length // 32))
    )
    return b"".join(blocks)[:length]


def seal(secret: str, book: str, owner_id: str, key: str) -> str:
    """The key as the device's row keeps it.

    >>> sealed = seal("s", "keys", "r1", "k" * 43)
    >>> sealed != "k" * 43 and unseal("s", "keys", "r1", sealed) == "k" * 43
    True
    """
    raw = key.encode()
    hidden = bytes(a ^ b for a, b in zip(raw, _pad(secret, book, owner_id, len(raw)), strict=True))
    return base64.urlsafe_b64encode(hidden).decode()


def unseal(secret: str, book: str, owner_id: str, sealed: str) -> str | None:
    """The key a row keeps, or None when it was sealed with another secret."""
    try:
        hidden = base64.urlsafe_b64decode(sealed.encode())
    except ValueError:
        return None
    raw = bytes(
        a ^ b for a, b in zip(hidden, _pad(secret, book, owner_id, len(hidden)), strict=True)
    )
    try:
        return raw.decode()
    except UnicodeDecodeError:
        return None


def _secret() -> str:
    """The device's secret the rows' keys are sealed with, made with its first key."""
    if "seal" not in session:
        session["seal"] = secrets.token_urlsafe(16)
    return str(session["seal"])


def remember_key(owner_id: str, key: str, book: str = "keys") -> None:
    """Keep an edit key in the device's rows: a rubber's in ``keys``, a group's in
    ``group_keys``, a bidding game's in ``bidding_keys``. The keys an older session carried
    in its cookie move here with it, and leave the cookie."""
    assert book in BOOKS, book
    device = ensure_device()
    given = {(book, owner_id): key}
    for old in BOOKS:
        carried = session.pop(old, None)
        if isinstance(carried, dict):
            for carried_id, carried_key in carried.items():
                if isinstance(carried_id, str) and isinstance(carried_key, str):
                    given.setdefault((old, carried_id), carried_key)
    secret = _secret()
    for (kept_book, kept_id), kept_key in given.items():
        sealed = seal(secret, kept_book, kept_id, kept_key)
        db.session.merge(DeviceKey(device=device, book=kept_book, owner_id=kept_id, sealed=sealed))
    try:
        db.session.commit()
    except IntegrityError:  # the same link opened twice at once: kept by the other
        db.session.rollback()


def held_key(owner_id: str, book: str = "keys") -> str | None:
    """The edit key this device was given for the book, if it was (or an older session's
    cookie still carries it)."""
    device = current_device()
    if not device:
        return None
    kept = db.session.get(DeviceKey, (device, book, owner_id))
    return opened(owner_id, book, kept.sealed if kept is not None else None)


def opened(owner_id: str, book: str, sealed: str | None) -> str | None:
    """The key a row of this device keeps sealed, else the one an older cookie carries."""
    secret = session.get("seal")
    if sealed is not None and isinstance(secret, str):
        key = unseal(secret, book, owner_id, sealed)
        if key is not None:
            return key
    return carried_key(owner_id, book)


def carried_key(owner_id: str, book: str = "keys") -> str | None:
    """The key an older session's cookie carries for the book, until it moves to the rows."""
    carried = session.get(book)
    found = carried.get(owner_id) if isinstance(carried, dict) else None
    return found if isinstance(found, str) else None
