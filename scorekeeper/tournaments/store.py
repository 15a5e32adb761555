"""The writes of a tournament, and the fold that says where it stands.

A tournament's rounds, matches and standings are the engine's fold of its settings, the Swiss
rounds drawn, the walkovers and withdrawals, and its matches' rubbers as their rows cache them.
What the fold asks for that is not there yet, a match's rubber in play, is created by
:func:`sync`, in the transaction of the write that asks for it: the tournament's own writes, and
every write of one of its rubbers (``rubbers.store.tournament_rubber_written``). Reads only
read. One rubber per place holds in the database: a match's next rubber takes the place after
the last one the write read, and of two writes that read the same, one creates it and the other
nothing (a unique place; its savepoint is rolled back, its own write kept).
"""

from __future__ import annotations

import secrets
from collections import defaultdict
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from flask import current_app, g, has_request_context
from sqlalchemy.exc import IntegrityError

from scorekeeper import engine
from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import db
from scorekeeper.groups import store as group_store
from scorekeeper.rubbers import store as rubbers
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.tournaments import wording
from scorekeeper.tournaments.models import DeviceTournament, MatchRubber, Pair, Tournament
from scorekeeper.web import grants, tokens
from scorekeeper.web.columns import NAME_LENGTH
from scorekeeper.web.device import current_device
from scorekeeper.web.writes import Conflict

GRANTS: grants.Granted[Tournament] = grants.Granted(
    Tournament, DeviceTournament, "tournament_id", dated=False
)
"""Which devices may run a tournament: the organizer's phone (web.grants)."""
key_matches = GRANTS.key_matches


@dataclass(frozen=True)
class Standing:
    """The engine's fold of a tournament, with the rows it was folded from."""

    tournament: Tournament
    fold: tourney.Tournament
    rubbers: dict[tuple[int, int], list[Rubber]]
    """Each match's rubbers in order, by (round, table)."""
    places: dict[tuple[int, int], int] = field(default_factory=dict)
    """The last place (seq) taken at each (round, table) as read, its pairs' or not: a match's
    next rubber takes the one after."""

    def pair(self, number: int) -> Pair:
        return self.tournament.pairs[number - 1]

    def labels(self) -> dict[int, str]:
        """Each pair's name as its tables show it, by number."""
        return {pair.number: pair.label for pair in self.tournament.pairs}


def create(  # noqa: PLR0913  keyword-only, each named at its call
    *,
    name: str,
    settings: tourney.Settings,
    rules: engine.RuleSet,
    pairs: Sequence[tourney.PairEntry],
    draw: str,
    group_id: str | None = None,
    device: str | None = None,
    tv_language: str | None = None,
) -> tuple[Tournament, str]:
    """Store a new tournament, its pairs seeded, and its first round's rubbers; return its key.

    ``tv_language`` is the locale its TV speaks (None: each TV its own browser's)."""
    edit_key = tokens.new_token()
    tournament = Tournament(
        id=tokens.new_token(),
        edit_key_hash=tokens.hash_key(edit_key),
        name=name,
        format=settings.format,
        best_of=settings.best_of,
        rounds=settings.rounds,
        groups=settings.groups,
        advance=settings.advance,
        third_place=settings.third_place,
        draw=draw,
        rules=rules.to_dict(),
        swiss_rounds=[],
        walkovers=[],
        withdrawn=[],
        group_id=group_id,
        tv_code=group_store.new_tv_code(),  # none a group or a tournament has (tv_page)
        tv_language=tv_language,
    )
    seeds = (
        tourney.random_draw(len(pairs), secrets.randbits(32))
        if draw == "random"
        else tuple(range(1, len(pairs) + 1))
    )
    for entry, (pair, seed) in enumerate(zip(pairs, seeds, strict=True), start=1):
        add_pair(tournament, pair, seed, entry)
    tournament.pairs.sort(key=lambda pair: pair.number)
    if settings.format == "swiss":
        tournament.swiss_rounds = [_listed(_fold(tournament, {}).draw_next_round())]
    GRANTS.create(tournament, device, commit=False)
    sync(tournament.id)  # the first round's rubbers, in the same commit
    db.session.commit()
    return tournament, edit_key


