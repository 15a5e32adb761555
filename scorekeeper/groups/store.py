"""Groups in the database: their edit rights, the seat cache of their rubbers, the ratings
kept rubber by rubber, and the statistics kept as totals.

Every write of a rubber in a group rewrites that rubber's seat rows from the engine's fold
(:func:`refresh_seats`, called by ``store.refresh``) while holding the group's lock, moves the
group's stored totals (per player, per pair of partners, per pair of opponents, per outcome)
by the difference between the old seat rows and the new, and, when the rubber's result
changed, rates again from that rubber on. The pages then read those totals with a fixed
number of queries of a size set by the number of players, whatever the number of rubbers: no
seat row or hand is read.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups.models import (
    DeviceGroup,
    Group,
    GroupOpponent,
    GroupOutcome,
    GroupPartner,
    GroupPlayer,
    GroupSeat,
)
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.rubbers.store import rubber_written
from scorekeeper.web.columns import utcnow

NEIGHBOURS = 40
"""Rubbers read on each side of one to find its sitting: no sitting is longer."""
CHART_POINTS = 200
"""The rating chart shows a player's last rubbers, at most this many."""

SEAT_FIELDS = (
    "player_key",
    "name",
    "partner_key",
    "opponent_a",
    "opponent_b",
    "team",
    "finished",
    "won",
    "games_won",
    "games_lost",
    "pente_given",
    "pente_taken",
    "outcome",
    "bandeiras",
    "card_points",
    "point_hands",
)
RATING_FIELDS = ("player_key", "team", "finished", "won")
"""What a seat row holds that the ratings depend on."""
PLAYER_FIELDS = ("name", "mu", "sigma", "rated")
"""What refresh_players rewrites of a player row."""

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
groups_table: sa.Table = Group.__table__  # type: ignore[assignment]


# Groups and edit rights -------------------------------------------------------------------------


def create_group(name: str, device: str | None = None) -> tuple[Group, str]:
    """Store a new group; returns it with its edit key (only ever known to its creator)."""
    key = store.new_token()
    group = Group(id=store.new_token(), edit_key_hash=store.hash_key(key), name=name)
    db.session.add(group)
    db.session.flush()  # the grant points at the group
    if device:
        db.session.add(DeviceGroup(device=device, group_id=group.id))
    db.session.commit()
    return group, key


def get(group_id: str) -> Group | None:
    return db.session.get(Group, group_id) if store.is_token(group_id) else None


def key_matches(group: Group, key: str | None) -> bool:
    """Whether ``key`` is the group's edit key, compared in constant time."""
    if not key:
        return False
    return hmac.compare_digest(store.hash_key(key), group.edit_key_hash)


def grant(device: str, group: Group) -> None:
    if db.session.get(DeviceGroup, (device, group.id)) is None:
        db.session.add(DeviceGroup(device=device, group_id=group.id))
        db.session.commit()


def can_edit(device: str | None, group: Group) -> bool:
    return bool(device) and db.session.get(DeviceGroup, (device, group.id)) is not None


def known_names(group_id: str, limit: int = 60) -> list[str]:
    """The group's players, most often seen first, each in its latest spelling."""
    rows = db.session.execute(
        sa.select(GroupPlayer.name)
        .where(GroupPlayer.group_id == group_id)
        .order_by(GroupPlayer.rated.desc(), GroupPlayer.name)
        .limit(limit)
    )
    return [row.name for row in rows]


# The group's order and its lock -----------------------------------------------------------------


def _at_or_after(
    created_at: datetime, seq: int, at: Any = Rubber.created_at, place: Any = Rubber.group_seq
) -> sa.ColumnElement[bool]:
    """From a place in the group's order on; the first comparison bounds an index range."""
    return sa.and_(at >= created_at, sa.or_(at > created_at, place >= seq))


def _before(
    created_at: datetime, seq: int, at: Any = Rubber.created_at, place: Any = Rubber.group_seq
) -> sa.ColumnElement[bool]:
    """Before a place in the group's order; the first comparison bounds an index range."""
    return sa.and_(at <= created_at, sa.or_(at < created_at, place < seq))


