"""The consumer's command line: ``python -m scorekeeper.background.consumer`` (``make worker``).

It runs huey's consumer on ``scorekeeper.worker.huey`` (the app built as a server builds it).
``ANALYSIS_WORKERS`` (default 1) analyses run at once, each in a thread of the consumer. An
idle consumer looks at the SQLite queue every :data:`POLL` seconds, without huey's back-off, so
new work waits at most that long; on Redis it waits on the list, and a push wakes it at once
(docs/decisions/analysis.md, "Through the queue").
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

POLL = "0.05"
"""Seconds between an idle worker's looks at a queue that does not block (SQLite), fixed: no
back-off. On Redis the worker blocks on the list instead, and this paces only its retries after
an error reading it (docs/decisions/analysis.md, "Through the queue")."""


def command() -> list[str]:
    """The consumer, as `make worker` and `make serve` (ANALYSIS_WORKER=1) run it."""
    return [
        sys.executable,
        "-m",
        "huey.bin.huey_consumer",
        "scorekeeper.worker.huey",
        "--workers",
        os.environ.get("ANALYSIS_WORKERS", "1"),
        "--worker-type",
        "thread",
        "--delay",
        POLL,
        "--max-delay",
        POLL,
        "--backoff",
        "1",
        "--no-periodic",
    ]


def stop(consumer: subprocess.Popen[bytes]) -> None:
    """Stop a consumer this process started: huey's graceful stop (SIGINT), then a kill.

    The running analysis ends first (within 30 s); ``make serve`` and ``make run`` stop theirs
    so, and ``make run`` its development server too (Ctrl-C is its SIGINT)."""
    if consumer.poll() is None:
        consumer.send_signal(signal.SIGINT)
    try:
        consumer.wait(timeout=30)
    except subprocess.TimeoutExpired:
        consumer.kill()
        consumer.wait(timeout=30)


if __name__ == "__main__":
    os.execv(sys.executable, command())
