"""Issue 27's figures: an analysis through the queue, as a client of the API sees it.

The app server as ``make serve`` runs it (gunicorn with scorekeeper/gunicorn_conf.py, one worker)
and the consumer as ``make worker`` runs it (:func:`scorekeeper.background.consumer.command`),
each a process on 127.0.0.1, on the SQLite queue and, when ``redis-server`` is installed, on a
Redis of the run's own. Each sample leaves the consumer idle for ``BENCH_QUEUE_IDLE`` seconds
(8: huey's back-off from 0.1 s reaches 1 s after about 6.5) and up to a second more (so the
POST falls anywhere in an interval between two looks at the queue), posts open hands of 5
cards a hand (a seed of their own each, so never an analysis already stored) to
``POST /api/v1/analysis``, and reads its status every 10 ms until it is done:

- on top of the solve: from the POST sent to the status read done, less the same request's
  solve timed in this process (``work.run`` on the stored request, the engine warmed up): the
  median, budget 0.3 s;
- the pickup: from the POST's answer read to the consumer starting the task (huey's
  "Executing" line in the consumer's log, to the millisecond). The enqueue is the POST's last
  step, so this leaves out only the answer's way back (and is below zero when the consumer
  started first); the detail gives it from the POST sent too, and the idle consumer's
  processor time. The worst sample, budget 0.1 s.

``python -m bench.queue`` prints them alone (``BENCH_QUEUE_SAMPLES``, 7, and
``BENCH_QUEUE_IDLE`` change the counts); ``make bench`` adds them to the other figures. Every
process is stopped by the time it returns, each wait bounded.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from flask import Flask

from bench.analysis import deal
from bench.figures import Figure, figure, table
from scorekeeper import create_app
from scorekeeper.background import work
from scorekeeper.background.consumer import command, stop
from scorekeeper.background.models import Analysis
from scorekeeper.engine import RuleSet
from scorekeeper.extensions import db
from tests.support.servers import Gunicorn, redis_server

ROOT = Path(__file__).resolve().parent.parent
HOST = "127.0.0.1"
SAMPLES = int(os.environ.get("BENCH_QUEUE_SAMPLES", "7"))
IDLE = float(os.environ.get("BENCH_QUEUE_IDLE", "8"))
WARM_UP = 2
"""Analyses through the queue before the samples: the server's and the consumer's first ones."""
CARDS = 5
"""Cards a hand of the open hands analysed: a solve of a few milliseconds."""
FOLLOW_EVERY = 0.01
STARTUP = 30.0
DONE_WITHIN = 60.0
ON_TOP_BUDGET = 0.3
PICKUP_BUDGET = 0.1
EXECUTING = re.compile(r"^\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3})\] INFO:huey:[^:]*:Executing ")
"""huey's line as a worker starts a task (its consumer's log format, local time)."""


def _local(url: str) -> str:
    if urlsplit(url).hostname != HOST:
        raise ValueError(f"the benchmark only loads {HOST}, not {url}")
    return url


def _stop_group(process: subprocess.Popen[bytes], sig: int) -> None:
    if process.poll() is None:
        os.killpg(process.pid, sig)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=30)


@contextlib.contextmanager
def app_server(env: dict[str, str], log: Path) -> Iterator[str]:
    """``make serve``'s gunicorn (no consumer of its own) on 127.0.0.1: its base URL."""
    server = Gunicorn(env, log)
    server.start()
    try:
        yield _local(server.url)
    finally:
        server.stop()