def lock(group_id: str) -> None:
    """Take the group's lock for the rest of the transaction: writes to its rubbers' seats and
    ratings happen one at a time (a row lock on PostgreSQL, the write lock on SQLite)."""
    db.session.connection().execute(
        groups_table.update().where(groups_table.c.id == group_id).values(updated_at=utcnow())
    )


def _next_seq(group_id: str) -> int:
    top = db.session.execute(
        sa.select(sa.func.max(Rubber.group_seq)).where(Rubber.group_id == group_id)
    ).scalar()
    return (top or 0) + 1


# The seat cache, refreshed on every write ----------------------------------------------------


def _seat_row(rubber: Rubber, record: statistics.SeatRecord) -> dict[str, Any]:
    return {
        "rubber_id": rubber.id,
        "seat": record.seat,
        "group_id": rubber.group_id,
        "created_at": rubber.created_at,
        "group_seq": rubber.group_seq,
        "player_key": record.key,
        "name": record.name,
        "partner_key": record.partner_key,
        "opponent_a": record.opponent_keys[0],
        "opponent_b": record.opponent_keys[1],
        "team": record.team,
        "finished": record.finished,
        "won": record.won,
        "games_won": record.games_won,
        "games_lost": record.games_lost,
        "pente_given": record.pente_given,
        "pente_taken": record.pente_taken,
        "outcome": record.outcome,
        "bandeiras": record.bandeiras,
        "card_points": record.card_points,
        "point_hands": record.point_hands,
        "rated": False,
        "mu": None,
        "sigma": None,
    }


@dataclass(frozen=True)
class _Seat:
    """A seat row as the ratings read it."""

    seat: int
    key: str
    team: int
    won: bool
    finished: bool


def _rating_view(rows: Iterable[dict[str, Any]]) -> list[_Seat]:
    return [
        _Seat(row["seat"], row["player_key"], row["team"], row["won"], row["finished"])
        for row in sorted(rows, key=lambda row: row["seat"])
    ]


def refresh_seats(
    rubber: Rubber,
    state: engine.RubberState,
    *,
    rerate: bool = True,
    counted: Result | None = None,
) -> bool:
    """Rewrite the seat rows of a rubber in a group from the engine's state, and the group's
    totals by the difference; with ``rerate``, rate again from this rubber on when its result
    changed. Returns whether it changed.

    ``counted`` is the rubber's result as the group's totals last counted it (None for a rubber
    new to the group). A rubber new to the group takes the group's next place (its order is
    when it was started).
    """
    assert rubber.group_id is not None
    group_id = rubber.group_id
    lock(group_id)
    db.session.add(rubber)
    with db.session.no_autoflush:
        if rubber.created_at is None:
            rubber.created_at = utcnow()
        if rubber.group_seq is None:
            rubber.group_seq = _next_seq(group_id)
    db.session.flush()  # the rubber and its hands first: the seats point at the rubber
    connection = db.session.connection()
    old = [
        dict(row)
        for row in connection.execute(
            sa.select(seats_table).where(seats_table.c.rubber_id == rubber.id)
        ).mappings()
    ]
    new = [_seat_row(rubber, record) for record in statistics.seat_records(rubber.players, state)]
    old_rating = _rating_view(old)
    new_rating = _rating_view(new)
    changed = old_rating != new_rating and (
        statistics.rateable(old_rating) or statistics.rateable(new_rating)
    )
    if not changed:
        kept = {row["seat"]: row for row in old}
        for row in new:
            if row["seat"] in kept:
                for name in ("rated", "mu", "sigma"):
                    row[name] = kept[row["seat"]][name]
    if _comparable(old) != _comparable(new):
        connection.execute(seats_table.delete().where(seats_table.c.rubber_id == rubber.id))
        if new:
            connection.execute(seats_table.insert(), new)
    totals = _Totals()
    totals.count_seats(old, -1)
    totals.count_seats(new, +1)
    if counted is not None:
        totals.count_result(counted, -1)
    else:  # new to the group
        totals.count_rubber()
    totals.count_result(result_of(state), +1)
    totals.write(group_id)
    if not rerate:
        return changed  # the caller rates again from the first rubber it wrote
    if changed:
        assert rubber.created_at is not None and rubber.group_seq is not None
        rerate_from(group_id, rubber.created_at, rubber.group_seq)
    elif {(r["player_key"], r["name"]) for r in new} != {(r["player_key"], r["name"]) for r in old}:
        refresh_players(group_id, {row["player_key"] for row in old + new})
    return changed


