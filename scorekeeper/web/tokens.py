"""Ids, edit keys and write keys every feature stores the same way.

It also tells a write that lost a race to another one from one that failed.

The rubbers keep copies of these in ``rubbers/store.py``; the features added since use these.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
import secrets
from typing import Any

from sqlalchemy.exc import OperationalError

RETRIES = 8
"""Tries of a write that keeps losing races before it is answered as busy."""
RACE_SQLSTATES = frozenset({"40001", "40P01"})
"""PostgreSQL's serialization failure and deadlock: the same write may go through next time."""
TOKEN = re.compile(r"[A-Za-z0-9_-]{1,43}")
"""What :func:`new_token` makes, within the length of an id column."""


def new_token() -> str:
    """An unguessable id or key: 192 random bits."""
    return secrets.token_urlsafe(24)


def is_token(text: str) -> bool:
    """Whether ``text`` could be an id that :func:`new_token` made (so it is safe to look up)."""
    return TOKEN.fullmatch(text) is not None


def hash_key(key: str) -> str:
    """How an edit key is stored: its SHA-256, never the key."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(stored_hash: str, key: str | None) -> bool:
    """Whether ``key`` is the one stored as ``stored_hash``, compared in constant time."""
    if not key:
        return False
    return hmac.compare_digest(hash_key(key), stored_hash)


def derived_key(secret: str, *parts: str) -> str:
    """Return an edit key made from ``secret`` and ``parts``: the same ones give it again.

    For the rubbers of an import sent with an idempotency key, whose keys the group's key gives
    again (docs/decisions/limits.md, "Imports"); as long and as unguessable as :func:`new_token`'s.

    >>> derived_key("s", "a", "b") == derived_key("s", "a", "b") != derived_key("s", "a", "c")
    True
    """
    message = "\0".join(("sueca-derived-key", *parts)).encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()[:24]
    return base64.urlsafe_b64encode(digest).decode()


def body_hash(body: Any) -> str:
    """What an idempotency key remembers of the write it came with."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def lost_a_race(error: OperationalError) -> bool:
    """Whether another write held the lock (SQLite) or won the race (PostgreSQL)."""
    if getattr(error.orig, "sqlstate", None) in RACE_SQLSTATES:
        return True
    text = str(error.orig).lower()
    return any(words in text for words in ("locked", "could not serialize", "deadlock detected"))
