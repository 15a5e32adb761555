"""The queue of analyses: huey on an SQLite file in instance/, or on Redis; bounds; the task.

``ANALYSIS_QUEUE_URL`` picks huey's storage: unset, the file ``instance/analysis-queue.sqlite3``;
``sqlite:////path`` another file; ``redis://...`` a Redis server that several app servers share.
Analyses waiting (queued or running) are at most ``ANALYSIS_QUEUE_LIMIT`` in all and
``ANALYSIS_CLIENT_LIMIT`` per client, and clients take turns (:func:`_turn`); each runs at most
``ANALYSIS_BUDGET`` seconds. The web side only stores and enqueues: the consumer
(``scorekeeper.worker``, ``make worker``) computes, the next in turn first.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

from flask import Flask, current_app
from huey import Huey, MemoryHuey, RedisHuey, SqliteHuey
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import IntegrityError

from scorekeeper.background import work
from scorekeeper.background.models import Analysis, Status
from scorekeeper.engine.analysis import OutOfTime
from scorekeeper.extensions import db
from scorekeeper.web import wording
from scorekeeper.web.columns import utcnow
from scorekeeper.web.sqlite import one_writer

log = logging.getLogger(__name__)

DEFAULTS: dict[str, Any] = {
    "ANALYSIS_QUEUE_URL": "",
    "ANALYSIS_QUEUE_LIMIT": 20,
    "ANALYSIS_CLIENT_LIMIT": 3,
    "ANALYSIS_BUDGET": 120.0,
}
"""The settings, each also read from the environment."""
QUEUE_FILE = "analysis-queue.sqlite3"
STALE = 60.0
"""Seconds past its budget after which a running analysis whose consumer died is queued again."""
EXTENSION = "analysis_queue"
_BUILDING = threading.Lock()
TASK = "analysis_task"
SUBMIT_LOCK = 0x53756563615F51
"""The PostgreSQL advisory lock submissions take turns at ("Sueca_Q")."""
HEARTBEAT = "consumer-heartbeat"
"""The key, in the queue's own storage, of the last time a consumer said it was running."""
HEARTBEAT_EVERY = 5.0
HEARTBEAT_FRESH = 20.0
"""Seconds after its last heartbeat that a consumer still counts as running."""
_BEATING = threading.Event()


class Unqueued(Exception):
    """An analysis not queued, nothing of it stored: its HTTP status, code and sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        self.status = status
        self.code = code
        self.message = message
        super().__init__(code)


class QueueFull(Unqueued):
    """No room in the queue: ``mine`` when the client's own share is full (429), else 503."""

    def __init__(self, mine: bool, limit: int) -> None:
        self.mine = mine
        self.limit = limit
        code = "too_many_analyses" if mine else "queue_full"
        super().__init__(429 if mine else 503, code, wording.analysis_queue_full(mine, limit))


class QueueDown(Unqueued):
    """The queue's storage could not take the analysis (Redis gone, its file unwritable): 503."""

    def __init__(self) -> None:
        super().__init__(503, "queue_unavailable", wording.analysis_queue_down())


def init_app(app: Flask) -> None:
    """Read the settings (the environment wins); the queue is built on its first use."""
    for name, default in DEFAULTS.items():
        app.config.setdefault(name, default)
        given = os.environ.get(name, "").strip()
        if given:
            app.config[name] = type(default)(given)


def build(app: Flask) -> Huey:
    """The huey of ``ANALYSIS_QUEUE_URL``, with the analysis task registered on it.

    ``memory://`` is huey's immediate mode, which runs the task at once: for tests only.
    """
    url = str(app.config["ANALYSIS_QUEUE_URL"])
    queue: Huey
    if url.startswith(("redis://", "rediss://", "unix://")):
        queue = RedisHuey("scorekeeper-analysis", url=url, results=False)
    elif url == "memory://":
        queue = MemoryHuey("scorekeeper-analysis", immediate=True, results=False)
    else:
        filename = url.removeprefix("sqlite:///") or os.path.join(app.instance_path, QUEUE_FILE)
        queue = SqliteHuey("scorekeeper-analysis", filename=filename, results=False)

    def analyse(analysis_id: str) -> None:
        with app.app_context():
            compute(analysis_id)

    def fresh_connections() -> None:
        with app.app_context():
            db.engine.dispose(close=False)  # none shared with the process that started it

    app.extensions[TASK] = queue.task(name="analyse")(analyse)
    queue.on_startup()(fresh_connections)
    queue.on_startup()(lambda: _start_heartbeat(app, queue))
    return queue