@group_store.tv_code_sought.connect
def tv_page(code: str) -> group_store.TvPage | None:
    """Return the TV of the tournament whose TV code this is (lower case), for /tv/<code>."""
    found = db.session.execute(
        sa.select(Tournament.id).where(Tournament.tv_code == code)
    ).scalar_one_or_none()
    if found is None:
        return None
    return group_store.TvPage("tournaments.tv", {"tournament_id": found})


def add_pair(tournament: Tournament, pair: tourney.PairEntry, number: int, entry: int) -> None:
    """Store a pair of the tournament: its seed ``number`` and its place as entered."""
    tournament.pairs.append(
        Pair(
            number=number,
            entry=entry,
            name=pair.name,
            player0=pair.players[0],
            player1=pair.players[1],
        )
    )


def _listed(pairings: Sequence[tuple[int, int | None]]) -> list[list[int | None]]:
    return [[first, second] for first, second in pairings]


def _fold(
    tournament: Tournament,
    rubbers_of: dict[tuple[int, int], list[Rubber]],
    instead: dict[str, tourney.RubberResult] | None = None,
) -> tourney.Tournament:
    """The engine's fold; ``instead`` gives some rubbers another result (as before a write)."""
    instead = instead or {}
    results = {
        match: tourney.MatchResult(
            rubbers=tuple(instead.get(rubber.id) or _result(rubber) for rubber in rows)
        )
        for match, rows in rubbers_of.items()
    }
    for round_number, table, winner in tournament.walkovers:
        # A walkover is given while no rubber of the match is finished: the rubber in play is
        # closed by it, and counts for nothing.
        results[round_number, table] = tourney.MatchResult((), walkover=winner)
    swiss = [_pairings(drawn) for drawn in tournament.swiss_rounds]
    return tourney.fold(
        tournament.settings(),
        swiss_rounds=swiss,
        results=results,
        withdrawn=tournament.withdrawn,
    )


def _pairings(drawn: list[list[int | None]]) -> list[tourney.Pairing]:
    """A Swiss round as stored, [pair, pair or null] each: the first is always a pair."""
    pairings: list[tourney.Pairing] = []
    for first, second in drawn:
        assert first is not None
        pairings.append((first, second))
    return pairings


def _result(rubber: Rubber) -> tourney.RubberResult:
    return tourney.RubberResult(
        games=(rubber.games0, rubber.games1), winner=rubber.winner if rubber.finished else None
    )


def standing(tournament: Tournament, *, fresh: bool = False) -> Standing:
    """Where the tournament stands: the engine's fold of what is stored.

    A match's rubbers are those started for its two pairs: a result corrected earlier in the
    tournament may change who plays a later match (a knockout's next match, a group's
    qualifiers), and the rubbers started for the pairs that were to play it no longer count
    there. They stay stored, as every rubber does, and the match starts a rubber of its own.
    ``fresh`` reads the rubbers as committed now, over any the session holds already."""
    query = (
        sa.select(MatchRubber, Rubber)
        .join(Rubber, Rubber.id == MatchRubber.rubber_id)
        .where(MatchRubber.tournament_id == tournament.id)
        .order_by(MatchRubber.round, MatchRubber.table, MatchRubber.seq)
    )
    if fresh:
        query = query.execution_options(populate_existing=True)
    rows = db.session.execute(query).all()
    links: dict[tuple[int, int], list[tuple[MatchRubber, Rubber]]] = defaultdict(list)
    places: dict[tuple[int, int], int] = {}
    for link, rubber in rows:
        links[link.round, link.table].append((link, rubber))
        places[link.round, link.table] = max(places.get((link.round, link.table), 0), link.seq)
    wrong: set[str] = set()
    while True:  # each pass settles at least one more round: as many as the rounds at most
        rubbers_of = {
            place: [rubber for link, rubber in found if link.rubber_id not in wrong]
            for place, found in links.items()
        }
        rubbers_of = {place: found for place, found in rubbers_of.items() if found}
        fold = _fold(tournament, rubbers_of)
        pairs = {
            (match.round, match.table): match.pairs
            for drawn in fold.rounds
            for match in drawn.matches
        }
        mismatched = {
            link.rubber_id
            for place, found in links.items()
            for link, _rubber in found
            if link.rubber_id not in wrong and pairs.get(place) != (link.pair0, link.pair1)
        }
        if not mismatched:
            return Standing(tournament, fold, rubbers_of, places)
        wrong |= mismatched


