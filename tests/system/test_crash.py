"""Crashes: gunicorn killed with SIGKILL at random moments while phones record hands.

The schema comes from the real migrations. Client threads post hands with idempotency keys and
post each again, with the same key, until it is acknowledged (201), riding out the moments the
server is down. After every cycle of kill and restart: each acknowledged hand is stored, none
twice, SQLite's integrity check says ok, and every rubber's cached totals are the engine's
fold. ``CRASH_CYCLES`` sets the number of kills (at least 5).
"""

from __future__ import annotations

import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
import sqlalchemy as sa

from scorekeeper import create_app
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Hand, Rubber, WriteKey

CRASH_CYCLES = max(5, int(os.environ.get("CRASH_CYCLES", "5")))
SEED = int(os.environ.get("CRASH_SEED", str(random.randrange(1_000_000))))
CLIENTS = 4
HANDS_PER_CLIENT = 100 + 60 * CRASH_CYCLES
"""An upper bound, never reached: the clients stop once the last cycle is over."""
DEADLINE = float(os.environ.get("CRASH_DEADLINE", str(120 + 10 * CRASH_CYCLES)))
"""Seconds before the test gives up on its own (a cycle takes about 3)."""
STARTUP = 30.0
REQUEST_TIMEOUT = (2, 10)
RULES = {"games_to_win": 10}
"""Short rubbers, so many of them end and new ones start while the server is being killed."""
HANDS: list[dict[str, Any]] = [
    {"points": [61, 59]},
    {"points": [59, 61]},
    {"points": [90, 30]},
    {"points": [29, 91]},
    {"points": [60, 60]},
    {"points": [120, 0], "all_tricks": True},
    {"revoke": 0},
    {"revoke": 1},
]
GONE = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
"""What a client sees while the server is down or dies under its request."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Server:
    """gunicorn in its own process group, so a kill takes the master and its workers at once."""

    env: dict[str, str]
    port: int
    log: Path
    process: subprocess.Popen[bytes] | None = None
    kills: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "--timeout",
            "30",
            "scorekeeper:create_app()",
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, env=self.env, stdout=log, stderr=log, start_new_session=True
            )
        started = time.monotonic()
        while time.monotonic() - started < STARTUP:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                if requests.get(f"{self.url}/api/v1/openapi.json", timeout=1).status_code == 200:
                    return
            except GONE:
                pass
            time.sleep(0.05)
        pytest.fail(f"gunicorn did not answer within {STARTUP} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL to the whole group: no worker finishes its request or closes its database."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.kills += 1

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


@dataclass
class Ledger:
    """What the clients were told: the acknowledged hands, and how often the server was away."""

    acknowledged: list[tuple[str, str, int, str, tuple[int, int] | None]] = field(
        default_factory=list
    )
    retries: int = 0
    in_flight: int = 0
    killed_in_flight: int = 0
    replayed: int = 0
    rubbers: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)


def post_until_answered(
    session: requests.Session,
    url: str,
    body: Any,
    headers: dict[str, str],
    ledger: Ledger,
    until: float,
) -> requests.Response:
    """The same request again and again while the server is down: the answer it finally gives."""
    while time.monotonic() < until:
        with ledger.lock:
            ledger.in_flight += 1
        try:
            answer = session.post(url, json=body, headers=headers, timeout=REQUEST_TIMEOUT)
        except GONE:
            with ledger.lock:
                ledger.retries += 1
            time.sleep(0.05)
            continue
        finally:
            with ledger.lock:
                ledger.in_flight -= 1
        assert answer.status_code < 500, f"{answer.status_code} from {url}: {answer.text[:300]}"
        return answer
    pytest.fail(f"no answer from {url} before the deadline")


def client(
    server: Server, number: int, ledger: Ledger, stop: threading.Event, until: float
) -> None:
    """A phone recording hands into its rubber, a new rubber when one is won."""
    chance = random.Random(SEED + number)
    with requests.Session() as session:
        rubber: dict[str, Any] | None = None
        for index in range(HANDS_PER_CLIENT):
            if stop.is_set():
                return
            if rubber is None:
                created = post_until_answered(
                    session, f"{server.url}/api/v1/rubbers", {"rules": RULES}, {}, ledger, until
                )
                assert created.status_code == 201, created.text[:300]
                rubber = created.json()
                with ledger.lock:
                    ledger.rubbers.add(rubber["id"])
            key = f"crash-{number}-{index}"
            body = {**chance.choice(HANDS), "key": key}
            answer = post_until_answered(
                session,
                f"{server.url}/api/v1/rubbers/{rubber['id']}/hands",
                body,
                {"X-Edit-Key": rubber["edit_key"]},
                ledger,
                until,
            )
            if answer.status_code == 409 and answer.json()["code"] == "rubber_finished":
                rubber = None
                continue
            assert answer.status_code == 201, answer.text[:300]
            hand = answer.json()["hands"][-1]
            points = tuple(hand["points"]) if hand["points"] is not None else None
            with ledger.lock:
                ledger.acknowledged.append(
                    (rubber["id"], key, hand["number"], hand["kind"], points)
                )
                ledger.replayed += answer.headers.get("Idempotent-Replayed") == "true"
            if answer.json()["finished"]:
                rubber = None


@pytest.fixture
def database(tmp_path: Path) -> Iterator[str]:
    """The test's own SQLite file; on PostgreSQL (DATABASE_URL), its database emptied before
    and after, Alembic's table included, since the schema comes from the migrations here."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'crash.sqlite3'}"
    if url.startswith("sqlite"):
        yield url
        return

    def empty() -> None:
        engine = sa.create_engine(url)
        with engine.begin() as connection:
            db.metadata.drop_all(connection)
            connection.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
        engine.dispose()

    empty()
    yield url
    empty()


