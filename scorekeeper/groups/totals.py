"""A group's stored totals: per player, per pair of partners, per pair of opponents, per outcome.

They are moved by each write by the difference between a rubber's old seat rows and its new
(``groups.seats``), and counted again from the seat rows by :func:`recount`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import sqlalchemy as sa

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups.models import (
    GroupOpponent,
    GroupOutcome,
    GroupPartner,
    GroupPlayer,
    GroupSeat,
)
from scorekeeper.rubbers.models import Rubber

seats_table: sa.Table = GroupSeat.__table__  # type: ignore[assignment]
players_table: sa.Table = GroupPlayer.__table__  # type: ignore[assignment]
partners_table: sa.Table = GroupPartner.__table__  # type: ignore[assignment]
opponents_table: sa.Table = GroupOpponent.__table__  # type: ignore[assignment]
outcomes_table: sa.Table = GroupOutcome.__table__  # type: ignore[assignment]

PLAYER_TOTALS = (
    "rubbers",
    "won",
    "games_won",
    "games_lost",
    "pentes",
    "pentes_taken",
    "chapeus",
    "chapeus_taken",
    "arrepios",
    "arrepios_taken",
    "bandeiras",
    "card_points",
    "point_hands",
)
PARTNER_TOTALS = ("rubbers", "won", "games_won", "games_lost")
OPPONENT_TOTALS = ("rubbers", "won")
TOTALS = {
    "group_players": PLAYER_TOTALS,
    "group_partners": PARTNER_TOTALS,
    "group_opponents": OPPONENT_TOTALS,
    "group_outcomes": ("rubbers",),
}
ALL = "all"
"""The group_outcomes row that counts every rubber of the group, finished or not."""
FINISHED = "finished"
"""The group_outcomes row that counts every finished rubber of the group."""
SHUTOUT = "shutout"

Result = tuple[bool, int | None, tuple[int, int], str | None]
"""A rubber's result as its cached columns hold it: finished, winner, games, outcome."""


def result_of(tally: engine.Tally) -> Result:
    """A rubber's result as its cached columns hold it, from the engine's running totals."""
    outcome = tally.outcome.value if tally.outcome is not None else None
    return (tally.finished, tally.winner, tally.games, outcome)


def _player_counts(row: dict[str, Any]) -> dict[str, int]:
    """What one finished seat row adds to its player's totals (as the tests' count from scratch does)."""
    won, outcome = bool(row["won"]), row["outcome"]
    return {
        "rubbers": 1,
        "won": int(won),
        "games_won": row["games_won"],
        "games_lost": row["games_lost"],
        "pentes": int(row["pente_given"]),
        "pentes_taken": int(row["pente_taken"]),
        "chapeus": int(won and outcome == "chapeu"),
        "chapeus_taken": int(not won and outcome == "chapeu"),
        "arrepios": int(won and outcome == "arrepio"),
        "arrepios_taken": int(not won and outcome == "arrepio"),
        "bandeiras": row["bandeiras"],
        "card_points": row["card_points"],
        "point_hands": row["point_hands"],
    }