def table_key(rubber_id: str) -> str:
    """The edit key of a match's rubber: its table's phone opens it with this.

    Made from the app's secret, so that the organizer's page can show each table's link again
    whenever asked, where a random key would be known only at its creation; the tournament's
    own key is taken on its rubbers as well (``api.access.editable``)."""
    return tokens.derived_key(current_app.config["SECRET_KEY"], "tournament table", rubber_id)


def team_name(pair: Pair) -> str:
    """A pair's name at its table, within a team name's length: its name, else its players'."""
    for name in (pair.name, f"{pair.player0} & {pair.player1}"):
        if name and len(name) <= NAME_LENGTH:
            return name
    first = f"{pair.player0.split()[0]} & {pair.player1.split()[0]}"
    return first if len(first) <= NAME_LENGTH else first[: NAME_LENGTH - 1] + "…"


def sync(tournament_id: str) -> Standing | None:
    """Create every rubber the tournament's fold asks for; return where it then stands.

    In the caller's transaction, which commits it: a match that needs a rubber gets its first
    one, or the next one once its last is won; the next continues the deal of the one before,
    and the phones that kept that one keep this one. A write that read the same as another and
    lost the place to it creates nothing (:func:`_start_rubber`)."""
    current = _locked_standing(tournament_id)
    return _synced(current) if current is not None else None


def _locked_standing(tournament_id: str) -> Standing | None:
    """The tournament's row locked until the transaction ends, and its fold as committed now.

    One sync of a tournament at a time, each seeing what the one before committed: two
    quarter-finals won at once in two transactions would each see the other one unfinished,
    and neither would start the semi-final they lead to (on SQLite the writers queue anyway)."""
    tournament = _locked(tournament_id)
    return standing(tournament, fresh=True) if tournament is not None else None


def _synced(current: Standing) -> Standing:
    """Start the rubbers ``current`` asks for (read under the tournament's lock)."""
    token = _SYNCING.set(True)
    try:
        created = False
        for drawn in current.fold.rounds:
            for match in drawn.matches:
                if not match.needs_rubber:
                    continue
                rows = current.rubbers.get((match.round, match.table), [])
                if rows and not rows[-1].finished:
                    continue
                created = _start_rubber(current, match, rows[-1] if rows else None) or created
    finally:
        _SYNCING.reset(token)
    return standing(current.tournament, fresh=True) if created else current


def _locked(tournament_id: str) -> Tournament | None:
    """The tournament's row, read afresh and locked until the transaction ends (PostgreSQL)."""
    return db.session.execute(
        sa.select(Tournament)
        .where(Tournament.id == tournament_id)
        .with_for_update()
        .execution_options(populate_existing=True)
    ).scalar_one_or_none()


_SYNCING: ContextVar[bool] = ContextVar("tournament_syncing", default=False)
"""True while :func:`sync` runs: the rubbers it creates are its own writes, not a table's."""


def _start_rubber(current: Standing, match: tourney.Match, previous: Rubber | None) -> bool:
    """Create the match's next rubber, in a savepoint; False if another write did first.

    It takes the place after the last one read (:attr:`Standing.places`): two writes that both
    read the match needing its rubber try the same place, and the database's unique place lets
    one have it. The other's savepoint is rolled back, and its own write goes on."""
    tournament = current.tournament
    first, second = match.pairs
    assert second is not None  # a bye needs no rubber
    pairs = (current.pair(first), current.pair(second))
    rubber_id = tokens.new_token()
    seq = current.places.get((match.round, match.table), 0) + 1
    first_dealer = 0
    if previous is not None:  # the deal goes on round
        first_dealer = previous.dealer if previous.dealer is not None else previous.state().dealer
    devices = (
        db.session.scalars(
            sa.select(DeviceRubber.device).where(DeviceRubber.rubber_id == previous.id)
        ).all()
        if previous is not None
        else []
    )
    try:
        with db.session.begin_nested():
            db.session.add(
                MatchRubber(
                    rubber_id=rubber_id,
                    tournament_id=tournament.id,
                    round=match.round,
                    table=match.table,
                    seq=seq,
                    pair0=first,
                    pair1=second,
                )
            )
            rubber, _ = rubbers.create_rubber(
                teams=(team_name(pairs[0]), team_name(pairs[1])),
                players=[pairs[0].player0, pairs[1].player0, pairs[0].player1, pairs[1].player1],
                first_dealer=first_dealer,
                rules=tournament.rule_set(),
                previous_id=previous.id if previous is not None else None,
                group_id=tournament.group_id,
                edit_key=table_key(rubber_id),
                tournament_id=tournament.id,
                rubber_id=rubber_id,
                commit=False,
            )
            for device in devices:  # the table's phones go on to the next rubber
                db.session.add(
                    DeviceRubber(device=device, rubber_id=rubber.id, created_at=rubber.created_at)
                )
            db.session.flush()
    except IntegrityError:
        return False
    return True


