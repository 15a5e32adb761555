"""Adding a hand to a rubber: the one way in, for the hand form, the API and a group's rubbers.

The engine scores the new hand from the running totals kept on the rubber's row (its tally),
so no other hand is read; the row's new totals are written on condition that its version is
still the one read, with the hand and the write key, in one transaction that also moves the
group's totals when the rubber is in one (docs/decisions/performance.md, "Writing a hand").
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import IntegrityError, OperationalError

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import DeviceRubber, Hand, Rubber, WriteKey
from scorekeeper.web import tokens, writes
from scorekeeper.web.columns import utcnow
from scorekeeper.web.sqlite import one_writer

hand_recorded = store.signals.signal("hand-recorded")
"""Sent inside the write of a new hand of a rubber that belongs to a group, before it is
committed, with the rubber's id as sender and ``group_id``, ``players``, ``created_at`` and
``group_seq`` (its place in the group's order), ``before`` and ``after`` (the engine's tally
either side of the hand) and ``result`` (what the hand added). The groups subscribe to it and
move their totals by the hand alone, in the same transaction."""


@dataclass(frozen=True)
class NewHand:
    """A hand to add, with what is stored beside it: the trump and the tricks it was played in."""

    hand: engine.Hand
    trump: str | None = None
    tricks: list[list[str]] | None = None
    typed_team: int | None = None
    """The team whose points the hand form typed (``Hand.typed_team``)."""


HandOf = Callable[[engine.Tally], NewHand]
"""The hand to add, made from the totals it follows (a record of tricks is read from the next
hand's leader)."""


@dataclass(frozen=True)
class Recorded:
    """A hand recorded: what it added, and the rubber's team names to say it with.

    What it added is None for the repeat of a hand already recorded under the same write key. It
    also holds the answer kept with the key (its status, and the body the API answered with)."""

    teams: tuple[str, str]
    result: engine.HandResult | None
    repeated: bool = False
    status: int = 200
    response: dict[str, Any] | None = None


class NotAllowed(Exception):
    """The device may not write to the rubber: it has not opened the edit link."""


class _Overtaken(Exception):
    """Another write changed the rubber between the read and the write."""


def record_hand(  # noqa: PLR0913  a hand form's fields, keyword-only
    rubber_id: str,
    device: str,
    hand: engine.Hand,
    *,
    trump: str | None = None,
    typed_team: int | None = None,
    key: str | None = None,
    body: Any = None,
    version: int | None = None,
) -> Recorded:
    """Add one hand to the rubber if ``device`` may write to it: the write of the hand form.

    Raises LookupError (no such rubber), :class:`NotAllowed` (the device may not write to it),
    :class:`~scorekeeper.rubbers.store.Conflict` or the engine's ``ScoringError``; nothing is
    stored then.
    """
    new = NewHand(hand, trump, typed_team=typed_team)
    return _append(rubber_id, new, device, key, body, version, 200, None)


def add_hand(  # noqa: PLR0913  the API's write, its options keyword-only
    rubber_id: str,
    hand_of: HandOf,
    *,
    key: str | None = None,
    body: Any = None,
    version: int | None = None,
    status: int = 200,
    respond: store.Respond | None = None,
) -> store.Written:
    """Add the hand ``hand_of`` makes from the rubber's totals, answered with the whole rubber.

    It is the write of the API, whose caller has checked the right to write already.

    ``respond`` makes the answer kept with the write key from the rubber as written, in the
    same transaction. Raises LookupError, :class:`~scorekeeper.rubbers.store.Conflict`, the
    engine's ``ScoringError`` and what ``hand_of`` raises; nothing is stored then.
    """
    written: list[tuple[Rubber, engine.RubberState]] = []

    def answer() -> dict[str, Any] | None:
        db.session.expire_all()  # the rows this request read before the hand went in
        rubber = db.session.get(Rubber, rubber_id)
        assert rubber is not None
        state = rubber.state()
        written.append((rubber, state))
        return respond(rubber, state) if respond else None

    recorded = _append(rubber_id, hand_of, None, key, body, version, status, answer)
    if recorded.repeated:
        rubber = db.session.get(Rubber, rubber_id)
        assert rubber is not None
        written.append((rubber, rubber.state()))
    rubber, state = written[-1]
    return store.Written(rubber, state, recorded.status, recorded.response, recorded.repeated)


def _append(  # noqa: PLR0913  the hand's fast path: no object to build on it
    rubber_id: str,
    hand: NewHand | HandOf,
    device: str | None,
    key: str | None,
    body: Any,
    version: int | None,
    status: int,
    answer: Callable[[], dict[str, Any] | None] | None,
) -> Recorded:
    writes.check_key(key)
    digest = store.body_hash(body)
    attempt = 0
    while True:
        try:
            if answer is not None:  # the answer is read back from the rubber in the session
                connection = db.session.connection()
                read = _read(connection, rubber_id, device, key, digest, version)
                if isinstance(read, Recorded):
                    db.session.rollback()
                    return read
                return _write(connection, True, rubber_id, read, hand, key, digest, status, answer)
            # A connection of its own, without the session's unit of work: a few hundred
            # microseconds of the busiest write.
            with db.engine.connect() as connection:
                read = _read(connection, rubber_id, device, key, digest, version)
                if isinstance(read, Recorded):
                    return read
                if read.group_id is None and read.tournament_id is None:
                    return _write(connection, False, rubber_id, read, hand, key, digest, status)
            # A rubber of a group or of a tournament: the group's totals, and the match's next
            # rubber, are written through the session, in the same transaction as the hand
            # (the conditional UPDATE still guards the read).
            connection = db.session.connection()
            return _write(connection, True, rubber_id, read, hand, key, digest, status)
        except (_Overtaken, IntegrityError, OperationalError) as error:
            db.session.rollback()
            if isinstance(error, OperationalError) and not tokens.lost_a_race(error):
                raise
            # Read again: the key first (a double tap that lost the race to itself is the
            # repeat it is), then the version the page was sent from (stale if it moved).
            attempt += 1
            if attempt == store.RETRIES:
                raise store.Conflict("busy") from error
        except Exception:
            db.session.rollback()
            raise


RUBBERS: sa.Table = Rubber.__table__  # type: ignore[assignment]
HANDS: sa.Table = Hand.__table__  # type: ignore[assignment]
WRITE_KEYS: sa.Table = WriteKey.__table__  # type: ignore[assignment]
DEVICE_RUBBERS: sa.Table = DeviceRubber.__table__  # type: ignore[assignment]

_READ_FOR_A_HAND = (
    sa.select(
        RUBBERS.c.version,
        RUBBERS.c.team0,
        RUBBERS.c.team1,
        RUBBERS.c.players,
        RUBBERS.c.rules,
        RUBBERS.c.first_dealer,
        RUBBERS.c.created_at,
        RUBBERS.c.group_id,
        RUBBERS.c.group_seq,
        RUBBERS.c.tournament_id,
        *(RUBBERS.c[name] for name in store.TALLY_COLUMNS),
        DEVICE_RUBBERS.c.device,
    )
    .outerjoin(
        DEVICE_RUBBERS,
        sa.and_(
            DEVICE_RUBBERS.c.rubber_id == RUBBERS.c.id,
            DEVICE_RUBBERS.c.device == sa.bindparam("device"),
        ),
    )
    .where(RUBBERS.c.id == sa.bindparam("rubber_id"))
)
"""The rubber's tally and this device's right to write to it."""

_READ_KEY = sa.select(WRITE_KEYS.c.body_hash, WRITE_KEYS.c.status, WRITE_KEYS.c.response).where(
    WRITE_KEYS.c.rubber_id == sa.bindparam("rubber_id"),
    WRITE_KEYS.c.key == sa.bindparam("key"),
)

_READ_HANDS = (
    sa.select(HANDS.c.kind, HANDS.c.points0, HANDS.c.points1, HANDS.c.all_tricks, HANDS.c.team)
    .where(HANDS.c.rubber_id == sa.bindparam("rubber_id"))
    .order_by(HANDS.c.number)
)

_WRITE_TALLY = (
    RUBBERS.update()
    .where(RUBBERS.c.id == sa.bindparam("rubber_id"), RUBBERS.c.version == sa.bindparam("read"))
    .values({name: sa.bindparam(name) for name in ("version", "updated_at", *store.TALLY_COLUMNS)})
)
"""The rubber's new totals, written only over the version they were counted from."""


@functools.lru_cache(maxsize=256)
def _rule_set(settings: tuple[tuple[str, Any], ...]) -> engine.RuleSet:
    """A stored rules object read once: the tables of a café play the same few rule sets."""
    return engine.RuleSet.from_dict(dict(settings))


def _tally(connection: sa.Connection, rubber_id: str, row: sa.Row[Any]) -> engine.Tally:
    """Return the engine's running totals as the rubber's row keeps them.

    For a rubber stored before its row kept them (migration 2fb27e069385: no dealer), return the
    fold of its hands, once."""
    rules = _rule_set(tuple(sorted(row.rules.items())))
    if row.dealer is None:
        rows = connection.execute(_READ_HANDS, {"rubber_id": rubber_id})
        inputs = [Hand.engine_input(*stored) for stored in rows]
        return engine.replay(rules, inputs, row.first_dealer).tally
    return engine.Tally(
        rules=rules,
        hand_count=row.hand_count,
        games=(row.games0, row.games1),
        pending_extra=row.pending_extra,
        pending_multiplier=row.pending_multiplier,
        finished=row.finished,
        winner=row.winner,
        outcome=engine.Outcome(row.outcome) if row.outcome else None,
        dealer=row.dealer,
        brink=(row.brink0, row.brink1),
    )


def _read(  # noqa: PLR0913  the hand's fast path: no object to build on it
    connection: sa.Connection,
    rubber_id: str,
    device: str | None,
    key: str | None,
    digest: str,
    version: int | None,
) -> sa.Row[*tuple[Any, ...]] | Recorded:
    """Return the rubber's row, once the device's right, the write key and the version are checked.

    Or return the answer to a repeated key."""
    row = connection.execute(_READ_FOR_A_HAND, {"rubber_id": rubber_id, "device": device}).first()
    if row is None:
        raise LookupError(rubber_id)
    if device is not None and row.device is None:
        raise NotAllowed(rubber_id)
    if key is not None:
        seen = connection.execute(_READ_KEY, {"rubber_id": rubber_id, "key": key}).first()
        if seen is not None:
            if seen.body_hash != digest:
                raise store.Conflict("key_reused")
            return Recorded((row.team0, row.team1), None, True, seen.status, seen.response)
    if version is not None and version != row.version:
        raise store.Conflict("stale")
    return row


def _write(  # noqa: PLR0913  the hand's fast path: no object to build on it
    connection: sa.Connection,
    in_session: bool,
    rubber_id: str,
    row: sa.Row[Any],
    hand: NewHand | HandOf,
    key: str | None,
    digest: str,
    status: int,
    answer: Callable[[], dict[str, Any] | None] | None = None,
) -> Recorded:
    """Score the hand from the row's tally and write it, on condition of the version read."""
    before = _tally(connection, rubber_id, row)
    new = hand if isinstance(hand, NewHand) else hand(before)
    after, result = engine.next_hand(before, new.hand)
    now = utcnow()
    with one_writer(connection):
        written = connection.execute(
            _WRITE_TALLY,
            {"rubber_id": rubber_id, "read": row.version, "version": row.version + 1}
            | {"updated_at": now}
            | store.tally_columns(after),
        )
        if written.rowcount != 1:
            raise _Overtaken(rubber_id)
        connection.execute(
            HANDS.insert(),
            {
                "rubber_id": rubber_id,
                "number": result.number,
                "kind": new.hand.kind.value,
                "points0": new.hand.points[0] if new.hand.points else None,
                "points1": new.hand.points[1] if new.hand.points else None,
                "all_tricks": new.hand.all_tricks,
                "team": new.hand.team,
                "trump": new.trump,
                "tricks": new.tricks,
                "created_at": now,
                "typed_team": new.typed_team if new.hand.points else None,
            },
        )
        if row.group_id is not None:  # the group's totals follow in the same transaction
            hand_recorded.send(
                rubber_id,
                group_id=row.group_id,
                players=row.players,
                created_at=row.created_at,
                group_seq=row.group_seq,
                before=before,
                after=after,
                result=result,
            )
        if row.tournament_id is not None:  # its match may be won: the tournament follows
            store.tournament_rubber_written.send(
                rubber_id,
                tournament_id=row.tournament_id,
                before=(before.games, before.winner if before.finished else None),
            )
        response = answer() if answer is not None else None
        if key is not None:
            connection.execute(
                WRITE_KEYS.insert(),
                {
                    "rubber_id": rubber_id,
                    "key": key,
                    "body_hash": digest,
                    "status": status,
                    "response": response,
                    "created_at": now,
                },
            )
        if in_session:
            db.session.commit()
        else:
            connection.commit()
    return Recorded((row.team0, row.team1), result, False, status, response)
