"""A database out of reach answers 503 with a sentence; never a generic 500.

Out of reach is a read-only file or folder, a disk that is full, a folder gone. The sentence is a
page in the reader's language, or the API's error with code ``unavailable``. What was acknowledged
before is all still there.

The database is an SQLite file the test fills through a writable app, then serves to an app
that cannot write it: opened read-only by SQLite (the error a read-only file gives; as root,
which CI is, file modes do not stop writes), or made read-only by its modes when the test does
not run as root, or moved away with its folder. On PostgreSQL (DATABASE_URL) a server that
turns every transaction read-only is the same.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.support.apps import fresh_app, snapshot

CONFIG = {"TESTING": True, "SECRET_KEY": "unavailable", "WTF_CSRF_ENABLED": False}
PT_TITLE = "Marcador indisponível"
EN_TITLE = "The scores are out of reach"
PT_SENTENCE = "O servidor não consegue ler nem gravar os registos neste momento."


@dataclass
class Recorded:
    """A rubber with two acknowledged hands, its scorer's session, a group, and a database URL.

    The URL is that of the database they are in."""

    url: str
    rubber: dict[str, Any]
    scorer_cookie: str
    page_rubber: str
    group: dict[str, Any]
    before: dict[str, list[tuple[Any, ...]]]


def app_for(url: str, **engine_options: Any) -> Flask:
    config = {**CONFIG, "SQLALCHEMY_DATABASE_URI": url}
    if engine_options:
        config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options
    return create_app(config)


def dispose(app: Flask) -> None:
    with app.app_context():
        db.session.remove()
        db.engine.dispose()


@pytest.fixture
def recorded(tmp_path: Path) -> Iterator[Recorded]:
    folder = tmp_path / "data"
    folder.mkdir()
    url = f"sqlite:///{folder / 'scores.sqlite3'}"
    app = app_for(url)
    with app.app_context():
        db.create_all()
    client = app.test_client()
    rubber = client.post("/api/v1/rubbers", json={}).get_json()
    for points in ([70, 50], [30, 90]):
        answer = client.post(
            f"/api/v1/rubbers/{rubber['id']}/hands",
            json={"points": points},
            headers={"X-Edit-Key": rubber["edit_key"]},
        )
        assert answer.status_code == 201
    page_rubber = client.post("/rubbers").headers["Location"].rsplit("/", 1)[-1]
    assert (
        client.post(f"/r/{page_rubber}/hands", data={"points": "80", "team": "0"}).status_code
        == 302
    )
    group = client.post("/api/v1/groups", json={"name": "Tasca"}).get_json()
    cookie = client.get_cookie("session")
    assert cookie is not None
    before = snapshot(app)
    dispose(app)
    yield Recorded(url, rubber, cookie.value, page_rubber, group, before)
    for path in (folder, *folder.iterdir()):
        if path.exists():
            path.chmod(path.stat().st_mode | stat.S_IWUSR | stat.S_IXUSR)


def read_only_open(recorded: Recorded, _tmp: Path) -> Flask:
    """SQLite opens the file read-only: every write fails as on a read-only file."""
    path = recorded.url.removeprefix("sqlite:///")
    return app_for(f"sqlite:///file:{path}?mode=ro&uri=true")


def read_only_modes(recorded: Recorded, _tmp: Path) -> Flask:
    """The file and its folder made read-only (not as root, whom modes do not stop)."""
    path = Path(recorded.url.removeprefix("sqlite:///"))
    for made in path.parent.iterdir():
        made.chmod(0o444)
    path.parent.chmod(0o555)
    return app_for(recorded.url)


def folder_gone(recorded: Recorded, tmp: Path) -> Flask:
    """The database's folder is not there (an unmounted volume): reads fail too."""
    path = Path(recorded.url.removeprefix("sqlite:///"))
    shutil.move(str(path.parent), str(tmp / "moved-away"))
    return app_for(recorded.url)


BREAKS: dict[str, Callable[[Recorded, Path], Flask]] = {
    "read-only file": read_only_open,
    "folder gone": folder_gone,
}
if os.geteuid() != 0:
    BREAKS["read-only file and folder"] = read_only_modes


def restore(recorded: Recorded, tmp: Path) -> None:
    moved = tmp / "moved-away"
    if moved.exists():
        shutil.move(str(moved), recorded.url.removeprefix("sqlite:///").rsplit("/", 1)[0])
    path = Path(recorded.url.removeprefix("sqlite:///"))
    for made in (path.parent, *path.parent.iterdir()):
        made.chmod(0o755 if made.is_dir() else 0o644)


