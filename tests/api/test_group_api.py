"""The groups' JSON API of API.md ("Review"): shapes field by field, keys, export and import.

Also the seat cache against a full recompute, and SQL queries that do not grow with the group."""

from __future__ import annotations

import os
import random
import re
import time
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.groups import statistics, totals
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.rubbers.models import Hand as HandRow
from scorekeeper.rubbers.models import Rubber
from tests.groups.test_review import build as build_small_group
from tests.support.api_calls import new_group, new_rubber, play
from tests.support.apps import counted_queries
from tests.support.bulk import bulk_group
from tests.support.fuzzing import FUZZ_SETTINGS, detach, fuzzed
from tests.support.recompute import full_recompute

WRONG_KEY = "not-the-key-of-this-group-at-all"


def table_rows(app: Flask) -> dict[str, int]:
    with app.app_context():
        return {
            table.name: int(
                db.session.execute(sa.select(sa.func.count()).select_from(table)).scalar() or 0
            )
            for table in db.metadata.sorted_tables
        }


def snapshot(app: Flask) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, as stored."""
    with app.app_context(), db.engine.connect() as connection:
        return {
            table.name: sorted((tuple(row) for row in connection.execute(table.select())), key=repr)
            for table in db.metadata.sorted_tables
        }


def assert_error(response: Any, status: int, field: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.get_json())
    body = response.get_json()
    assert isinstance(body["error"], str) and body["error"].strip()
    assert "field" in body
    if field is not None:
        assert body["field"] == field, body
    return dict(body)


# Shapes -----------------------------------------------------------------------------------


def test_create_a_group(client: FlaskClient) -> None:
    response = client.post("/api/v1/groups", json={"name": " Tasca do Zé "})
    assert response.status_code == 201
    body = response.get_json()
    assert {"id", "url", "name", "edit_key", "edit_url"} <= set(body)
    assert body["name"] == "Tasca do Zé"
    assert len(body["id"]) >= 22 and len(body["edit_key"]) >= 22  # 128 bits and more
    assert body["url"].endswith(f"/g/{body['id']}")
    assert body["edit_url"].endswith(f"/g/{body['id']}/edit/{body['edit_key']}")
    assert response.headers["Location"].endswith(f"/api/v1/groups/{body['id']}")
    assert response.headers["Cache-Control"] == "no-store"
    read = client.get(f"/api/v1/groups/{body['id']}").get_json()
    assert read["name"] == "Tasca do Zé" and read["rubbers"] == 0 and "edit_key" not in read


@pytest.mark.parametrize(
    ("body", "status", "field"),
    [
        ({}, 400, "name"),
        ({"name": ""}, 422, "name"),
        ({"name": "   "}, 422, "name"),
        ({"name": "x" * 41}, 422, "name"),
        ({"name": 7}, 400, "name"),
        ({"name": "Tasca", "colour": "red"}, 400, "colour"),
        ({"name": "a\x00b"}, 422, "name"),
    ],
)
def test_a_refused_group_is_not_stored(
    app: Flask, client: FlaskClient, body: dict[str, Any], status: int, field: str
) -> None:
    before = table_rows(app)
    assert_error(client.post("/api/v1/groups", json=body), status, field)
    assert table_rows(app) == before


def test_stats_shape_of_api_md(client: FlaskClient) -> None:
    group = new_group(client)
    rubber = new_rubber(client, group, players=["Ana", "Rui", "Eva", "Zé"])
    play(client, rubber, {"points": [95, 25]}, {"points": [95, 25]})
    stats = client.get(f"/api/v1/groups/{group['id']}/stats")
    assert stats.status_code == 200
    body = stats.get_json()
    assert body["rubbers"] == 1
    for player in body["players"]:
        for name in ("name", "rubbers", "won", "games_won", "games_lost", "pentes", "bandeiras"):
            assert name in player
        assert isinstance(player["rating"], float)
    ana = next(p for p in body["players"] if p["name"] == "Ana")
    assert (ana["rubbers"], ana["won"], ana["games_won"], ana["games_lost"], ana["pentes"]) == (
        1,
        1,
        4,
        0,
        1,
    )
    assert body["players"][0]["name"] in ("Ana", "Eva")  # the winners rank first
    assert [sorted(pair["players"]) for pair in body["pairs"]] in (
        [["Ana", "Eva"], ["Rui", "Zé"]],
        [["Rui", "Zé"], ["Ana", "Eva"]],
    )
    for pair in body["pairs"]:
        assert {"players", "rubbers", "won"} <= set(pair)


def test_unknown_group_is_404_everywhere(client: FlaskClient) -> None:
    for url in (
        "/api/v1/groups/nope",
        "/api/v1/groups/nope/stats",
        "/api/v1/groups/nope/export.json",
    ):
        assert_error(client.get(url), 404)
    assert_error(client.post("/api/v1/groups/nope/import", json={"rubbers": []}), 404)
    assert_error(client.post("/api/v1/groups/no%00pe/rubbers", json={"rubber": "x"}), 404)


# A rubber started in a group ----------------------------------------------------------------


def test_a_rubber_joins_a_group_with_its_key(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    rubber = new_rubber(client, group, players=["Ana", "Rui", "Eva", "Zé"])
    assert rubber["group"] == group["id"]
    assert rubber["version"] == 1
    before = table_rows(app)
    body = {"players": ["Ana", "Rui", "Eva", "Zé"], "group": group["id"]}
    assert_error(client.post("/api/v1/rubbers", json=body), 403)
    assert_error(client.post("/api/v1/rubbers", json=body, headers={"X-Group-Key": WRONG_KEY}), 403)
    assert_error(
        client.post(
            "/api/v1/rubbers", json={**body, "group": "nope"}, headers={"X-Group-Key": "x"}
        ),
        404,
        "group",
    )
    assert_error(client.post("/api/v1/rubbers", json={**body, "group": 5}), 400, "group")
    repeated = {"players": ["Ana", "Rui", " ANA", "Zé"], "group": group["id"]}
    assert_error(
        client.post("/api/v1/rubbers", json=repeated, headers={"X-Group-Key": group["edit_key"]}),
        422,
        "players",
    )
    assert table_rows(app) == before
    # Outside a group nothing changed: no key needed, a name may repeat.
    assert client.post("/api/v1/rubbers", json={"players": repeated["players"]}).status_code == 201
    assert client.post("/api/v1/rubbers", json={"group": None}).status_code == 201


def test_next_rubber_same_table_stays_in_the_group(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    rubber = new_rubber(client, group, players=["Ana", "Rui", "Eva", "Zé"])
    play(client, rubber, {"points": [95, 25]}, {"points": [95, 25]})
    assert client.get(f"/r/{rubber['id']}/edit/{rubber['edit_key']}").status_code == 302
    following = client.post(f"/r/{rubber['id']}/next")
    assert following.status_code == 302
    next_id = following.location.rsplit("/", 1)[-1]
    assert client.get(f"/api/v1/rubbers/{next_id}").get_json()["group"] == group["id"]


# Moving a rubber into a group -------------------------------------------------------------


def test_move_needs_both_keys(app: Flask, client: FlaskClient) -> None:
    group = new_group(client)
    rubber = new_rubber(client, None, players=["Ana", "Rui", "Eva", "Zé"])
    play(client, rubber, {"points": [95, 25]}, {"points": [95, 25]})
    url = f"/api/v1/groups/{group['id']}/rubbers"
    body = {"rubber": rubber["id"]}
    before = table_rows(app)
    assert_error(client.post(url, json=body, headers={"X-Edit-Key": rubber["edit_key"]}), 403)
    assert_error(client.post(url, json=body, headers={"X-Group-Key": group["edit_key"]}), 403)
    both = {"X-Group-Key": group["edit_key"], "X-Edit-Key": rubber["edit_key"]}
    assert_error(client.post(url, json={"rubber": "nope"}, headers=both), 404, "rubber")
    assert_error(client.post(url, json={}, headers=both), 400, "rubber")
    assert table_rows(app) == before
    moved = client.post(url, json=body, headers=both)
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["group"] == group["id"]
    stats = client.get(f"/api/v1/groups/{group['id']}/stats").get_json()
    assert stats["rubbers"] == 1 and len(stats["players"]) == 4
    assert client.post(url, json=body, headers=both).status_code == 200  # already there
    other = new_group(client, "Outra")
    again = {"X-Group-Key": other["edit_key"], "X-Edit-Key": rubber["edit_key"]}
    assert_error(
        client.post(f"/api/v1/groups/{other['id']}/rubbers", json=body, headers=again), 409
    )


# Export and import --------------------------------------------------------------------------


def test_export_is_every_rubber_as_a_state(client: FlaskClient) -> None:
    group_id = build_small_group(client)
    response = client.get(f"/api/v1/groups/{group_id}/export.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert "attachment" in response.headers["Content-Disposition"]
    data = response.get_json()
    assert data["format"] == "sueca-group" and data["group"]["id"] == group_id
    assert len(data["rubbers"]) == 5
    for state in data["rubbers"]:
        single = client.get(f"/api/v1/rubbers/{state['id']}").get_json()
        assert {k: v for k, v in state.items() if k not in ("created_at", "origin")} == single
        assert state["origin"] == state["id"]


def stats_without_ids(client: FlaskClient, group_id: str) -> dict[str, Any]:
    stats = dict(client.get(f"/api/v1/groups/{group_id}/stats").get_json())
    stats.pop("id")
    stats.pop("name")
    return stats


def test_export_then_import_into_an_empty_group_gives_the_same_statistics(
    app: Flask, client: FlaskClient
) -> None:
    group_id = build_small_group(client)
    exported = client.get(f"/api/v1/groups/{group_id}/export.json").get_json()
    empty = new_group(client, "Cópia")
    headers = {"X-Group-Key": empty["edit_key"]}
    imported = client.post(f"/api/v1/groups/{empty['id']}/import", json=exported, headers=headers)
    assert imported.status_code == 200, imported.get_json()
    body = imported.get_json()
    assert (body["created"], body["skipped"]) == (5, 0)
    assert {r["origin"] for r in body["rubbers"]} == {r["id"] for r in exported["rubbers"]}
    assert stats_without_ids(client, empty["id"]) == stats_without_ids(client, group_id)
    with app.app_context():
        assert group_store.stats(empty["id"]) == full_recompute(empty["id"])
    # The unfinished rubber can go on from its copy's edit link.
    in_play = next(r for r in body["rubbers"] if r["origin"] == exported["rubbers"][-1]["id"])
    copy = {"id": in_play["id"], "edit_key": in_play["edit_key"]}
    assert play(client, copy, {"points": [70, 50]})["games"] == [2, 0]

    # Importing the same file again, or the copy's own export, recreates nothing.
    before = table_rows(app)
    again = client.post(f"/api/v1/groups/{empty['id']}/import", json=exported, headers=headers)
    assert (again.get_json()["created"], again.get_json()["skipped"]) == (0, 5)
    own = client.get(f"/api/v1/groups/{empty['id']}/export.json").get_json()
    assert (
        client.post(f"/api/v1/groups/{empty['id']}/import", json=own, headers=headers).get_json()[
            "created"
        ]
        == 0
    )
    after = table_rows(app)
    assert {k: v for k, v in after.items() if k != "groups"} == {
        k: v for k, v in before.items() if k != "groups"
    }


def test_an_import_in_parts_gives_the_same_statistics(client: FlaskClient) -> None:
    group_id = build_small_group(client)
    exported = client.get(f"/api/v1/groups/{group_id}/export.json").get_json()
    target = new_group(client, "Partes")
    headers = {"X-Group-Key": target["edit_key"]}
    url = f"/api/v1/groups/{target['id']}/import"
    later, earlier = exported["rubbers"][2:], exported["rubbers"][:2]
    assert client.post(url, json={"rubbers": later}, headers=headers).status_code == 200
    assert client.post(url, json={"rubbers": earlier}, headers=headers).status_code == 200
    assert stats_without_ids(client, target["id"]) == stats_without_ids(client, group_id)


@pytest.mark.parametrize(
    ("change", "status", "field"),
    [
        (lambda f: f.pop("rubbers"), 400, "rubbers"),
        (lambda f: f.update(rubbers={}), 400, "rubbers"),
        (lambda f: f["rubbers"][1]["hands"][0].update(points=[61, 58]), 422, None),
        (lambda f: f["rubbers"][1]["hands"][0].update(points=[119, 1]), 422, None),
        (
            lambda f: f["rubbers"][1]["hands"][0].update(kind="bluff"),
            422,
            "rubbers[1].hands[0].kind",
        ),
        (lambda f: f["rubbers"][1]["hands"].insert(0, "bluff"), 400, "rubbers[1].hands[0]"),
        (
            lambda f: f["rubbers"][0]["hands"].append({"kind": "played", "points": [70, 50]}),
            422,
            None,
        ),
        (lambda f: f["rubbers"][2].update(players=["Ana", "ana", "x", "y"]), 422, None),
        (lambda f: f["rubbers"][2].update(created_at="yesterday"), 422, None),
        (lambda f: f["rubbers"][2].update(rules={"tie": "sometimes"}), 422, None),
        (lambda f: f["rubbers"][2].update(origin="../x"), 422, None),
        (lambda f: f["rubbers"][3].update(teams=["", "Eles"]), 422, None),
    ],
)
def test_a_refused_import_stores_nothing(
    app: Flask, client: FlaskClient, change: Any, status: int, field: str | None
) -> None:
    group_id = build_small_group(client)
    exported = client.get(f"/api/v1/groups/{group_id}/export.json").get_json()
    target = new_group(client, "Alvo")
    change(exported)
    before = table_rows(app)
    response = client.post(
        f"/api/v1/groups/{target['id']}/import",
        json=exported,
        headers={"X-Group-Key": target["edit_key"]},
    )
    body = assert_error(response, status, field)
    if status == 422 and body["field"]:
        assert body["field"].startswith("rubbers[")
    assert table_rows(app) == before


def test_import_needs_the_groups_key(app: Flask, client: FlaskClient) -> None:
    target = new_group(client)
    before = table_rows(app)
    url = f"/api/v1/groups/{target['id']}/import"
    assert_error(client.post(url, json={"rubbers": []}), 403)
    assert_error(client.post(url, json={"rubbers": []}, headers={"X-Group-Key": WRONG_KEY}), 403)
    assert table_rows(app) == before


def test_import_takes_files_larger_than_other_requests(client: FlaskClient) -> None:
    target = new_group(client)
    pad = "x" * (300 * 1024)  # over the 256 KiB of other requests
    response = client.post(
        f"/api/v1/groups/{target['id']}/import",
        json={"rubbers": [], "note": pad},
        headers={"X-Group-Key": target["edit_key"]},
    )
    assert response.status_code == 200
    too_big = "x" * (17 * 1024 * 1024)
    response = client.post(
        f"/api/v1/groups/{target['id']}/import",
        json={"rubbers": [], "note": too_big},
        headers={"X-Group-Key": target["edit_key"]},
    )
    assert_error(response, 413)


# The seat cache against a full recompute ------------------------------------------------------


def assert_totals_are_the_recount(app: Flask, group_id: str, step: object) -> statistics.GroupStats:
    """Assert the group's stored totals equal a full recompute from the stored hands.

    The full recompute gives the statistics and ratings; the totals also equal a recount from its
    seat rows, and its rubbers are counted."""
    with app.app_context():
        cached = group_store.stats(group_id)
        assert cached == full_recompute(group_id), step
        counted = db.session.execute(
            sa.select(sa.func.count(), sa.func.count().filter(Rubber.finished)).where(
                Rubber.group_id == group_id
            )
        ).one()
        assert group_store.rubber_counts(group_id) == tuple(counted), step
        totals.recount(group_id)
        assert group_store.stats(group_id) == cached, step
        assert group_store.rubber_counts(group_id) == tuple(counted), step
        db.session.rollback()
        db.session.remove()
    return cached


def test_the_cache_follows_every_kind_of_write(app: Flask, client: FlaskClient) -> None:
    """Random writes to a group: hands, edits and undos, new rubbers, a rubber moved in, an import.

    The hands, edits and undos are on rubbers of the group. After every write the stored totals and
    ratings equal a full recompute from the stored hands."""
    rng = random.Random(7)
    names = ["Ana", "rui", "Eva", "ZÉ", " bea", "Tó", "Mia", "ana "]
    group = new_group(client)
    exported = client.get(f"/api/v1/groups/{build_small_group(client)}/export.json").get_json()
    rubbers = []
    for _ in range(4):
        players = rng.sample(names[:7], 4)
        rules = {"revoke": rng.choice(["opponents_two", "offender_minus_two", "lose_rubber"])}
        rubbers.append(new_rubber(client, group, players=players, rules=rules))
    rubbers.append(new_rubber(client, None, players=["Ana", "", "Rui", "Eva"]))
    hands = [
        {"points": [70, 50]},
        {"points": [30, 90]},
        {"points": [95, 25]},
        {"points": [10, 110]},
        {"points": [60, 60]},
        {"revoke": 0},
        {"revoke": 1},
        {"points": [120, 0], "all_tricks": True},
        {"points": [0, 120], "all_tricks": True},
    ]
    for step in range(60):
        rubber = rng.choice(rubbers)
        headers = {"X-Edit-Key": rubber["edit_key"]}
        action = rng.random()
        state = client.get(f"/api/v1/rubbers/{rubber['id']}").get_json()
        if action < 0.6 and not state["finished"]:
            choice = rng.choice(hands[:7] if rng.random() < 0.9 else hands)
            client.post(f"/api/v1/rubbers/{rubber['id']}/hands", json=choice, headers=headers)
        elif action < 0.8 and state["hands"]:
            number = rng.randint(1, len(state["hands"]))
            client.put(
                f"/api/v1/rubbers/{rubber['id']}/hands/{number}",
                json=rng.choice(hands),
                headers=headers,
            )
        elif state["hands"]:
            client.delete(f"/api/v1/rubbers/{rubber['id']}/hands/last", headers=headers)
        if step == 30:  # the rubber outside the group moves in halfway
            moved = client.post(
                f"/api/v1/groups/{group['id']}/rubbers",
                json={"rubber": rubbers[-1]["id"]},
                headers={"X-Group-Key": group["edit_key"], "X-Edit-Key": rubbers[-1]["edit_key"]},
            )
            assert moved.status_code == 200
        if step % 20 == 10:  # a new rubber joins now and then
            players = rng.sample(names[:7], 4)
            rubbers.append(new_rubber(client, group, players=players))
        if step == 45:  # an import of rubbers played before all of these
            imported = client.post(
                f"/api/v1/groups/{group['id']}/import",
                json=exported,
                headers={"X-Group-Key": group["edit_key"]},
            )
            assert imported.get_json()["created"] == 5
            rubbers.extend(imported.get_json()["rubbers"][-1:])  # the one still in play
        cached = assert_totals_are_the_recount(app, group["id"], step)
    assert cached.rubbers >= 5  # four imported finished, and the walk finished some


# Large groups ------------------------------------------------------------------------------


def review_urls(group_id: str, rubber_ids: list[str], page: int) -> dict[str, str]:
    """Return the review pages of a group, its history at the place where page ``page`` starts.

    Pages are of 20 rubbers, newest first; the place is the "Older" link from the page before."""
    middle = rubber_ids[len(rubber_ids) // 2]
    above = rubber_ids[-(page - 1) * 20]
    return {
        "group page": f"/g/{group_id}",
        "history page": f"/g/{group_id}?before={above}",
        "statistics page": f"/g/{group_id}/stats",
        "player page": f"/g/{group_id}/player?name=rui",
        "sitting page": f"/r/{middle}/sitting",
        "API group": f"/api/v1/groups/{group_id}",
        "API stats": f"/api/v1/groups/{group_id}/stats",
    }


def queries_per_page(app: Flask, group_id: str, rubber_ids: list[str], page: int) -> dict[str, int]:
    client = app.test_client()
    client.get("/")  # the first request of a client warms the engine up
    counts = {}
    for name, url in review_urls(group_id, rubber_ids, page).items():
        with counted_queries(app) as statements:
            response = client.get(url)
            assert response.status_code == 200, (url, response.get_data(as_text=True)[:500])
        counts[name] = len(statements)
    return counts


def test_queries_per_page_do_not_grow_with_the_group(app: Flask) -> None:
    small = bulk_group(app, 100, "small")
    large = bulk_group(app, 2000, "large")
    with app.app_context():
        assert group_store.stats(small[0]) == full_recompute(small[0])
    assert queries_per_page(app, *small, page=3) == queries_per_page(app, *large, page=60)
    few = queries_per_page(app, *large, page=2)
    assert max(few.values()) <= 10, few


def test_a_phones_history_takes_the_same_queries_however_long(app: Flask) -> None:
    """A phone's history of 2,000 rubbers takes the queries of 100, on page 1 and a deep page.

    They read the same rows too: 20 rubbers of 20 hands."""
    histories = {
        phone: bulk_group(app, count, phone, device=phone)[1]
        for phone, count in (("short", 100), ("long", 2000))
    }
    counts = {}
    for phone, ids in histories.items():
        client = app.test_client()
        with client.session_transaction() as session:
            session["device"] = phone
        client.get("/")
        for name, url in (("first", "/history"), ("deep", f"/history?before={ids[-60]}")):
            with counted_queries(app) as statements:
                html = client.get(url).get_data(as_text=True)
            start = -1 if name == "first" else -61
            assert re.findall(r'href="/r/([^"/]+)"', html) == ids[start : start - 20 : -1]
            counts[phone, name] = len(statements)
    # One of them reads the names of the page's groups, each row naming its own, and one the
    # tournaments the phone runs.
    assert counts["short", "first"] == counts["long", "first"] <= 6, counts
    assert counts["short", "deep"] == counts["long", "deep"] <= 7, counts


def test_history_is_paginated(app: Flask) -> None:
    group_id, ids = bulk_group(app, 45, "paged")
    other_id, other_ids = bulk_group(app, 3, "other")
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    first = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert first.count('class="sitting-link"') == 20
    assert ids[-1] in first and ids[0] not in first and "Newer" not in first
    assert f"?before={ids[25]}" in first
    second = client.get(f"/g/{group_id}?before={ids[25]}").get_data(as_text=True)
    assert shown(second) == ids[5:25][::-1]
    assert f"?after={ids[24]}" in second and f"?before={ids[5]}" in second
    last = client.get(f"/g/{group_id}?before={ids[5]}").get_data(as_text=True)
    assert shown(last) == ids[:5][::-1] and "Older" not in last and f"?after={ids[4]}" in last
    assert (
        shown(client.get(f"/g/{group_id}?after={ids[4]}").get_data(as_text=True))
        == (ids[5:25][::-1])
    )
    top = client.get(f"/g/{group_id}?after={ids[24]}").get_data(as_text=True)
    assert shown(top) == shown(first) and "Newer" not in top
    # A rubber of another group, or no rubber, is no place in this history: the first page.
    for place in (other_ids[0], "nope", "x" * 10_000, "", "99999999"):
        for link in ("before", "after"):
            response = client.get(f"/g/{group_id}?{link}={place}")
            assert response.status_code == 200
            assert shown(response.get_data(as_text=True)) == ids[25:][::-1], (link, place)


def shown(html: str) -> list[str]:
    """The ids of the rubbers a group's history page lists, in order."""
    return re.findall(r'href="/r/([^"/]+)/sitting"', html)