def written(
    rubber_id: str,
    *,
    tournament_id: str,
    before: tuple[tuple[int, int], int | None] | None = None,
) -> None:
    """A write of one of the tournament's rubbers, before its commit: checked, then synced.

    A decided match is final for the tables (API.md): a write to one of its rubbers is refused
    (``match_decided``, :class:`~scorekeeper.web.writes.Conflict`) unless it comes with the
    tournament's key, and even then once a later match depends on its result
    (``result_used``); the write is rolled back whole."""
    if _SYNCING.get():
        return  # the sync's own rubber
    current = _locked_standing(tournament_id)
    if current is None:
        return
    if before is not None:  # one fold, read under the lock, for the check and the sync
        _check_correction(rubber_id, current, tourney.RubberResult(*before))
    _synced(current)


def organizer_key_given(tournament_id: str) -> None:
    """Note that the request carries the tournament's own key: its writes are the organizer's."""
    g.tournament_organizer = tournament_id


def _is_organizer(tournament: Tournament) -> bool:
    if not has_request_context():
        return False
    return g.get("tournament_organizer") == tournament.id or GRANTS.can_edit(
        current_device(), tournament
    )


def _check_correction(rubber_id: str, current: Standing, before: tourney.RubberResult) -> None:
    link = db.session.get(MatchRubber, rubber_id)
    if link is None:
        return
    tournament = current.tournament
    earlier = _fold(tournament, current.rubbers, {rubber_id: before})
    try:
        match = earlier.match(link.round, link.table)
    except tourney.TournamentError:
        match = None
    if match is None or match.pairs != (link.pair0, link.pair1):
        # Its round undrawn, or its match given other pairs by a correction: it counts for
        # nothing, and a hand on it would be a hand lost.
        raise Conflict("not_in_play", wording.not_in_play())
    if not match.decided:
        return  # a match still in play
    if match.walkover or not _is_organizer(tournament):
        raise Conflict("match_decided")
    later = _depending(earlier, match, _played_places(tournament.id))
    if later is not None:
        raise Conflict("result_used", wording.result_used(later))


def _depending(
    fold: tourney.Tournament, match: tourney.Match, played: set[tuple[int, int, int, int]]
) -> tourney.Match | tourney.Round | None:
    """What depends on ``match``'s result, if anything.

    A later Swiss round drawn, or a later knockout match of its pairs (of any pairs, for a
    group's match) with a hand in a rubber started for its pairs (``played``: the round, table
    and pairs of each rubber that has a hand)."""
    if fold.settings.format == "swiss":
        return next((drawn for drawn in fold.rounds if drawn.number > match.round), None)
    for drawn in fold.rounds:
        if drawn.number <= match.round:
            continue
        for later in drawn.matches:
            if later.stage not in ("knockout", "third_place") or later.pairs[1] is None:
                continue
            if match.stage != "group" and not set(later.pairs) & set(match.pairs):
                continue
            if (later.round, later.table, *later.pairs) in played:
                return later
    return None


def check_unused(current: Standing, match: tourney.Match) -> None:
    """Raise TournamentError "result_used" when a later match depends on ``match``'s result."""
    later = _depending(current.fold, match, _played_places(current.tournament.id))
    if later is not None:
        raise tourney.TournamentError("result_used", later, "A later match uses this result.")


