"""Issue 24, item 5's figure: three maximum-size imports sent at once to a real gunicorn.

Each import is 500 rubbers of 40 hands (20,000 hands, the cap of api/groups.py) into a group of
its own, under an idempotency key; gunicorn runs as ``make serve`` runs it (2 workers of 4
threads), on DATABASE_URL when it is set (PostgreSQL), else on a new SQLite file. nginx gives
up on an answer after 60 s (``proxy_read_timeout``): each must come well within that.

Run alone with ``python -m bench.imports``; it prints each import's time and status.
``PROXY=1`` sends them through deploy/nginx.conf's nginx (``.ci/proxy``), as the issue did.
"""

from __future__ import annotations

import json
import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import requests

from scorekeeper.api.groups import MAX_IMPORT_HANDS, MAX_IMPORT_RUBBERS
from tests.support.servers import Gunicorn, proxy, upgrade

AT_ONCE = 3
PLAYERS = ["Ana", "Rui", "Zé", "Bia"]


def largest_file() -> dict[str, Any]:
    """Return an export file at the cap: finished rubbers of 36 ties and 4 won hands each."""
    per_rubber = MAX_IMPORT_HANDS // MAX_IMPORT_RUBBERS
    hands = [{"kind": "tie", "points": [60, 60]}] * (per_rubber - 4)
    hands += [{"kind": "played", "points": [70, 50]}] * 4
    return {
        "format": "sueca-group",
        "version": 1,
        "rubbers": [
            {
                "id": f"largest-{n:04d}",
                "players": PLAYERS,
                "rules": {"preset": "online"},
                "hands": hands,
                "created_at": f"2025-01-{1 + n // 24 % 28:02d}T{n % 24:02d}:00:00Z",
            }
            for n in range(MAX_IMPORT_RUBBERS)
        ],
    }


@contextmanager
def front(folder: Path, server: Gunicorn) -> Iterator[tuple[str, requests.Session]]:
    """Yield the address to send to and a client: gunicorn itself, or nginx before it."""
    if not os.environ.get("PROXY"):
        with requests.Session() as client:
            yield server.url, client
        return
    with proxy(folder / "nginx", [f"127.0.0.1:{server.port}"]) as nginx, nginx.session() as client:
        yield nginx.url, client


def measure(folder: Path) -> list[tuple[int, float, int]]:
    """Return each import's status, seconds and rubbers created, sent at once."""
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("DATABASE_URL") or f"sqlite:///{folder / 'imports.db'}",
        "SECRET_KEY": "bench",
        "RATELIMIT_ENABLED": "0",
        "PROXY_COUNT": "1" if os.environ.get("PROXY") else "0",
    }
    upgrade(env)
    server = Gunicorn(env=env, log=folder / "gunicorn.log")
    server.start()
    try:
        with front(folder, server) as (base, client):
            return send_at_once(base, client)
    finally:
        server.stop()


def send_at_once(base: str, client: requests.Session) -> list[tuple[int, float, int]]:
    body = largest_file()
    groups = [
        client.post(f"{base}/api/v1/groups", json={"name": f"G{n}"}, timeout=10).json()
        for n in range(AT_ONCE)
    ]
    results: list[tuple[int, float, int]] = [(0, 0.0, 0)] * AT_ONCE

    def send(index: int) -> None:
        group = groups[index]
        data = json.dumps({**body, "key": f"bench-{index}"})
        started = time.perf_counter()
        answer = client.post(
            f"{base}/api/v1/groups/{group['id']}/import",
            data=data,
            headers={"Content-Type": "application/json", "X-Group-Key": group["edit_key"]},
            timeout=300,
        )
        took = time.perf_counter() - started
        created = answer.json().get("created", 0) if answer.ok else 0
        results[index] = (answer.status_code, took, created)

    threads = [threading.Thread(target=send, args=(n,)) for n in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        database += " through nginx" if os.environ.get("PROXY") else ""
        for index, (status, took, created) in enumerate(measure(Path(folder))):
            print(f"{database} import {index + 1}: {status}, {created} created, {took:.1f} s")


if __name__ == "__main__":
    main()
