"""Statistics over a group's rubbers and the players' ratings, in pure Python.

Every figure starts from the engine's fold of a rubber (:func:`seat_records`), or from its
running totals and one more hand (:func:`seats_after`); nothing here scores a hand. The
database keeps these seat records on every write (``groups.seats``) and counts them as it goes
(``groups.totals``); the tests count them again from scratch (``tests/support/recompute.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from openskill.models import PlackettLuce

from scorekeeper import engine
from scorekeeper.engine.names import player_key

SEATS = 4


def seat_names(players: Sequence[str | None] | None) -> list[str]:
    """The four seats' names as typed, stripped ("" for a seat left unnamed)."""
    names = list(players or [])[:SEATS]
    names += [""] * (SEATS - len(names))
    return [(name or "").strip() for name in names]


def repeated_name(players: Sequence[str | None] | None) -> str | None:
    """A name typed for two seats of one rubber (matched as names are), or None.

    >>> repeated_name(["Ana", "Rui", " ana", "Zé"])
    'ana'
    """
    seen: set[str] = set()
    for name in seat_names(players):
        key = player_key(name)
        if key and key in seen:
            return name
        seen.add(key)
    return None


# What one rubber gives each of its players ------------------------------------------------


@dataclass(frozen=True)
class SeatRecord:
    """One named seat of a rubber and what the rubber gave that player's team."""

    seat: int
    name: str
    key: str
    partner_key: str | None
    opponent_keys: tuple[str | None, str | None]
    """The opponents at the seats after and before this one."""
    team: int
    finished: bool
    won: bool
    games_won: int
    """The final games of the player's team."""
    games_lost: int
    """The final games of the other team."""
    pente_given: bool
    """Won with the other team on 0 games."""
    pente_taken: bool
    outcome: str | None
    """The engine's name for the finished rubber (pente, chapeu, arrepio, bandeira, revoke)."""
    bandeiras: int
    """Hands the player's team won by bandeira."""
    card_points: int
    """The team's card points over the hands that had card points (played and tied)."""
    point_hands: int


@dataclass(frozen=True)
class TeamTotals:
    """What a rubber's hands have given each team so far, beside its games.

    The hands won by bandeira and the card points (over the hands that had card points, as many for
    both)."""

    bandeiras: tuple[int, int] = (0, 0)
    card_points: tuple[int, int] = (0, 0)
    point_hands: int = 0

    def after(self, result: engine.HandResult) -> TeamTotals:
        """The totals with one more hand.

        >>> TeamTotals().after(engine.play_hand(engine.new_rubber(engine.RuleSet()),
        ...     engine.Hand.played(120, 0, all_tricks=True)).hands[0])
        TeamTotals(bandeiras=(1, 0), card_points=(120, 0), point_hands=1)
        """
        bandeiras, points, point_hands = list(self.bandeiras), list(self.card_points), 0
        if result.bandeira and result.winner is not None:
            bandeiras[result.winner] += 1
        if result.hand.points is not None:
            points[0] += result.hand.points[0]
            points[1] += result.hand.points[1]
            point_hands = 1
        return TeamTotals(
            (bandeiras[0], bandeiras[1]),
            (points[0], points[1]),
            self.point_hands + point_hands,
        )


def team_totals(state: engine.RubberState) -> TeamTotals:
    """What the rubber's hands gave each team, counted from every hand."""
    totals = TeamTotals()
    for result in state.hands:
        totals = totals.after(result)
    return totals


def seat_records(
    players: Sequence[str | None] | None, state: engine.RubberState
) -> tuple[SeatRecord, ...]:
    """The named seats of a rubber, each with what the engine's fold gave its team.

    >>> state = engine.replay(engine.RuleSet(), [engine.Hand.played(95)] * 2)
    >>> first = seat_records(["Ana", "Rui", "Eva", None], state)[0]
    >>> first.won, first.games_won, first.pente_given, first.partner_key
    (True, 4, True, 'eva')
    """
    return seats_after(players, state.tally, team_totals(state))


def seats_after(
    players: Sequence[str | None] | None, tally: engine.Tally, totals: TeamTotals
) -> tuple[SeatRecord, ...]:
    """Return the named seats of a rubber from its running totals and what its hands gave.

    The running totals are ``tally`` and what its hands gave ``totals``: this is
    :func:`seat_records` without reading the hands, for one more hand."""
    names = seat_names(players)
    pente = engine.is_pente(tally.games, tally.winner)
    outcome = tally.outcome.value if tally.outcome is not None else None
    records = []
    for seat, name in enumerate(names):
        if not player_key(name):
            continue
        team = engine.team_of(seat)
        won = tally.finished and tally.winner == team
        lost = tally.finished and tally.winner == 1 - team
        partner = player_key(names[(seat + 2) % SEATS]) or None
        opponents = (
            player_key(names[(seat + 1) % SEATS]) or None,
            player_key(names[(seat + 3) % SEATS]) or None,
        )
        records.append(
            SeatRecord(
                seat=seat,
                name=name,
                key=player_key(name),
                partner_key=partner,
                opponent_keys=opponents,
                team=team,
                finished=tally.finished,
                won=won,
                games_won=tally.games[team],
                games_lost=tally.games[1 - team],
                pente_given=won and pente,
                pente_taken=lost and pente,
                outcome=outcome,
                bandeiras=totals.bandeiras[team],
                card_points=totals.card_points[team],
                point_hands=totals.point_hands,
            )
        )
    return tuple(records)


