"""The writes of a bidding game, shared by its pages and the API.

Every write folds the hands again with the engine, refreshes the cached scores and bumps the
game's version in the same transaction, as a rubber's do: two phones writing at once cannot
lose a hand, a repeated idempotency key is answered with its first answer, and a write that
names the version it saw is refused once the game has moved on.
"""

from __future__ import annotations

from collections.abc import Callable

from scorekeeper.bidding.models import BiddingGame, BiddingHand, BiddingWriteKey, DeviceBidding
from scorekeeper.engine import bidding as rules
from scorekeeper.engine import names
from scorekeeper.extensions import db
from scorekeeper.web import grants, tokens, writes
from scorekeeper.web.columns import utcnow

Conflict = writes.Conflict
"""A write refused because of the game's state: ``stale``, ``key_reused``, ``busy``,
``ends_early`` or ``no_hands`` (answered with 409)."""


GRANTS: grants.Granted[BiddingGame] = grants.Granted(
    BiddingGame, DeviceBidding, "game_id", book="bidding_keys"
)
"""Which devices may change a game (web.grants)."""
get = GRANTS.get
grant = GRANTS.grant
can_edit = GRANTS.can_edit
key_matches = GRANTS.key_matches


def refresh(game: BiddingGame, state: rules.BiddingState) -> None:
    """Rewrite the game's cached scores from the engine's state."""
    game.hand_count = len(state.hands)
    game.scores = list(state.scores)
    game.dealer = state.dealer
    game.finished = state.finished
    game.winner = state.winner
    game.updated_at = utcnow()


def create_game(  # noqa: PLR0913  keyword-only, each named at its call
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
    GRANTS.create(game, device)
    return game, edit_key


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


GAMES: writes.Versioned[BiddingGame, rules.BiddingState] = writes.Versioned(
    BiddingGame, BiddingWriteKey, "game_id", refresh
)
"""What the write core needs of a game (web.writes)."""
Written = writes.Written[BiddingGame, rules.BiddingState]
Change = Callable[[BiddingGame], rules.BiddingState]


write = GAMES.write
"""Run a change on the game in one transaction (web.writes.Versioned.write)."""


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
        row = game.hands[number - 1]
        if row.to_engine() != hand or (row.trump, row.called) != (trump, called):
            row.edited_at = utcnow()  # the same hand saved again is no edit
        row.set_input(hand, trump, called)
        return state

    return change


undo_last = GAMES.undo_last
"""The change that removes the last hand."""