def test_killed_server_loses_no_acknowledged_hand(
    database: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "SECRET_KEY": "crash-test",
        "PYTHONUNBUFFERED": "1",
    }
    upgrade = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert upgrade.returncode == 0, upgrade.stderr[-3000:]

    server = Server(env=env, port=free_port(), log=tmp_path / "gunicorn.log")
    ledger = Ledger()
    stop = threading.Event()
    started = time.monotonic()
    until = started + DEADLINE
    chance = random.Random(SEED)
    server.start()
    pool = ThreadPoolExecutor(CLIENTS)
    try:
        clients = [
            pool.submit(client, server, number, ledger, stop, until) for number in range(CLIENTS)
        ]
        for _cycle in range(CRASH_CYCLES):
            time.sleep(chance.uniform(0.2, 1.5))
            with ledger.lock:
                ledger.killed_in_flight += ledger.in_flight
            server.kill()
            time.sleep(chance.uniform(0.0, 0.5))
            if database.startswith("sqlite"):
                assert integrity(database) == "ok"
            server.start()
        time.sleep(1.0)
        stop.set()
        for running in clients:
            running.result(timeout=max(1.0, until - time.monotonic()))
    finally:
        stop.set()
        server.stop()
        pool.shutdown(wait=True, cancel_futures=True)
    elapsed = time.monotonic() - started

    assert ledger.acknowledged, "no hand was acknowledged"
    assert len(ledger.acknowledged) < CLIENTS * HANDS_PER_CLIENT, "the clients ran out of hands"
    if database.startswith("sqlite"):
        assert integrity(database) == "ok"
    app = create_app({"SECRET_KEY": "crash-test", "SQLALCHEMY_DATABASE_URI": database})
    with app.app_context():
        # Every acknowledged hand is stored, as it was acknowledged, under its key.
        for rubber_id, key, number, kind, points in ledger.acknowledged:
            stored = db.session.execute(
                db.select(Hand).where(Hand.rubber_id == rubber_id, Hand.number == number)
            ).scalar_one()
            assert stored.kind == kind, (rubber_id, number)
            assert (stored.points0, stored.points1) == (points or (None, None)), (rubber_id, number)
            assert db.session.get(WriteKey, (rubber_id, key)) is not None, key
        # And nothing else: every stored hand was acknowledged once (a retried key added none).
        acknowledged = Counter(rubber_id for rubber_id, *_ in ledger.acknowledged)
        rubbers = list(db.session.execute(db.select(Rubber)).scalars())
        assert ledger.rubbers <= {rubber.id for rubber in rubbers}
        for rubber in rubbers:
            state = rubber.state()
            assert len(rubber.hands) == acknowledged[rubber.id], rubber.id
            assert (rubber.games0, rubber.games1) == state.games, rubber.id
            assert rubber.hand_count == len(state.hands), rubber.id
            assert (rubber.finished, rubber.winner) == (state.finished, state.winner), rubber.id
            assert rubber.outcome == (state.outcome.value if state.outcome else None), rubber.id
        db.session.remove()
        db.engine.dispose()

    with capsys.disabled():
        print(
            f"\n[hardening] crash: {server.kills} SIGKILLs survived "
            f"({'SQLite' if database.startswith('sqlite') else 'PostgreSQL'}, seed {SEED}), "
            f"{ledger.killed_in_flight} requests in flight at the kills, "
            f"{len(ledger.acknowledged)} acknowledged hands in {len(rubbers)} rubbers all stored, "
            f"{ledger.retries} posts retried while the server was down, "
            f"{ledger.replayed} answered from their key, in {elapsed:.1f} s"
        )


def integrity(url: str) -> str:
    path = url.removeprefix("sqlite:///")
    with closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
