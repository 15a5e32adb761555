"""The database under real use, on SQLite and on PostgreSQL: phones writing at once, odd data."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import DeviceRubber, Hand, Rubber, WriteKey
from scorekeeper.web import tokens

PHONES = 4
HANDS_EACH = 5


def at_once(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released together; their results in order."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count
    errors: list[BaseException] = []

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[index] = work(index)
        except BaseException as error:  # re-raised in the test's thread below
            errors.append(error)

    threads = [threading.Thread(target=run, args=(index,)) for index in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    if errors:
        raise errors[0]
    return results


def new_rubber(client: FlaskClient) -> tuple[str, dict[str, str]]:
    created = client.post(
        "/api/v1/rubbers", json={"rules": {"preset": "online", "games_to_win": 20}}
    ).get_json()
    return created["id"], {"X-Edit-Key": created["edit_key"]}


def stored(app: Flask, rubber_id: str) -> tuple[Rubber, list[Hand]]:
    with app.app_context():
        rubber = db.session.get(Rubber, rubber_id)
        assert rubber is not None
        hands = list(rubber.hands)
        state = rubber.state()
        assert (rubber.games0, rubber.games1) == state.games
        assert rubber.hand_count == len(state.hands) == len(hands)
        db.session.expunge_all()
        return rubber, hands


def test_phones_writing_at_once_lose_no_hand(app: Flask, client: FlaskClient) -> None:
    rubber_id, key = new_rubber(client)
    url = f"/api/v1/rubbers/{rubber_id}/hands"

    def phone(index: int) -> list[int]:
        own = app.test_client()
        return [
            own.post(
                url, json={"points": [60, 60], "key": f"{index}-{hand}"}, headers=key
            ).status_code
            for hand in range(HANDS_EACH)
        ]

    statuses = [status for answers in at_once(PHONES, phone) for status in answers]
    assert set(statuses) <= {201, 409}, statuses  # 409 only if a write lost every retry
    assert statuses.count(201) >= PHONES * HANDS_EACH // 2
    rubber, hands = stored(app, rubber_id)
    assert [hand.number for hand in hands] == list(range(1, statuses.count(201) + 1))
    assert rubber.version == 1 + statuses.count(201)


def test_the_same_write_sent_at_once_is_stored_once(app: Flask, client: FlaskClient) -> None:
    rubber_id, key = new_rubber(client)
    url = f"/api/v1/rubbers/{rubber_id}/hands"
    body = {"points": [70, 50], "key": "double-tap"}

    def tap(_index: int) -> tuple[int, Any]:
        response = app.test_client().post(url, json=body, headers=key)
        return response.status_code, response.get_json()

    answers = at_once(PHONES, tap)
    assert {status for status, _ in answers} == {201}
    assert len({repr(answer) for _, answer in answers}) == 1
    _rubber, hands = stored(app, rubber_id)
    assert len(hands) == 1
    with app.app_context():
        keys = db.session.execute(db.select(WriteKey)).scalars().all()
        assert [(row.key, row.status) for row in keys] == [("double-tap", 201)]


def test_a_stale_version_is_a_conflict_when_two_phones_race(
    app: Flask, client: FlaskClient
) -> None:
    rubber_id, key = new_rubber(client)
    url = f"/api/v1/rubbers/{rubber_id}/hands"

    def phone(index: int) -> int:
        body = {"points": [70, 50], "version": 1, "key": f"phone-{index}"}
        return int(app.test_client().post(url, json=body, headers=key).status_code)

    statuses = at_once(PHONES, phone)
    assert sorted(statuses) == [201] + [409] * (PHONES - 1)
    _rubber, hands = stored(app, rubber_id)
    assert len(hands) == 1


def test_json_columns_round_trip(app: Flask, client: FlaskClient) -> None:
    players = ["Ana", "", "Zé 😀", "x" * 40]
    created = client.post(
        "/api/v1/rubbers", json={"players": players, "rules": {"preset": "acores"}}
    ).get_json()
    with app.app_context():
        rubber = db.session.get(Rubber, created["id"])
        assert rubber is not None
        assert rubber.players == players
        assert engine.RuleSet.from_dict(rubber.rules) == engine.RuleSet.from_dict(
            {"preset": "acores"}
        )
        assert rubber.rule_set().to_dict() == created["rules"]


def test_a_lost_race_is_retried_on_either_database() -> None:
    from sqlalchemy.exc import OperationalError

    class Orig(Exception):
        def __init__(self, message: str, sqlstate: str | None = None) -> None:
            super().__init__(message)
            self.sqlstate = sqlstate

    def error(message: str, sqlstate: str | None = None) -> OperationalError:
        return OperationalError("UPDATE rubbers", {}, Orig(message, sqlstate))

    assert tokens.lost_a_race(error("database is locked"))
    assert tokens.lost_a_race(error("could not serialize access", "40001"))
    assert tokens.lost_a_race(error("deadlock detected", "40P01"))
    assert tokens.lost_a_race(error("something else", "40P01"))
    assert not tokens.lost_a_race(error("disk I/O error"))
    assert not tokens.lost_a_race(error("connection refused", "08006"))


def test_the_tests_run_on_the_database_that_database_url_names(app: Flask) -> None:
    """A run with DATABASE_URL set is really a run on that server, not on a SQLite file."""
    import os

    wanted = os.environ.get("DATABASE_URL", "sqlite://")
    with app.app_context():
        assert db.engine.url.get_backend_name() == wanted.split(":")[0].split("+")[0]


def test_one_phone_opening_its_edit_link_twice_at_once_is_granted_once(
    app: Flask, client: FlaskClient
) -> None:
    rubber_id, key = new_rubber(client)
    phone = app.test_client()
    assert phone.get("/language/en").status_code == 302
    phone.post("/rubbers")  # the phone gets its device id
    cookie = phone.get_cookie("session")
    assert cookie is not None
    link = f"/r/{rubber_id}/edit/{key['X-Edit-Key']}"

    def tab(_index: int) -> int:
        own = app.test_client()
        own.set_cookie("session", cookie.value)
        return int(own.get(link).status_code)

    for _ in range(5):
        with app.app_context():
            db.session.execute(db.delete(DeviceRubber).where(DeviceRubber.rubber_id == rubber_id))
            db.session.commit()
        assert at_once(PHONES, tab) == [302] * PHONES
        with app.app_context():
            grants = db.session.execute(
                db.select(DeviceRubber).where(DeviceRubber.rubber_id == rubber_id)
            ).scalars()
            assert len(list(grants)) == 1
