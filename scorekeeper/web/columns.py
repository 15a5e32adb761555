"""What the tables of every feature share.

The length of names and keys, the clock, and the columns of a write key and of a grant."""

from __future__ import annotations

import unicodedata
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.engine.names import HIDDEN_CATEGORIES, MAX_NAME_LENGTH

NAME_LENGTH = MAX_NAME_LENGTH
"""A name's column: as long as the engine's longest name (engine.names)."""
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
    """A name stored before that rule, made to follow it (and the engine's, engine.names).

    A tab or a line break is a space, any other character a name may not hold (a control or
    invisible character, a direction mark, a lone surrogate) is left out, and so are the spaces
    around."""
    kept = (
        " " if char.isspace() else "" if unicodedata.category(char) in HIDDEN_CATEGORIES else char
        for char in text
    )
    return "".join(kept).strip()


def utcnow() -> datetime:
    """Now, in UTC, without a time zone: how every table stores a time."""
    return datetime.now(UTC).replace(tzinfo=None)


class WriteKeyColumns:
    """An idempotency key's columns (web.writes).

    The same write sent twice is answered with its first answer. The table adds the id of what
    was written, first in the primary key."""

    key: Mapped[str] = mapped_column(String(WRITE_KEY_LENGTH), primary_key=True)
    body_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    response: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GrantColumns:
    """A device's grant's columns (web.grants).

    The device first in the primary key, then the id of what it may change, which the table
    adds."""

    device: Mapped[str] = mapped_column(String(64), primary_key=True, sort_order=-1)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)
