"""What SQLite needs that PostgreSQL does not: the pragmas of every connection."""

from __future__ import annotations

import sqlite3
from typing import Any

from flask import Flask
from sqlalchemy import Engine, event

SQLITE_BUSY_TIMEOUT_MS = 10_000


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets the score be read while a hand is written; the busy timeout waits for a lock.

    synchronous=FULL: a hand the server has acknowledged is on the disk, through a power cut
    too, at the cost of a wait for the disk on every write (docs/decisions.md).
    """
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()


def init_app(app: Flask) -> None:
    """Every SQLite connection of the process gets the pragmas as it opens."""
    if not event.contains(Engine, "connect", _sqlite_pragmas):
        event.listen(Engine, "connect", _sqlite_pragmas)