def check_round_unplayed(current: Standing, round_number: int) -> None:
    """Raise TournamentError "round_played" when a match of the round has a hand."""
    played = _played_places(current.tournament.id)
    for drawn in current.fold.rounds:
        if drawn.number != round_number:
            continue
        for match in drawn.matches:
            if match.walkover or (match.round, match.table, *match.pairs) in played:
                raise tourney.TournamentError(
                    "round_played", round_number, f"Round {round_number} has a hand."
                )


def _played_places(tournament_id: str) -> set[tuple[int, int, int, int]]:
    """The round, table and pairs of each of the tournament's rubbers that has a hand."""
    rows = db.session.execute(
        sa.select(MatchRubber.round, MatchRubber.table, MatchRubber.pair0, MatchRubber.pair1)
        .join(Rubber, Rubber.id == MatchRubber.rubber_id)
        .where(MatchRubber.tournament_id == tournament_id, Rubber.hand_count > 0)
    ).all()
    return {(row[0], row[1], row[2], row[3]) for row in rows}


rubbers.tournament_rubber_written.connect(written)


def place(rubber: Rubber) -> dict[str, Any] | None:
    """Where a match's rubber is played: ``{"id", "round", "table"}`` (API.md), else None."""
    if rubber.tournament_id is None:
        return None
    link = db.session.get(MatchRubber, rubber.id)
    if link is None:
        return None
    return {"id": rubber.tournament_id, "round": link.round, "table": link.table}


@dataclass(frozen=True)
class MatchOf:
    """What a match's rubber page says of its tournament: its name, the round and the table."""

    tournament_id: str
    name: str
    round: int
    table: int


def match_of(rubber: Rubber) -> MatchOf | None:
    """The match this rubber is played in, if it is a tournament's."""
    place_of = place(rubber)
    if place_of is None:
        return None
    tournament = db.session.get(Tournament, place_of["id"])
    assert tournament is not None
    return MatchOf(tournament.id, tournament.name, place_of["round"], place_of["table"])


_TOURNAMENTS = Tournament.__table__
_LINKS = MatchRubber.__table__
_RUBBERS = Rubber.__table__
_GRANTS = DeviceTournament.__table__
_FINGERPRINT = (
    sa.select(
        _TOURNAMENTS.c.version,
        sa.func.count(_RUBBERS.c.id),
        sa.func.coalesce(sa.func.sum(_RUBBERS.c.version), 0),
        sa.select(_GRANTS.c.device)
        .where(
            _GRANTS.c.tournament_id == _TOURNAMENTS.c.id,
            _GRANTS.c.device == sa.bindparam("device"),
        )
        .exists(),
        _TOURNAMENTS.c.tv_language,
    )
    .select_from(
        _TOURNAMENTS.outerjoin(_LINKS, _LINKS.c.tournament_id == _TOURNAMENTS.c.id).outerjoin(
            _RUBBERS, _RUBBERS.c.id == _LINKS.c.rubber_id
        )
    )
    .where(_TOURNAMENTS.c.id == sa.bindparam("tournament_id"))
    .group_by(_TOURNAMENTS.c.id, _TOURNAMENTS.c.version, _TOURNAMENTS.c.tv_language)
)
"""The tournament's fingerprint and the phone's grant, built once: a follower's page and poll
are answered from this query alone."""


def fingerprint(tournament_id: str, device: str | None = None) -> Fingerprint | None:
    """What changes with any write of the tournament or of one of its rubbers: one query.

    The tournament's version, its rubbers' count and the sum of their versions (each write of a
    rubber bumps its version), and whether ``device`` may run the tournament. A kept page or
    state is good while the first three hold. None for a tournament that is none."""
    if not tokens.is_token(tournament_id):
        return None
    row = (
        db.session.connection()
        .execute(_FINGERPRINT, {"tournament_id": tournament_id, "device": device or ""})
        .first()
    )
    if row is None:
        return None
    return Fingerprint((int(row[0]), int(row[1]), int(row[2])), bool(row[3]), row[4])


@dataclass(frozen=True)
class Fingerprint:
    """A tournament's state in three numbers, and whether the asking phone runs it.

    With the language its TV speaks, which its TV's page is kept in (``shown.kept``)."""

    state: tuple[int, int, int]
    organizer: bool
    tv_language: str | None = None

    @property
    def etag(self) -> str:
        return ".".join(map(str, self.state))
