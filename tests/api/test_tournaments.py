"""Tournaments of pairs through the JSON API (API.md, "Tournaments"): whole ones played, refusals."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from tests.api.test_api import conforms, openapi  # noqa: F401  the fixture

EN = {"Accept-Language": "en"}
BANDEIRA = {"points": [120, 0], "all_tricks": True}
"""A bandeira of the first team: four games, the whole rubber in one hand (portugal)."""
LOST_BANDEIRA = {"points": [0, 120], "all_tricks": True}


def pairs(count: int) -> list[dict[str, Any]]:
    return [{"players": [f"Ana {number}", f"Bruno {number}"]} for number in range(1, count + 1)]


def create(client: FlaskClient, **body: Any) -> dict[str, Any]:
    body = {"name": "Torneio da Tasca", **body}
    response = client.post("/api/v1/tournaments", json=body, headers=EN)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def state(client: FlaskClient, tournament: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/tournaments/{tournament['id']}", headers=EN)
    assert response.status_code == 200
    return response.get_json()


def key(tournament: dict[str, Any]) -> dict[str, str]:
    return {"X-Edit-Key": tournament["edit_key"], **EN}


def matches(current: dict[str, Any], number: int) -> list[dict[str, Any]]:
    (found,) = [drawn for drawn in current["rounds"] if drawn["number"] == number]
    return found["matches"]


def win_rubber(client: FlaskClient, tournament: dict[str, Any], rubber_id: str, side: int) -> None:
    """The match's first pair (side 0) or second (side 1) takes the rubber in one bandeira."""
    response = client.post(
        f"/api/v1/rubbers/{rubber_id}/hands",
        json=BANDEIRA if side == 0 else LOST_BANDEIRA,
        headers=key(tournament),
    )
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["finished"]


def play_round(
    client: FlaskClient, tournament: dict[str, Any], number: int, first_wins: bool = True
) -> dict[str, Any]:
    """Play every undecided match of the round: the lower seed wins, unless told otherwise."""
    current = state(client, tournament)
    for match in matches(current, number):
        while match["winner"] is None:
            low = min(match["pairs"])
            side = match["pairs"].index(low) if first_wins else 1 - match["pairs"].index(low)
            win_rubber(client, tournament, match["rubbers"][-1], side)
            current = state(client, tournament)
            (match,) = [m for m in matches(current, number) if m["table"] == match["table"]]
    return current


def test_a_knockout_of_five_pairs(client: FlaskClient, openapi: dict[str, Any]) -> None:  # noqa: F811
    tournament = create(client, format="knockout", pairs=pairs(5))
    conforms(tournament, "CreatedTournament", openapi)
    assert [pair["number"] for pair in tournament["pairs"]] == [1, 2, 3, 4, 5]
    first = matches(tournament, 1)
    played = [match for match in first if match["pairs"][1] is not None]
    byes = [match for match in first if match["pairs"][1] is None]
    # A bracket of 8: 1-8, 4-5, 2-7, 3-6; seeds 6 to 8 are byes.
    assert [match["pairs"] for match in played] == [[4, 5]]
    assert sorted(match["pairs"][0] for match in byes) == [1, 2, 3]
    assert all(match["winner"] == match["pairs"][0] for match in byes)
    (match,) = played
    assert len(match["rubbers"]) == 1
    rubber = client.get(f"/api/v1/rubbers/{match['rubbers'][0]}", headers=EN).get_json()
    assert rubber["tournament"] == {"id": tournament["id"], "round": 1, "table": match["table"]}
    assert rubber["players"] == ["Ana 4", "Ana 5", "Bruno 4", "Bruno 5"]

    win_rubber(client, tournament, match["rubbers"][0], 1)  # seed 5 beats seed 4
    current = state(client, tournament)
    conforms(current, "TournamentState", openapi)
    assert (
        matches(current, 1)[[m["table"] for m in matches(current, 1)].index(match["table"])][
            "winner"
        ]
        == 5
    )
    semi = {tuple(m["pairs"]) for m in matches(current, 2)}
    assert semi == {(1, 5), (2, 3)}
    current = play_round(client, tournament, 2)
    (final,) = matches(current, 3)
    assert final["pairs"] == [1, 2]
    assert not current["finished"]
    current = play_round(client, tournament, 3, first_wins=False)
    assert current["finished"] and current["winner"] == 2


