"""What the organizer writes: the next Swiss round, a walkover, a pair withdrawing.

Each is checked against the engine's fold first (``TournamentError``), written over the version
read (a stale read raises SQLAlchemy's ``StaleDataError``), and the rubbers it asks for are
created in the same transaction."""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.extensions import db
from scorekeeper.tournaments import store
from scorekeeper.tournaments.models import Tournament
from scorekeeper.web.columns import utcnow

Write = Callable[[], store.Standing]


def _synced(tournament: Tournament) -> store.Standing:
    """The write, and the rubbers it asks for, in one commit; where the tournament then stands."""
    tournament.updated_at = utcnow()
    db.session.flush()
    standing = store.sync(tournament.id)
    db.session.commit()
    assert standing is not None
    return standing


def draw_round(tournament: Tournament) -> store.Standing:
    """Draw the next Swiss round, and start its matches' rubbers."""
    pairings = store.standing(tournament).fold.draw_next_round()
    drawn = [[first, second] for first, second in pairings]
    tournament.swiss_rounds = [*tournament.swiss_rounds, drawn]
    return _synced(tournament)


def walkover(tournament: Tournament, round_number: int, table: int, winner: int) -> store.Standing:
    """The pair ``winner`` came and the other did not: it wins the match."""
    store.standing(tournament).fold.check_walkover(round_number, table, winner)
    tournament.walkovers = [*tournament.walkovers, [round_number, table, winner]]
    return _synced(tournament)


def withdraw(tournament: Tournament, number: int) -> store.Standing:
    """The pair ``number`` withdraws: its matches still to play become walkovers."""
    store.standing(tournament).fold.check_withdrawal(number)
    tournament.withdrawn = [*tournament.withdrawn, number]
    return _synced(tournament)
