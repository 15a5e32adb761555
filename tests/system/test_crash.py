"""Crashes: gunicorn killed with SIGKILL at random moments while phones record hands.

The schema comes from the real migrations. Client threads post hands with idempotency keys and
post each again, with the same key, until it is acknowledged (201), riding out the moments the
server is down. After every cycle of kill and restart: each acknowledged hand is stored, none
twice, SQLite's integrity check says ok, and every rubber's cached totals are the engine's
fold. ``CRASH_CYCLES`` sets the number of kills (at least 5).

gunicorn runs as `make serve` runs it (scorekeeper/gunicorn_conf.py). With APP_SERVERS=2, two
such servers share the database: each try of a post goes to the next server, so a hand whose
answer was lost with one server is sent again, with its key, to the other; a cycle kills one of
them, and every third cycle all.
"""

from __future__ import annotations

import os
import random
import sqlite3
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
from tests.support.servers import APP_SERVERS, GONE, Gunicorn, shared_limits, upgrade

CRASH_CYCLES = max(5, int(os.environ.get("CRASH_CYCLES", "5")))
SEED = int(os.environ.get("CRASH_SEED", str(random.randrange(1_000_000))))
CLIENTS = 4
HANDS_PER_CLIENT = 100 + 60 * CRASH_CYCLES
"""An upper bound, never reached: the clients stop once the last cycle is over."""
DEADLINE = float(os.environ.get("CRASH_DEADLINE", str(120 + 10 * CRASH_CYCLES)))
"""Seconds before the test gives up on its own (a cycle takes about 3)."""
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
    servers: list[Gunicorn],
    path: str,
    body: Any,
    headers: dict[str, str],
    ledger: Ledger,
    until: float,
) -> requests.Response:
    """Send a request again and again while the server is down: return the answer it finally gives.

    It is the same request each time. With several servers, each try goes to the next one, as a
    proxy would send it."""
    tries = 0
    while time.monotonic() < until:
        with ledger.lock:
            ledger.in_flight += 1
        url = servers[tries % len(servers)].url + path
        tries += 1
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
    pytest.fail(f"no answer to {path} before the deadline")


def rotated(servers: list[Gunicorn], by: int) -> list[Gunicorn]:
    """The servers, starting from another one: each client and hand begins elsewhere."""
    first = by % len(servers)
    return servers[first:] + servers[:first]


def client(
    servers: list[Gunicorn], number: int, ledger: Ledger, stop: threading.Event, until: float
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
                    session,
                    rotated(servers, number),
                    "/api/v1/rubbers",
                    {"rules": RULES},
                    {},
                    ledger,
                    until,
                )
                assert created.status_code == 201, created.text[:300]
                rubber = created.json()
                with ledger.lock:
                    ledger.rubbers.add(rubber["id"])
            key = f"crash-{number}-{index}"
            body = {**chance.choice(HANDS), "key": key}
            answer = post_until_answered(
                session,
                rotated(servers, number + index),
                f"/api/v1/rubbers/{rubber['id']}/hands",
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
    """The test's own SQLite file, or on PostgreSQL (DATABASE_URL) its database emptied.

    The PostgreSQL database is emptied before and after, Alembic's table included, since the schema
    comes from the migrations here."""
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
    upgrade(env)
    with shared_limits(tmp_path, APP_SERVERS) as limits:
        _crash_cycles(database, tmp_path, {**env, **limits}, capsys)


def _crash_cycles(  # noqa: C901  one crash cycle told step by step
    database: str, tmp_path: Path, env: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """Kill the servers again and again under the clients' hands, then count what was kept."""
    servers = [
        Gunicorn(env=env, log=tmp_path / f"gunicorn-{number}.log") for number in range(APP_SERVERS)
    ]
    ledger = Ledger()
    stop = threading.Event()
    started = time.monotonic()
    until = started + DEADLINE
    chance = random.Random(SEED)
    for server in servers:
        server.start()
    pool = ThreadPoolExecutor(CLIENTS)
    try:
        clients = [
            pool.submit(client, servers, number, ledger, stop, until) for number in range(CLIENTS)
        ]
        for cycle in range(CRASH_CYCLES):
            # One server at a time, and every third cycle all of them at once.
            killed = servers if cycle % 3 == 2 else [chance.choice(servers)]
            time.sleep(chance.uniform(0.2, 1.5))
            with ledger.lock:
                ledger.killed_in_flight += ledger.in_flight
            for server in killed:
                server.kill()
            time.sleep(chance.uniform(0.0, 0.5))
            if database.startswith("sqlite") and len(killed) == len(servers):
                assert integrity(database) == "ok"
            for server in killed:
                server.start()
        time.sleep(1.0)
        stop.set()
        for running in clients:
            running.result(timeout=max(1.0, until - time.monotonic()))
    finally:
        stop.set()
        for server in servers:
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
            f"\n[hardening] crash: {sum(server.kills for server in servers)} SIGKILLs survived "
            f"({'SQLite' if database.startswith('sqlite') else 'PostgreSQL'}, "
            f"{APP_SERVERS} server{'s' if APP_SERVERS > 1 else ''}, seed {SEED}), "
            f"{ledger.killed_in_flight} requests in flight at the kills, "
            f"{len(ledger.acknowledged)} acknowledged hands in {len(rubbers)} rubbers all stored, "
            f"{ledger.retries} posts retried while the server was down, "
            f"{ledger.replayed} answered from their key, in {elapsed:.1f} s"
        )


def integrity(url: str) -> str:
    path = url.removeprefix("sqlite:///")
    with closing(sqlite3.connect(path)) as connection:
        return str(connection.execute("PRAGMA integrity_check").fetchone()[0])
