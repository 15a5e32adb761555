"""Fixtures: an app on a fresh database per test, its client and CLI runner."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from tests.support.apps import fresh_app


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
        "ANALYSIS_WAIT": 0.0,
    }
    with fresh_app(folder / "test.sqlite3", config) as app:
        yield app


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
