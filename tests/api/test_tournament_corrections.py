"""The evening's corrections (API.md, "Tournaments: the evening's corrections and tables").

A decided match is final for the tables; the organizer corrects it with the tournament's key
while nothing depends on it; a walkover on a match in play closes its rubber (issue 42, items 3
to 5)."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.tournaments import store
from tests.api.test_tournaments import (
    BANDEIRA,
    EN,
    create,
    key,
    matches,
    pairs,
    play_round,
    state,
    win_rubber,
)


def table_key(app: Flask, rubber_id: str) -> dict[str, str]:
    """The table's own key, as its link carries it (never the tournament's)."""
    with app.test_request_context():
        return {"X-Edit-Key": store.table_key(rubber_id), **EN}


def hand(client: FlaskClient, rubber_id: str, body: dict[str, Any], headers: Any) -> Any:
    return client.post(f"/api/v1/rubbers/{rubber_id}/hands", json=body, headers=headers)


def undo(client: FlaskClient, rubber_id: str, headers: Any) -> Any:
    return client.delete(f"/api/v1/rubbers/{rubber_id}/hands/last", headers=headers)


def test_a_walkover_on_a_match_in_play_closes_its_rubber(app: Flask, client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    match = matches(tournament, 1)[0]
    rubber = match["rubbers"][0]
    assert hand(client, rubber, {"points": [70, 50]}, table_key(app, rubber)).status_code == 201
    loser, winner = match["pairs"]
    address = f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{match['table']}/walkover"
    given = client.post(address, json={"winner": winner}, headers=key(tournament))
    assert given.status_code == 200, given.get_json()
    for headers in (table_key(app, rubber), key(tournament)):
        refused = hand(client, rubber, BANDEIRA, headers)
        assert refused.status_code == 409, refused.get_json()
        assert refused.get_json()["code"] == "match_decided"
    (after,) = [m for m in matches(state(client, tournament), 1) if m["table"] == match["table"]]
    assert after["winner"] == winner != loser and after["walkover"] is True
    assert after["wins"] == [0, 0] and after["rubbers"] == [rubber]  # the rubber counts nothing
    rubber_state = client.get(f"/api/v1/rubbers/{rubber}").get_json()
    assert rubber_state["games"] == [1, 0]  # the hand before the walkover, nothing after


def test_a_tables_key_cannot_reopen_a_finished_tournament(app: Flask, client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    play_round(client, tournament, 1)
    current = play_round(client, tournament, 2)
    assert current["finished"]
    semi = matches(current, 1)[0]["rubbers"][-1]
    refused = undo(client, semi, table_key(app, semi))
    assert refused.status_code == 409 and refused.get_json()["code"] == "match_decided"
    used = undo(client, semi, key(tournament))
    assert used.status_code == 409 and used.get_json()["code"] == "result_used"
    assert "round 2" in used.get_json()["error"]
    after = state(client, tournament)
    assert after["finished"] and after["winner"] == current["winner"]
    assert len(matches(after, 2)) == 1


def test_the_organizer_corrects_a_decided_match_while_nothing_depends_on_it(
    app: Flask, client: FlaskClient
) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    first, second = matches(tournament, 1)
    win_rubber(client, tournament, first["rubbers"][0], 0)
    rubber = first["rubbers"][0]
    refused = undo(client, rubber, table_key(app, rubber))
    assert refused.status_code == 409 and refused.get_json()["code"] == "match_decided"
    corrected = undo(client, rubber, key(tournament))
    assert corrected.status_code == 200, corrected.get_json()
    (again,) = [m for m in matches(state(client, tournament), 1) if m["table"] == first["table"]]
    assert again["winner"] is None and again["rubbers"] == [rubber]
    # The table goes on recording its rubber, now in play again.
    assert hand(client, rubber, {"points": [70, 50]}, table_key(app, rubber)).status_code == 201
    assert second["winner"] is None


def test_a_swiss_result_a_later_round_was_drawn_on_is_refused_naming_the_round(
    client: FlaskClient,
) -> None:
    tournament = create(client, format="swiss", rounds=2, pairs=pairs(4))
    play_round(client, tournament, 1)
    drawn = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", headers=key(tournament))
    assert drawn.status_code == 201, drawn.get_json()
    rubber = matches(drawn.get_json(), 1)[0]["rubbers"][-1]
    used = undo(client, rubber, key(tournament))
    assert used.status_code == 409 and used.get_json()["code"] == "result_used"
    assert "Round 2" in used.get_json()["error"]
    assert client.get(f"/api/v1/rubbers/{rubber}").get_json()["finished"] is True


def test_a_correction_goes_in_once_the_round_that_depends_on_it_is_undrawn(
    app: Flask, client: FlaskClient
) -> None:
    """Issue 42, item 5: refused while round 2 is drawn, done once it is undrawn; drawn again."""
    tournament = create(client, format="swiss", rounds=3, pairs=pairs(4))
    base = f"/api/v1/tournaments/{tournament['id']}/rounds"
    play_round(client, tournament, 1)
    drawn = client.post(base, headers=key(tournament)).get_json()
    corrected = matches(drawn, 1)[0]["rubbers"][-1]
    assert undo(client, corrected, key(tournament)).get_json()["code"] == "result_used"
    wrong = client.delete(f"{base}/1", headers=key(tournament))
    assert wrong.status_code == 409 and wrong.get_json()["code"] == "not_last_round"
    round_two = matches(drawn, 2)[0]["rubbers"][0]
    undrawn = client.delete(f"{base}/2", headers=key(tournament))
    assert undrawn.status_code == 200, undrawn.get_json()
    assert [drawn["number"] for drawn in undrawn.get_json()["rounds"]] == [1]
    stale = hand(client, round_two, BANDEIRA, table_key(app, round_two))
    assert stale.status_code == 409 and stale.get_json()["code"] == "not_in_play"
    assert undo(client, corrected, key(tournament)).status_code == 200
    win_rubber(client, tournament, corrected, 1)  # the other pair wins it after all
    again = client.post(base, headers=key(tournament))
    assert again.status_code == 201, again.get_json()
    played = matches(again.get_json(), 2)[0]["rubbers"][0]
    assert hand(client, played, {"points": [70, 50]}, table_key(app, played)).status_code == 201
    refused = client.delete(f"{base}/2", headers=key(tournament))
    assert refused.status_code == 409 and refused.get_json()["code"] == "round_played"


def test_a_walkover_is_undone_while_nothing_depends_on_it(app: Flask, client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    first, second = matches(tournament, 1)
    address = f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{first['table']}/walkover"
    none = client.delete(address, headers=key(tournament))
    assert none.status_code == 409 and none.get_json()["code"] == "no_walkover"
    client.post(address, json={"winner": first["pairs"][0]}, headers=key(tournament))
    undone = client.delete(address, headers=key(tournament))
    assert undone.status_code == 200, undone.get_json()
    (again,) = [m for m in matches(undone.get_json(), 1) if m["table"] == first["table"]]
    assert again["winner"] is None and not again["walkover"]
    rubber = again["rubbers"][-1]
    assert hand(client, rubber, {"points": [70, 50]}, table_key(app, rubber)).status_code == 201
    # Given again, then the final played on it: undoing it now is refused.
    client.post(address, json={"winner": first["pairs"][0]}, headers=key(tournament))
    win_rubber(client, tournament, second["rubbers"][0], 0)
    (final,) = matches(state(client, tournament), 2)
    assert (
        hand(client, final["rubbers"][0], {"points": [70, 50]}, key(tournament)).status_code == 201
    )
    used = client.delete(address, headers=key(tournament))
    assert used.status_code == 409 and used.get_json()["code"] == "result_used"


def test_a_withdrawal_is_undone(app: Flask, client: FlaskClient) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(4))
    base = f"/api/v1/tournaments/{tournament['id']}/pairs/2"
    not_yet = client.post(f"{base}/reinstate", headers=key(tournament))
    assert not_yet.status_code == 409 and not_yet.get_json()["code"] == "not_withdrawn"
    withdrawn = client.post(f"{base}/withdraw", headers=key(tournament)).get_json()
    theirs = [m for m in matches(withdrawn, 1) if 2 in m["pairs"]]
    assert theirs and all(m["walkover"] for m in theirs)
    back = client.post(f"{base}/reinstate", headers=key(tournament))
    assert back.status_code == 200, back.get_json()
    (match,) = [m for m in matches(back.get_json(), 1) if 2 in m["pairs"]]
    assert not match["walkover"] and match["winner"] is None
    rubber = match["rubbers"][-1]
    assert hand(client, rubber, {"points": [70, 50]}, table_key(app, rubber)).status_code == 201


def test_a_late_pair_joins_a_swiss_from_the_next_round(client: FlaskClient) -> None:
    """Issue 42, item 10: a pair that came after round 1 is paired from round 2."""
    tournament = create(client, format="swiss", rounds=3, pairs=pairs(4))
    address = f"/api/v1/tournaments/{tournament['id']}/pairs"
    late = {"players": ["Rui", "Sara"], "name": None}
    twice = client.post(address, json={"players": ["Ana 1", "Rui"]}, headers=key(tournament))
    assert twice.status_code == 422 and twice.get_json()["code"] == "repeated_player"
    assert twice.get_json()["field"] == "players"
    joined = client.post(address, json=late, headers=key(tournament))
    assert joined.status_code == 201, joined.get_json()
    current = joined.get_json()
    assert {**current["pairs"][-1], "withdrawn": False} == {
        "number": 5,
        "name": None,
        "players": ["Rui", "Sara"],
        "withdrawn": False,
    }
    (line,) = [line for line in current["standings"] if line["pair"] == 5]
    assert (line["played"], line["won"]) == (0, 0)
    assert all(5 not in match["pairs"] for match in matches(current, 1))
    play_round(client, tournament, 1)
    drawn = client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", headers=key(tournament))
    assert drawn.status_code == 201, drawn.get_json()
    assert any(5 in match["pairs"] for match in matches(drawn.get_json(), 2))


def test_a_late_pair_is_refused_by_a_knockout_and_after_the_last_round(
    client: FlaskClient,
) -> None:
    knockout = create(client, format="knockout", pairs=pairs(4))
    late = {"players": ["Rui", "Sara"]}
    refused = client.post(
        f"/api/v1/tournaments/{knockout['id']}/pairs", json=late, headers=key(knockout)
    )
    assert refused.status_code == 409 and refused.get_json()["code"] == "no_late_pairs"
    swiss = create(client, format="swiss", rounds=1, pairs=pairs(4))
    refused = client.post(f"/api/v1/tournaments/{swiss['id']}/pairs", json=late, headers=key(swiss))
    assert refused.status_code == 409 and refused.get_json()["code"] == "no_late_pairs"


def test_a_withdrawal_mid_rubber_closes_the_rubber(app: Flask, client: FlaskClient) -> None:
    """Issue 42, item 9: after a withdrawal at 2-0, the table cannot record on to 4-0."""
    tournament = create(client, format="round_robin", pairs=pairs(4))
    match = [m for m in matches(tournament, 1) if 2 in m["pairs"]][0]
    rubber = match["rubbers"][0]
    assert hand(client, rubber, {"points": [100, 20]}, table_key(app, rubber)).status_code == 201
    client.post(f"/api/v1/tournaments/{tournament['id']}/pairs/2/withdraw", headers=key(tournament))
    refused = hand(client, rubber, {"points": [100, 20]}, table_key(app, rubber))
    assert refused.status_code == 409 and refused.get_json()["code"] == "match_decided"
    assert client.get(f"/api/v1/rubbers/{rubber}").get_json()["games"] == [2, 0]