def test_a_best_of_three_goes_on_by_itself(client: FlaskClient) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(3), best_of=3)
    (match,) = [m for m in matches(tournament, 1) if m["pairs"][1] is not None]
    first = match["rubbers"][0]
    win_rubber(client, tournament, first, 0)
    current = state(client, tournament)
    (match,) = [m for m in matches(current, 1) if m["table"] == match["table"]]
    assert match["wins"] == [1, 0] and match["winner"] is None
    assert len(match["rubbers"]) == 2
    second = client.get(f"/api/v1/rubbers/{match['rubbers'][1]}", headers=EN).get_json()
    previous = client.get(f"/api/v1/rubbers/{first}", headers=EN).get_json()
    assert second["first_dealer"] == previous["dealer"]  # the deal goes on round
    # The rubber's own key is not given to anyone here: the tournament's writes it.
    win_rubber(client, tournament, match["rubbers"][1], 0)
    current = state(client, tournament)
    (match,) = [m for m in matches(current, 1) if m["table"] == match["table"]]
    assert match["wins"] == [2, 0] and match["winner"] == match["pairs"][0]
    assert len(match["rubbers"]) == 2
    standing = {row["pair"]: row for row in current["standings"]}
    winner = standing[match["winner"]]
    byes = sum(
        m["pairs"] == [match["winner"], None]
        for drawn in current["rounds"]
        if drawn["number"] <= current["current_round"]
        for m in drawn["matches"]
    )
    # Three pairs: each rests once, and a rest counts as a match won once its round is current
    # (round 2 now): pair 2, who won, rests in round 3.
    assert (current["current_round"], match["winner"], byes) == (2, 2, 0)
    assert (winner["won"], winner["games_won"], winner["games_lost"]) == (1 + byes, 8, 0)


def test_a_swiss_round_is_drawn_when_the_last_one_ends(client: FlaskClient) -> None:
    tournament = create(client, format="swiss", pairs=pairs(8), rounds=3)
    assert [m["pairs"] for m in matches(tournament, 1)] == [[1, 5], [2, 6], [3, 7], [4, 8]]
    rounds = f"/api/v1/tournaments/{tournament['id']}/rounds"
    early = client.post(rounds, headers=key(tournament))
    assert early.status_code == 409 and early.get_json()["code"] == "round_unfinished"
    play_round(client, tournament, 1)
    drawn = client.post(rounds, headers=key(tournament))
    assert drawn.status_code == 201, drawn.get_json()
    second = matches(drawn.get_json(), 2)
    met = {frozenset(m["pairs"]) for m in matches(drawn.get_json(), 1)}
    assert not met & {frozenset(m["pairs"]) for m in second}  # no rematch
    # The winners meet the winners: 1-4 won round 1.
    assert {frozenset(m["pairs"]) for m in second if set(m["pairs"]) <= {1, 2, 3, 4}}


def test_a_walkover_and_a_withdrawal(client: FlaskClient) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(4))
    match = matches(tournament, 1)[0]
    url = f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{match['table']}/walkover"
    no_key = client.post(url, json={"winner": match["pairs"][0]}, headers=EN)
    assert no_key.status_code == 403
    given = client.post(url, json={"winner": match["pairs"][1]}, headers=key(tournament))
    assert given.status_code == 200, given.get_json()
    (match,) = [m for m in matches(given.get_json(), 1) if m["table"] == match["table"]]
    assert match["walkover"] and match["winner"] == match["pairs"][1]

    other = matches(tournament, 1)[1]
    win_rubber(client, tournament, other["rubbers"][0], 0)
    url = f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{other['table']}/walkover"
    played = client.post(url, json={"winner": other["pairs"][1]}, headers=key(tournament))
    assert played.status_code == 409 and played.get_json()["code"] == "match_played"

    gone = client.post(
        f"/api/v1/tournaments/{tournament['id']}/pairs/4/withdraw", headers=key(tournament)
    )
    assert gone.status_code == 200, gone.get_json()
    for drawn in gone.get_json()["rounds"]:
        for m in drawn["matches"]:
            if 4 in m["pairs"] and m["winner"] != 4 and None not in m["pairs"]:
                assert m["winner"] is not None


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"format": "knockout", "pairs": pairs(2)}, "too_few_pairs"),
        ({"format": "knockout", "pairs": pairs(129)}, "too_many_pairs"),
        ({"format": "knockout", "pairs": pairs(4), "best_of": 2}, "even_best_of"),
        ({"format": "ladder", "pairs": pairs(4)}, "unknown_format"),
        ({"format": "swiss", "pairs": pairs(4), "rounds": 0}, "bad_rounds"),
        ({"format": "swiss", "pairs": pairs(4), "rounds": 4}, "bad_rounds"),
        (
            {"format": "knockout", "pairs": [*pairs(3), {"players": ["ana 1", "Zé"]}]},
            "repeated_player",
        ),
    ],
)
def test_refusals_store_nothing(client: FlaskClient, body: dict[str, Any], code: str) -> None:
    response = client.post("/api/v1/tournaments", json={"name": "T", **body}, headers=EN)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["code"] == code
    assert response.get_json()["error"]