# The group's totals, moved by each write by what it changed --------------------------------


def result_of(state: engine.RubberState) -> Result:
    outcome = state.outcome.value if state.outcome is not None else None
    return (state.finished, state.winner, state.games, outcome)


def _player_counts(row: dict[str, Any]) -> dict[str, int]:
    """What one finished seat row adds to its player's totals (as statistics.add_seat counts)."""
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


class _Totals:
    """Changes to a group's stored totals, per row of group_players, group_partners,
    group_opponents and group_outcomes, summed before they are written."""

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

    def count_rubber(self, sign: int = +1) -> None:
        """Count one more rubber in the group (or, ``sign`` -1, one fewer)."""
        self._add(outcomes_table, (ALL,), {"rubbers": 1}, sign)

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
        """Add the changes to the stored rows: an update of the rows already there, an insert of
        the others. With ``replace`` the changes are the whole totals: the rows start from 0."""
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
    """Count the group's totals again from its seat rows and rubbers (for rows written without
    the writes, as a bulk load does)."""
    connection = db.session.connection()
    totals = _Totals()
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


# Players and ratings --------------------------------------------------------------------------


def refresh_players(group_id: str, keys: set[str]) -> None:
    """Rewrite the group's player rows of ``keys`` from their seats: the latest spelling of
    the name, the rating after the latest rated rubber and the number of rated rubbers (the
    totals are kept apart, by the difference each write makes)."""
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


def _comparable(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    names = ("seat", *SEAT_FIELDS, "rated", "mu", "sigma")
    return sorted(tuple(row[name] for name in names) for row in rows)


def _is(column: Any, value: bool) -> sa.ColumnElement[bool]:
    """``column = true`` (or false) written as an equality, which an index can seek."""
    return column == (sa.true() if value else sa.false())  # type: ignore[no-any-return]


def _latest_seat(
    group_id: str, key: str, *, rated: bool, before: tuple[datetime, int] | None = None
) -> Any:
    """The player's latest seat row that was rated (or not), before a place in the group's
    order if given: one seek in the index of the player's seats in order."""
    query = sa.select(
        GroupSeat.name, GroupSeat.mu, GroupSeat.sigma, GroupSeat.created_at, GroupSeat.group_seq
    ).where(
        GroupSeat.group_id == group_id,
        GroupSeat.player_key == key,
        _is(GroupSeat.rated, rated),
    )
    if before is not None:
        query = query.where(_before(*before, GroupSeat.created_at, GroupSeat.group_seq))
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
                _is(GroupSeat.rated, True),
            )
        ).scalar_one()
    )


def _ratings_before(
    group_id: str, keys: Iterable[str], created_at: datetime, seq: int
) -> dict[str, statistics.Rating]:
    """Each player's rating just before the given place in the group's order."""
    book = {}
    for key in sorted(set(keys)):
        row = _latest_seat(group_id, key, rated=True, before=(created_at, seq))
        if row is not None:
            book[key] = statistics.Rating(row.mu, row.sigma)
    return book


def rerate_from(group_id: str, created_at: datetime, seq: int) -> int:
    """Rate again every rubber of the group from the given place on, in order, starting from
    each player's rating before it, and rewrite those players' rows. Returns the seat rows
    whose rating changed."""
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
            _at_or_after(created_at, seq, seats_table.c.created_at, seats_table.c.group_seq),
        )
        .order_by(seats_table.c.created_at, seats_table.c.group_seq, seats_table.c.seat)
    ).mappings()
    rubbers: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        rubbers.setdefault(row["rubber_id"], []).append(dict(row))
    keys = [row["player_key"] for seats in rubbers.values() for row in seats]
    book = _ratings_before(group_id, keys, created_at, seq)
    updates = []
    for seats in rubbers.values():
        view = _rating_view(seats)
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