SCALE_RUBBERS = int(os.environ.get("SCALE_RUBBERS", "10000"))
"""The scale run: a group of 10,000 rubbers of 20 hands (built in about 6 s on SQLite on the
2-core machine); SCALE_RUBBERS=0 leaves it out."""


@pytest.mark.skipif(not SCALE_RUBBERS, reason="SCALE_RUBBERS=0")
def test_a_group_of_ten_thousand_rubbers_answers_quickly(
    app: Flask, capsys: pytest.CaptureFixture[str]
) -> None:
    started = time.perf_counter()
    group_id, ids = bulk_group(app, SCALE_RUBBERS, "scale")
    built = time.perf_counter() - started
    with app.app_context():
        hands = db.session.execute(sa.select(sa.func.count()).select_from(HandRow)).scalar()
        assert db.session.get(Group, group_id) is not None
    client = app.test_client()
    client.get("/")
    timings = {}
    for name, url in review_urls(group_id, ids, page=250).items():
        started = time.perf_counter()
        response = client.get(url)
        timings[name] = time.perf_counter() - started
        assert response.status_code == 200
    small = bulk_group(app, 100, "small")
    assert queries_per_page(app, group_id, ids, 250) == queries_per_page(app, *small, page=3)
    with capsys.disabled():
        print(f"\n[scale] {len(ids)} rubbers, {hands} hands built in {built:.1f} s")
        for name, seconds in timings.items():
            print(f"[scale] {name}: {seconds * 1000:.0f} ms")


