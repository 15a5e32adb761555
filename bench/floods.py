"""Issue 41, item 2's figures: the other tables' hands while one client floods a follower's read.

What production runs: the documented nginx (deploy/nginx.conf, through .ci/proxy) in front of
gunicorn as ``make serve`` runs it (2 workers of 4 threads), on DATABASE_URL when it is set
(PostgreSQL), else on a new SQLite file; the app's own limits lifted (RATELIMIT_FACTOR), nginx's
as deployed. A Swiss of 128 pairs, its first round drawn (64 tables). Four tables record a hand
each every 0.5 s from 127.0.0.1 through nginx, first alone, then while one client floods one
address from 127.0.0.2 on :data:`FLOODERS` threads (a process of its own) for :data:`SECONDS`:
the tournament's TV, its page to print, its API state, a kept rubber's page. It prints, for
each, the hands' median and p95 and the flood's answers a second (passed on, and refused by
nginx).

Run alone with ``python -m bench.floods`` (``--check`` fails, exit 1, when a flood's hand p95
is more than :data:`WITHIN` times the unloaded one); ``make bench`` takes its figure.
"""

from __future__ import annotations

import json
import multiprocessing
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.figures import Figure, figure
from tests.support.servers import Proxy, behind_proxy

PAIRS = 128
TABLES = 4
EVERY = 0.5
"""Seconds between two hands of a table: 8 hands a second in all, about twelve times a
128-pair evening's (64 tables, a hand every 90 to 150 s each)."""
FLOODERS = 40
SECONDS = 10.0
WARM_UP = 1.5
"""Seconds the flood runs before the tables' hands are timed (its process starting)."""
WITHIN = 3.0
"""Issue 41: under each flood, the other tables' hand p95 within 3 times the unloaded one."""


def flood(front: Proxy, address: str, until: float, answers: Any) -> None:
    """Ask ``address`` from 127.0.0.2 on :data:`FLOODERS` threads until ``until``.

    The statuses counted are put on ``answers``."""
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def flooder() -> None:
        with front.session("127.0.0.2") as client:
            while time.time() < until:
                try:
                    status = client.get(address, timeout=60).status_code
                except OSError:
                    status = 0
                with lock:
                    statuses[status] += 1

    threads = [threading.Thread(target=flooder) for _ in range(FLOODERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    answers.put(dict(statuses))


def table_hands(front: Proxy, url: str, key: str, until: float, times: list[float]) -> None:
    """A table's hands, one every :data:`EVERY` seconds until ``until``: their times."""
    with front.session() as phone:
        while time.time() < until:
            started = time.perf_counter()
            answer = phone.post(
                url, json={"points": [60, 60]}, headers={"X-Edit-Key": key}, timeout=60
            )
            assert answer.status_code == 201, answer.text
            times.append(time.perf_counter() - started)
            time.sleep(max(0.0, EVERY - times[-1]))


def hands(front: Proxy, base: str, tables: list[str], key: str, seconds: float) -> list[float]:
    until = time.time() + seconds
    times: list[float] = []
    threads = [
        threading.Thread(
            target=table_hands,
            args=(front, f"{base}/api/v1/rubbers/{rubber}/hands", key, until, times),
        )
        for rubber in tables
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return times


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def measure(folder: Path, *, quiet: bool = False) -> list[tuple[str, float, float, float, float]]:
    """Each flood's row: target, hand median and p95 (s), answers passed on and refused a s."""
    rows = []
    with behind_proxy(folder) as stack:
        front, base = stack.front, stack.url
        with front.session() as organizer:
            pairs = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, PAIRS + 1)]
            body = {"name": "Café", "format": "swiss", "rounds": 7, "pairs": pairs}
            made = organizer.post(f"{base}/api/v1/tournaments", json=body, timeout=120)
            assert made.status_code == 201, made.text
            tournament = made.json()
            matches = tournament["rounds"][0]["matches"]
            tables = [match["rubbers"][0] for match in matches if match["rubbers"]][:TABLES]
            kept_rubber = organizer.post(f"{base}/api/v1/rubbers", json={}, timeout=30).json()
        targets = {
            "none": None,
            "/t/<id>/tv": f"{base}/t/{tournament['id']}/tv",
            "/t/<id>/print": f"{base}/t/{tournament['id']}/print",
            "GET /api/v1/tournaments/<id>": f"{base}/api/v1/tournaments/{tournament['id']}",
            "/r/<id> (kept rubber page)": f"{base}/r/{kept_rubber['id']}",
        }
        spawn = multiprocessing.get_context("spawn")
        for name, address in targets.items():
            flooding = None
            answers = spawn.Queue()
            if address is not None:
                until = time.time() + WARM_UP + SECONDS
                flooding = spawn.Process(target=flood, args=(front, address, until, answers))
                flooding.start()
                time.sleep(WARM_UP)
            times = hands(front, base, tables, tournament["edit_key"], SECONDS)
            passed = refused = 0.0
            if flooding is not None:
                statuses = answers.get(timeout=120)
                flooding.join(timeout=60)
                seconds = WARM_UP + SECONDS
                refused = statuses.get(429, 0) / seconds
                passed = sum(n for s, n in statuses.items() if s != 429) / seconds
            rows.append((name, statistics.median(times), p95(times), passed, refused))
            if quiet:
                continue
            print(
                f"{name:32} hand p50 {rows[-1][1] * 1000:6.0f} ms  p95 {rows[-1][2] * 1000:6.0f} ms"
                f"  flood passed {passed:6.1f}/s  refused by nginx {refused:7.1f}/s",
                flush=True,
            )
    return rows


def figures(rows: list[tuple[str, float, float, float, float]]) -> list[Figure]:
    """The worst flood's hand p95 over the unloaded one, with every row in its detail."""
    alone = rows[0][2]
    worst = max(rows[1:], key=lambda row: row[2])
    detail = "; ".join(
        f"{name}: p50 {p50 * 1000:.0f} ms, p95 {p95_ * 1000:.0f} ms, flood {passed:.1f}/s"
        + (f" (+{refused:.1f}/s refused)" if refused else "")
        for name, p50, p95_, passed, refused in rows
    )
    return [
        figure(
            "other tables' hand p95 under the worst flood ÷ unloaded (nginx, 2 workers)",
            worst[2] / alone,
            WITHIN,
            "<=",
            "",
            f"worst {worst[0]}; {detail}",
        )
    ]


def main() -> int:
    """Print each flood's row, or with ``--json`` the figure as JSON (``make bench`` takes it).

    ``--check`` fails (exit 1) when the figure misses its budget."""
    with tempfile.TemporaryDirectory() as folder:
        rows = measure(Path(folder), quiet="--json" in sys.argv)
    found = figures(rows)
    if "--json" in sys.argv:
        print(json.dumps(found))
    else:
        print(f"worst flood's hand p95: {found[0]['value']:.1f} times the unloaded one")
    return 1 if "--check" in sys.argv and not found[0]["ok"] else 0


if __name__ == "__main__":
    sys.exit(main())
