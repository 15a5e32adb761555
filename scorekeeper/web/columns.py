"""What the tables of every feature share: the length of names and keys, the clock."""

from __future__ import annotations

from datetime import UTC, datetime

NAME_LENGTH = 40
WRITE_KEY_LENGTH = 100
"""The longest idempotency key a write may carry."""
TOKEN_LENGTH = 43
"""An id or a key: 32 random bytes in URL-safe base64."""


def utcnow() -> datetime:
    """Now, in UTC, without a time zone: how every table stores a time."""
    return datetime.now(UTC).replace(tzinfo=None)
