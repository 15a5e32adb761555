"""What SQLite needs that PostgreSQL does not.

The pragmas of every connection, and the queue its writers of a hand wait in."""

from __future__ import annotations

import contextlib
import logging
import os
import sqlite3
import threading
from collections.abc import Iterator
from typing import Any

import filelock
import sqlalchemy as sa
from flask import Flask
from sqlalchemy import Engine, event

logger = logging.getLogger(__name__)

SQLITE_BUSY_TIMEOUT_MS = 10_000
WRITER_POLL = 0.0005
"""Seconds between two tries of a writer waiting for another process's turn to end: shorter
than the turn itself (the statements and the commit of one hand)."""


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets the score be read while a hand is written; the busy timeout waits for a lock.

    synchronous=FULL: a hand the server has acknowledged is on the disk, through a power cut
    too, at the cost of a wait for the disk on every write (docs/decisions/performance.md,
    "Writing a hand").
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


class _Turn:
    """A process's place in the queue of one database's writers.

    Its threads take turns at a lock of the process, then the process at the lock file (filelock's
    flock, on a descriptor opened in this process, so a forked worker never shares its parent's)."""

    def __init__(self, database: str) -> None:
        self.threads = threading.Lock()
        self.path = f"{database}-writer.lock"
        self.descriptor: int | None = None
        try:
            self.descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:  # a folder the app may not write in: SQLite's lock alone
            logger.warning("no writer lock file beside %s: %s", database, error)

    @contextlib.contextmanager
    def taken(self) -> Iterator[None]:
        with self.threads:
            if self.descriptor is None:
                yield
                return
            filelock.lock_descriptor(self.descriptor, poll_interval=WRITER_POLL)
            try:
                yield
            finally:
                filelock.unlock_descriptor(self.descriptor)


_turns: dict[tuple[int, str], _Turn] = {}
_making = threading.Lock()


@contextlib.contextmanager
def one_writer(connection: sa.Connection) -> Iterator[None]:
    """On a SQLite file, writers of a hand take turns; elsewhere, nothing.

    SQLite lets one writer in at a time, and a second one polls, sleeping a millisecond then
    more, however soon the first is done; two gunicorn workers recording hands spent most of
    their time so. Waiting in this queue, a writer is let in within WRITER_POLL of the other's
    end (at once, for a thread of the same process). The database's own lock still decides:
    this only makes the queue (docs/decisions/performance.md, "Writing a hand").
    """
    database = connection.engine.url.database
    if connection.dialect.name != "sqlite" or not database or database == ":memory:":
        yield
        return
    place = (os.getpid(), database)
    with _making:
        turn = _turns.get(place)
        if turn is None:
            turn = _turns[place] = _Turn(database)
    with turn.taken():
        yield