def move(rubber: Rubber, group: Group) -> None:
    """Move a rubber that is in no group into ``group``, and commit.

    Raises ``store.Conflict("busy")`` when another write got to the rubber or the group first.
    """
    assert rubber.group_id is None
    try:
        rubber.group_id = group.id
        refresh_seats(rubber, rubber.state())
        db.session.commit()
    except (OperationalError, IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise store.Conflict("busy") from error
    except Exception:
        db.session.rollback()
        raise


def leave(rubber: Rubber) -> None:
    """Undo :func:`move`: take a rubber out of its group again, and commit. Its seat rows and
    its part of the group's totals go, and the rubbers after it are rated again without it.

    Raises ``store.Conflict("busy")`` when another write got to the rubber or the group first.
    """
    group_id, created_at, seq = rubber.group_id, rubber.created_at, rubber.group_seq
    assert group_id is not None and seq is not None
    try:
        lock(group_id)
        connection = db.session.connection()
        old = [
            dict(row)
            for row in connection.execute(
                sa.select(seats_table).where(seats_table.c.rubber_id == rubber.id)
            ).mappings()
        ]
        connection.execute(seats_table.delete().where(seats_table.c.rubber_id == rubber.id))
        totals = _Totals()
        totals.count_seats(old, -1)
        totals.count_rubber(-1)
        totals.count_result(result_of(rubber.state()), -1)
        totals.write(group_id)
        rubber.group_id = None
        rubber.group_seq = None
        db.session.flush()
        rerate_from(group_id, created_at, seq)
        refresh_players(group_id, {row["player_key"] for row in old})
        db.session.commit()
    except (OperationalError, IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise store.Conflict("busy") from error
    except Exception:
        db.session.rollback()
        raise


# The statistics, read from the stored totals -------------------------------------------------


def stats(group_id: str) -> statistics.GroupStats:
    """The group's statistics read from its stored totals: four queries, whatever the number
    of rubbers; no seat or hand read."""
    result = statistics.GroupStats()
    for player in db.session.execute(
        sa.select(GroupPlayer).where(GroupPlayer.group_id == group_id)
    ).scalars():
        result.names[player.player_key] = player.name
        if player.rubbers <= 0:
            continue  # no finished rubber yet
        found = statistics.PlayerStats(
            player.player_key,
            player.name,
            **{name: getattr(player, name) for name in PLAYER_TOTALS},
        )
        if player.mu is not None and player.sigma is not None:
            found.rating = statistics.Rating(player.mu, player.sigma)
            found.rated = player.rated
        result.players[player.player_key] = found

    for pair in db.session.execute(
        sa.select(GroupPartner).where(GroupPartner.group_id == group_id, GroupPartner.rubbers > 0)
    ).scalars():
        keys = (pair.player_key, pair.partner_key)
        result.partners[keys] = statistics.PairStats(
            tuple(sorted(keys)),  # type: ignore[arg-type]
            pair.rubbers,
            pair.won,
            pair.games_won,
            pair.games_lost,
        )

    for versus in db.session.execute(
        sa.select(GroupOpponent).where(
            GroupOpponent.group_id == group_id, GroupOpponent.rubbers > 0
        )
    ).scalars():
        result.versus[(versus.player_key, versus.opponent_key)] = statistics.Versus(
            versus.player_key, versus.opponent_key, versus.rubbers, versus.won
        )

    for outcome in db.session.execute(
        sa.select(GroupOutcome).where(GroupOutcome.group_id == group_id, GroupOutcome.rubbers > 0)
    ).scalars():
        if outcome.outcome == FINISHED:
            result.rubbers = outcome.rubbers
        elif outcome.outcome != ALL:
            result.outcomes[outcome.outcome] = outcome.rubbers
    return result


def rubber_counts(group_id: str) -> tuple[int, int]:
    """The group's rubbers, and those finished, from its stored totals."""
    counts = {
        row.outcome: row.rubbers
        for row in db.session.execute(
            sa.select(GroupOutcome.outcome, GroupOutcome.rubbers).where(
                GroupOutcome.group_id == group_id, GroupOutcome.outcome.in_((ALL, FINISHED))
            )
        )
    }
    return counts.get(ALL, 0), counts.get(FINISHED, 0)


def full_recompute(group_id: str) -> statistics.GroupStats:
    """The same statistics folded from every stored hand with the engine: the reference the
    seat cache is tested against (it reads every hand; the pages never call it)."""
    query = (
        sa.select(Rubber)
        .where(Rubber.group_id == group_id)
        .order_by(Rubber.created_at, Rubber.group_seq)
        .options(sa.orm.selectinload(Rubber.hands))
    )
    records = [
        statistics.rubber_record(rubber.players, rubber.state())
        for rubber in db.session.execute(query).scalars()
    ]
    return statistics.statistics(records)


def rating_history(group_id: str, key: str) -> list[tuple[float, float]]:
    """A player's rating (mu, sigma) after each of their last rated rubbers, oldest first."""
    rows = db.session.execute(
        sa.select(GroupSeat.mu, GroupSeat.sigma)
        .where(
            GroupSeat.group_id == group_id,
            GroupSeat.player_key == key,
            _is(GroupSeat.rated, True),
        )
        .order_by(GroupSeat.created_at.desc(), GroupSeat.group_seq.desc())
        .limit(CHART_POINTS)
    ).all()
    return [(float(row.mu), float(row.sigma)) for row in reversed(rows)]


# Sittings --------------------------------------------------------------------------------------


def sitting_view(rubber: Rubber) -> statistics.SittingRubber:
    return statistics.SittingRubber(
        id=rubber.id,
        created_at=rubber.created_at,
        previous_id=rubber.previous_id,
        sides=(
            statistics.side(rubber.players, rubber.teams, 0),
            statistics.side(rubber.players, rubber.teams, 1),
        ),
        finished=rubber.finished,
        winner=rubber.winner,
        shutout=rubber.finished and engine.is_pente((rubber.games0, rubber.games1), rubber.winner),
    )


def neighbours(rubber: Rubber) -> list[Rubber]:
    """The rubbers around this one that its sitting can be made of, in order: in a group, its
    neighbours in the group's order; elsewhere, its chain of "next rubber, same table"."""
    if rubber.group_id is not None and rubber.group_seq is not None:
        earlier = db.session.execute(
            sa.select(Rubber)
            .where(Rubber.group_id == rubber.group_id, _before(rubber.created_at, rubber.group_seq))
            .order_by(Rubber.created_at.desc(), Rubber.group_seq.desc())
            .limit(NEIGHBOURS)
        ).scalars()
        later = db.session.execute(
            sa.select(Rubber)
            .where(
                Rubber.group_id == rubber.group_id,
                _at_or_after(rubber.created_at, rubber.group_seq),
            )
            .order_by(Rubber.created_at, Rubber.group_seq)
            .limit(NEIGHBOURS + 1)
        ).scalars()
        return [*reversed(list(earlier)), *later]
    ids = _chain(rubber.id, backwards=True) | _chain(rubber.id, backwards=False)
    found = db.session.execute(sa.select(Rubber).where(Rubber.id.in_(ids))).scalars()
    return sorted(found, key=lambda r: (r.created_at, r.id))


def _chain(rubber_id: str, *, backwards: bool) -> set[str]:
    """The ids linked to a rubber by "next rubber, same table", one way, at most NEIGHBOURS."""
    start = (
        sa.select(Rubber.id, Rubber.previous_id, sa.literal(0).label("depth"))
        .where(Rubber.id == rubber_id)
        .cte("chain", recursive=True)
    )
    link = Rubber.id == start.c.previous_id if backwards else Rubber.previous_id == start.c.id
    chain = start.union_all(
        sa.select(Rubber.id, Rubber.previous_id, start.c.depth + 1)
        .join(start, link)
        .where(start.c.depth < NEIGHBOURS)
    )
    return set(db.session.execute(sa.select(chain.c.id)).scalars())


@rubber_written.connect
def _count_the_write(rubber: Rubber, *, state: engine.RubberState, counted: Result | None) -> None:
    """A write of one of the group's rubbers: its seats and the group's totals follow."""
    refresh_seats(rubber, state, counted=counted)