def _start_heartbeat(app: Flask, queue: Huey) -> None:
    """In a consumer (each worker thread runs the startup hooks): one heartbeat per process.

    The stamp is written into the queue's storage, which the web side already reads, so it
    reaches every server of the queue (docs/decisions/analysis.md, "No consumer running").
    Each beat also wakes the consumer for analyses stranded in the database
    (:func:`_wake_for_stranded`), so a queue that lost its tasks recovers by itself."""
    if _BEATING.is_set():
        return
    _BEATING.set()

    def beat() -> None:
        while True:
            try:
                queue.put(HEARTBEAT, time.time())
                _wake_for_stranded(app, queue)
            except Exception:  # a busy queue file, Redis gone: the next beat tries again
                log.exception("the consumer's heartbeat could not be written")
                _reconnect(queue)
            time.sleep(HEARTBEAT_EVERY)

    threading.Thread(target=beat, name="analysis-heartbeat", daemon=True).start()


def _reconnect(queue: Huey) -> None:
    """Drop the queue's connection after a failure: the next use opens a new one.

    An SQLite file that could not be opened for writing stays open read-only in its connection
    after it is writable again; Redis' pool reconnects by itself, and closing it costs nothing."""
    try:
        queue.storage.close()
    except Exception:
        log.exception("the queue's connection could not be closed")


def _wake_for_stranded(app: Flask, queue: Huey) -> None:
    """Enqueue one wake-up when analyses wait in the database with no task in the queue.

    A Redis restarted without its data, or a task lost between the row's commit and its push,
    leaves a queued row that no task would run; the wake-up's task runs them all
    (:func:`compute`). A queue holding tasks already will run them: nothing is added."""
    with app.app_context():
        try:
            stranded = next_in_turn()
        finally:
            db.session.remove()
    if stranded is not None and queue.pending_count() == 0:
        log.warning("analysis %s waited with no task in the queue: woken", stranded)
        app.extensions[TASK](stranded)


def consumer_running(app: Flask | None = None) -> bool:
    """Return whether a consumer wrote its heartbeat within :data:`HEARTBEAT_FRESH` seconds.

    huey's immediate mode (the tests' ``memory://``) runs every task as it is queued."""
    queue = queue_of(app)
    if queue.immediate:
        return True
    try:
        stamp = queue.get(HEARTBEAT, peek=True)
    except Exception:  # the queue's storage is down: no consumer can take work now
        log.warning("the queue's storage could not be read", exc_info=True)
        return False
    return isinstance(stamp, float) and time.time() - stamp < HEARTBEAT_FRESH


def queue_of(app: Flask | None = None) -> Huey:
    """The app's queue, built on first use (an app that analyses nothing opens no queue file)."""
    app = app or current_app
    with _BUILDING:
        if EXTENSION not in app.extensions:
            app.extensions[EXTENSION] = build(app)
    queue: Huey = app.extensions[EXTENSION]
    return queue


def client_key(address: str | None) -> str:
    """The stored stand-in for a client's address: a hash, so no address is kept.

    >>> client_key("127.0.0.1") == client_key("127.0.0.1") != client_key("10.0.0.1")
    True
    """
    return hashlib.sha256(f"analysis-client:{address or ''}".encode()).hexdigest()


