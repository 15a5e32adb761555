"""Large groups built quickly, with the same rows the writes make.

For the scale tests and the scale benchmark (``bench/scale.py``)."""

from __future__ import annotations

from datetime import datetime, timedelta

import sqlalchemy as sa
from flask import Flask

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups import ratings, seats, statistics, totals
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import GroupSeat
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.rubbers.models import Hand as HandRow

POOL = ["Ana", "Rui", "Eva", "Zé", "Bea", "Tó", "Mia", "Gil", "Lia", "Rita", "Nuno", "Sara"]
HANDS_PER_RUBBER = 20


def templates() -> list[list[engine.Hand]]:
    """Return rubbers of 20 hands under the online preset (ties count for nothing).

    A pente, a chapéu, an arrepio and a bandeira."""
    tie, win, lose = engine.Hand.tie(), engine.Hand.played(70), engine.Hand.played(30)
    return [
        [tie] * 16 + [win] * 4,
        [tie] * 15 + [lose] + [win] * 4,
        [tie] * 13 + [lose] * 3 + [win] * 4,
        [tie] * 19 + [engine.Hand.played(0, 120, all_tricks=True)],
    ]


def bulk_group(
    app: Flask, count: int, name: str = "Bulk", device: str | None = None
) -> tuple[str, list[str]]:
    """Return a group of ``count`` finished rubbers of 20 hands each, written with executemany.

    With ``device``, every rubber is in that phone's history too."""
    rules = engine.RuleSet.from_dict({"preset": "online"})
    folded = [(hands, engine.replay(rules, hands)) for hands in templates()]
    start = datetime(2025, 1, 1, 20, 0)
    with app.app_context():
        group, _ = group_store.create_group(name)
        group_id = group.id
        rubbers, hand_rows, seat_rows, grants = [], [], [], []
        for index in range(count):
            hands, state = folded[index % len(folded)]
            players = [POOL[(index + offset) % len(POOL)] for offset in (0, 3, 6, 9)]
            if index % 5 == 0:
                players[0] = f" {players[0].upper()} "
            rubber_id = f"{name}-{index:06d}"
            created_at = start + timedelta(minutes=index)
            rubbers.append(
                {
                    "id": rubber_id,
                    "edit_key_hash": store.hash_key(rubber_id),
                    "team0": "Nós",
                    "team1": "Eles",
                    "players": players,
                    "first_dealer": 0,
                    "rules": rules.to_dict(),
                    "created_at": created_at,
                    "updated_at": created_at,
                    "version": 1,
                    "games0": state.games[0],
                    "games1": state.games[1],
                    "hand_count": len(hands),
                    "finished": state.finished,
                    "winner": state.winner,
                    "outcome": state.outcome.value if state.outcome else None,
                    "group_id": group_id,
                    "group_seq": index + 1,
                }
            )
            for number, hand in enumerate(hands, start=1):
                points = hand.points or (None, None)
                hand_rows.append(
                    {
                        "rubber_id": rubber_id,
                        "number": number,
                        "kind": hand.kind.value,
                        "points0": points[0],
                        "points1": points[1],
                        "all_tricks": hand.all_tricks,
                        "team": hand.team,
                        "created_at": start,
                    }
                )
            seat_rows.extend(
                seats.seat_row(rubber_id, group_id, created_at, index + 1, record)
                for record in statistics.seat_records(players, state)
            )
            if device is not None:
                grants.append(
                    {
                        "device": device,
                        "rubber_id": rubber_id,
                        "added_at": created_at,
                        "created_at": created_at,
                    }
                )
        connection = db.session.connection()
        connection.execute(sa.insert(Rubber.__table__), rubbers)
        connection.execute(sa.insert(HandRow.__table__), hand_rows)
        connection.execute(sa.insert(GroupSeat.__table__), seat_rows)
        if grants:
            connection.execute(sa.insert(DeviceRubber.__table__), grants)
        ratings.rerate_from(group_id, start, 1)
        totals.recount(group_id)
        db.session.commit()
    return group_id, [row["id"] for row in rubbers]
