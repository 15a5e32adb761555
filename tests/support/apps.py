"""Apps on a database of their own for one test, and a real HTTP server to serve one."""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from flask import Flask
from jinja2 import BytecodeCache
from jinja2.bccache import Bucket
from werkzeug.http import parse_cookie
from werkzeug.routing import Rule
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.extensions import db


@contextmanager
def fresh_app(sqlite_file: Path, config: dict[str, Any]) -> Iterator[Flask]:
    """The app on empty tables of its own.

    It runs on DATABASE_URL when it is set (PostgreSQL in CI), its tables emptied, else on a
    new SQLite file, a copy of one made empty per process: a test's database costs a copy or
    a TRUNCATE, not the schema's DDL made and dropped again (tests/README.md)."""
    url = os.environ.get("DATABASE_URL")
    app = create_app({**config, "SQLALCHEMY_DATABASE_URI": url or f"sqlite:///{sqlite_file}"})
    app.jinja_env.bytecode_cache = _COMPILED_TEMPLATES
    if url:
        with app.app_context():
            _empty_tables()
    else:  # before the app's first connection; create_app imported the models
        shutil.copyfile(_empty_sqlite_file(), sqlite_file)
    try:
        yield app
    finally:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


class _CompiledTemplates(BytecodeCache):
    """The templates' compiled code, kept by the test process for every app it makes.

    Each app compiles a template the first time it renders it, and a test's app is new: without
    this, a fifth of a page test's time went to compiling the same templates again. Jinja keys
    a template by its name and file and checks its source's hash, so an edited template is
    compiled anew; every app of the suite comes from create_app, with the same environment."""

    def __init__(self) -> None:
        self.kept: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self.kept.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.kept[bucket.key] = bucket.bytecode_to_string()


_COMPILED_TEMPLATES = _CompiledTemplates()


def share_url_builders() -> None:
    """Let the apps of the test process share werkzeug's compiled URL builders.

    Binding an app's URL map compiles two Python functions for each of its hundred rules:
    four fifths of ``create_app``'s 0.17 s of processor time, in each of the thousands of apps
    a run makes. Such a function is the same for the same rule: werkzeug builds it from the
    rule's parts, its defaults and whether unknown arguments are appended, and it reaches the
    rule's converters through the rule it is bound to. So the process compiles it once, keyed
    by all of those (tests/README.md, "Where the time goes")."""
    compile_builder = Rule._compile_builder
    built: dict[tuple[Any, ...], Any] = {}

    def shared(rule: Rule, append_unknown: bool = True) -> Any:
        key = (
            rule.rule,
            tuple(rule._trace),
            repr(sorted((rule.defaults or {}).items())),
            tuple((name, type(converter)) for name, converter in rule._converters.items()),
            append_unknown,
        )
        if key not in built:
            built[key] = compile_builder(rule, append_unknown)
        return built[key]

    Rule._compile_builder = shared  # type: ignore[method-assign]


def _empty_tables() -> None:
    """Empty the models' tables on the app's database, made afresh if they are not all there.

    Only the models' tables there (as this module leaves them): emptied, their sequences started
    again. Anything else (none yet, or a migrated schema a test left): dropped and made anew."""
    tables = db.metadata.sorted_tables
    if set(sa.inspect(db.engine).get_table_names()) == {table.name for table in tables}:
        names = ", ".join(f'"{table.name}"' for table in tables)
        db.session.execute(sa.text(f"TRUNCATE {names} RESTART IDENTITY CASCADE"))
        db.session.commit()
    else:
        db.drop_all()
        db.create_all()
    db.session.remove()


_EMPTY_SQLITE: list[Path] = []
"""The SQLite file with the models' empty tables that this process copies for each test."""


def _empty_sqlite_file() -> Path:
    if not _EMPTY_SQLITE:
        folder = tempfile.mkdtemp(prefix="scorekeeper-empty-")
        atexit.register(shutil.rmtree, folder, ignore_errors=True)
        path = Path(folder) / "empty.sqlite3"
        engine = sa.create_engine(f"sqlite:///{path}")
        db.metadata.create_all(engine)
        engine.dispose()
        _EMPTY_SQLITE.append(path)
    return _EMPTY_SQLITE[0]