def test_a_follower_polls_with_its_etag(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    first = client.get(f"/api/v1/tournaments/{tournament['id']}", headers=EN)
    again = client.get(
        f"/api/v1/tournaments/{tournament['id']}",
        headers={"If-None-Match": first.headers["ETag"], **EN},
    )
    assert again.status_code == 304
    match = matches(tournament, 1)[0]
    win_rubber(client, tournament, match["rubbers"][0], 0)
    changed = client.get(
        f"/api/v1/tournaments/{tournament['id']}",
        headers={"If-None-Match": first.headers["ETag"], **EN},
    )
    assert changed.status_code == 200


def test_a_corrected_result_gives_the_next_match_its_own_pairs(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    current = play_round(client, tournament, 1)
    (final,) = matches(current, 2)
    assert final["pairs"] == [1, 2] and len(final["rubbers"]) == 1
    old_final = final["rubbers"][0]
    (semi,) = [m for m in matches(current, 1) if 4 in m["pairs"]]
    undone = client.delete(
        f"/api/v1/rubbers/{semi['rubbers'][0]}/hands/last",
        json={},
        headers=key(tournament),
    )
    assert undone.status_code == 200, undone.get_json()
    current = state(client, tournament)
    assert [m["pairs"] for d in current["rounds"] if d["number"] == 2 for m in d["matches"]] == []
    win_rubber(client, tournament, semi["rubbers"][0], semi["pairs"].index(4))
    current = state(client, tournament)
    (final,) = matches(current, 2)
    assert final["pairs"] == [4, 2]
    assert final["rubbers"] and old_final not in final["rubbers"]
    rubber = client.get(f"/api/v1/rubbers/{final['rubbers'][0]}", headers=EN).get_json()
    assert rubber["players"] == ["Ana 4", "Ana 2", "Bruno 4", "Bruno 2"]


def test_a_tournament_in_a_group_needs_the_groups_key(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Tasca"}, headers=EN).get_json()
    body = {"name": "T", "format": "knockout", "pairs": pairs(4), "group": group["id"]}
    refused = client.post("/api/v1/tournaments", json=body, headers=EN)
    assert refused.status_code == 403
    made = client.post(
        "/api/v1/tournaments", json=body, headers={"X-Group-Key": group["edit_key"], **EN}
    )
    assert made.status_code == 201, made.get_json()
    tournament = made.get_json()
    assert tournament["group"] == group["id"]
    win_rubber(client, tournament, matches(tournament, 1)[0]["rubbers"][0], 0)
    stats = client.get(f"/api/v1/groups/{group['id']}/stats", headers=EN).get_json()
    assert {player["name"] for player in stats["players"]} >= {"Ana 1", "Bruno 1", "Ana 4"}


def test_a_rubber_won_and_the_next_one_are_one_write(
    app: Any, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand that ends a rubber starts the match's next one in the same transaction.

    When the tournament cannot follow, the hand is not kept either (409, nothing stored), and
    the table's phone sends it again (issue 42, item 2)."""
    from sqlalchemy.exc import OperationalError

    from scorekeeper.tournaments import store

    tournament = create(client, format="round_robin", pairs=pairs(4), best_of=3)
    match = matches(tournament, 1)[0]
    rubber = match["rubbers"][0]
    locked = store._locked  # where the tournament's sync takes its turn: a busy database

    def busy(tournament_id: str) -> Any:
        raise OperationalError("sync", {}, Exception("database is locked"))

    monkeypatch.setattr(store, "_locked", busy)
    refused = client.post(f"/api/v1/rubbers/{rubber}/hands", json=BANDEIRA, headers=key(tournament))
    assert refused.status_code in (409, 503), refused.get_json()
    assert client.get(f"/api/v1/rubbers/{rubber}").get_json()["games"] == [0, 0]
    monkeypatch.setattr(store, "_locked", locked)
    win_rubber(client, tournament, rubber, 0)
    (match,) = [m for m in matches(state(client, tournament), 1) if m["table"] == match["table"]]
    assert match["wins"] == [1, 0] and len(match["rubbers"]) == 2


def test_reading_a_tournament_writes_nothing(app: Any, client: FlaskClient) -> None:
    """A follower's read never creates a rubber, even where the fold asks for one.

    (A rubber lost to a crash, as an earlier version could lose one.) Only a write does
    (issue 42, item 2)."""
    import sqlalchemy as sa

    from scorekeeper.extensions import db
    from scorekeeper.tournaments.models import MatchRubber

    tournament = create(client, format="knockout", pairs=pairs(4))
    with app.app_context():
        db.session.execute(
            sa.delete(MatchRubber).where(
                MatchRubber.tournament_id == tournament["id"], MatchRubber.table == 2
            )
        )
        db.session.commit()

        def places() -> int:
            return len(
                db.session.scalars(
                    sa.select(MatchRubber.rubber_id).where(
                        MatchRubber.tournament_id == tournament["id"]
                    )
                ).all()
            )

        assert places() == 1
        for address in ("", "/tv", "/print", "/bracket.svg"):
            assert client.get(f"/t/{tournament['id']}{address}").status_code == 200, address
        assert state(client, tournament)["rounds"][0]["matches"][1]["rubbers"] == []
        db.session.remove()
        assert places() == 1
        db.session.remove()


def test_a_round_robin_says_its_current_round_and_counts_a_rest_once_it_comes(
    client: FlaskClient,
    openapi: dict[str, Any],  # noqa: F811
) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(5))
    conforms(tournament, "CreatedTournament", openapi)
    assert tournament["current_round"] == 1
    # Before a hand only round 1's rest is counted, not every pair's played 1, won 1.
    (rest,) = [m["pairs"][0] for m in matches(tournament, 1) if m["pairs"][1] is None]
    assert [(row["pair"], row["played"], row["won"]) for row in tournament["standings"]][0] == (
        rest,
        1,
        1,
    )
    assert sum(row["played"] for row in tournament["standings"]) == 1
    current = play_round(client, tournament, 1)
    conforms(current, "TournamentState", openapi)
    assert current["current_round"] == 2
    assert sum(row["won"] for row in current["standings"]) == 2 + 2  # two matches, two rests
    for number in range(2, 6):
        current = play_round(client, tournament, number)
    assert current["current_round"] is None and current["finished"]


@pytest.mark.parametrize(
    ("body", "code", "sentence"),
    [
        (
            {"format": "swiss", "pairs": pairs(10), "rounds": 10},
            "bad_rounds",
            "A Swiss tournament of 10 pairs has at most 9 rounds",
        ),
        (
            {"format": "knockout", "pairs": pairs(4), "rounds": 2},
            "bad_rounds",
            "Only a Swiss tournament is given a number of rounds",
        ),
        (
            {"format": "knockout", "pairs": [*pairs(3), {"players": ["Ana", "ana"]}]},
            "repeated_player",
            "Ana is named twice in the same pair",
        ),
        (
            {"format": "knockout", "pairs": [*pairs(3), {"players": ["Ana 1", "Zé"]}]},
            "repeated_player",
            "Ana 1 is in two pairs",
        ),
    ],
)
def test_a_refusal_says_the_real_problem(
    client: FlaskClient, body: dict[str, Any], code: str, sentence: str
) -> None:
    response = client.post("/api/v1/tournaments", json={"name": "T", **body}, headers=EN)
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["code"] == code
    assert sentence in response.get_json()["error"]
