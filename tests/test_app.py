"""The factory, its configuration, the database set-up, CSRF and the schema's migrations."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient
from flask_migrate import downgrade, upgrade
from sqlalchemy import inspect, select, text

from scorekeeper import create_app, engine
from scorekeeper.extensions import db
from scorekeeper.groups import store as group_store
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from tests.api.test_tournaments import create, key, matches, pairs, state
from tests.support.apps import fresh_app
from tests.support.bulk import bulk_group
from tests.support.recompute import full_recompute


def test_secret_key_is_generated_once_into_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'a.db'}"}
    monkeypatch.setattr(Flask, "auto_find_instance_path", lambda self: str(tmp_path / "instance"))
    first = create_app(dict(config)).config["SECRET_KEY"]
    second = create_app(dict(config)).config["SECRET_KEY"]
    assert first == second
    assert len(first) == 64 and first != "dev"
    key_file = tmp_path / "instance" / "secret_key"
    assert key_file.read_text().strip() == first
    assert oct(key_file.stat().st_mode & 0o777) == "0o600"
    monkeypatch.setenv("SECRET_KEY", "from-the-environment")
    assert create_app(dict(config)).config["SECRET_KEY"] == "from-the-environment"


def test_database_url_switches_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'chosen.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    app = create_app({"SECRET_KEY": "x"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == url


def test_default_database_is_an_sqlite_file_in_instance(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DATABASE_URL", raising=False)
    app = create_app({"SECRET_KEY": "x"})
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:///" + os.path.join(
        app.instance_path, "scorekeeper.sqlite3"
    )


@pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgresql"),
    reason="SQLite's own pragmas: DATABASE_URL is PostgreSQL",
)
def test_sqlite_runs_in_wal_mode_with_a_busy_timeout(app: Flask) -> None:
    with app.app_context():
        assert db.session.execute(text("PRAGMA journal_mode")).scalar() == "wal"
        assert db.session.execute(text("PRAGMA busy_timeout")).scalar() == 10_000
        assert db.session.execute(text("PRAGMA foreign_keys")).scalar() == 1


@pytest.fixture
def bare(tmp_path: Path) -> Iterator[Flask]:
    """The app on a database with no table at all, for the migrations to build; emptied after."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{tmp_path / 'migrated.db'}"
    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url})

    def empty() -> None:
        db.session.remove()
        db.drop_all()
        db.session.execute(text("DROP TABLE IF EXISTS alembic_version"))
        db.session.commit()

    with app.app_context():
        empty()
    yield app
    with app.app_context():
        empty()
        db.session.remove()
        db.engine.dispose()


def test_migrations_build_the_schema_the_models_describe(bare: Flask) -> None:
    with bare.app_context():
        upgrade()
        inspector = inspect(db.engine)
        for table in db.metadata.sorted_tables:
            columns = {column["name"] for column in inspector.get_columns(table.name)}
            assert columns == {column.name for column in table.columns}, table.name
        from alembic.autogenerate import compare_metadata
        from alembic.migration import MigrationContext

        with db.engine.connect() as connection:
            diff = compare_metadata(MigrationContext.configure(connection), db.metadata)
        assert diff == []


def test_the_migration_to_stored_totals_counts_the_groups_already_there(bare: Flask) -> None:
    """Groups stored before the totals were kept: down to that revision and up again.

    The totals the migration counts are those a full fold of every hand gives, and the phones'
    histories know when each rubber was started."""
    app = bare
    with app.app_context():
        upgrade()
    group_id, _ = bulk_group(app, 40, "before", device="phone")
    with app.app_context():
        expected = full_recompute(group_id)
        db.session.remove()  # its reads must not hold the tables the migrations change
        downgrade(revision="7061fa76a869")
        upgrade()
        assert group_store.stats(group_id) == expected
        assert group_store.rubber_counts(group_id) == (40, 40)
        grants = db.session.execute(
            select(DeviceRubber.created_at, Rubber.created_at).join(Rubber)
        ).all()
        assert len(grants) == 40 and all(copied == started for copied, started in grants)


def test_the_migration_to_one_next_rubber_keeps_the_first_started(bare: Flask) -> None:
    with bare.app_context():
        upgrade()
        made = [
            store.create_rubber(
                teams=("Nós", "Eles"),
                players=None,
                first_dealer=0,
                rules=engine.RuleSet(),
                previous_id=previous,
            )[0].id
            for previous in (None, None, None)
        ]
        db.session.remove()
        downgrade(revision="b6bfed50b2cd")  # before the index was unique: a double tap stored two
        for rubber_id in made[1:]:
            db.session.execute(
                text("UPDATE rubbers SET previous_id = :first WHERE id = :id"),
                {"first": made[0], "id": rubber_id},
            )
        db.session.commit()
        db.session.remove()  # no transaction of the test's may hold the table the index is on
        upgrade()
        chained = db.session.execute(select(Rubber.id, Rubber.previous_id)).all()
        assert sorted(previous or "" for _, previous in chained) == ["", "", made[0]]
        assert dict(chained)[made[1]] == made[0]  # the first started keeps the link