@contextlib.contextmanager
def consumer(env: dict[str, str], log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """The consumer as ``make worker`` runs it, once huey says it started; stopped after."""
    with log.open("ab") as out:
        process = subprocess.Popen(
            command(), cwd=ROOT, env=env, stdout=out, stderr=out, start_new_session=True
        )
    try:
        deadline = time.monotonic() + STARTUP
        while "Huey consumer started" not in log.read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the consumer did not start:\n{log.read_text()[-2000:]}")
            time.sleep(0.05)
        yield process
    finally:
        stop(process)


def processor_seconds(pid: int) -> float:
    """The processor time a process has used so far, user and system (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def executing_times(log: Path) -> list[float]:
    """When the consumer started each task, from its log (time.time() seconds)."""
    found = (EXECUTING.match(line) for line in log.read_text().splitlines())
    return [
        datetime.strptime(match[1], "%Y-%m-%d %H:%M:%S,%f").timestamp()
        for match in found
        if match is not None
    ]


def hands_body(seed: int) -> dict[str, Any]:
    """Open hands of :data:`CARDS` cards a hand, as the API takes them."""
    position = deal(10_000 + seed, CARDS)
    return {
        "trump": str(position.trump),
        "leader": position.leader,
        "hands": [sorted(str(card) for card in hand) for hand in position.hands],
    }


def warm_up_the_engine() -> None:
    """One solve in this process before any is timed (the consumer's first are not timed)."""
    body = hands_body(-1)
    request = work.hands_request(body["trump"], body["leader"], body["hands"], RuleSet())
    work.run(request, DONE_WITHIN, lambda done, total: None)


@dataclass
class Samples:
    """One queue's samples, in seconds."""

    through: list[float] = field(default_factory=list)
    solve: list[float] = field(default_factory=list)
    pickup: list[float] = field(default_factory=list)
    """From the POST's answer read to the consumer starting the task."""
    from_sent: list[float] = field(default_factory=list)
    """From the POST sent to the consumer starting the task."""
    idle: float = 0.0
    idle_processor: float = 0.0

    @property
    def on_top(self) -> list[float]:
        return [total - own for total, own in zip(self.through, self.solve, strict=True)]


def solve_seconds(app: Flask, key: str) -> float:
    """The stored request's solve in this process, as the consumer runs it."""
    with app.app_context():
        row = db.session.get(Analysis, key)
        if row is None:
            raise RuntimeError(f"no analysis {key} in the benchmark's database")
        request = dict(row.request)
        db.session.remove()
    started = time.perf_counter()
    work.run(request, DONE_WITHIN, lambda done, total: None)
    return time.perf_counter() - started


def follow(session: requests.Session, url: str) -> None:
    """Read the status every :data:`FOLLOW_EVERY` s until it is done."""
    deadline = time.monotonic() + DONE_WITHIN
    while time.monotonic() < deadline:
        status = session.get(_local(url), timeout=10).json()
        if status["status"] == "done":
            return
        if status["status"] == "failed":
            raise RuntimeError(f"the analysis failed: {status}")
        time.sleep(FOLLOW_EVERY)
    raise RuntimeError(f"the analysis was not done within {DONE_WITHIN} s")


@dataclass(frozen=True)
class Sent:
    """One analysis through the queue: when it was posted, how long its POST and the whole took."""

    key: str
    sent: float
    answered: float
    """time.time() as the POST was sent, and as its answer was read: the enqueue is in between,
    the last thing the POST does."""
    through: float


def one_analysis(session: requests.Session, base: str, seed: int) -> Sent:
    """Post one analysis and follow it until it is done."""
    sent = time.time()
    started = time.perf_counter()
    answer = session.post(_local(f"{base}/api/v1/analysis"), json=hands_body(seed), timeout=10)
    answered = time.time()
    if answer.status_code != 202:
        raise RuntimeError(f"the POST answered {answer.status_code}: {answer.text[:300]}")
    status_url = answer.json()["status_url"]
    follow(session, status_url)
    return Sent(status_url.rsplit("/", 1)[1], sent, answered, time.perf_counter() - started)


def run_queue(app: Flask, env: dict[str, str], folder: Path, first_seed: int) -> Samples:
    """The samples of one queue: a server and a consumer on it, an analysis after each idle span."""
    samples = Samples()
    chance = random.Random(first_seed)
    log = folder / "consumer.log"
    with (
        app_server(env, folder / "server.log") as base,
        consumer(env, log) as running,
        requests.Session() as session,
    ):
        for number in range(WARM_UP + SAMPLES):
            if number >= WARM_UP:
                span = IDLE + chance.uniform(0.0, 1.0)
                before = processor_seconds(running.pid)
                time.sleep(span)
                samples.idle_processor += processor_seconds(running.pid) - before
                samples.idle += span
            sent = one_analysis(session, base, first_seed + number)
            started = executing_times(log)
            if len(started) != number + 1:
                raise RuntimeError(f"{len(started)} tasks started for {number + 1} analyses")
            solve = solve_seconds(app, sent.key)
            if number >= WARM_UP:
                samples.through.append(sent.through)
                samples.solve.append(solve)
                samples.pickup.append(started[-1] - sent.answered)
                samples.from_sent.append(started[-1] - sent.sent)
    return samples


def queue_figures(name: str, samples: Samples) -> list[Figure]:
    """The two figures of one queue, with how they were taken."""
    settings = " ".join(command()[3:])
    how = (
        f"{SAMPLES} open hands of {CARDS} cards a hand, each after the consumer was idle "
        f"{IDLE:.0f} to {IDLE + 1:.0f} s; gunicorn as make serve (1 worker), the consumer as "
        f"make worker ({settings})"
    )
    on_top = samples.on_top
    idle_share = 100 * samples.idle_processor / samples.idle if samples.idle else float("nan")
    return [
        figure(
            f"an analysis through the queue ({name}), on top of its solve, median",
            statistics.median(on_top),
            ON_TOP_BUDGET,
            "<=",
            "s",
            f"POST sent to status read done (read every {FOLLOW_EVERY * 1000:.0f} ms) "
            f"{statistics.median(samples.through):.3f} s, less the same request's solve in "
            f"this process {statistics.median(samples.solve) * 1000:.1f} ms (medians); worst "
            f"{max(on_top):.3f} s; {how}",
        ),
        figure(
            f"an idle consumer takes new work ({name}), worst",
            max(samples.pickup),
            PICKUP_BUDGET,
            "<=",
            "s",
            f"the POST's answer read (its last step is the enqueue) to huey's 'Executing' line "
            f"in the consumer's log: median {statistics.median(samples.pickup):.3f} s; from "
            f"the POST sent: median {statistics.median(samples.from_sent):.3f} s, worst "
            f"{max(samples.from_sent):.3f} s; the idle consumer used {idle_share:.2f} % of a "
            f"core over {samples.idle:.0f} s; {how}",
        ),
    ]


def benchmark_app(folder: Path, secret: str) -> Flask:
    """The app on the benchmark's database, its schema from the migrations."""
    import flask_migrate

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder / 'queue-bench.sqlite3'}",
            "SECRET_KEY": secret,
        }
    )
    with app.app_context():
        flask_migrate.upgrade(directory=app.extensions["migrate"].directory)
    return app


