"""A group's seat cache, and its totals moved with it by every write of one of its rubbers.

Every write of a rubber in a group rewrites that rubber's seat rows (what the engine gave each
named seat) while holding the group's lock, moves the group's stored totals (per player, per
pair of partners, per pair of opponents, per outcome) by the difference between the old seat
rows and the new, and, when the rubber's result changed, rates again from that rubber on. A new
hand does so from the hand's result alone (:func:`count_the_hand`); an edit, an undo, a new
rubber, a move and an import from the engine's fold of every hand (:func:`refresh_seats`). The
pages then read those totals with a fixed number of queries, whatever the number of rubbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import sqlalchemy as sa

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups.models import Group, GroupSeat
from scorekeeper.groups.ratings import rating_view, refresh_players, rerate_from
from scorekeeper.groups.totals import Result, Totals, result_of
from scorekeeper.rubbers.models import Rubber
from scorekeeper.rubbers.recording import hand_recorded
from scorekeeper.rubbers.store import rubber_written
from scorekeeper.web.columns import utcnow

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

seats_table: sa.Table = GroupSeat.__table__  # type: ignore[assignment]
groups_table: sa.Table = Group.__table__  # type: ignore[assignment]


def lock(group_id: str) -> None:
    """Take the group's lock for the rest of the transaction.

    Writes to its rubbers' seats and ratings happen one at a time (a row lock on PostgreSQL, the
    write lock on SQLite)."""
    db.session.connection().execute(
        groups_table.update().where(groups_table.c.id == group_id).values(updated_at=utcnow())
    )


def _next_seq(group_id: str) -> int:
    top = db.session.execute(
        sa.select(sa.func.max(Rubber.group_seq)).where(Rubber.group_id == group_id)
    ).scalar()
    return (top or 0) + 1


# The seat cache ------------------------------------------------------------------------------


def seat_row(
    rubber_id: str,
    group_id: str,
    created_at: datetime,
    group_seq: int,
    record: statistics.SeatRecord,
) -> dict[str, Any]:
    """The seat row of one named seat, not rated yet."""
    return {
        "rubber_id": rubber_id,
        "seat": record.seat,
        "group_id": group_id,
        "created_at": created_at,
        "group_seq": group_seq,
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


def _seat_rows(rubber_id: str) -> list[dict[str, Any]]:
    connection = db.session.connection()
    query = sa.select(seats_table).where(seats_table.c.rubber_id == rubber_id)
    return [dict(row) for row in connection.execute(query).mappings()]


def refresh_seats(
    rubber: Rubber,
    state: engine.RubberState,
    *,
    rerate: bool = True,
    counted: Result | None = None,
) -> bool:
    """Rewrite the seat rows of a rubber in a group from the engine's state.

    Also move the group's totals by the difference; with ``rerate``, rate again from this rubber on
    when its result changed. Returns whether it changed.

    ``counted`` is the rubber's result as the group's totals last counted it (None for a rubber
    new to the group). A rubber new to the group takes the group's next place (its order is
    when it was started).
    """
    assert rubber.group_id is not None
    group_id = rubber.group_id
    db.session.add(rubber)
    if rubber.group_seq is None:  # new to the group: its place is taken under the group's lock
        lock(group_id)
        with db.session.no_autoflush:
            if rubber.created_at is None:
                rubber.created_at = utcnow()
            rubber.group_seq = _next_seq(group_id)
        db.session.flush()  # the rubber and its hands first: the seats point at the rubber
    else:  # the rubber's row, then the group's: the order a new hand takes them in
        db.session.flush()
        lock(group_id)
    records = statistics.seat_records(rubber.players, state)
    new = [
        seat_row(rubber.id, group_id, rubber.created_at, rubber.group_seq, record)
        for record in records
    ]
    return _rewrite(
        group_id,
        rubber.id,
        (rubber.created_at, rubber.group_seq),
        SeatChange(_seat_rows(rubber.id), new, counted=counted, result=result_of(state.tally)),
        rerate=rerate,
    )


def add_rubbers(group_id: str, written: Sequence[tuple[Rubber, engine.RubberState]]) -> None:
    """Put rubbers new to the group in it, written together (a batch of an import).

    What :func:`refresh_seats` does for one rubber, for all of them at once: the group's lock
    and its next places taken once, the rubbers and their hands flushed together, their seat
    rows inserted in one statement and the group's totals moved once. They are not rated: the
    caller rates again from the first of them (docs/hardening.md, "issue 24, item 5")."""
    lock(group_id)
    with db.session.no_autoflush:
        first_seq = _next_seq(group_id)
    totals = Totals()
    rows: list[dict[str, Any]] = []
    for offset, (rubber, state) in enumerate(written):
        rubber.group_id = group_id
        rubber.group_seq = first_seq + offset
        if rubber.created_at is None:
            rubber.created_at = utcnow()
        db.session.add(rubber)
        new = [
            seat_row(rubber.id, group_id, rubber.created_at, rubber.group_seq, record)
            for record in statistics.seat_records(rubber.players, state)
        ]
        rows += new
        totals.count_seats(new, +1)
        totals.count_rubber()
        totals.count_result(result_of(state.tally), +1)
    db.session.flush()  # the rubbers and their hands first: the seats point at them
    if rows:
        db.session.connection().execute(seats_table.insert(), rows)
    totals.write(group_id)


def count_the_hand(  # noqa: PLR0913  the keywords rubbers.recording sends hand_recorded with
    rubber_id: str,
    *,
    group_id: str,
    players: list[str | None] | None,
    created_at: datetime,
    group_seq: int,
    before: engine.Tally,
    after: engine.Tally,
    result: engine.HandResult,
) -> None:
    """Count a new hand of one of the group's rubbers: its seat rows move by what it gave each team.

    The group's totals move by the difference; no other hand is read.

    The seat rows kept what the hands before gave; should a named seat have none, the rubber's
    hands are folded instead, as for any other write.
    """
    lock(group_id)
    old = _seat_rows(rubber_id)
    records = statistics.seats_after(players, after, _team_totals(old).after(result))
    if {row["seat"] for row in old} != {record.seat for record in records}:
        rubber = db.session.get(Rubber, rubber_id)
        assert rubber is not None
        records = statistics.seat_records(players, rubber.state())
    new = [seat_row(rubber_id, group_id, created_at, group_seq, record) for record in records]
    _rewrite(
        group_id,
        rubber_id,
        (created_at, group_seq),
        SeatChange(old, new, counted=result_of(before), result=result_of(after)),
        rerate=True,
    )


def _team_totals(rows: Iterable[dict[str, Any]]) -> statistics.TeamTotals:
    """Return what the hands so far gave each team, as the seat rows keep it.

    It is 0 for a team with no named seat, whose totals no row needs."""
    bandeiras, points, point_hands = [0, 0], [0, 0], 0
    for row in rows:
        bandeiras[row["team"]] = row["bandeiras"]
        points[row["team"]] = row["card_points"]
        point_hands = row["point_hands"]
    return statistics.TeamTotals((bandeiras[0], bandeiras[1]), (points[0], points[1]), point_hands)


@dataclass(frozen=True)
class SeatChange:
    """What one write changes of a rubber in a group: its seat rows, and its result."""

    old: list[dict[str, Any]]
    new: list[dict[str, Any]]
    counted: Result | None
    """The rubber's result as the group's totals last counted it; None for one new to the group."""
    result: Result


def _rewrite(
    group_id: str,
    rubber_id: str,
    place: tuple[datetime, int],
    change: SeatChange,
    *,
    rerate: bool,
) -> bool:
    """Replace a rubber's seat rows ``old`` by ``new``, the group's totals moved by the difference.

    Rate again from the rubber on when its rating view changed (with ``rerate``). Returns whether it
    changed."""
    old, new = change.old, change.new
    old_rating = rating_view(old)
    new_rating = rating_view(new)
    changed = old_rating != new_rating and (
        statistics.rateable(old_rating) or statistics.rateable(new_rating)
    )
    if not changed:
        _keep_ratings(old, new)
    if _comparable(old) != _comparable(new):
        connection = db.session.connection()
        connection.execute(seats_table.delete().where(seats_table.c.rubber_id == rubber_id))
        if new:
            connection.execute(seats_table.insert(), new)
    _move_totals(group_id, change)
    if not rerate:
        return changed  # the caller rates again from the first rubber it wrote
    if changed:
        rerate_from(group_id, *place)
    elif {(r["player_key"], r["name"]) for r in new} != {(r["player_key"], r["name"]) for r in old}:
        refresh_players(group_id, {row["player_key"] for row in old + new})
    return changed


def _keep_ratings(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
    """Give the new rows of the seats the old rows had those rows' ratings."""
    kept = {row["seat"]: row for row in old}
    for row in new:
        if row["seat"] in kept:
            for name in ("rated", "mu", "sigma"):
                row[name] = kept[row["seat"]][name]


def _move_totals(group_id: str, change: SeatChange) -> None:
    """Move the group's stored totals from the old rows and result to the new."""
    totals = Totals()
    totals.count_seats(change.old, -1)
    totals.count_seats(change.new, +1)
    if change.counted is not None:
        totals.count_result(change.counted, -1)
    else:  # new to the group
        totals.count_rubber()
    totals.count_result(change.result, +1)
    totals.write(group_id)


def _comparable(rows: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    names = ("seat", *SEAT_FIELDS, "rated", "mu", "sigma")
    return sorted(tuple(row[name] for name in names) for row in rows)


@rubber_written.connect
def _count_the_write(rubber: Rubber, *, state: engine.RubberState, counted: Result | None) -> None:
    """A general write of one of the group's rubbers: its seats and the group's totals follow."""
    refresh_seats(rubber, state, counted=counted)


hand_recorded.connect(count_the_hand)
