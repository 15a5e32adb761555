"""The phone's anonymous identity in its session cookie, and its edit keys in its rows.

The cookie holds the device's id and a secret of its own, and never grows with what the phone
has done (docs/decisions/security.md, "The session cookie's size").

The rows hold each key sealed with the cookie's secret: the database alone gives no edit key
away (it keeps only hashes of them elsewhere), nor does the cookie alone."""

from __future__ import annotations

import secrets
import threading
from datetime import datetime

from cachetools import LRUCache
from cryptography.fernet import Fernet, InvalidToken
from flask import session
from sqlalchemy import String
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model, db
from scorekeeper.web.columns import TOKEN_LENGTH, utcnow

SEALED_LENGTH = 200
"""A sealed key of up to 64 bytes: a Fernet token of 140 characters for a key of 43."""
BOOKS = ("keys", "group_keys", "bidding_keys")
"""The books of keys: a rubber's, a group's, a bidding game's. Older sessions kept them in the
cookie under these names; the first key remembered moves them here."""


class DeviceKey(Model):
    """An edit key this device was given: it started the book or opened its edit link.

    The book's page shows the edit link again from it."""

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


def seal(secret: str, key: str) -> str:
    """The key as the device's row keeps it.

    Encrypted and authenticated with the device's secret (Fernet: AES-128-CBC and HMAC-SHA256, from
    the cryptography library).

    >>> secret = Fernet.generate_key().decode()
    >>> sealed = seal(secret, "k" * 43)
    >>> "k" * 43 not in sealed and unseal(secret, sealed) == "k" * 43
    True
    """
    return Fernet(secret.encode()).encrypt(key.encode()).decode()


UNSEALED_KEPT = 1024
"""Keys a worker remembers having unsealed, the least recently used forgotten first."""
_unsealed: LRUCache[tuple[str, str], str | None] = LRUCache(maxsize=UNSEALED_KEPT)
_unsealed_lock = threading.Lock()  # the development server answers in threads


def unseal(secret: str, sealed: str) -> str | None:
    """The key a row keeps, or None when it was sealed with another secret.

    A phone shows the same sealed key with the same secret on every request of its rubber's page:
    it is decrypted once, then remembered (by the pair, so neither alone finds it)."""
    with _unsealed_lock:
        if (secret, sealed) in _unsealed:
            return _unsealed[(secret, sealed)]
    try:
        key: str | None = Fernet(secret.encode()).decrypt(sealed.encode()).decode()
    except (InvalidToken, ValueError):
        key = None
    with _unsealed_lock:
        _unsealed[(secret, sealed)] = key
    return key


def _secret() -> str:
    """The device's secret the rows' keys are sealed with, made with its first key."""
    if "seal" not in session:
        session["seal"] = Fernet.generate_key().decode()
    return str(session["seal"])


def remember_key(owner_id: str, key: str, book: str = "keys") -> None:
    """Keep an edit key in the device's rows.

    A rubber's in ``keys``, a group's in ``group_keys``, a bidding game's in ``bidding_keys``. The
    keys an older session carried in its cookie move here with it, and leave the cookie."""
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
        row = db.session.get(DeviceKey, (device, kept_book, kept_id))
        if row is None:
            sealed = seal(secret, kept_key)
            db.session.add(
                DeviceKey(device=device, book=kept_book, owner_id=kept_id, sealed=sealed)
            )
        elif unseal(secret, row.sealed) != kept_key:  # a token is new each time: kept if equal
            row.sealed = seal(secret, kept_key)
    try:
        db.session.commit()
    except IntegrityError:  # the same link opened twice at once: kept by the other
        db.session.rollback()


def held_key(owner_id: str, book: str = "keys") -> str | None:
    """Return the edit key this device was given for the book, if it was.

    An older session's cookie may still carry it instead."""
    device = current_device()
    if not device:
        return None
    kept = db.session.get(DeviceKey, (device, book, owner_id))
    return opened(owner_id, book, kept.sealed if kept is not None else None)


def opened(owner_id: str, book: str, sealed: str | None) -> str | None:
    """The key a row of this device keeps sealed, else the one an older cookie carries."""
    secret = session.get("seal")
    if sealed is not None and isinstance(secret, str):
        key = unseal(secret, sealed)
        if key is not None:
            return key
    return carried_key(owner_id, book)


def carried_key(owner_id: str, book: str = "keys") -> str | None:
    """The key an older session's cookie carries for the book, until it moves to the rows."""
    carried = session.get(book)
    found = carried.get(owner_id) if isinstance(carried, dict) else None
    return found if isinstance(found, str) else None
