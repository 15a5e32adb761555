"""A rubber kept on paper (API.md, "Tournaments: the evening's corrections and tables").

A table that kept its score on paper gives its rubber's games once, while the rubber in play has
no hand; it counts as any rubber won (issue 42, item 11)."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.test_tournament_corrections import hand, table_key, undo
from tests.api.test_tournaments import EN, create, key, matches, pairs, state


def paper(
    client: FlaskClient, tournament: dict[str, Any], table: int, games: Any, **headers: Any
) -> Any:
    address = f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{table}/result"
    return client.post(address, json={"games": games}, headers=headers or key(tournament))


def test_a_best_of_3_kept_on_paper_counts_as_its_rubbers(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4), best_of=3)
    match = matches(tournament, 1)[0]
    first = match["rubbers"][0]
    given = paper(client, tournament, match["table"], [4, 1])
    assert given.status_code == 200, given.get_json()
    (after,) = [m for m in matches(given.get_json(), 1) if m["table"] == match["table"]]
    assert after["wins"] == [1, 0] and after["winner"] is None
    assert after["rubbers"][0] == first and len(after["rubbers"]) == 2  # the next one started
    rubber = client.get(f"/api/v1/rubbers/{first}", headers=EN).get_json()
    assert (rubber["games"], rubber["finished"], rubber["winner"]) == ([4, 1], True, 0)
    assert rubber["hands"] == [] and rubber["paper_games"] == [4, 1]
    assert rubber["outcome"] == "chapeu"  # 4-1, as the cross says it
    # The second rubber too, the other way; the third decides.
    assert paper(client, tournament, match["table"], [2, 5]).status_code == 200
    last = paper(client, tournament, match["table"], [4, 0]).get_json()
    (decided,) = [m for m in matches(last, 1) if m["table"] == match["table"]]
    assert decided["wins"] == [2, 1] and decided["winner"] == match["pairs"][0]
    assert len(decided["rubbers"]) == 3
    standings = {row["pair"]: row for row in last["standings"]}
    assert standings[match["pairs"][0]]["games_won"] == 4 + 2 + 4
    assert standings[match["pairs"][1]]["games_won"] == 1 + 5 + 0


@pytest.mark.parametrize(
    "games",
    [[4, 4], [3, 2], [0, 0], [-1, 4], [4], [4, 1, 0], ["4", 1], [True, 4], [100, 1], None],
)
def test_games_no_rubber_ends_with_are_refused(client: FlaskClient, games: Any) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    match = matches(tournament, 1)[0]
    refused = paper(client, tournament, match["table"], games)
    # A value of another type is 400, as every body's (API.md, "Errors"); games no rubber
    # ends with, 422.
    assert refused.status_code == (400 if refused.get_json()["code"] == "type" else 422)
    assert refused.get_json()["code"] in ("type", "paper_result", "length"), refused.get_json()
    assert refused.get_json()["field"].startswith("games"), refused.get_json()
    assert refused.get_json()["error"]
    assert state(client, tournament)["version"] == tournament["version"]
    rubber = client.get(f"/api/v1/rubbers/{match['rubbers'][0]}").get_json()
    assert rubber["games"] == [0, 0] and not rubber["finished"]


def test_a_rubber_with_a_hand_or_a_decided_match_takes_no_paper(
    app: Flask, client: FlaskClient
) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    first, second = matches(tournament, 1)[:2]
    rubber = first["rubbers"][0]
    assert hand(client, rubber, {"points": [70, 50]}, table_key(app, rubber)).status_code == 201
    played = paper(client, tournament, first["table"], [4, 1])
    assert played.status_code == 409 and played.get_json()["code"] == "rubber_played"
    assert "hands" in played.get_json()["error"]
    assert paper(client, tournament, second["table"], [1, 4]).status_code == 200
    decided = paper(client, tournament, second["table"], [4, 1])
    assert decided.status_code == 409 and decided.get_json()["code"] == "match_decided"
    # A hand on the rubber kept on paper is refused: its result is the paper's.
    kept = second["rubbers"][0]
    refused = hand(client, kept, {"points": [70, 50]}, table_key(app, kept))
    assert refused.status_code == 409, refused.get_json()


def test_only_the_organizer_gives_a_result_on_paper(app: Flask, client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    match = matches(tournament, 1)[0]
    rubber = match["rubbers"][0]
    refused = paper(client, tournament, match["table"], [4, 1], **table_key(app, rubber))
    assert refused.status_code == 403, refused.get_json()
    missing = client.post(
        f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/9/result",
        json={"games": [4, 1]},
        headers=key(tournament),
    )
    assert missing.status_code in (404, 422) and missing.get_json()["code"] == "no_such_match"


def test_a_bye_takes_no_result(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(3))
    (bye,) = [m for m in matches(tournament, 1) if m["pairs"][1] is None]
    refused = paper(client, tournament, bye["table"], [4, 1])
    assert refused.get_json()["code"] == "bye_match", refused.get_json()


def test_a_group_s_backup_keeps_a_rubber_kept_on_paper(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Tasca"}, headers=EN).get_json()
    body = {"name": "T", "format": "knockout", "pairs": pairs(4), "group": group["id"]}
    created = client.post(
        "/api/v1/tournaments", json=body, headers={"X-Group-Key": group["edit_key"], **EN}
    )
    tournament = created.get_json()
    match = matches(tournament, 1)[0]
    assert paper(client, tournament, match["table"], [4, 2]).status_code == 200
    exported = client.get(f"/api/v1/groups/{group['id']}/export.json").get_json()
    (kept,) = [r for r in exported["rubbers"] if r["paper_games"] is not None]
    assert (kept["paper_games"], kept["hands"], kept["winner"]) == ([4, 2], [], 0)
    copy = client.post("/api/v1/groups", json={"name": "Cópia"}, headers=EN).get_json()
    headers = {"X-Group-Key": copy["edit_key"], **EN}
    imported = client.post(f"/api/v1/groups/{copy['id']}/import", json=exported, headers=headers)
    assert imported.status_code == 200, imported.get_json()
    (made,) = [r for r in imported.get_json()["rubbers"] if r["origin"] == kept["id"]]
    again = client.get(f"/api/v1/rubbers/{made['id']}", headers=EN).get_json()
    assert (again["paper_games"], again["games"], again["finished"], again["winner"]) == (
        [4, 2],
        [4, 2],
        True,
        0,
    )
    stats = client.get(f"/api/v1/groups/{copy['id']}/stats", headers=EN).get_json()
    original = client.get(f"/api/v1/groups/{group['id']}/stats", headers=EN).get_json()
    assert stats["rubbers"] == original["rubbers"]


@pytest.mark.parametrize(
    ("rubber", "said"),
    [
        ({"paper_games": [4, 4]}, "A rubber kept on paper ends with one team on 4 games"),
        ({"paper_games": "4-1"}, "A rubber kept on paper ends with one team on 4 games"),
        (
            {"paper_games": [4, 1], "hands": [{"kind": "played", "points": [70, 50]}]},
            "A rubber kept on paper has no hands: give its games or its hands.",
        ),
    ],
)
def test_an_import_refuses_paper_no_rubber_ends_with(
    client: FlaskClient, rubber: dict[str, Any], said: str
) -> None:
    copy = client.post("/api/v1/groups", json={"name": "Cópia"}, headers=EN).get_json()
    headers = {"X-Group-Key": copy["edit_key"], **EN}
    refused = client.post(
        f"/api/v1/groups/{copy['id']}/import", json={"rubbers": [rubber]}, headers=headers
    )
    assert refused.status_code == 422, refused.get_json()
    answer = refused.get_json()
    assert (answer["code"], answer["field"]) == ("paper_result", "rubbers[0].paper_games")
    assert answer["error"].startswith(said)
    stats = client.get(f"/api/v1/groups/{copy['id']}/stats", headers=EN).get_json()
    assert stats["rubbers"] == 0


def test_the_organizer_takes_a_paper_result_back_the_table_cannot(
    app: Flask, client: FlaskClient
) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    match = matches(tournament, 1)[0]
    rubber_id = match["rubbers"][0]
    assert paper(client, tournament, match["table"], [4, 1]).status_code == 200
    # The match is decided: its table's key may not take it back.
    refused = undo(client, rubber_id, table_key(app, rubber_id))
    assert refused.status_code == 409 and refused.get_json()["code"] == "match_decided"
    taken = undo(client, rubber_id, key(tournament))
    assert taken.status_code == 200, taken.get_json()
    rubber = taken.get_json()
    assert (rubber["paper_games"], rubber["games"], rubber["finished"]) == (None, [0, 0], False)
    (again,) = [m for m in matches(state(client, tournament), 1) if m["table"] == match["table"]]
    assert (again["wins"], again["winner"]) == ([0, 0], None)
    # In play again: the table records hands on it, or the organizer gives the right paper.
    assert paper(client, tournament, match["table"], [1, 4]).status_code == 200
    rubber = client.get(f"/api/v1/rubbers/{rubber_id}", headers=EN).get_json()
    assert (rubber["paper_games"], rubber["winner"]) == ([1, 4], 1)