# Generated requests aimed at a real group ---------------------------------------------------

GROUP_OPERATIONS = [
    ("POST", "/api/v1/groups"),
    ("GET", "/api/v1/groups/{group_id}/stats"),
    ("POST", "/api/v1/groups/{group_id}/import"),
    ("POST", "/api/v1/groups/{group_id}/rubbers"),
]


class GroupTargets:
    """A group with rubbers, an empty group and a loose rubber: what generated requests aim at."""

    def __init__(self, client: FlaskClient) -> None:
        group_id = build_small_group(client)
        self.target = new_group(client, "Alvo")
        self.loose = new_rubber(client, None, players=["Ana", "Rui", "Eva", "Zé"])
        self.exported = client.get(f"/api/v1/groups/{group_id}/export.json").get_json()
        self.headers = {
            "X-Group-Key": self.target["edit_key"],
            "X-Edit-Key": self.loose["edit_key"],
        }

    def aim(self, case: Any, path: str, data: Any) -> None:
        """Aim some cases, on the case's own copies (tests/support/fuzzing.py says why).

        Some point at the empty group, the import at real rubbers and the adoption at the loose
        rubber."""
        from hypothesis import strategies as st

        detach(case)
        if case.path_parameters and data.draw(st.booleans()):
            case.path_parameters["group_id"] = self.target["id"]
        if isinstance(case.body, dict) and path.endswith("/import") and data.draw(st.booleans()):
            case.body["rubbers"] = self.exported["rubbers"][: data.draw(st.integers(0, 5))]
        if isinstance(case.body, dict) and path.endswith("/rubbers") and data.draw(st.booleans()):
            case.body["rubber"] = self.loose["id"]


