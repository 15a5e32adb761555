"""The statistics of a group counted from scratch, from every stored hand.

The reference the totals kept by every write (``groups.seats``, ``groups.totals``) are tested
against."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import sqlalchemy as sa

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.rubbers.models import Rubber


@dataclass(frozen=True)
class RubberRecord:
    """A rubber as the statistics see it, in the group's order."""

    finished: bool
    outcome: str | None
    shutout: bool
    seats: tuple[statistics.SeatRecord, ...]


def rubber_record(players: Sequence[str | None] | None, state: engine.RubberState) -> RubberRecord:
    return RubberRecord(
        finished=state.finished,
        outcome=state.outcome.value if state.outcome is not None else None,
        shutout=state.finished and state.pente,
        seats=statistics.seat_records(players, state),
    )


def add_seat(player: statistics.PlayerStats, seat: statistics.SeatRecord) -> None:
    """Count one finished rubber's seat into a player's totals."""
    player.rubbers += 1
    player.won += seat.won
    player.games_won += seat.games_won
    player.games_lost += seat.games_lost
    player.pentes += seat.pente_given
    player.pentes_taken += seat.pente_taken
    player.chapeus += seat.won and seat.outcome == "chapeu"
    player.chapeus_taken += not seat.won and seat.outcome == "chapeu"
    player.arrepios += seat.won and seat.outcome == "arrepio"
    player.arrepios_taken += not seat.won and seat.outcome == "arrepio"
    player.bandeiras += seat.bandeiras
    player.card_points += seat.card_points
    player.point_hands += seat.point_hands


def add_pairs(
    stats: statistics.GroupStats,
    seat: statistics.SeatRecord,
    seats: Iterable[statistics.SeatRecord],
) -> None:
    """Count a finished rubber's seat into its pair of partners and its pairs of opponents."""
    if seat.partner_key is not None:
        pair_key = (seat.key, seat.partner_key)
        first, second = sorted(pair_key)
        pair = stats.partners.setdefault(pair_key, statistics.PairStats((first, second)))
        pair.rubbers += 1
        pair.won += seat.won
        pair.games_won += seat.games_won
        pair.games_lost += seat.games_lost
    for other in seats:
        if other.team != seat.team:
            versus = stats.versus.setdefault(
                (seat.key, other.key), statistics.Versus(seat.key, other.key)
            )
            versus.rubbers += 1
            versus.won += seat.won


def count_from_scratch(rubbers: Iterable[RubberRecord]) -> statistics.GroupStats:
    """The statistics of a group counted from scratch, its rubbers given in the group's order."""
    stats = statistics.GroupStats()
    outcomes: Counter[str] = Counter()
    book: dict[str, statistics.Rating] = {}
    rated: Counter[str] = Counter()
    for rubber in rubbers:
        for seat in rubber.seats:
            stats.names[seat.key] = seat.name
        if not rubber.finished:
            continue
        stats.rubbers += 1
        if rubber.outcome:
            outcomes[rubber.outcome] += 1
        if rubber.shutout:
            outcomes["shutout"] += 1
        for seat in rubber.seats:
            add_seat(stats.players.setdefault(seat.key, statistics.PlayerStats(seat.key)), seat)
            add_pairs(stats, seat, rubber.seats)
        if statistics.rateable(rubber.seats):
            book.update(statistics.rate_seats(rubber.seats, book))
            rated.update(seat.key for seat in rubber.seats)
    stats.outcomes = dict(outcomes)
    for key, player in stats.players.items():
        player.name = stats.names[key]
        player.rating = book.get(key, statistics.Rating())
        player.rated = rated[key]
    return stats


def full_recompute(group_id: str) -> statistics.GroupStats:
    """Return the group's statistics folded from every stored hand with the engine.

    The reference the stored totals are tested against (it reads every hand)."""
    query = (
        sa.select(Rubber)
        .where(Rubber.group_id == group_id)
        .order_by(Rubber.created_at, Rubber.group_seq)
        .options(sa.orm.selectinload(Rubber.hands))
    )
    records = [
        rubber_record(rubber.players, rubber.state())
        for rubber in db.session.execute(query).scalars()
    ]
    return count_from_scratch(records)