def submit(request: dict[str, Any], client: str) -> Analysis:
    """The analysis of ``request``: the stored one, or a new one queued for ``client``.

    Raises :class:`QueueFull` when there is no room for a new one, and :class:`QueueDown` when
    the queue's storage cannot take it (the row claimed is deleted again: nothing is kept that
    nothing would run). Asking again for one stored
    is one read by its key; a new one takes its turn (see :func:`_taking_turns`), so the caps
    hold however many arrive at once. Nothing here waits for the analysis itself.
    """
    key = work.content_key(request)
    db.session.commit()  # what the request read so far: the row is read afresh
    found = db.session.get(Analysis, key)
    if found is not None and found.status != Status.FAILED:
        _revive(found)
        return found
    db.session.rollback()  # the turn's transaction reads nothing before it
    try:
        with _taking_turns():
            row, new = _claim(key, request, client)
    except Exception:
        db.session.rollback()
        raise
    if new:
        try:
            _enqueue(key)
        except Exception as error:
            log.warning("analysis %s not queued: the queue is unavailable (%s)", key, error)
            _reconnect(queue_of())
            db.session.rollback()
            db.session.execute(
                delete(Analysis).where(Analysis.id == key, Analysis.status == Status.QUEUED)
            )
            db.session.commit()
            raise QueueDown from error
        if queue_of().immediate:  # tests' memory://: computed already, in a session of its own
            db.session.refresh(row)
    return row


@contextlib.contextmanager
def _taking_turns() -> Iterator[None]:
    """One submission at a time counts the waiting analyses and adds its own.

    A count, then an insert, let a client's concurrent requests all in under its cap. On
    PostgreSQL a transaction-scoped advisory lock, released at its commit or rollback; on
    SQLite the queue of the database file's writers (web.sqlite.one_writer), taken before the
    transaction reads anything."""
    connection = db.session.connection()
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:lock)"), {"lock": SUBMIT_LOCK})
        yield
        return
    with one_writer(connection):
        yield


def _claim(key: str, request: dict[str, Any], client: str) -> tuple[Analysis, bool]:
    """The stored analysis of ``key``, or a new one of ``client``'s (True): committed."""
    row = db.session.get(Analysis, key)
    if row is not None and row.status != Status.FAILED:
        _revive(row)
        return row, False
    _check_room(client)
    turn = _turn(client)
    if row is None:
        total = work.total(request)
        row = Analysis(id=key, request=request, client=client, total=total, turn=turn)
        db.session.add(row)
    else:  # a failed one is tried again, as a new one
        row.status, row.error, row.result, row.done = Status.QUEUED, None, None, 0
        row.client, row.created_at, row.updated_at = client, utcnow(), utcnow()
        row.turn = turn
    try:
        db.session.commit()
    except IntegrityError:  # the same content, submitted at the same moment elsewhere
        db.session.rollback()
        found = db.session.get(Analysis, key)
        assert found is not None
        return found, False
    return row, True


def _check_room(client: str) -> None:
    config = current_app.config
    waiting = select(func.count()).select_from(Analysis).where(Analysis.status.in_(Status.WAITING))
    mine = db.session.scalar(waiting.where(Analysis.client == client)) or 0
    if mine >= int(config["ANALYSIS_CLIENT_LIMIT"]):
        raise QueueFull(True, int(config["ANALYSIS_CLIENT_LIMIT"]))
    if (db.session.scalar(waiting) or 0) >= int(config["ANALYSIS_QUEUE_LIMIT"]):
        raise QueueFull(False, int(config["ANALYSIS_QUEUE_LIMIT"]))


def _turn(client: str) -> int:
    """The turn of ``client``'s new analysis: clients take turns.

    The current turn is the lowest of the analyses waiting (0 when none waits). A client's
    first waiting analysis takes it, and each next one the turn after its previous one, so
    every client's first runs before anyone's second, and a newcomer waits behind at most one
    of each other client's (start-time fair queuing; docs/decisions/analysis.md, "Turns").
    Called in the submissions' turn, so two of one client never take the same."""
    waiting = Analysis.status.in_(Status.WAITING)
    current = db.session.scalar(select(func.min(Analysis.turn)).where(waiting)) or 0
    last = db.session.scalar(
        select(func.max(Analysis.turn)).where(waiting, Analysis.client == client)
    )
    return current if last is None else max(current, last + 1)


