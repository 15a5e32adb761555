"""Issue 24, item 7's figures: a 500-rubber group's export, and a table's hands beside its loops.

gunicorn runs as ``make serve`` runs it (2 workers of 4 threads), on DATABASE_URL when it is set
(PostgreSQL), else on a new SQLite file, the rate limits off (the loops measure the server, not
the limit; ``LIMITED=1`` keeps them on, as in production). It prints the export's first and
repeated time and size, then a table's hand POST (one every 0.25 s) alone and while 4 loops
fetch the export, as the median and p95.

Run alone with ``python -m bench.heavy_reads``.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import threading
import time
from pathlib import Path

import requests

from scorekeeper import create_app
from tests.support.bulk import bulk_group
from tests.support.servers import Gunicorn, upgrade

RUBBERS = 500
LOOPS = 4
SECONDS = 6.0
EVERY = 0.25


def hands(base: str, seconds: float) -> list[float]:
    """Return the times of a table's hand POSTs, one every 0.25 s for ``seconds``."""
    rubber = requests.post(f"{base}/api/v1/rubbers", json={}, timeout=10).json()
    url = f"{base}/api/v1/rubbers/{rubber['id']}/hands"
    times: list[float] = []
    with requests.Session() as phone:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            answer = phone.post(
                url,
                json={"points": [60, 60]},
                headers={"X-Edit-Key": rubber["edit_key"]},
                timeout=60,
            )
            assert answer.status_code == 201, answer.text
            times.append(time.perf_counter() - started)
            time.sleep(max(0.0, EVERY - times[-1]))
    return times


def figures(times: list[float]) -> str:
    ordered = sorted(times)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(times) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms"


def export_times(url: str) -> None:
    """Print the export's first GET, then repeated ones (gzip taken, as requests asks)."""
    with requests.Session() as reader:
        for label in ("first", "second", "third"):
            started = time.perf_counter()
            answer = reader.get(url, timeout=120)
            took = time.perf_counter() - started
            sent = answer.raw.headers.get("Content-Length") or "streamed"
            print(
                f"export {label}: {answer.status_code}, {took * 1000:.0f} ms, "
                f"{len(answer.content):,} bytes of JSON, sent {sent} "
                f"({answer.headers.get('Content-Encoding', 'plain')})"
            )
        etag = answer.headers.get("ETag")
        if etag:
            started = time.perf_counter()
            again = reader.get(url, headers={"If-None-Match": etag}, timeout=120)
            print(
                f"export with If-None-Match: {again.status_code}, "
                f"{(time.perf_counter() - started) * 1000:.0f} ms"
            )


def measure(folder: Path) -> None:
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'reads.db'}"
    env = {**os.environ, "DATABASE_URL": url, "SECRET_KEY": "bench", "RATELIMIT_ENABLED": "0"}
    if os.environ.get("LIMITED"):  # the limits as in production: the loops get 429 soon
        env.update(RATELIMIT_ENABLED="1", RATELIMIT_FACTOR="1")
    upgrade(env)
    name = f"Reads{time.time_ns()}"  # ids of their own, on a database used before
    group_id, _ = bulk_group(create_app({"SQLALCHEMY_DATABASE_URI": url}), RUBBERS, name)
    server = Gunicorn(env=env, log=folder / "gunicorn.log")
    server.start()
    try:
        export = f"{server.url}/api/v1/groups/{group_id}/export.json"
        export_times(export)
        print(f"hand POST alone: {figures(hands(server.url, SECONDS))}")
        stop = threading.Event()
        fetched = [0] * LOOPS

        def loop(index: int) -> None:
            with requests.Session() as reader:
                while not stop.is_set():
                    # The bytes as sent, read whole but not unpacked: unpacking 3 MB at each
                    # of them would take this machine's cores from the server measured.
                    answer = reader.get(export, timeout=120, stream=True)
                    answer.raw.read(decode_content=False)
                    fetched[index] += answer.status_code == 200

        threads = [threading.Thread(target=loop, args=(n,)) for n in range(LOOPS)]
        for thread in threads:
            thread.start()
        try:
            loaded = hands(server.url, SECONDS)
        finally:
            stop.set()
            for thread in threads:
                thread.join()
        print(
            f"hand POST beside {LOOPS} export loops: {figures(loaded)} "
            f"({sum(fetched)} exports fetched in {SECONDS:.0f} s)"
        )
    finally:
        server.stop()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        print("PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite")
        measure(Path(folder))


if __name__ == "__main__":
    main()
