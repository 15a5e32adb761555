"""The writes of a bidding game, shared by its pages and the API.

Every write folds the hands again with the engine, refreshes the cached scores and bumps the
game's version in the same transaction, as a rubber's do: two phones writing at once cannot
lose a hand, a repeated idempotency key is answered with its first answer, and a write that
names the version it saw is refused once the game has moved on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.bidding.models import BiddingGame, BiddingHand, BiddingWriteKey, DeviceBidding
from scorekeeper.engine import bidding as rules
from scorekeeper.engine import names
from scorekeeper.extensions import db
from scorekeeper.web import tokens
from scorekeeper.web.columns import WRITE_KEY_LENGTH, utcnow


class Conflict(Exception):
    """A write refused because of the game's state, not the input: answered with 409.

    ``code`` is ``stale``, ``key_reused``, ``busy``, ``ends_early`` or ``no_hands``.
    """

    def __init__(self, code: str) -> None:
        self.code = code
        super().__init__(code)


def get(game_id: str) -> BiddingGame | None:
    """The game with this id, if the id could be one."""
    return db.session.get(BiddingGame, game_id) if tokens.is_token(game_id) else None


def key_matches(game: BiddingGame, key: str | None) -> bool:
    return tokens.key_matches(game.edit_key_hash, key)


def refresh(game: BiddingGame, state: rules.BiddingState) -> None:
    """Rewrite the game's cached scores from the engine's state."""
    game.hand_count = len(state.hands)
    game.scores = list(state.scores)
    game.dealer = state.dealer
    game.finished = state.finished
    game.winner = state.winner
    game.updated_at = utcnow()


def create_game(
    *,
    players: list[str],
    target: int,
    first_dealer: int,
    device: str | None = None,
    group_id: str | None = None,
    previous_id: str | None = None,
) -> tuple[BiddingGame, str]:
    """Store a new game (the engine refuses a table it cannot seat, or a name twice).

    Return it with its edit key, only ever known to its creator."""
    state = rules.new_game(len(players), target, first_dealer)
    names.check_names(players)
    edit_key = tokens.new_token()
    game = BiddingGame(
        id=tokens.new_token(),
        created_at=utcnow(),
        edit_key_hash=tokens.hash_key(edit_key),
        players=players,
        target=target,
        first_dealer=first_dealer,
        group_id=group_id,
        previous_id=previous_id,
    )
    refresh(game, state)
    db.session.add(game)
    if device:
        db.session.add(DeviceBidding(device=device, game=game, created_at=game.created_at))
    db.session.commit()
    return game, edit_key


def grant(device: str, game: BiddingGame) -> None:
    """Remember that this device may change the game (it holds the edit link)."""
    if db.session.get(DeviceBidding, (device, game.id)) is None:
        db.session.add(DeviceBidding(device=device, game_id=game.id, created_at=game.created_at))
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()  # the same link opened twice at once: granted by the other


def can_edit(device: str | None, game: BiddingGame) -> bool:
    return bool(device) and db.session.get(DeviceBidding, (device, game.id)) is not None


def latest_of(device: str | None) -> BiddingGame | None:
    """The game this device started or joined last: the table the home page starts again."""
    if not device:
        return None
    return db.session.execute(
        db.select(BiddingGame)
        .join(DeviceBidding, DeviceBidding.game_id == BiddingGame.id)
        .where(DeviceBidding.device == device)
        .order_by(DeviceBidding.created_at.desc(), DeviceBidding.game_id.desc())
        .limit(1)
    ).scalar_one_or_none()


def next_game_of(game: BiddingGame) -> BiddingGame | None:
    """The game started after this one at the same table, if there is one already."""
    return db.session.execute(
        db.select(BiddingGame).where(BiddingGame.previous_id == game.id).limit(1)
    ).scalar_one_or_none()


@dataclass(frozen=True)
class Written:
    """The answer to a write: the new state, or the first answer to a repeated key."""

    game: BiddingGame
    state: rules.BiddingState
    status: int
    response: dict[str, Any] | None
    repeated: bool = False


Change = Callable[[BiddingGame], rules.BiddingState]
Respond = Callable[[BiddingGame, rules.BiddingState], dict[str, Any]]


def write(
    game_id: str,
    change: Change,
    *,
    key: str | None = None,
    body: Any = None,
    version: int | None = None,
    status: int = 200,
    respond: Respond | None = None,
) -> Written:
    """Run ``change`` on the game in one transaction, again when another write got there first.

    Raises LookupError (no such game), :class:`Conflict` or the engine's ``BiddingError``;
    nothing is stored then.
    """
    if key is not None and not 0 < len(key) <= WRITE_KEY_LENGTH:
        raise ValueError(f"a write key has 1 to {WRITE_KEY_LENGTH} characters")
    digest = tokens.body_hash(body)
    for attempt in range(tokens.RETRIES):
        try:
            return _write_once(game_id, change, key, digest, version, status, respond, attempt)
        except (StaleDataError, IntegrityError, OperationalError) as error:
            db.session.rollback()
            if isinstance(error, OperationalError) and not tokens.lost_a_race(error):
                raise
            if version is not None and isinstance(error, StaleDataError):
                raise Conflict("stale") from error
            if attempt == tokens.RETRIES - 1:
                raise Conflict("busy") from error
        except Exception:
            db.session.rollback()
            raise
    raise AssertionError("unreachable")  # pragma: no cover


def _write_once(
    game_id: str,
    change: Change,
    key: str | None,
    digest: str,
    version: int | None,
    status: int,
    respond: Respond | None,
    attempt: int,
) -> Written:
    if attempt:
        db.session.expire_all()  # another write got there first: read everything again
    game = get(game_id)
    if game is None:
        raise LookupError(game_id)
    if key is not None:
        seen = db.session.get(BiddingWriteKey, (game_id, key))
        if seen is not None:
            if seen.body_hash != digest:
                raise Conflict("key_reused")
            db.session.rollback()
            return Written(game, game.state(), seen.status, seen.response, repeated=True)
    if version is not None and version != game.version:
        raise Conflict("stale")
    state = change(game)
    refresh(game, state)
    db.session.flush()
    response = respond(game, state) if respond else None
    if key is not None:
        db.session.add(
            BiddingWriteKey(
                game_id=game_id, key=key, body_hash=digest, status=status, response=response
            )
        )
    db.session.commit()
    return Written(game, state, status, response)


def append_hand(hand: rules.BidHand, trump: str | None = None, called: str | None = None) -> Change:
    """The change that records one more hand."""

    def change(game: BiddingGame) -> rules.BiddingState:
        state = rules.play_hand(game.state(), hand)
        row = BiddingHand(number=len(state.hands))
        row.set_input(hand, trump, called)
        game.hands.append(row)
        return state

    return change


def replace_hand(
    number: int, hand: rules.BidHand, trump: str | None = None, called: str | None = None
) -> Change:
    """The change that replaces hand ``number`` and folds every later hand again."""

    def change(game: BiddingGame) -> rules.BiddingState:
        if not 1 <= number <= len(game.hands):
            raise LookupError(number)
        inputs = [row.to_engine() for row in game.hands]
        inputs[number - 1] = hand
        try:
            state = rules.replay(game.table(), inputs)
        except rules.GameFinishedError as error:
            raise Conflict("ends_early") from error
        game.hands[number - 1].set_input(hand, trump, called)
        return state

    return change


def undo_last(game: BiddingGame) -> rules.BiddingState:
    """The change that removes the last hand."""
    if not game.hands:
        raise Conflict("no_hands")
    game.hands.pop()
    return game.state()
