"""Fixtures: an app on a fresh database per test, its client and CLI runner."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient, FlaskCliRunner

from scorekeeper import create_app
from scorekeeper.models import db


def _database_url(tmp_path_factory: pytest.TempPathFactory) -> str:
    """DATABASE_URL when set (PostgreSQL in CI: its tables made afresh for each test), else a
    new SQLite file."""
    return os.environ.get("DATABASE_URL") or "sqlite:///" + str(
        tmp_path_factory.mktemp("db") / "test.sqlite3"
    )


@pytest.fixture
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test-secret-key",
            "SQLALCHEMY_DATABASE_URI": _database_url(tmp_path_factory),
            "WTF_CSRF_ENABLED": False,
        }
    )
    with app.app_context():
        db.drop_all()
        db.create_all()
    yield app
    with app.app_context():
        db.session.remove()
        db.drop_all()
        db.engine.dispose()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def runner(app: Flask) -> FlaskCliRunner:
    return app.test_cli_runner()