@contextmanager
def migrated_database(sqlite_file: Path) -> Iterator[str]:
    """The address of a database made by the real migrations, emptied afterwards.

    DATABASE_URL when it is set (PostgreSQL in CI: its tables and migration record dropped
    first, as other tests leave it), else a new SQLite file. The schema comes from the test's
    own `flask db upgrade` (tests.support.servers.upgrade)."""
    url = os.environ.get("DATABASE_URL") or f"sqlite:///{sqlite_file}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": url})

    def empty() -> None:
        with app.app_context():
            db.drop_all()
            db.session.execute(sa.text("DROP TABLE IF EXISTS alembic_version"))
            db.session.commit()
            db.session.remove()
            db.engine.dispose()

    empty()
    try:
        yield url
    finally:
        empty()


@contextmanager
def served(app: Flask, *, threaded: bool = True) -> Iterator[str]:
    """The app, CSRF and all, on an HTTP server on a free port of 127.0.0.1: its URL.

    The server is a thread of this process, so its SQL can be counted here. A phone can lose
    its network to it (:func:`unplug`)."""
    cable = _Cable(app)
    server = make_server("127.0.0.1", 0, cable, threaded=threaded)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.port}"
    _CABLES[url] = cable
    try:
        yield url
    finally:
        del _CABLES[url]
        server.shutdown()
        thread.join(timeout=10)
        server.server_close()


PHONE_COOKIE = "test-phone"
"""The cookie that names a test's phone to the server it is unplugged from."""


class _Cable:
    """The served app behind each phone's network cable.

    A request from an unplugged phone (its :data:`PHONE_COOKIE`) has its connection closed
    before the app sees it: the phone gets a network error, as with no network at all, and
    nothing reaches the server. The browser's own offline switch (Playwright's ``set_offline``)
    is an emulation that a request can miss while a page is being replaced; the cookie jar
    is not (tests/README.md, "The offline tests cut the phone off at the test server")."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.unplugged: set[str] = set()

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        if self.unplugged and parse_cookie(environ).get(PHONE_COOKIE) in self.unplugged:
            environ["werkzeug.socket"].shutdown(socket.SHUT_RDWR)
            raise ConnectionResetError("this phone has no network")  # werkzeug: a dropped client
        return self.app(environ, start_response)


_CABLES: dict[str, _Cable] = {}


def unplug(server_url: str, phone: str) -> None:
    """From now on, the server (a URL from :func:`served`) gets nothing from that phone."""
    _CABLES[server_url].unplugged.add(phone)


def plug(server_url: str, phone: str) -> None:
    """The phone's requests reach the server again."""
    _CABLES[server_url].unplugged.discard(phone)


@contextmanager
def counted_queries(app: Flask) -> Iterator[list[str]]:
    """Every SQL statement the app sends while inside."""
    statements: list[str] = []

    def count(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    with app.app_context():
        engine = db.engine
    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table in the database, as stored."""
    with app.app_context(), db.engine.connect() as connection:
        tables = sa.inspect(connection).get_table_names()
        return {
            table: sorted(
                (tuple(row) for row in connection.execute(sa.text(f'SELECT * FROM "{table}"'))),
                key=repr,
            )
            for table in tables
        }


def held_key(app: Flask, client: Any, owner_id: str, book: str = "keys") -> str:
    """Return the edit key the phone of this test client was given, kept in its rows.

    The book is a rubber's (``keys``), a group's (``group_keys``) or a bidding game's
    (``bidding_keys``): see web/device.py."""
    from scorekeeper.web.device import DeviceKey, unseal

    with client.session_transaction() as session:
        device, secret = session["device"], session["seal"]
    with app.app_context():
        row = db.session.get(DeviceKey, (device, book, owner_id))
        assert row is not None, (book, owner_id)
        key = unseal(secret, row.sealed)
        assert key is not None
        return key
