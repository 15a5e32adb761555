"""The analyses' queue through an outage of its storage: nothing left behind, back by itself.

A Redis stopped (or an SQLite queue file made unwritable) used to answer 500 after storing a
queued analysis no task would ever run; such rows filled each client's cap and then the whole
queue's, so analyses stayed off after the storage came back (issue 41, item 1). The parts are
real: a redis-server stopped and started again on its port, empty, as a restart without
persistence leaves it; an SQLite queue file made immutable; huey's consumer as `make worker`
runs it, beside gunicorn.
"""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from redis import Redis as Client
from redis.exceptions import RedisError

from scorekeeper.background.models import Analysis
from scorekeeper.background.queue import queue_of
from scorekeeper.extensions import db
from tests.background.test_queue import (
    _environment,
    hands,
    start_consumer,
    stop_consumer,
)
from tests.support.apps import fresh_app, migrated_database
from tests.support.servers import STARTUP, Gunicorn, free_port, need_program

BACK_WITHIN = 20.0
"""Seconds within which an analysis asked once the storage is back is done (the consumer's
heartbeat looks for stranded work every 5 s; each of these analyses takes milliseconds)."""
SENTENCE = "Não é possível pôr análises na fila neste momento"


class Redis:
    """A real redis-server on one port, stopped and started again there, nothing kept."""

    def __init__(self, folder: Path) -> None:
        self.program = need_program("redis-server", "redis-server")
        self.folder = folder
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [self.program, "--bind", "127.0.0.1", "--port", str(self.port), "--save", ""]
            + ["--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = Client(port=self.port, socket_timeout=1)
        started = time.monotonic()
        while True:
            assert self.process.poll() is None, "redis-server stopped at once"
            try:
                if client.ping():
                    return
            except RedisError:  # not up yet
                pass
            assert time.monotonic() - started < STARTUP, "redis-server did not answer"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=30)
            self.process = None


@contextmanager
def redis(folder: Path) -> Iterator[Redis]:
    server = Redis(folder)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """``path`` made unwritable, for root too (ext4's immutable flag), then writable again."""
    chattr = need_program("chattr", "e2fsprogs")
    subprocess.run([chattr, "+i", str(path)], check=True)
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def ask(client: Any, first: str, address: str) -> Any:
    return client.post(
        "/api/v1/analysis",
        json=hands(first),
        headers={"Accept-Language": "pt-PT"},
        environ_base={"REMOTE_ADDR": address},
    )


def stored(app: Flask) -> int:
    with app.app_context():
        count = db.session.query(Analysis).count()
        db.session.remove()
        return count


@contextmanager
def broken_queue(storage: str, tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The queue's URL, and a context that makes its storage unreachable for its length."""
    if storage == "redis":
        with redis(tmp_path) as server:

            @contextmanager
            def down() -> Iterator[None]:
                server.stop()
                try:
                    yield
                finally:
                    server.start()

            yield server.url, down
        return
    path = tmp_path / "queue.sqlite3"
    yield f"sqlite:///{path}", lambda: immutable(path)


@pytest.mark.parametrize("storage", ["redis", "sqlite"])
def test_an_unreachable_queue_refuses_with_503_and_keeps_nothing(
    tmp_path: Path, storage: str
) -> None:
    """Refused with a sentence while down, no row kept, no cap filled; queued once it is back."""
    with broken_queue(storage, tmp_path) as (url, down):
        config = {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "ANALYSIS_QUEUE_URL": url,
            "ANALYSIS_CLIENT_LIMIT": 2,
            "ANALYSIS_QUEUE_LIMIT": 3,
        }
        with fresh_app(tmp_path / "test.sqlite3", config) as app:
            queue = queue_of(app)  # built (its file made) before the storage goes
            client = app.test_client()
            with down():
                # More than a client's cap, from more clients than the whole queue's.
                answers = [ask(client, "AS", "10.0.0.1") for _ in range(3)]
                answers += [ask(client, "QS", f"10.0.1.{n}") for n in range(4)]
                codes = {(a.status_code, a.get_json()["code"]) for a in answers}
                assert codes == {(503, "queue_unavailable")}, [a.get_json() for a in answers]
                assert answers[0].get_json()["error"].startswith(SENTENCE)
                assert stored(app) == 0
            # Back: the same client is not held at its cap by what was refused.
            for first in ("AS", "QS"):
                answer = ask(client, first, "10.0.0.1")
                assert answer.status_code == 202, answer.get_json()
            assert stored(app) == 2
            assert queue.pending_count() == 2
            queue.storage.close()


def test_after_redis_restarts_empty_the_consumer_runs_all_that_waits(tmp_path: Path) -> None:
    """gunicorn, a consumer and Redis: Redis stopped and started empty, twice; nothing is lost.

    The first time with the consumer running (it must take work again); the second with an
    analysis queued while the consumer was stopped, its task lost with Redis' memory."""
    log = tmp_path / "servers.log"
    with redis(tmp_path) as server, migrated_database(tmp_path / "app.sqlite3") as database:
        env = {**_environment(tmp_path, database), "ANALYSIS_QUEUE_URL": server.url}
        web = Gunicorn(env, log)
        web.start()
        consumer = start_consumer(env, log)
        try:

            def post(first: str) -> requests.Response:
                return requests.post(f"{web.url}/api/v1/analysis", json=hands(first), timeout=10)

            def done_within(url: str, seconds: float) -> dict[str, Any]:
                end = time.monotonic() + seconds
                while time.monotonic() < end:
                    status = requests.get(url, timeout=10).json()
                    if status["status"] in ("done", "failed"):
                        return dict(status)
                    time.sleep(0.2)
                pytest.fail(f"not done within {seconds} s:\n{log.read_text()[-3000:]}")

            first = post("AS")
            assert first.status_code in (200, 202), first.text
            assert done_within(first.json()["status_url"], BACK_WITHIN)["status"] == "done"

            server.stop()
            refused = post("QS")
            assert refused.status_code == 503, refused.text
            assert refused.json()["code"] == "queue_unavailable"
            server.start()
            again = post("QS")
            assert again.status_code == 202, again.text
            assert done_within(again.json()["status_url"], BACK_WITHIN)["status"] == "done"

            stop_consumer(consumer)
            stranded = post("6S")
            assert stranded.status_code == 202, stranded.text
            server.stop()
            server.start()  # its task gone with Redis' memory; the row still queued
            consumer = start_consumer(env, log)
            assert done_within(stranded.json()["status_url"], BACK_WITHIN)["status"] == "done"
        finally:
            stop_consumer(consumer)
            web.stop()
