"""Statistics of a small group worked out by hand: every figure of API.md and of the pages.

Pente, chapéu, arrepio and bandeira included, names typed with other cases and spaces."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from openskill.models import PlackettLuce

from scorekeeper import engine
from scorekeeper.engine.names import player_key
from scorekeeper.extensions import db
from scorekeeper.groups import sittings, statistics
from scorekeeper.groups import store as group_store
from scorekeeper.rubbers import store
from tests.support.api_calls import new_group, new_rubber, play
from tests.support.recompute import full_recompute

# Seats 0 and 2 are team 0, seats 1 and 3 team 1. Points are team 0's and team 1's.
RUBBERS: list[tuple[list[str], list[dict[str, Any]]]] = [
    # R1: Ana & Eva 4-0 Rui & Zé, a pente (2 games + 2 games).
    (["Ana", "Rui", "Eva", "Zé"], [{"points": [95, 25]}, {"points": [100, 20]}]),
    # R2: the same four, typed otherwise: 0-1, 0-3, 1-3, 3-3, 4-3, an arrepio.
    (
        [" ana", "RUI ", "eva", "Zé"],
        [
            {"points": [30, 90]},
            {"points": [20, 100]},
            {"points": [61, 59]},
            {"points": [95, 25]},
            {"points": [70, 50]},
        ],
    ),
    # R3: Bea & Ana 4-1 Rui & Zé, a chapéu.
    (
        ["Bea", "Rui", "Ana", "Zé"],
        [{"points": [30, 90]}, {"points": [95, 25]}, {"points": [100, 20]}],
    ),
    # R4: Rui & Zé against Ana & Eva: a tie carried, then a bandeira: 5-0 (a shutout by bandeira).
    (
        ["Rui", "Ana", "Zé", "Eva"],
        [{"points": [60, 60]}, {"points": [120, 0], "all_tricks": True}],
    ),
    # R5, still in play: not counted, but it has the latest spelling of Zé.
    (["Ana", "Rui", "Eva", "ZÉ "], [{"points": [70, 50]}]),
]


def build(client: FlaskClient) -> str:
    group = new_group(client, "Tasca do Zé")
    for players, hands in RUBBERS:
        play(client, new_rubber(client, group, players=players), *hands)
    return str(group["id"])


@pytest.fixture
def group(client: FlaskClient) -> str:
    return build(client)


def by_name(stats: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {player["name"]: player for player in stats["players"]}


def test_player_figures_match_the_hand_count(client: FlaskClient, group: str) -> None:
    stats = client.get(f"/api/v1/groups/{group}/stats").get_json()
    assert stats["rubbers"] == 4
    players = by_name(stats)
    assert sorted(players) == ["Ana", "Bea", "Eva", "Rui", "ZÉ"]
    fields = (
        "rubbers won lost games_won games_lost pentes pentes_taken chapeus chapeus_taken "
        "arrepios arrepios_taken bandeiras card_points_per_hand"
    ).split()
    expected = {
        # Ana: R1 won 4-0, R2 won 4-3, R3 won 4-1, R4 lost 0-5; points 195+276+225+60 over 12.
        "Ana": (4, 3, 1, 12, 9, 1, 1, 1, 0, 1, 0, 0, 63.0),
        # Eva: R1, R2, R4; points 195+276+60 over 9 hands.
        "Eva": (3, 2, 1, 8, 8, 1, 1, 0, 0, 1, 0, 0, 59.0),
        # Rui and Zé: lost R1-R3, won R4 by a bandeira; points 45+324+135+180 over 12.
        "Rui": (4, 1, 3, 9, 12, 1, 1, 0, 1, 0, 1, 1, 57.0),
        "ZÉ": (4, 1, 3, 9, 12, 1, 1, 0, 1, 0, 1, 1, 57.0),
        # Bea: R3 only, 225 points over 3 hands.
        "Bea": (1, 1, 0, 4, 1, 0, 0, 1, 0, 0, 0, 0, 75.0),
    }
    for name, values in expected.items():
        assert tuple(players[name][field] for field in fields) == values, name


def test_named_outcomes_of_the_group(client: FlaskClient, group: str) -> None:
    outcomes = client.get(f"/api/v1/groups/{group}/stats").get_json()["outcomes"]
    assert outcomes == {
        "shutout": 2,  # R1 and R4: the loser on 0 games
        "pente": 1,
        "chapeu": 1,
        "arrepio": 1,
        "bandeira": 1,
        "revoke": 0,
    }


def test_pairs_partners_and_opponents(client: FlaskClient, group: str) -> None:
    stats = client.get(f"/api/v1/groups/{group}/stats").get_json()
    pairs = {tuple(sorted(pair["players"])): pair for pair in stats["pairs"]}
    assert set(pairs) == {("Ana", "Eva"), ("Rui", "ZÉ"), ("Ana", "Bea")}
    assert {k: v for k, v in pairs[("Ana", "Eva")].items() if k != "players"} == {
        "rubbers": 3,
        "won": 2,
        "games_won": 8,
        "games_lost": 8,
    }
    assert (pairs[("Rui", "ZÉ")]["rubbers"], pairs[("Rui", "ZÉ")]["won"]) == (4, 1)
    assert (pairs[("Ana", "Bea")]["rubbers"], pairs[("Ana", "Bea")]["won"]) == (1, 1)
    players = by_name(stats)
    assert players["Ana"]["best_partner"] == "Bea"  # 1 of 1 beats 2 of 3
    assert players["Eva"]["best_partner"] == "Ana"
    assert players["Ana"]["toughest_opponents"] == ["Rui", "ZÉ"]  # 1 of 4 lost to each
    # Rui won 0 of 1 against Bea, 1 of 4 against Ana, 1 of 3 against Eva.
    assert players["Rui"]["toughest_opponents"] == ["Bea", "Ana", "Eva"]


def test_ratings_follow_openskill_rubber_by_rubber(client: FlaskClient, group: str) -> None:
    model = PlackettLuce()
    ratings = {name: model.rating() for name in ("ana", "eva", "rui", "zé", "bea")}

    def play(winners: tuple[str, str], losers: tuple[str, str]) -> None:
        teams = [[ratings[n] for n in winners], [ratings[n] for n in losers]]
        after = model.rate(teams, ranks=[0, 1])
        for names, team in zip((winners, losers), after, strict=True):
            for name, rating in zip(names, team, strict=True):
                ratings[name] = rating

    play(("ana", "eva"), ("rui", "zé"))
    play(("ana", "eva"), ("rui", "zé"))
    play(("bea", "ana"), ("rui", "zé"))
    play(("rui", "zé"), ("ana", "eva"))
    stats = client.get(f"/api/v1/groups/{group}/stats").get_json()
    players = by_name(stats)
    for name, key in (("Ana", "ana"), ("Eva", "eva"), ("Rui", "rui"), ("ZÉ", "zé"), ("Bea", "bea")):
        expected = ratings[key]
        assert players[name]["rating_mu"] == pytest.approx(expected.mu, abs=1e-3)
        assert players[name]["rating_sigma"] == pytest.approx(expected.sigma, abs=1e-3)
        assert players[name]["rating"] == pytest.approx(expected.ordinal(), abs=1e-3)
    ranked = [player["rating"] for player in stats["players"]]
    assert ranked == sorted(ranked, reverse=True)
    assert players["Ana"]["rated_rubbers"] == 4 and players["Bea"]["rated_rubbers"] == 1


def test_the_cache_equals_a_full_recompute_from_the_hands(app: Flask, group: str) -> None:
    with app.app_context():
        cached = group_store.stats(group)
        folded = full_recompute(group)
        assert cached == folded
        assert cached.names["zé"] == "ZÉ"  # the latest spelling, from the rubber in play


def test_names_match_without_case_spaces_or_accent_forms() -> None:
    decomposed = "Jose\u0301"
    assert player_key(" JOSÉ ") == player_key(decomposed) == "josé"
    assert statistics.repeated_name(["Ana", "", "", " ANA"]) == "ANA"
    assert statistics.repeated_name(["Ana", "", "", None]) is None


def test_seat_records_come_from_the_engines_fold() -> None:
    rules = engine.RuleSet()
    state = engine.replay(rules, [engine.Hand.tie(), engine.Hand.played(120, all_tricks=True)])
    seats = statistics.seat_records(["Rui", "Ana", "", "Eva"], state)
    assert [seat.key for seat in seats] == ["rui", "ana", "eva"]
    rui, ana, eva = seats
    assert (rui.won, rui.games_won, rui.games_lost, rui.bandeiras, rui.pente_given) == (
        True,
        5,
        0,
        1,
        True,
    )
    assert rui.partner_key is None  # seat 2 is unnamed
    assert (ana.partner_key, ana.pente_taken, ana.card_points, ana.point_hands) == (
        "eva",
        True,
        60,
        2,
    )
    assert not statistics.rateable(seats)


def test_sittings_follow_the_same_four_players() -> None:
    from datetime import datetime, timedelta

    a, b = frozenset({"ana", "eva"}), frozenset({"rui", "zé"})
    c = frozenset({"bea", "rui"})
    start = datetime(2026, 5, 1, 21, 0)

    def rubber(ident: str, minutes: int, sides: tuple[frozenset[str], frozenset[str]],
               winner: int, shutout: bool = False) -> sittings.SittingRubber:  # fmt: skip
        return sittings.SittingRubber(
            ident, start + timedelta(minutes=minutes), None, sides, True, winner, shutout
        )

    rubbers = [
        rubber("0", -600, (a, b), 0),  # the night before: another sitting
        rubber("1", 0, (a, b), 0, True),
        rubber("x", 10, (c, a), 1),  # another table of the group meanwhile
        rubber("2", 30, (b, a), 0),  # sides swapped at the table: b wins
        rubber("3", 60, (a, b), 1, True),
    ]
    found = sittings.sitting(rubbers, "2")
    assert [r.id for r in found] == ["1", "2", "3"]
    rows = sittings.running_count(found)
    assert [row.rubbers for row in rows] == [(1, 0), (1, 1), (1, 2)]
    assert [row.pentes for row in rows] == [(1, 0), (1, 0), (1, 1)]
    assert [row.flipped for row in rows] == [False, True, False]


def test_a_rubber_edited_after_it_finished_rates_again(
    app: Flask, client: FlaskClient, group: str
) -> None:
    """Undoing the last hand of an early rubber takes it out of the ratings of every later one."""
    with app.app_context():
        from scorekeeper.rubbers.models import Rubber

        first = (
            db.session.execute(
                db.select(Rubber).where(Rubber.group_id == group).order_by(Rubber.created_at)
            )
            .scalars()
            .first()
        )
        assert first is not None
        key = "the-key"
        first.edit_key_hash = store.hash_key(key)
        db.session.commit()
        rubber_id = first.id
    before = by_name(client.get(f"/api/v1/groups/{group}/stats").get_json())
    undone = client.delete(f"/api/v1/rubbers/{rubber_id}/hands/last", headers={"X-Edit-Key": key})
    assert undone.status_code == 200
    after = by_name(client.get(f"/api/v1/groups/{group}/stats").get_json())
    assert after["Ana"]["rubbers"] == before["Ana"]["rubbers"] - 1
    assert after["Ana"]["rating_mu"] != before["Ana"]["rating_mu"]
    with app.app_context():
        assert group_store.stats(group) == full_recompute(group)


def test_a_long_rating_chart_is_drawn_through_seventy_points_and_its_extremes() -> None:
    """200 rubbers on a 280-pixel plot: the line goes through 70 of them from the first to the last.

    It also goes through the lowest and highest, so it reaches both ends of its axis."""
    from scorekeeper.groups import charts

    points = [(25.0 + (i % 7), 8.0 - i / 50) for i in range(200)]
    points[102] = (5.0, 6.0)  # one bad night, between two of the 70
    points[151] = (40.0, 2.0)  # and one great one
    chart = charts.rating_chart(points)
    drawn = chart.series[0].path.split(" L ")
    assert len(drawn) == charts.MOST_DRAWN + 2
    assert drawn[0].startswith(f"M {charts.LEFT}.0 ")
    assert drawn[-1].startswith(f"{charts.WIDTH - charts.RIGHT}.0 ")
    assert chart.band is not None and len(chart.band.split()) == 2 * len(drawn)
    band_ys = {float(point.split(",")[1]) for point in chart.band.split()}
    assert {float(charts.TOP), float(charts.HEIGHT - charts.BOTTOM)} <= band_ys  # both ends
    assert [guide.label for guide in chart.guides] == ["42", "-1"]
    short = charts.rating_chart(points[:40])
    assert len(short.series[0].path.split(" L ")) == 40