def assert_unavailable_json(answer: Any) -> None:
    assert answer.status_code == 503, answer.get_data(as_text=True)[:500]
    body = answer.get_json()
    assert set(body) == {"error", "field", "code"}
    assert body["code"] == "unavailable" and body["field"] is None and body["error"].strip()
    assert answer.headers["Retry-After"] == "30"


def assert_unavailable_page(answer: Any, title: str = PT_TITLE) -> None:
    text = answer.get_data(as_text=True)
    assert answer.status_code == 503, text[:500]
    assert f"<h1>{title}</h1>" in text, text[:2000]
    assert answer.headers["Retry-After"] == "30"
    assert "Algo correu mal" not in text and "Something went wrong" not in text


@pytest.mark.parametrize("way", sorted(BREAKS))
def test_a_database_out_of_reach_is_503_and_keeps_what_was_acknowledged(
    recorded: Recorded, tmp_path: Path, way: str
) -> None:
    broken = BREAKS[way](recorded, tmp_path)
    scorer = broken.test_client()
    scorer.set_cookie("session", recorded.scorer_cookie)
    stranger = broken.test_client()
    rubber = recorded.rubber
    key = {"X-Edit-Key": rubber["edit_key"]}
    try:
        # The API: a hand, a new rubber, a new group.
        assert_unavailable_json(
            scorer.post(
                f"/api/v1/rubbers/{rubber['id']}/hands", json={"points": [61, 59]}, headers=key
            )
        )
        assert_unavailable_json(scorer.post("/api/v1/rubbers", json={}))
        assert_unavailable_json(scorer.post("/api/v1/groups", json={"name": "Outra"}))
        # The pages: a hand from the scorer's phone, a new rubber, an edit link opened.
        hand = scorer.post(f"/r/{recorded.page_rubber}/hands", data={"points": "75", "team": "1"})
        assert_unavailable_page(hand)
        assert PT_SENTENCE in hand.get_data(as_text=True)
        english = scorer.post("/rubbers", headers={"Accept-Language": "en"})
        assert_unavailable_page(english, EN_TITLE)
        assert_unavailable_page(stranger.get(f"/r/{rubber['id']}/edit/{rubber['edit_key']}"))
        # Reading may work (a read-only file) or not (no folder); it is never a 500.
        for address in (f"/r/{rubber['id']}", f"/api/v1/rubbers/{rubber['id']}", "/", "/history"):
            answer = stranger.get(address)
            assert answer.status_code in (200, 503), (address, answer.status_code)
            if answer.status_code == 503 and address.startswith("/api/"):
                assert_unavailable_json(answer)
        if way == "folder gone":
            assert_unavailable_page(stranger.get(f"/r/{rubber['id']}"))
    finally:
        dispose(broken)
        restore(recorded, tmp_path)

    # Back on a writable database: exactly what was acknowledged, nothing more.
    again = app_for(recorded.url)
    assert snapshot(again) == recorded.before
    state = again.test_client().get(f"/api/v1/rubbers/{rubber['id']}").get_json()
    assert [hand["points"] for hand in state["hands"]] == [[70, 50], [30, 90]]
    dispose(again)


def postgresql_refusing_every_write_is_503(tmp_path: Path) -> None:
    """A standby, or a server told default_transaction_read_only: SQLSTATE 25006."""
    url = os.environ["DATABASE_URL"]
    with fresh_app(tmp_path / "unused.sqlite3", CONFIG) as app:
        rubber = app.test_client().post("/api/v1/rubbers", json={}).get_json()
        read_only = app_for(url, connect_args={"options": "-c default_transaction_read_only=on"})
        try:
            answer = read_only.test_client().post(
                f"/api/v1/rubbers/{rubber['id']}/hands",
                json={"points": [70, 50]},
                headers={"X-Edit-Key": rubber["edit_key"]},
            )
            assert_unavailable_json(answer)
            assert_unavailable_page(read_only.test_client().post("/rubbers"))
            state = read_only.test_client().get(f"/api/v1/rubbers/{rubber['id']}")
            assert state.status_code == 200 and state.get_json()["hands"] == []
        finally:
            dispose(read_only)


if os.environ.get("DATABASE_URL", "").startswith("postgresql"):
    test_postgresql_refusing_every_write_is_503 = postgresql_refusing_every_write_is_503


def test_another_database_error_is_still_a_500(tmp_path: Path) -> None:
    """Only a database out of reach is 503: a bug's SQL error stays the server error it is."""
    app = app_for(f"sqlite:///{tmp_path / 'bug.sqlite3'}", **{})
    app.config["PROPAGATE_EXCEPTIONS"] = False

    @app.get("/broken-sql")
    def broken_sql() -> str:
        db.session.execute(sa.text("SELECT * FROM no_such_table_at_all"))
        return "unreachable"

    answer = app.test_client().get("/broken-sql")
    assert answer.status_code == 500
    dispose(app)