def test_the_migration_to_first_round_tables_moves_a_knockouts_rubbers_and_walkovers(
    bare: Flask,
) -> None:
    """A knockout of 6 kept at its bracket places (tables 2 and 4) plays at 1 and 2 after it."""
    with bare.app_context():
        upgrade()
    client = bare.test_client()
    tournament = create(client, format="knockout", pairs=pairs(6))
    played = [m for m in matches(state(client, tournament), 1) if m["pairs"][1] is not None]
    assert [(m["table"], m["pairs"]) for m in played] == [(1, [4, 5]), (2, [3, 6])]
    given = client.post(
        f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/2/walkover",
        json={"winner": 6},
        headers=key(tournament),
    )
    assert given.status_code == 200, given.get_json()
    before = state(client, tournament)
    kept = 'SELECT "table" FROM tournament_rubbers WHERE round = 1 ORDER BY "table"'
    with bare.app_context():
        assert db.session.execute(text(kept)).scalars().all() == [1, 2]
        db.session.remove()
        downgrade(revision="c5d7e9f1a3b5")  # the numbering of the bracket's places
        assert db.session.execute(text(kept)).scalars().all() == [2, 4]
        walkovers = db.session.execute(text("SELECT walkovers FROM tournaments")).scalar_one()
        assert (json.loads(walkovers) if isinstance(walkovers, str) else walkovers) == [[1, 4, 6]]
        db.session.remove()
        upgrade()
    assert state(client, tournament) == before


def test_security_headers_on_every_page(client: FlaskClient) -> None:
    response = client.get("/")
    policy = response.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert "unsafe-inline" not in policy
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_pages_carry_no_inline_script_or_style(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    html = client.get(page).get_data(as_text=True)
    assert "<style" not in html and " style=" not in html
    # Scripts only as deferred files from static/, never inline (the CSP would refuse them).
    scripts = re.findall(r"<script([^>]*)>([^<]*)</script>", html)
    assert scripts, "the rubber page loads its few scripts"
    for attributes, body in scripts:
        assert re.search(r' src="/static/[a-z]+\.js\?v=[0-9a-f]{12}"', attributes)
        assert " defer" in attributes
        assert not body.strip()
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


@pytest.fixture
def csrf_app(tmp_path: Path) -> Iterator[Flask]:
    with fresh_app(tmp_path / "csrf.db", {"SECRET_KEY": "csrf-test", "TESTING": True}) as app:
        yield app


def _token(html: str) -> str:
    found = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', html) or re.search(
        r'type="hidden" name="csrf_token" value="([^"]+)"', html
    )
    assert found, html
    return found.group(1)


def test_forms_need_the_real_csrf_token(csrf_app: Flask) -> None:
    client = csrf_app.test_client()
    assert client.post("/rubbers").status_code == 400
    with csrf_app.app_context():
        assert db.session.execute(db.select(db.func.count(Rubber.id))).scalar() == 0
    token = _token(client.get("/").get_data(as_text=True))
    response = client.post("/rubbers", data={"csrf_token": token})
    assert response.status_code == 302
    page = response.location
    token = _token(client.get(page).get_data(as_text=True))
    forged = client.post(page + "/hands", data={"csrf_token": "forged", "points": "75"})
    assert forged.status_code == 400
    ok = client.post(page + "/hands", data={"csrf_token": token, "points": "75", "team": "0"})
    assert ok.status_code == 302
    with csrf_app.app_context():
        rubber = db.session.get(Rubber, page.rsplit("/", 1)[-1])
        assert rubber is not None and rubber.games0 == 1


class _PostForms(HTMLParser):
    """Each form that posts, with the csrf_token values of its hidden fields."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[list[str]] = []
        self._in_post = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "form":
            self._in_post = (found.get("method") or "get").lower() == "post"
            if self._in_post:
                self.forms.append([])
        elif tag == "input" and self._in_post and found.get("name") == "csrf_token":
            self.forms[-1].append(found.get("value") or "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._in_post = False


def test_every_form_that_posts_carries_the_sessions_token(csrf_app: Flask) -> None:
    """The forms carry the token CSRFProtect checks: none checks one of its own (web.forms)."""
    client = csrf_app.test_client()
    token = _token(client.get("/").get_data(as_text=True))
    rubber = client.post("/rubbers", data={"csrf_token": token}).location
    group = client.post("/groups/new", data={"csrf_token": token, "name": "Café Central"})
    assert group.status_code == 302, group.get_data(as_text=True)
    pages = ["/", "/rubbers/new", rubber, "/bidding/new", "/groups/new", group.location]
    for page in pages:
        parser = _PostForms()
        parser.feed(client.get(page).get_data(as_text=True))
        assert parser.forms, page
        for carried in parser.forms:
            # The session's token, signed again with the time of the page (itsdangerous).
            assert [value.split(".")[0] for value in carried] == [token.split(".")[0]], (
                page,
                carried,
            )


def test_csrf_token_outlives_a_four_hour_sitting(
    csrf_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    import time

    client = csrf_app.test_client()
    token = _token(client.get("/").get_data(as_text=True))
    real_time = time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 5 * 3600)
    assert client.post("/rubbers", data={"csrf_token": token}).status_code == 302
    assert csrf_app.config["WTF_CSRF_TIME_LIMIT"] is None


def test_sqlite_file_is_a_real_sqlite_database(tmp_path: Path) -> None:
    path = tmp_path / "real.db"
    app = create_app({"SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        db.create_all()
        client = app.test_client()
        app.config["WTF_CSRF_ENABLED"] = False
        client.post("/rubbers")
        db.engine.dispose()
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT count(*) FROM rubbers").fetchone() == (1,)
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