def group_strategy(app: Flask, method: str, path: str) -> Any:
    """Schemathesis' cases for one operation of the document the app serves, valid or not."""
    import schemathesis
    from hypothesis import strategies as st
    from schemathesis import GenerationMode

    operation = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)[path][method]
    return st.one_of(
        operation.as_strategy(generation_mode=GenerationMode.POSITIVE),
        operation.as_strategy(generation_mode=GenerationMode.NEGATIVE),
    )


@pytest.mark.parametrize(("method", "path"), GROUP_OPERATIONS)
def test_generated_requests_never_fail_the_server(
    app: Flask, client: FlaskClient, method: str, path: str
) -> None:
    """Whatever is sent with the group's real key, the answer is below 500.

    A refusal says why and stores nothing (test_fuzz.py aims only at rubbers)."""
    from hypothesis import given
    from hypothesis import strategies as st

    targets = GroupTargets(client)

    @fuzzed
    @given(case=group_strategy(app, method, path), data=st.data())
    def fuzz(case: Any, data: st.DataObject) -> None:
        targets.aim(case, path, data)
        before = snapshot(app)
        response = case.call(headers=targets.headers)
        assert response.status_code < 500, (case.as_curl_command(), response.text[:500])
        if response.status_code >= 400:
            body = response.json()
            assert isinstance(body.get("error"), str) and body["error"].strip(), body
            assert "field" in body
            assert snapshot(app) == before, case.as_curl_command()

    fuzz()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_aimed_cases_leave_what_the_strategy_draws_as_it_was(
    app: Flask, client: FlaskClient, seed: int
) -> None:
    """The same seed draws the same cases, however the cases before were aimed.

    The adoption's negative bodies include one ``{}`` shared by every case that draws it, which
    aiming in place turned into a valid body and Hypothesis into FlakyStrategyDefinition."""
    import schemathesis
    from hypothesis import given, settings
    from hypothesis import seed as with_seed
    from hypothesis import strategies as st
    from schemathesis import GenerationMode

    path = "/api/v1/groups/{group_id}/rubbers"
    targets = GroupTargets(client)
    operation = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)[path]["POST"]
    strategy = operation.as_strategy(generation_mode=GenerationMode.NEGATIVE)

    def drawn() -> list[str]:
        cases: list[str] = []

        @with_seed(seed)
        @settings(FUZZ_SETTINGS, max_examples=300, database=None, derandomize=False)
        @given(case=strategy, data=st.data())
        def aim_every_case(case: Any, data: st.DataObject) -> None:
            cases.append(repr(case))
            targets.aim(case, path, data)

        aim_every_case()
        return cases

    first, second = drawn(), drawn()
    assert sum(case.endswith("body={})") for case in first) >= 2  # the shared body, drawn again
    assert first == second


def test_a_win_by_a_revoke_at_no_games_is_no_pente(client: FlaskClient) -> None:
    group = new_group(client)
    players = ["Ana", "Rui", "Eva", "Zé"]
    lose = new_rubber(client, group, players=players, rules={"revoke": "lose_rubber"})
    assert play(client, lose, {"revoke": 1})["outcome"] == "revoke"  # won 0-0
    short = new_rubber(client, group, players=players, rules={"games_to_win": 2})
    assert play(client, short, {"points": [95, 25]})["outcome"] == "pente"
    full = new_rubber(client, group, players=players)
    assert play(client, full, {"points": [95, 25]}, {"points": [95, 25]})["outcome"] == "pente"
    stats = client.get(f"/api/v1/groups/{group['id']}/stats").get_json()
    ana = next(player for player in stats["players"] if player["name"] == "Ana")
    assert (ana["won"], ana["pentes"]) == (3, 2)  # 2-0 to 2 is a pente too, as its outcome says
    page = client.get(f"/g/{group['id']}/stats", headers={"Accept-Language": "en"})
    assert re.search(r"<dt>Pentes</dt><dd>2</dd>", page.get_data(as_text=True))
