"""The players' ratings in a group, kept rubber by rubber in the group's order.

Each seat row keeps its player's rating after its rubber, each player row the current one; a
write that changes a rubber's result rates again from that rubber on (docs/decisions/groups.md,
"Ratings").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups.models import GroupPlayer, GroupSeat
from scorekeeper.rubbers.models import Rubber

PLAYER_FIELDS = ("name", "mu", "sigma", "rated")
"""What refresh_players rewrites of a player row."""

seats_table: sa.Table = GroupSeat.__table__  # type: ignore[assignment]
players_table: sa.Table = GroupPlayer.__table__  # type: ignore[assignment]


# The group's order --------------------------------------------------------------------------


def at_or_after(
    created_at: datetime, seq: int, at: Any = Rubber.created_at, place: Any = Rubber.group_seq
) -> sa.ColumnElement[bool]:
    """From a place in the group's order on; the first comparison bounds an index range."""
    return sa.and_(at >= created_at, sa.or_(at > created_at, place >= seq))


def before(
    created_at: datetime, seq: int, at: Any = Rubber.created_at, place: Any = Rubber.group_seq
) -> sa.ColumnElement[bool]:
    """Before a place in the group's order; the first comparison bounds an index range."""
    return sa.and_(at <= created_at, sa.or_(at < created_at, place < seq))


# What the ratings read of a seat -------------------------------------------------------------


@dataclass(frozen=True)
class RatedSeat:
    """A seat row as the ratings read it."""

    seat: int
    key: str
    team: int
    won: bool
    finished: bool


def rating_view(rows: Iterable[dict[str, Any]]) -> list[RatedSeat]:
    return [
        RatedSeat(row["seat"], row["player_key"], row["team"], row["won"], row["finished"])
        for row in sorted(rows, key=lambda row: row["seat"])
    ]


def flag_is(column: Any, value: bool) -> sa.ColumnElement[bool]:
    """``column = true`` (or false) written as an equality, which an index can seek."""
    return column == (sa.true() if value else sa.false())  # type: ignore[no-any-return]


# Players and ratings --------------------------------------------------------------------------


def refresh_players(group_id: str, keys: set[str]) -> None:
    """Rewrite the group's player rows of ``keys`` from their seats.

    The rows hold the latest spelling of the name, the rating after the latest rated rubber and the
    number of rated rubbers (the totals are kept apart, by the difference each write makes)."""
    if not keys:
        return
    players: dict[str, dict[str, Any]] = {}
    for key in sorted(keys):
        rated = _latest_seat(group_id, key, rated=True)
        unrated = _latest_seat(group_id, key, rated=False)
        seen = [row for row in (rated, unrated) if row is not None]
        if not seen:
            continue
        latest = max(seen, key=lambda row: (row.created_at, row.group_seq))
        players[key] = {
            "group_id": group_id,
            "player_key": key,
            "name": latest.name,
            "mu": rated.mu if rated is not None else None,
            "sigma": rated.sigma if rated is not None else None,
            "rated": _rated_count(group_id, key) if rated is not None else 0,
        }
    connection = db.session.connection()
    present = set(
        connection.execute(
            sa.select(players_table.c.player_key).where(
                players_table.c.group_id == group_id, players_table.c.player_key.in_(sorted(keys))
            )
        ).scalars()
    )
    gone = present - players.keys()
    if gone:  # no seat left: their totals are 0 too
        connection.execute(
            players_table.delete().where(
                players_table.c.group_id == group_id, players_table.c.player_key.in_(sorted(gone))
            )
        )
    kept = [
        {"b_group": group_id, "b_key": key, **{name: row[name] for name in PLAYER_FIELDS}}
        for key, row in players.items()
        if key in present
    ]
    if kept:
        connection.execute(
            players_table.update()
            .where(
                players_table.c.group_id == sa.bindparam("b_group"),
                players_table.c.player_key == sa.bindparam("b_key"),
            )
            .values({name: sa.bindparam(name) for name in PLAYER_FIELDS}),
            kept,
        )
    new = [row for key, row in players.items() if key not in present]
    if new:
        connection.execute(players_table.insert(), new)