class Seated(Protocol):
    """What the ratings need of a seat: a seat record, or its cached row."""

    @property
    def seat(self) -> int: ...
    @property
    def key(self) -> str: ...
    @property
    def team(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def finished(self) -> bool: ...


def rateable(seats: Sequence[Seated]) -> bool:
    """Whether a rubber moves the ratings: finished, with four different named players."""
    return (
        len(seats) == SEATS
        and all(seat.finished for seat in seats)
        and len({seat.key for seat in seats}) == SEATS
    )


# Ratings ------------------------------------------------------------------------------------

MODEL = PlackettLuce()
"""OpenSkill's Plackett-Luce model with its defaults (mu 25, sigma 25/3)."""


@dataclass(frozen=True)
class Rating:
    """A skill estimate and its uncertainty; ``ordinal`` (mu - 3 sigma) is what ranks."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rate(teams: Sequence[Sequence[Rating]], winner: int) -> list[list[Rating]]:
    """The four ratings after one rubber of team 0 against team 1, ``winner`` the winning team.

    >>> after = rate([[Rating(), Rating()], [Rating(), Rating()]], winner=0)
    >>> after[0][0].mu > 25 > after[1][0].mu and after[0][0].sigma < Rating().sigma
    True
    """
    ranks: list[float] = [0, 1] if winner == 0 else [1, 0]
    given = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    result = MODEL.rate(given, ranks=ranks)
    return [[Rating(float(r.mu), float(r.sigma)) for r in team] for team in result]


def rate_seats(seats: Sequence[Seated], book: dict[str, Rating]) -> dict[str, Rating]:
    """The new ratings of a rateable rubber's four players, from those in ``book``."""
    by_team = [
        [seat.key for seat in sorted(seats, key=lambda s: s.seat) if seat.team == team]
        for team in (0, 1)
    ]
    winner = 0 if any(seat.won for seat in seats if seat.team == 0) else 1
    after = rate([[book.get(key, Rating()) for key in keys] for keys in by_team], winner)
    return {key: after[team][i] for team, keys in enumerate(by_team) for i, key in enumerate(keys)}


# The statistics of a group --------------------------------------------------------------------


@dataclass
class PlayerStats:
    """One player over the group's finished rubbers."""

    key: str
    name: str = ""
    rubbers: int = 0
    won: int = 0
    games_won: int = 0
    games_lost: int = 0
    pentes: int = 0
    pentes_taken: int = 0
    chapeus: int = 0
    chapeus_taken: int = 0
    arrepios: int = 0
    arrepios_taken: int = 0
    bandeiras: int = 0
    card_points: int = 0
    point_hands: int = 0
    rating: Rating = field(default_factory=Rating)
    rated: int = 0
    """Rubbers that moved the rating."""

    @property
    def lost(self) -> int:
        return self.rubbers - self.won

    @property
    def average_points(self) -> float | None:
        """Average card points of the player's team per hand with card points."""
        return self.card_points / self.point_hands if self.point_hands else None


@dataclass
class PairStats:
    """Two partners over the group's finished rubbers (``keys`` in sorted order)."""

    keys: tuple[str, str]
    rubbers: int = 0
    won: int = 0
    games_won: int = 0
    games_lost: int = 0


@dataclass
class Versus:
    """A player against one opponent: the finished rubbers they played on opposite teams."""

    key: str
    opponent: str
    rubbers: int = 0
    won: int = 0


@dataclass
class GroupStats:
    """Everything the statistics page shows, counted over the finished rubbers."""

    rubbers: int = 0
    players: dict[str, PlayerStats] = field(default_factory=dict)
    partners: dict[tuple[str, str], PairStats] = field(default_factory=dict)
    """Each pair twice, from each partner's side: (player, partner)."""
    versus: dict[tuple[str, str], Versus] = field(default_factory=dict)
    outcomes: dict[str, int] = field(default_factory=dict)
    """Finished rubbers by the engine's outcome name, and ``shutout`` for those won 4-0."""
    names: dict[str, str] = field(default_factory=dict)
    """The most recent spelling of every name of the group, finished rubbers or not."""

    def name(self, key: str) -> str:
        return self.names.get(key, key)

    def ranking(self) -> list[PlayerStats]:
        """The players, best rating (mu - 3 sigma) first."""
        return sorted(
            self.players.values(), key=lambda p: (-p.rating.ordinal, -p.won, self.name(p.key))
        )

    def pairs(self) -> list[PairStats]:
        """Each pair once, most rubbers won first."""
        once = [pair for (a, b), pair in self.partners.items() if a < b]
        return sorted(once, key=lambda p: (-p.won, -p.rubbers, p.keys))

    def best_partner(self, key: str) -> PairStats | None:
        """The partner the player won the largest share of rubbers with (more rubbers break a tie)."""
        mine = [pair for (a, _), pair in self.partners.items() if a == key]
        if not mine:
            return None
        return min(mine, key=lambda p: (-p.won / p.rubbers, -p.rubbers, p.keys))

    def toughest_opponents(self, key: str, count: int = 3) -> list[Versus]:
        """The opponents the player lost the largest share of rubbers against."""
        mine = [v for (a, _), v in self.versus.items() if a == key and v.won < v.rubbers]
        mine.sort(key=lambda v: (v.won / v.rubbers, -v.rubbers, v.opponent))
        return mine[:count]