def measure() -> list[Figure]:
    """Each queue's figures: SQLite, then Redis when ``redis-server`` is installed."""
    warm_up_the_engine()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-queue-") as name:
        folder = Path(name)
        secret = secrets.token_hex(32)
        app = benchmark_app(folder, secret)
        env = {
            **os.environ,
            "DATABASE_URL": str(app.config["SQLALCHEMY_DATABASE_URI"]),
            "SECRET_KEY": secret,
            "RATELIMIT_FACTOR": "1000",
            "WEB_CONCURRENCY": "1",
            "PYTHONUNBUFFERED": "1",
        }
        # The defaults, not this shell's: a consumer of gunicorn's own, more workers, a proxy.
        for unset in (
            "ANALYSIS_WORKER",
            "ANALYSIS_WORKERS",
            "ANALYSIS_BUDGET",
            "PROXY_COUNT",
            "TRUSTED_HOSTS",
            "RATELIMIT_STORAGE_URI",
        ):
            env.pop(unset, None)
        sqlite = folder / "sqlite"
        sqlite.mkdir()
        queue = f"sqlite:///{sqlite / 'queue.sqlite3'}"
        samples = run_queue(app, {**env, "ANALYSIS_QUEUE_URL": queue}, sqlite, 0)
        figures = queue_figures("SQLite", samples)
        if shutil.which("redis-server") is None:
            missing = "; Redis not measured: no redis-server (apt-get install redis-server)"
            return [{**item, "detail": item["detail"] + missing} for item in figures]
        on_redis = folder / "redis"
        on_redis.mkdir()
        with redis_server(on_redis) as url:
            samples = run_queue(app, {**env, "ANALYSIS_QUEUE_URL": url}, on_redis, 100)
        return figures + queue_figures("Redis", samples)


def main() -> int:
    """Print the table, or with ``--json`` the figures as JSON (how ``make bench`` takes them)."""
    figures = measure()
    print(json.dumps(figures) if "--json" in sys.argv[1:] else table(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