def _latest_seat(
    group_id: str, key: str, *, rated: bool, earlier: tuple[datetime, int] | None = None
) -> Any:
    """Return the player's latest seat row that was rated (or not), before a place if given.

    The place is one in the group's order; it takes one seek in the index of the player's seats in
    order."""
    query = sa.select(
        GroupSeat.name, GroupSeat.mu, GroupSeat.sigma, GroupSeat.created_at, GroupSeat.group_seq
    ).where(
        GroupSeat.group_id == group_id,
        GroupSeat.player_key == key,
        flag_is(GroupSeat.rated, rated),
    )
    if earlier is not None:
        query = query.where(before(*earlier, GroupSeat.created_at, GroupSeat.group_seq))
    return db.session.execute(
        query.order_by(GroupSeat.created_at.desc(), GroupSeat.group_seq.desc()).limit(1)
    ).first()


def _rated_count(group_id: str, key: str) -> int:
    """The player's rated rubbers, counted in the index of the player's seats."""
    return int(
        db.session.execute(
            sa.select(sa.func.count()).where(
                GroupSeat.group_id == group_id,
                GroupSeat.player_key == key,
                flag_is(GroupSeat.rated, True),
            )
        ).scalar_one()
    )


def _ratings_before(
    group_id: str, keys: Iterable[str], created_at: datetime, seq: int
) -> dict[str, statistics.Rating]:
    """Each player's rating just before the given place in the group's order."""
    book = {}
    for key in sorted(set(keys)):
        row = _latest_seat(group_id, key, rated=True, earlier=(created_at, seq))
        if row is not None:
            book[key] = statistics.Rating(row.mu, row.sigma)
    return book


def rerate_from(group_id: str, created_at: datetime, seq: int) -> int:
    """Rate again every rubber of the group from the given place on, in order.

    Each rubber is rated from each player's rating before it, and those players' rows are rewritten.
    Returns the seat rows whose rating changed."""
    connection = db.session.connection()
    rows = connection.execute(
        sa.select(
            seats_table.c.rubber_id,
            seats_table.c.seat,
            seats_table.c.player_key,
            seats_table.c.team,
            seats_table.c.won,
            seats_table.c.finished,
            seats_table.c.rated,
            seats_table.c.mu,
            seats_table.c.sigma,
        )
        .where(
            seats_table.c.group_id == group_id,
            at_or_after(created_at, seq, seats_table.c.created_at, seats_table.c.group_seq),
        )
        .order_by(seats_table.c.created_at, seats_table.c.group_seq, seats_table.c.seat)
    ).mappings()
    rubbers: dict[str, list[dict[str, Any]]] = {}
    row: Mapping[Any, Any]  # a row of the query here, a seat of `rubbers` below
    for row in rows:
        rubbers.setdefault(row["rubber_id"], []).append(dict(row))
    keys = [row["player_key"] for seats in rubbers.values() for row in seats]
    book = _ratings_before(group_id, keys, created_at, seq)
    updates = []
    for seats in rubbers.values():
        view = rating_view(seats)
        ratings = statistics.rate_seats(view, book) if statistics.rateable(view) else {}
        book.update(ratings)
        for row in seats:
            rating = ratings.get(row["player_key"])
            values = (True, rating.mu, rating.sigma) if rating is not None else (False, None, None)
            if (row["rated"], row["mu"], row["sigma"]) != values:
                updates.append(
                    {
                        "b_rubber": row["rubber_id"],
                        "b_seat": row["seat"],
                        "rated": values[0],
                        "mu": values[1],
                        "sigma": values[2],
                    }
                )
    if updates:
        connection.execute(
            seats_table.update()
            .where(
                seats_table.c.rubber_id == sa.bindparam("b_rubber"),
                seats_table.c.seat == sa.bindparam("b_seat"),
            )
            .values(
                rated=sa.bindparam("rated"), mu=sa.bindparam("mu"), sigma=sa.bindparam("sigma")
            ),
            updates,
        )
    refresh_players(group_id, set(keys))
    return len(updates)
