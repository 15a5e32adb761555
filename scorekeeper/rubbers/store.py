"""The writes of a rubber but the new hand, shared by the pages and the API.

Starting one, its edit rights, and the general write of an edit or an undo.

The general write folds the hands again with the engine, refreshes the cached totals, and bumps
the rubber's version in the same transaction; two phones writing at once cannot lose a hand. A
new hand is added by ``hands``, from the totals alone (docs/decisions/performance.md, "Writing
a hand").
"""

from __future__ import annotations

import base64
import hmac
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from blinker import Namespace
from sqlalchemy import inspect

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import DeviceRubber, Hand, Rubber, WriteKey
from scorekeeper.web import grants, writes
from scorekeeper.web.columns import utcnow

# Re-exported: the names the rubbers' callers use.
from scorekeeper.web.tokens import (
    RACE_SQLSTATES as RACE_SQLSTATES,
)
from scorekeeper.web.tokens import (
    RETRIES as RETRIES,
)
from scorekeeper.web.tokens import (
    TOKEN as TOKEN,
)
from scorekeeper.web.tokens import (
    body_hash as body_hash,
)
from scorekeeper.web.tokens import (
    hash_key as hash_key,
)
from scorekeeper.web.tokens import (
    is_token as is_token,
)
from scorekeeper.web.tokens import (
    new_token as new_token,
)

Conflict = writes.Conflict
"""A write refused because of the rubber's state, not the input: answered with 409."""


def tally_columns(tally: engine.Tally) -> dict[str, Any]:
    """The rubber's row as it keeps the tally."""
    return {
        "hand_count": tally.hand_count,
        "games0": tally.games[0],
        "games1": tally.games[1],
        "pending_extra": tally.pending_extra,
        "pending_multiplier": tally.pending_multiplier,
        "finished": tally.finished,
        "winner": tally.winner,
        "outcome": tally.outcome.value if tally.outcome else None,
        "dealer": tally.dealer,
        "brink0": tally.brink[0],
        "brink1": tally.brink[1],
    }


TALLY_COLUMNS = tuple(tally_columns(engine.Tally(engine.RuleSet())))
"""The columns of a rubber's row that keep the engine's Tally (with its rules)."""


signals = Namespace()
rubber_written = signals.signal("rubber-written")
"""Sent inside the general write of a rubber that belongs to a group, before it is committed,
with ``state`` (the engine's fold as written) and ``counted`` (what the rubber's cached result
was before, or None for a rubber new to the group). The groups subscribe to it: a rubber knows
nothing of groups, and what they count is written in the same transaction as the change. A new
hand sends ``recording.hand_recorded`` instead."""

tournament_rubber_written = signals.signal("tournament-rubber-written")
"""Sent inside every write of a rubber that is a tournament's match, with the rubber's id as
sender, ``tournament_id`` and ``before`` (its games and winner before the write; None for a new
rubber), before it is committed. The tournaments subscribe to it: a match
won draws what follows it (the match's next rubber, the bracket's next match) in the same
transaction."""


def refresh(rubber: Rubber, state: engine.RubberState) -> None:
    """Rewrite the rubber's cached totals from the engine's state."""
    # What the group's totals counted of this rubber: the cache as the last write left it
    # (nothing for a rubber not stored yet).
    counted = _result(rubber) if sa.inspect(rubber).has_identity else None
    for name, value in tally_columns(state.tally).items():
        setattr(rubber, name, value)
    rubber.updated_at = utcnow()
    if rubber.group_id is not None:  # the group's totals follow in the same transaction
        rubber_written.send(rubber, state=state, counted=counted)
    if rubber.tournament_id is not None:
        before = (counted[2], counted[1] if counted[0] else None) if counted else None
        tournament_rubber_written.send(rubber.id, tournament_id=rubber.tournament_id, before=before)


def _result(rubber: Rubber) -> tuple[bool, int | None, tuple[int, int], str | None]:
    """The rubber's cached result: finished, winner, games and outcome."""
    return (rubber.finished, rubber.winner, (rubber.games0, rubber.games1), rubber.outcome)


def create_rubber(  # noqa: PLR0913  keyword-only, each named at its call
    *,
    teams: tuple[str, str],
    players: list[str] | None,
    first_dealer: int,
    rules: engine.RuleSet,
    previous_id: str | None = None,
    device: str | None = None,
    group_id: str | None = None,
    edit_key: str | None = None,
    tournament_id: str | None = None,
    rubber_id: str | None = None,
    commit: bool = True,
) -> tuple[Rubber, str]:
    """Store a new rubber; return it with its edit key.

    The edit key is only ever known to its creator, or given: :func:`next_edit_key`.
    ``commit=False`` leaves it in the caller's transaction (a tournament's next rubber, created
    in the write that ended the one before)."""
    state = engine.new_rubber(rules, first_dealer)
    edit_key = edit_key or new_token()
    rubber = Rubber(
        id=rubber_id or new_token(),
        created_at=utcnow(),
        edit_key_hash=hash_key(edit_key),
        team0=teams[0],
        team1=teams[1],
        players=players,
        first_dealer=first_dealer,
        rules=rules.to_dict(),
        previous_id=previous_id,
        group_id=group_id,
        tournament_id=tournament_id,
    )
    refresh(rubber, state)
    GRANTS.create(rubber, device, commit=commit)
    return rubber, edit_key