def _enqueue(key: str) -> None:
    queue_of()
    current_app.extensions[TASK](key)


def _revive(row: Analysis) -> None:
    """Queue again a running analysis whose consumer died (killed mid-task, it is lost)."""
    limit = float(current_app.config["ANALYSIS_BUDGET"]) + STALE
    if row.status != Status.RUNNING or row.updated_at > utcnow() - timedelta(seconds=limit):
        return
    revived = db.session.execute(
        update(Analysis)
        .where(Analysis.id == row.id, Analysis.updated_at == row.updated_at)
        .values(status=Status.QUEUED, done=0, updated_at=utcnow())
    )
    db.session.commit()
    if revived.rowcount == 1:  # type: ignore[attr-defined]
        log.warning("analysis %s: its consumer stopped; queued again", row.id)
        try:
            _enqueue(row.id)
        except Exception:  # the consumer's sweep wakes for it once the queue is back
            log.exception("analysis %s: queued again, but the queue is unavailable", row.id)


def lookup(key: str) -> Analysis | None:
    """The stored analysis of id ``key`` (revived if its consumer died), or None."""
    row = db.session.get(Analysis, key)
    if row is not None:
        _revive(row)
    return row


def compute(analysis_id: str | None = None) -> None:
    """The task: the queued analyses, one at a time in turn (:func:`next_in_turn`), until none.

    Each queued analysis enqueues one task, but a task is only a wake-up: ``analysis_id``, the
    analysis whose queueing enqueued it, may run in an earlier task's turn or a later one. A
    task runs every analysis it finds queued, so one whose own task was lost (a Redis restarted
    empty) runs in the next one's, or in the wake-up of :func:`_wake_for_stranded`."""
    while (row := _claim_next()) is not None:
        _compute_one(row)


def _compute_one(row: Analysis) -> None:
    """Run the claimed analysis ``row`` under the budget; store what is known."""
    key = row.id

    def progress(done: int, total: int) -> None:
        db.session.execute(
            update(Analysis)
            .where(Analysis.id == key)
            .values(done=done, total=total, updated_at=utcnow())
        )
        db.session.commit()

    budget = float(current_app.config["ANALYSIS_BUDGET"])
    values: dict[str, Any]
    try:
        result = work.run(dict(row.request), budget, progress)
    except OutOfTime:
        values = {"status": Status.FAILED, "error": work.OUT_OF_TIME}
    except Exception:
        log.exception("analysis %s failed", key)
        db.session.rollback()
        values = {"status": Status.FAILED, "error": "crashed"}
    else:
        values = {"status": Status.DONE, "result": result}
    db.session.execute(
        update(Analysis).where(Analysis.id == key).values(updated_at=utcnow(), **values)
    )
    db.session.commit()


def next_in_turn() -> str | None:
    """Return the id of the queued analysis whose turn is next, or None.

    The lowest turn first (see :func:`_turn`), then the earliest asked."""
    return db.session.scalar(
        select(Analysis.id)
        .where(Analysis.status == Status.QUEUED)
        .order_by(Analysis.turn, Analysis.created_at, Analysis.id)
        .limit(1)
    )


def _claim_next() -> Analysis | None:
    """The next analysis in turn, claimed (running), or None when none is queued.

    The claim is ``UPDATE ... WHERE status = 'queued'``: of two consumers choosing the same, one
    gets it and the other chooses again."""
    while (key := next_in_turn()) is not None:
        claimed = db.session.execute(
            update(Analysis)
            .where(Analysis.id == key, Analysis.status == Status.QUEUED)
            .values(status=Status.RUNNING, done=0, updated_at=utcnow())
        )
        db.session.commit()
        if claimed.rowcount == 1:  # type: ignore[attr-defined]
            return db.session.get(Analysis, key)
    return None
