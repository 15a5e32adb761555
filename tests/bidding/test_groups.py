"""A group's bidding games: joined with the group's key, listed in its history, counted apart.

They are counted in statistics of their own (games played and won, bids made and failed, the average
bid) and never in the rubbers' statistics or ratings."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.groups import bidding_games, bidding_stats
from tests.bidding.test_pages import PT, game_of, record
from tests.support.apps import snapshot

FOUR = ["Ana", "Rui", "Zé", "Eva"]


def group(client: FlaskClient) -> dict[str, Any]:
    made = client.post("/api/v1/groups", json={"name": "Tasca do Zé"})
    assert made.status_code == 201
    return made.get_json()


def game_in(client: FlaskClient, grp: dict[str, Any], players: list[str], **body: Any) -> Any:
    return client.post(
        "/api/v1/bidding",
        json={"players": players, "group": grp["id"], **body},
        headers={"X-Group-Key": grp["edit_key"]},
    )


def play(client: FlaskClient, game: dict[str, Any], *hands: dict[str, Any]) -> dict[str, Any]:
    state: dict[str, Any] = {}
    for hand in hands:
        answer = client.post(
            f"/api/v1/bidding/{game['id']}/hands",
            json=hand,
            headers={"X-Edit-Key": game["edit_key"]},
        )
        assert answer.status_code == 201, answer.get_json()
        state = answer.get_json()
    return state


def test_a_game_joins_a_group_with_its_key(app: Flask, client: FlaskClient) -> None:
    grp = group(client)
    joined = game_in(client, grp, FOUR)
    assert joined.status_code == 201 and joined.get_json()["group"] == grp["id"]
    before = snapshot(app)
    for headers, status, code in (
        ({}, 403, "group_key_missing"),
        ({"X-Group-Key": "wrong"}, 403, "group_key_wrong"),
    ):
        answer = client.post(
            "/api/v1/bidding", json={"players": FOUR, "group": grp["id"]}, headers=headers
        )
        assert (answer.status_code, answer.get_json()["code"]) == (status, code)
    unknown = game_in(client, {**grp, "id": "x" * 32}, FOUR)
    assert (unknown.status_code, unknown.get_json()["code"]) == (404, "no_group")
    twice = game_in(client, grp, ["Ana", "Rui", " ana", "Eva"])
    assert (twice.status_code, twice.get_json()["code"]) == (422, "repeated_player")
    assert snapshot(app) == before


def test_the_statistics_of_their_own(app: Flask, client: FlaskClient) -> None:
    grp = group(client)
    # A rubber of the group, finished: the rubbers' statistics before any bidding game.
    rubber = client.post(
        "/api/v1/rubbers",
        json={"players": FOUR, "group": grp["id"], "rules": {"games_to_win": 1}},
        headers={"X-Group-Key": grp["edit_key"]},
    ).get_json()
    client.post(
        f"/api/v1/rubbers/{rubber['id']}/hands",
        json={"points": [75, 45]},
        headers={"X-Edit-Key": rubber["edit_key"]},
    )
    rubbers_before = client.get(f"/api/v1/groups/{grp['id']}/stats").get_json()

    first = game_in(client, grp, FOUR, target=100).get_json()
    play(
        client,
        first,
        {"bidder": 0, "bid": 80, "partner": 2, "made": True},
        {"bidder": 1, "bid": 100, "partner": 1, "points": 60},
        {"bidder": 0, "bid": 70, "partner": 3, "made": True},
    )  # Ana and Zé share 180 after hand 2; Ana 250 after hand 3, ahead alone: Ana wins
    second = game_in(client, grp, ["ana", "Rui", "Zé", "Eva", "Fábio"], target=61).get_json()
    play(client, second, {"passed": True}, {"bidder": 4, "bid": 61, "partner": 4, "made": True})
    game_in(client, grp, FOUR)  # in play: not counted

    stats = client.get(f"/api/v1/groups/{grp['id']}/bidding").get_json()
    assert (stats["games"], stats["in_play"]) == (2, 1)
    by_name = {player["name"]: player for player in stats["players"]}
    assert by_name["ana"] == {
        "name": "ana",
        "games": 2,
        "won": 1,
        "bids": 2,
        "made": 2,
        "failed": 0,
        "average_bid": 75.0,
    }
    assert (
        by_name["Rui"] | {"bids": 1, "made": 0, "failed": 1, "average_bid": 100.0}
        == (by_name["Rui"])
    )
    assert (by_name["Zé"]["won"], by_name["Fábio"]["won"], by_name["Eva"]["bids"]) == (0, 1, 0)
    assert by_name["Eva"]["average_bid"] is None
    assert [player["name"] for player in stats["players"]][:2] == ["Fábio", "ana"]
    # Never mixed into the rubbers' statistics or ratings.
    assert client.get(f"/api/v1/groups/{grp['id']}/stats").get_json() == rubbers_before
    assert client.get("/api/v1/groups/nope/bidding").status_code == 404
    # The pure count agrees with the group's query.
    with app.app_context():
        counted = bidding_games.stats(grp["id"])
        db.session.remove()
    assert isinstance(counted, bidding_stats.BiddingStats)
    assert counted.players["zé"].games == 2


def grant_group(client: FlaskClient, grp: dict[str, Any]) -> None:
    assert client.get(f"/g/{grp['id']}/edit/{grp['edit_key']}").status_code == 302


def test_the_group_pages(app: Flask, client: FlaskClient) -> None:
    grp = group(client)
    stranger = app.test_client()
    assert stranger.get(f"/g/{grp['id']}/bidding/new").status_code == 403
    assert stranger.post(f"/g/{grp['id']}/bidding/new", data={}).status_code == 403
    grant_group(client, grp)
    text = client.get(f"/g/{grp['id']}", headers=PT).get_data(as_text=True)
    assert "0 jogos com licitação" in text and f"/g/{grp['id']}/bidding/new" in text
    form = {f"player{seat}": name for seat, name in enumerate(FOUR)} | {"target": "61"}
    before = snapshot(app)
    twice = client.post(f"/g/{grp['id']}/bidding/new", data={**form, "player3": " ANA"}, headers=PT)
    assert twice.status_code == 422 and "está em dois lugares" in twice.get_data(as_text=True)
    assert snapshot(app) == before
    started = client.post(f"/g/{grp['id']}/bidding/new", data=form)
    assert started.status_code == 302
    game_id = started.headers["Location"].rsplit("/", 1)[-1]
    assert game_of(app, game_id).group_id == grp["id"]
    record(client, game_id, bidder="2", bid="61", partner="2", action="made")
    # The next game of the same table stays in the group.
    following = client.post("/bidding", data={"previous": game_id}).headers["Location"]
    assert game_of(app, following.rsplit("/", 1)[-1]).group_id == grp["id"]
    # The new-game page offers the names of the group's last game.
    again = client.get(f"/g/{grp['id']}/bidding/new").get_data(as_text=True)
    assert re.search(r'name="player2"[^>]*value="Zé"', again)
    listed = client.get(f"/g/{grp['id']}/bidding", headers=PT).get_data(as_text=True)
    assert f'href="/b/{game_id}"' in listed and "Ganho por Zé" in listed
    assert re.search(r"<th scope=\"row\">Zé</th><td>1</td><td>1</td><td>1</td><td>0</td>", listed)
    assert "<td>61,0</td>" in listed  # the decimal comma, as every figure of the app
    assert "2 jogos com licitação" in client.get(f"/g/{grp['id']}", headers=PT).get_data(
        as_text=True
    )
    assert "Os jogos com licitação do grupo" in client.get(f"/b/{game_id}", headers=PT).get_data(
        as_text=True
    )
    assert client.get("/g/nope/bidding").status_code == 404


@pytest.mark.parametrize("accept", ["pt-BR", "en"])
def test_the_group_bidding_page_in_every_language(client: FlaskClient, accept: str) -> None:
    grp = group(client)
    first = game_in(client, grp, FOUR, target=61).get_json()
    play(client, first, {"bidder": 0, "bid": 61, "partner": 0, "made": True})
    text = client.get(f"/g/{grp['id']}/bidding", headers={"Accept-Language": accept})
    assert text.status_code == 200
    body = text.get_data(as_text=True)
    assert ("Lance médio" if accept == "pt-BR" else "Average bid") in body
    assert ("<td>61,0</td>" if accept == "pt-BR" else "<td>61.0</td>") in body
