"""What the organizer writes: a Swiss round, a walkover, a withdrawal, and each one undone.

Each is checked against the engine's fold first (``TournamentError``), written over the version
read (a stale read raises SQLAlchemy's ``StaleDataError``), and the rubbers it asks for are
created in the same transaction."""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import db
from scorekeeper.rubbers import store as rubbers
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


def undraw_round(tournament: Tournament, round_number: int) -> store.Standing:
    """Take back the last Swiss round while none of its matches has a hand or a walkover.

    Its rubbers stay stored, unplayed, and count for nothing: a match drawn again with the same
    pairs at the same table takes its rubber back, any other starts its own."""
    current = store.standing(tournament)
    current.fold.check_undraw(round_number)
    store.check_round_unplayed(current, round_number)
    tournament.swiss_rounds = tournament.swiss_rounds[:-1]
    return _synced(tournament)


def undo_walkover(tournament: Tournament, round_number: int, table: int) -> store.Standing:
    """Take back a walkover while no later match depends on it: the match is in play again."""
    current = store.standing(tournament)
    match = current.fold.match(round_number, table)
    given = [entry for entry in tournament.walkovers if entry[:2] == [round_number, table]]
    if not given:
        raise tourney.TournamentError(
            "no_walkover", (round_number, table), "There is no walkover at this match."
        )
    store.check_unused(current, match)
    tournament.walkovers = [entry for entry in tournament.walkovers if entry not in given]
    return _synced(tournament)


def reinstate(tournament: Tournament, number: int) -> store.Standing:
    """Take back a withdrawal while no later match depends on the walkovers it gave."""
    current = store.standing(tournament)
    current.fold.check_reinstate(number)
    given = {(entry[0], entry[1]) for entry in tournament.walkovers}
    for drawn in current.fold.rounds:
        for match in drawn.matches:
            made = match.walkover and (match.round, match.table) not in given
            if made and number in match.pairs:
                store.check_unused(current, match)
    tournament.withdrawn = [pair for pair in tournament.withdrawn if pair != number]
    return _synced(tournament)


def late_pair(tournament: Tournament, entry: tourney.PairEntry) -> store.Standing:
    """A pair that came late joins a Swiss before its last round is drawn.

    It takes the next number, has no win for the rounds it missed, and is paired from the next
    round drawn."""
    current = store.standing(tournament)
    current.fold.check_late_pair()
    if len(tournament.pairs) >= tourney.MAX_PAIRS:
        raise tourney.TournamentError(
            "too_many_pairs", len(tournament.pairs) + 1, "A tournament has 128 pairs at most."
        )
    tourney.check_pairs([*(pair.players for pair in tournament.pairs), entry.players])
    number = len(tournament.pairs) + 1
    store.add_pair(tournament, entry, number, number)
    return _synced(tournament)


def paper_result(
    tournament: Tournament, round_number: int, table: int, games: object
) -> store.Standing:
    """The match's rubber in play, kept on paper by its table, given its games.

    It counts as any rubber won: the match's next rubber, or what follows the match, is
    started in the same transaction (``store.written``)."""
    current = store.standing(tournament)
    current.fold.check_paper_result(round_number, table)
    rows = current.rubbers.get((round_number, table), [])
    in_play = rows[-1] if rows and not rows[-1].finished else None
    if in_play is None or in_play.hand_count or in_play.paper_games is not None:
        raise tourney.TournamentError(
            "rubber_played", table, "The rubber in play at this match has hands already."
        )
    rubbers.write(in_play.id, rubbers.kept_on_paper(games))
    return store.standing(tournament, fresh=True)


def undo_paper_result(tournament: Tournament, round_number: int, table: int) -> store.Standing:
    """Take back the match's last rubber kept on paper, as its last hand would be undone.

    Checked as any correction of a match's rubber (``store.written``): the organizer's, while
    nothing depends on the match's result."""
    current = store.standing(tournament)
    current.fold.match(round_number, table)  # no_such_match
    kept = [row for row in current.rubbers.get((round_number, table), []) if row.paper_games]
    if not kept:
        raise tourney.TournamentError(
            "no_paper_result", table, "No rubber of this match was kept on paper."
        )
    rubbers.write(kept[-1].id, rubbers.undo_last)
    return store.standing(tournament, fresh=True)


def tv_language(tournament: Tournament, locale: str) -> store.Standing:
    """The language the tournament's TV speaks from its next look, as the organizer picked it."""
    tournament.tv_language = locale
    tournament.updated_at = utcnow()
    db.session.commit()
    return store.standing(tournament)


def undrawable_round(current: store.Standing) -> int | None:
    """Return the Swiss round that may be undrawn now (the last, none of its matches played)."""
    if not current.fold.rounds:
        return None
    number = current.fold.rounds[-1].number
    try:
        current.fold.check_undraw(number)
        store.check_round_unplayed(current, number)
    except tourney.TournamentError:
        return None
    return number


def can_add_late_pair(current: store.Standing) -> bool:
    """Return whether a late pair may join now: a Swiss whose last round is not drawn."""
    try:
        current.fold.check_late_pair()
    except tourney.TournamentError:
        return False
    return len(current.tournament.pairs) < tourney.MAX_PAIRS