def next_edit_key(previous_key: str) -> str:
    """The edit key of the rubber started after one whose edit key is ``previous_key``.

    Whoever holds the previous rubber's key may start the next one and edit it anyway; so
    every such phone, landing on the next rubber another tap started, knows its key too (and
    can share it, or send hands kept offline), where a random one would be known to the
    first tap's answer alone.
    """
    digest = hmac.new(previous_key.encode(), b"the next rubber, same table", "sha256").digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


GRANTS: grants.Granted[Rubber] = grants.Granted(Rubber, DeviceRubber, "rubber_id")
"""Which devices may edit a rubber (web.grants)."""
grant = GRANTS.grant
can_edit = GRANTS.can_edit
key_matches = GRANTS.key_matches


def next_rubber_of(rubber: Rubber) -> Rubber | None:
    """The rubber started after this one at the same table, if there is one already."""
    return db.session.execute(
        db.select(Rubber)
        .where(Rubber.previous_id == rubber.id)
        .order_by(Rubber.created_at, Rubber.id)
        .limit(1)
    ).scalar_one_or_none()


RUBBERS: writes.Versioned[Rubber, engine.RubberState] = writes.Versioned(
    Rubber, WriteKey, "rubber_id", refresh
)
"""What the write core needs of a rubber (web.writes)."""
Written = writes.Written[Rubber, engine.RubberState]
Change = Callable[[Rubber], engine.RubberState]
Respond = Callable[[Rubber, engine.RubberState], dict[str, Any]]


write = RUBBERS.write
"""Run a change on the rubber in one transaction (web.writes.Versioned.write)."""


def append_hand(
    hand: engine.Hand, trump: str | None = None, tricks: list[list[str]] | None = None
) -> Change:
    """Return the change that records one more hand through the general write, folding every hand.

    It is left for the card entry's replay (``cards.entry.save``) until it moves to
    :func:`scorekeeper.rubbers.recording.add_hand`, the one path of every other new hand."""

    def change(rubber: Rubber) -> engine.RubberState:
        before = rubber.state()
        state = engine.play_hand(before, hand)
        row = Hand(number=len(before.hands) + 1)
        row.set_input(hand, trump, tricks)
        stored = inspect(rubber)
        if stored.persistent and "hands" in stored.unloaded:
            row.rubber_id = rubber.id  # no need to load every hand to add one
            db.session.add(row)
        else:
            rubber.hands.append(row)
        return state

    return change


def replace_hand(
    number: int,
    hand: engine.Hand,
    trump: str | None = None,
    tricks: list[list[str]] | None = None,
    typed_team: int | None = None,
) -> Change:
    """The change that replaces hand ``number`` and folds every later hand again."""

    def change(rubber: Rubber) -> engine.RubberState:
        if not 1 <= number <= len(rubber.hands):
            raise LookupError(number)
        before = rubber.state()
        inputs = [row.to_engine() for row in rubber.hands]
        inputs[number - 1] = hand
        try:
            state = engine.replay(rubber.rule_set(), inputs, rubber.first_dealer)
        except engine.RubberFinishedError as error:
            raise Conflict("ends_early") from error
        # A spoiled deal made or unmade moves every later deal; a later hand recorded by its
        # cards was checked against its leader, so it may not move under it.
        later = zip(rubber.hands[number:], before.hands[number:], state.hands[number:], strict=True)
        if any(row.tricks and old.leader != new.leader for row, old, new in later):
            raise Conflict("cards_shift")
        row = rubber.hands[number - 1]
        if row.to_engine() != hand or (row.trump, row.tricks) != (trump, tricks):
            row.edited_at = utcnow()  # the same hand saved again is no edit
        row.set_input(hand, trump, tricks, typed_team)
        return state

    return change


def kept_on_paper(games: object) -> Change:
    """The change that finishes a rubber with no hand with the games its table kept on paper.

    The engine refuses games no rubber ends with (``PaperResultError``); a rubber with a hand,
    or given its games already, is refused (``Conflict("rubber_played")``)."""

    def change(rubber: Rubber) -> engine.RubberState:
        if rubber.paper_games is not None or rubber.hand_count or rubber.hands:
            raise Conflict("rubber_played")
        state = engine.paper_result(rubber.rule_set(), games, rubber.first_dealer)
        rubber.paper_games = list(state.games)
        return state

    return change


def undo_last(rubber: Rubber) -> engine.RubberState:
    """The change that removes the last hand, or the games of a rubber kept on paper.

    A paper result is taken back as a last hand is: the rubber is in play again, with no hand."""
    if rubber.paper_games is not None and not rubber.hands:
        rubber.paper_games = None
        return rubber.state()
    return RUBBERS.undo_last(rubber)
