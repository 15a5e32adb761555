"""Groups in the database: their edit rights, the seat cache of their rubbers, the ratings
kept rubber by rubber, and the statistics counted in SQL.

Every write of a rubber in a group rewrites that rubber's seat rows from the engine's fold
(:func:`refresh_seats`, called by ``store.refresh``) while holding the group's lock, and, when
the rubber's result changed, rates again from that rubber on. The pages then count the seat
rows with a fixed number of queries, whatever the size of the group: no hand is read.
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from . import engine, review, store
from .models import DeviceGroup, Group, GroupPlayer, GroupSeat, Rubber, db, utcnow

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

seats_table: sa.Table = GroupSeat.__table__  # type: ignore[assignment]
players_table: sa.Table = GroupPlayer.__table__  # type: ignore[assignment]
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


def _at_or_after(created_at: datetime, seq: int) -> sa.ColumnElement[bool]:
    return sa.or_(
        Rubber.created_at > created_at,
        sa.and_(Rubber.created_at == created_at, Rubber.group_seq >= seq),
    )


def _before(created_at: datetime, seq: int) -> sa.ColumnElement[bool]:
    return sa.or_(
        Rubber.created_at < created_at,
        sa.and_(Rubber.created_at == created_at, Rubber.group_seq < seq),
    )


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


def _seat_row(rubber: Rubber, record: review.SeatRecord) -> dict[str, Any]:
    return {
        "rubber_id": rubber.id,
        "seat": record.seat,
        "group_id": rubber.group_id,
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


def refresh_seats(rubber: Rubber, state: engine.RubberState, *, rerate: bool = True) -> bool:
    """Rewrite the seat rows of a rubber in a group from the engine's state; with ``rerate``,
    rate again from this rubber on when its result changed. Returns whether it changed.

    A rubber new to the group takes the group's next place (its order is when it was started).
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
    new = [_seat_row(rubber, record) for record in review.seat_records(rubber.players, state)]
    old_rating = _rating_view(old)
    new_rating = _rating_view(new)
    changed = old_rating != new_rating and (
        review.rateable(old_rating) or review.rateable(new_rating)
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
    if not rerate:
        return changed  # the caller rates again from the first rubber it wrote
    if changed:
        assert rubber.created_at is not None and rubber.group_seq is not None
        rerate_from(group_id, rubber.created_at, rubber.group_seq)
    elif {(r["player_key"], r["name"]) for r in new} != {(r["player_key"], r["name"]) for r in old}:
        refresh_players(group_id, {row["player_key"] for row in old + new})
    return changed


def refresh_players(group_id: str, keys: set[str]) -> None:
    """Rewrite the group's player rows of ``keys`` from their seats: the latest spelling of
    the name, the rating after the latest rated rubber and the number of rated rubbers."""
    if not keys:
        return
    latest = _latest_per_player(group_id).where(GroupSeat.player_key.in_(sorted(keys))).subquery()
    players: dict[str, dict[str, Any]] = {}
    for row in db.session.execute(
        sa.select(latest).where(
            sa.or_(latest.c.rank == 1, sa.and_(latest.c.rated, latest.c.rated_rank == 1))
        )
    ):
        player = players.setdefault(
            row.player_key,
            {"group_id": group_id, "player_key": row.player_key, "mu": None, "sigma": None},
        )
        if row.rank == 1:
            player["name"] = row.name
        player["rated"] = int(row.rated_rows or 0)
        if row.rated and row.rated_rank == 1:
            player["mu"], player["sigma"] = row.mu, row.sigma
    connection = db.session.connection()
    connection.execute(
        players_table.delete().where(
            players_table.c.group_id == group_id, players_table.c.player_key.in_(sorted(keys))
        )
    )
    if players:
        connection.execute(players_table.insert(), list(players.values()))


def _comparable(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    names = ("seat", *SEAT_FIELDS, "rated", "mu", "sigma")
    return sorted(tuple(row[name] for name in names) for row in rows)


def _latest_per_player(group_id: str) -> sa.Select[Any]:
    """Each seat row of the group ranked within its player, the latest rubber first: ``rank``
    among all of the player's rows, ``rated_rank`` among the rated ones (or the unrated)."""
    ordering = (Rubber.created_at.desc(), Rubber.group_seq.desc(), GroupSeat.seat.desc())
    return (
        sa.select(
            GroupSeat.player_key,
            GroupSeat.name,
            GroupSeat.rated,
            GroupSeat.mu,
            GroupSeat.sigma,
            Rubber.created_at,
            Rubber.group_seq,
            sa.func.row_number()
            .over(partition_by=GroupSeat.player_key, order_by=ordering)
            .label("rank"),
            sa.func.row_number()
            .over(partition_by=(GroupSeat.player_key, GroupSeat.rated), order_by=ordering)
            .label("rated_rank"),
            sa.func.sum(sa.case((GroupSeat.rated, 1), else_=0))
            .over(partition_by=GroupSeat.player_key)
            .label("rated_rows"),
        )
        .join(Rubber, Rubber.id == GroupSeat.rubber_id)
        .where(GroupSeat.group_id == group_id)
    )


def _ratings_before(
    group_id: str, keys: Sequence[str], created_at: datetime, seq: int
) -> dict[str, review.Rating]:
    """Each player's rating just before the given place in the group's order."""
    if not keys:
        return {}
    latest = (
        _latest_per_player(group_id)
        .where(GroupSeat.player_key.in_(sorted(set(keys))), _before(created_at, seq))
        .subquery()
    )
    rows = db.session.execute(
        sa.select(latest.c.player_key, latest.c.mu, latest.c.sigma).where(
            latest.c.rated, latest.c.rated_rank == 1
        )
    )
    return {row.player_key: review.Rating(row.mu, row.sigma) for row in rows}


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
        .join(Rubber.__table__, Rubber.id == seats_table.c.rubber_id)
        .where(seats_table.c.group_id == group_id, _at_or_after(created_at, seq))
        .order_by(Rubber.created_at, Rubber.group_seq, seats_table.c.seat)
    ).mappings()
    rubbers: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        rubbers.setdefault(row["rubber_id"], []).append(dict(row))
    keys = [row["player_key"] for seats in rubbers.values() for row in seats]
    book = _ratings_before(group_id, keys, created_at, seq)
    updates = []
    for seats in rubbers.values():
        view = _rating_view(seats)
        ratings = review.rate_seats(view, book) if review.rateable(view) else {}
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


# The statistics, in a fixed number of queries -------------------------------------------------


def _count(condition: sa.ColumnElement[bool]) -> sa.ColumnElement[int]:
    return sa.func.coalesce(sa.func.sum(sa.case((condition, 1), else_=0)), 0)


def _total(column: Any) -> sa.ColumnElement[int]:
    return sa.func.coalesce(sa.func.sum(column), 0)


def stats(group_id: str) -> review.GroupStats:
    """The group's statistics from its seat and player rows, counted in SQL: seven queries,
    no hand read."""
    seat = GroupSeat
    counted = sa.and_(seat.group_id == group_id, seat.finished)
    result = review.GroupStats()

    for row in db.session.execute(
        sa.select(
            seat.player_key,
            sa.func.count().label("rubbers"),
            _count(seat.won).label("won"),
            _total(seat.games_won).label("games_won"),
            _total(seat.games_lost).label("games_lost"),
            _count(seat.pente_given).label("pentes"),
            _count(seat.pente_taken).label("pentes_taken"),
            _count(sa.and_(seat.won, seat.outcome == "chapeu")).label("chapeus"),
            _count(sa.and_(~seat.won, seat.outcome == "chapeu")).label("chapeus_taken"),
            _count(sa.and_(seat.won, seat.outcome == "arrepio")).label("arrepios"),
            _count(sa.and_(~seat.won, seat.outcome == "arrepio")).label("arrepios_taken"),
            _total(seat.bandeiras).label("bandeiras"),
            _total(seat.card_points).label("card_points"),
            _total(seat.point_hands).label("point_hands"),
        )
        .where(counted)
        .group_by(seat.player_key)
    ).mappings():
        values = {name: int(value) for name, value in row.items() if name != "player_key"}
        result.players[row["player_key"]] = review.PlayerStats(row["player_key"], **values)

    for row in db.session.execute(
        sa.select(
            seat.player_key,
            seat.partner_key,
            sa.func.count().label("rubbers"),
            _count(seat.won).label("won"),
            _total(seat.games_won).label("games_won"),
            _total(seat.games_lost).label("games_lost"),
        )
        .where(counted, seat.partner_key.is_not(None))
        .group_by(seat.player_key, seat.partner_key)
    ):
        pair = (row.player_key, row.partner_key)
        result.partners[pair] = review.PairStats(
            tuple(sorted(pair)),  # type: ignore[arg-type]
            int(row.rubbers),
            int(row.won),
            int(row.games_won),
            int(row.games_lost),
        )

    for opponent in (seat.opponent_a, seat.opponent_b):
        for row in db.session.execute(
            sa.select(
                seat.player_key,
                opponent.label("opponent"),
                sa.func.count().label("rubbers"),
                _count(seat.won).label("won"),
            )
            .where(counted, opponent.is_not(None))
            .group_by(seat.player_key, opponent)
        ):
            versus = result.versus.setdefault(
                (row.player_key, row.opponent), review.Versus(row.player_key, row.opponent)
            )
            versus.rubbers += int(row.rubbers)
            versus.won += int(row.won)

    for row in db.session.execute(
        sa.select(GroupPlayer).where(GroupPlayer.group_id == group_id)
    ).scalars():
        result.names[row.player_key] = row.name
        player = result.players.get(row.player_key)
        if player is not None and row.mu is not None and row.sigma is not None:
            player.rating = review.Rating(row.mu, row.sigma)
            player.rated = row.rated

    shutout = sa.or_(
        sa.and_(Rubber.winner == 0, Rubber.games1 == 0),
        sa.and_(Rubber.winner == 1, Rubber.games0 == 0),
    )
    outcomes: dict[str, int] = {}
    for row in db.session.execute(
        sa.select(Rubber.outcome, sa.func.count().label("rubbers"), _count(shutout).label("shut"))
        .where(Rubber.group_id == group_id, Rubber.finished)
        .group_by(Rubber.outcome)
    ):
        result.rubbers += int(row.rubbers)
        if row.outcome:
            outcomes[row.outcome] = int(row.rubbers)
        if row.shut:
            outcomes["shutout"] = outcomes.get("shutout", 0) + int(row.shut)
    result.outcomes = outcomes

    for key, player in result.players.items():
        player.name = result.names.get(key, key)
    return result


def full_recompute(group_id: str) -> review.GroupStats:
    """The same statistics folded from every stored hand with the engine: the reference the
    seat cache is tested against (it reads every hand; the pages never call it)."""
    query = (
        sa.select(Rubber)
        .where(Rubber.group_id == group_id)
        .order_by(Rubber.created_at, Rubber.group_seq)
        .options(sa.orm.selectinload(Rubber.hands))
    )
    records = [
        review.rubber_record(rubber.players, rubber.state())
        for rubber in db.session.execute(query).scalars()
    ]
    return review.statistics(records)


def rating_history(group_id: str, key: str) -> list[tuple[Rubber, float, float]]:
    """A player's rating after each of their last rated rubbers, oldest first."""
    rows = db.session.execute(
        sa.select(Rubber, GroupSeat.mu, GroupSeat.sigma)
        .join(GroupSeat, GroupSeat.rubber_id == Rubber.id)
        .where(GroupSeat.group_id == group_id, GroupSeat.player_key == key, GroupSeat.rated)
        .order_by(Rubber.created_at.desc(), Rubber.group_seq.desc())
        .limit(CHART_POINTS)
    ).all()
    return [(row[0], float(row[1]), float(row[2])) for row in reversed(rows)]


# Sittings --------------------------------------------------------------------------------------


def sitting_view(rubber: Rubber) -> review.SittingRubber:
    return review.SittingRubber(
        id=rubber.id,
        created_at=rubber.created_at,
        previous_id=rubber.previous_id,
        sides=(
            review.side(rubber.players, rubber.teams, 0),
            review.side(rubber.players, rubber.teams, 1),
        ),
        finished=rubber.finished,
        winner=rubber.winner,
        shutout=rubber.finished
        and rubber.winner is not None
        and (rubber.games0, rubber.games1)[1 - rubber.winner] == 0,
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
