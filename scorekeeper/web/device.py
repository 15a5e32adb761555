"""The phone's anonymous identity, and the edit keys it was given, in its session cookie."""

from __future__ import annotations

import secrets

from flask import session

SHARED_KEYS_KEPT = 30
"""Edit keys a device keeps in its session of the rubbers it was given, to show the edit links
again."""
OTHER_KEYS_KEPT = 8
"""And of each other book (groups, bidding games): with 30 rubbers' keys the cookie stays under
the 4 KB a browser keeps (docs/decisions.md, "The session cookie's size")."""


def current_device() -> str | None:
    return session.get("device")


def ensure_device() -> str:
    """The device's anonymous id, made on its first write: no accounts."""
    if "device" not in session:
        session["device"] = secrets.token_urlsafe(24)
    session.permanent = True
    return str(session["device"])


def remember_key(owner_id: str, key: str, book: str = "keys") -> None:
    """Keep an edit key in the device's session, newest last, so that its page can show the
    edit link again: a rubber's in ``keys``, a group's in ``group_keys``."""
    keys = dict(session.get(book, {}))
    keys.pop(owner_id, None)
    keys[owner_id] = key
    kept = SHARED_KEYS_KEPT if book == "keys" else OTHER_KEYS_KEPT
    session[book] = dict(list(keys.items())[-kept:])