class Totals:
    """Changes to a group's stored totals, summed before they are written.

    Per row of group_players, group_partners, group_opponents and group_outcomes."""

    def __init__(self) -> None:
        self.rows: dict[sa.Table, dict[tuple[str, ...], dict[str, int]]] = {
            players_table: {},
            partners_table: {},
            opponents_table: {},
            outcomes_table: {},
        }
        self.names: dict[str, str] = {}

    def _add(
        self, table: sa.Table, key: tuple[str, ...], counts: dict[str, int], sign: int
    ) -> None:
        row = self.rows[table].setdefault(key, {})
        for name, value in counts.items():
            row[name] = row.get(name, 0) + sign * value

    def count_seats(self, seats: Iterable[dict[str, Any]], sign: int) -> None:
        """Add (``sign`` +1) or take away (-1) what finished seat rows count."""
        for row in seats:
            if not row["finished"]:
                continue
            key, won = row["player_key"], int(bool(row["won"]))
            self.names.setdefault(key, row["name"])
            self._add(players_table, (key,), _player_counts(row), sign)
            if row["partner_key"] is not None:
                pair = {
                    "rubbers": 1,
                    "won": won,
                    "games_won": row["games_won"],
                    "games_lost": row["games_lost"],
                }
                self._add(partners_table, (key, row["partner_key"]), pair, sign)
            for opponent in (row["opponent_a"], row["opponent_b"]):
                if opponent is not None:
                    self._add(opponents_table, (key, opponent), {"rubbers": 1, "won": won}, sign)

    def count_rubber(self) -> None:
        """Count one more rubber in the group."""
        self._add(outcomes_table, (ALL,), {"rubbers": 1}, +1)

    def count_result(self, result: Result, sign: int) -> None:
        """Add or take away a rubber's result from the group's outcomes."""
        finished, winner, games, outcome = result
        if not finished:
            return
        names = [FINISHED]
        if outcome:
            names.append(outcome)
        if engine.is_pente(games, winner):
            names.append(SHUTOUT)
        for name in names:
            self._add(outcomes_table, (name,), {"rubbers": 1}, sign)

    def write(self, group_id: str, *, replace: bool = False) -> None:
        """Add the changes to the stored rows.

        An update of the rows already there, an insert of the others. With ``replace`` the changes
        are the whole totals: the rows start from 0."""
        connection = db.session.connection()
        for table, rows in self.rows.items():
            keys = [column for column in table.primary_key.columns if column.name != "group_id"]
            counts = TOTALS[table.name]
            if replace:
                if table is players_table:
                    connection.execute(
                        table.update()
                        .where(table.c.group_id == group_id)
                        .values(dict.fromkeys(counts, 0))
                    )
                else:
                    connection.execute(table.delete().where(table.c.group_id == group_id))
            changed = {key: row for key, row in rows.items() if any(row.values())}
            if not changed:
                continue
            present = {
                tuple(row)
                for row in connection.execute(
                    sa.select(*keys).where(
                        table.c.group_id == group_id,
                        keys[0].in_(sorted({key[0] for key in changed})),
                    )
                )
            }
            updates, inserts = [], []
            for key, row in changed.items():
                values = {name: row.get(name, 0) for name in counts}
                if key in present:
                    bound = {
                        f"b_{column.name}": part for column, part in zip(keys, key, strict=True)
                    }
                    deltas = {f"d_{name}": value for name, value in values.items()}
                    updates.append({"b_group_id": group_id, **bound, **deltas})
                else:
                    names = {column.name: part for column, part in zip(keys, key, strict=True)}
                    if table is players_table:
                        names["name"] = self.names[key[0]]
                    inserts.append({"group_id": group_id, **names, **values})
            if updates:
                connection.execute(
                    table.update()
                    .where(
                        *(
                            column == sa.bindparam(f"b_{column.name}")
                            for column in (table.c.group_id, *keys)
                        )
                    )
                    .values({name: table.c[name] + sa.bindparam(f"d_{name}") for name in counts}),
                    updates,
                )
            if inserts:
                connection.execute(table.insert(), inserts)


def recount(group_id: str) -> None:
    """Count the group's totals again from its seat rows and rubbers.

    For rows written without the writes, as a bulk load does."""
    connection = db.session.connection()
    totals = Totals()
    totals.count_seats(
        (
            dict(row)
            for row in connection.execute(
                sa.select(seats_table).where(seats_table.c.group_id == group_id)
            ).mappings()
        ),
        +1,
    )
    for row in connection.execute(
        sa.select(
            Rubber.finished, Rubber.winner, Rubber.games0, Rubber.games1, Rubber.outcome
        ).where(Rubber.group_id == group_id)
    ):
        totals.count_rubber()
        totals.count_result((row.finished, row.winner, (row.games0, row.games1), row.outcome), +1)
    totals.write(group_id, replace=True)
