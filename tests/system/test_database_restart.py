"""A PostgreSQL restart under a running gunicorn: every request after it is answered (issue 41, 3).

The server is the test's own (.ci/postgres), since the test restarts it; so the test runs on
SQLite's run only, whatever DATABASE_URL says (tests/conftest.py, PURE)."""

from __future__ import annotations

import os
from pathlib import Path

import requests

from tests.support.servers import Gunicorn, postgres_server, upgrade

WARM_UP = 5
AFTER = 20


def test_every_request_after_a_postgresql_restart_is_answered(tmp_path: Path) -> None:
    with postgres_server() as database:
        env = {
            **os.environ,
            "DATABASE_URL": database.url,
            "ANALYSIS_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
            "SECRET_KEY": "restart-test",
            # One worker: the GETs before the restart surely fill the pool the ones after use.
            "WEB_CONCURRENCY": "1",
        }
        env.pop("PROXY_COUNT", None)
        upgrade(env)
        server = Gunicorn(env=env, log=tmp_path / "gunicorn.log")
        server.start()
        try:
            with requests.Session() as phone:
                made = phone.post(f"{server.url}/api/v1/rubbers", json={}, timeout=10)
                assert made.status_code == 201, made.text
                rubber = f"{server.url}/api/v1/rubbers/{made.json()['id']}"
                before = [phone.get(rubber, timeout=10).status_code for _ in range(WARM_UP)]
                assert before == [200] * WARM_UP
                database.restart()
                after = [phone.get(rubber, timeout=10).status_code for _ in range(AFTER)]
        finally:
            server.stop()
    print(f"\n[hardening] after pg_ctl restart -m fast, {AFTER} GETs answered {after}")
    assert after == [200] * AFTER, (after, server.log.read_text()[-3000:])
