"""What the tables of every feature share: the length of names and keys, the clock."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime

NAME_LENGTH = 40
WRITE_KEY_LENGTH = 100
"""The longest idempotency key a write may carry."""
TOKEN_LENGTH = 43
"""An id or a key: 32 random bytes in URL-safe base64."""
VERSION_MAX = 2**31 - 1
"""The largest version a rubber or game can reach: what its INTEGER column holds everywhere."""


def has_control(text: str) -> bool:
    """Whether ``text`` holds a control character or a lone surrogate.

    A stored name may not (PostgreSQL refuses NUL), at every door, the forms, the API and the import
    alike."""
    return any(unicodedata.category(char) in ("Cc", "Cs") for char in text)


def without_control(text: str) -> str:
    """A name stored before that rule, made to follow it.

    A tab or a line break is a space, any other control character or lone surrogate is left out, and
    so are the spaces around."""
    kept = (
        " " if char.isspace() else "" if unicodedata.category(char) in ("Cc", "Cs") else char
        for char in text
    )
    return "".join(kept).strip()


def utcnow() -> datetime:
    """Now, in UTC, without a time zone: how every table stores a time."""
    return datetime.now(UTC).replace(tzinfo=None)
