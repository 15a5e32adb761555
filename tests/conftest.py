"""Fixtures: an app on a fresh database per test, its client and CLI runner.

Also how the suite is shared out (tests/README.md): each of pytest-xdist's workers has a
PostgreSQL database of its own, and the tests that touch no database are marked ``pure`` and
run on SQLite's run only."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tests.support.apps import fresh_app, share_url_builders

ROOT = Path(__file__).resolve().parent.parent
PURE = {
    "tests/engine": "the engine imports no database (tests/engine/test_quality.py)",
    "tests/background/test_work.py": "an analysis computed from a card record, with no queue",
    "tests/background/test_beside.py": "`make run` on an SQLite file of its own, whatever "
    "DATABASE_URL says",
    "tests/test_architecture.py": "reads the package's source and imports",
    "tests/web/test_catalogues.py": "reads the translation catalogues",
    "tests/web/test_contrast.py": "reads the style sheet",
    "tests/system/test_bench.py": "the benchmark's arithmetic",
    "tests/system/test_serving.py": "serves an SQLite file of its own, whatever DATABASE_URL says",
    "tests/system/test_wheel.py": "serves an SQLite file of its own, whatever DATABASE_URL says",
    "tests/system/test_database_restart.py": "restarts a PostgreSQL of its own, whatever "
    "DATABASE_URL says",
}
"""What touches no database, and why: the PostgreSQL run leaves it to SQLite's (tests/README.md).

Every doctest is pure too. A pure test that connects to a database fails."""

ONE_DATABASE = {
    "tests/browser": "a page in Chromium: its server's reads and writes are those of the API and "
    "the forms, whose own tests run on both databases",
    "tests/system/test_nginx_answers.py": "nginx's own answers, whatever the app's database",
    "tests/system/test_slow_clients.py": "nginx holding slow clients, whatever the app's database",
    "tests/web/test_i18n.py": "the language a phone gets and the catalogues' words",
    "tests/web/test_language_switch.py": "where the language switch goes back to",
    "tests/web/test_glossary.py": "the glossary's words in each language",
    "tests/web/test_wording_pt.py": "the pages' Portuguese words",
    "tests/web/test_engine_wording.py": "the words of each code the engine answers with",
    "tests/web/test_https_headers.py": "the headers of an answer over https",
    "tests/web/test_pwa.py": "the manifest, the icons and the service worker",
    "tests/web/test_proxy.py": "which forwarded headers the app believes",
    "tests/web/test_hosts.py": "which Host names the app answers",
}
"""What touches a database but checks nothing a database changes, and why: the PostgreSQL run
leaves it to SQLite's too (tests/README.md), but for BOTH_DATABASES."""

BOTH_DATABASES = {
    "tests/browser/test_two_phones.py": "two phones' hands on one rubber, refused as stale",
    "tests/browser/test_offline.py": "hands queued offline, sent once when the network is back",
}
"""The browser tests of two writers at once, or of one write sent twice: run on both."""


def pytest_configure(config: pytest.Config) -> None:
    _own_database()
    share_url_builders()
    sa.event.listen(sa.engine.Engine, "engine_connect", _no_database_in_a_pure_test)


def _own_database() -> None:
    """On PostgreSQL, an xdist worker's DATABASE_URL names a database of its own.

    Every test drops and makes the tables it uses: two workers on one database would drop
    each other's. The database is made beside DATABASE_URL's (its role may, .ci/postgres)."""
    url = os.environ.get("DATABASE_URL", "")
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker or not url.startswith("postgresql"):
        return
    shared = sa.make_url(url)
    own = f"{shared.database}_{worker}"
    engine = sa.create_engine(shared, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            exists = connection.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": own}
            ).scalar()
            if not exists:
                connection.execute(sa.text(f'CREATE DATABASE "{own}"'))
    finally:
        engine.dispose()
    os.environ["DATABASE_URL"] = shared.set(database=own).render_as_string(hide_password=False)


_PURE: set[str] = set()
"""The node ids of the pure tests collected here."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark the pure tests and ONE_DATABASE's; on PostgreSQL (DATABASE_URL), run neither.

    The pure ones are PURE's and every doctest. Each runs the same on any database, so SQLite's
    run is enough for it."""
    once: set[str] = set()
    for item in items:
        where = item.path.relative_to(ROOT)
        if isinstance(item, pytest.DoctestItem) or any(where.is_relative_to(path) for path in PURE):
            item.add_marker(pytest.mark.pure)
        if item.get_closest_marker("pure"):
            _PURE.add(item.nodeid)
        elif _on_one_database(where):
            item.add_marker(pytest.mark.one_database)
            once.add(item.nodeid)
    if not os.environ.get("DATABASE_URL"):
        return
    left = _PURE | once
    kept = [item for item in items if item.nodeid not in left]
    config.hook.pytest_deselected(items=[item for item in items if item.nodeid in left])
    items[:] = kept


def _on_one_database(where: Path) -> bool:
    """Whether the test module at ``where`` runs on SQLite's run only (ONE_DATABASE)."""
    if any(where == Path(path) for path in BOTH_DATABASES):
        return False
    return any(where.is_relative_to(path) for path in ONE_DATABASE)


def _no_database_in_a_pure_test(*_args: Any) -> None:
    """A test marked pure that connects to a database fails: it must run on PostgreSQL too."""
    current = os.environ.get("PYTEST_CURRENT_TEST", "").rsplit(" ", 1)[0]
    if current in _PURE:
        raise AssertionError(f"{current} is marked pure but connects to a database")


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder = tmp_path_factory.mktemp("db")
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
        # Tests create many rubbers from one address; tests/web/test_limits.py turns them on.
        "RATELIMIT_ENABLED": False,
        # The analyses' queue beside the database, with no consumer: a POST answers 202 at once.
        "ANALYSIS_QUEUE_URL": f"sqlite:///{folder / 'queue.sqlite3'}",
    }
    with fresh_app(folder / "test.sqlite3", config) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
