"""The JSON API of bidding Sueca (API.md, "Bidding Sueca"), under ``/api/v1/bidding``.

A body is read with its model (``schemas/bidding_games.py``), and each view declares what it takes
and answers, as the rubbers' do. The statuses follow the rubbers' API: 400 for a body that is
not one of the shapes (not JSON, a wrong type, an unknown key), 422 for a value the game
refuses (a bid outside 61..120, a seat not at the table, impossible points, 3 or 7 players, a
name too long), 403 without the game's edit key in ``X-Edit-Key``, 404 for an unknown game or
hand, 409 when the game's state refuses the write (finished, stale version, key reused). Every
error is ``{"error": "<a sentence in the request's language>", "field": name | null, "code"}``
and stores nothing.
"""

from __future__ import annotations

import hashlib
from functools import partial
from typing import Any

from flask import Response, jsonify, request, url_for
from flask_babel import gettext as _

from scorekeeper.api import access
from scorekeeper.api.errors import ApiError
from scorekeeper.api.operations import (
    EDIT_KEY,
    EDIT_KEY_HEADER,
    NO_GROUP,
    ApiBlueprint,
    creation_refused,
    refusals,
)
from scorekeeper.api.schemas.bidding_games import (
    BiddingBid,
    BiddingCreated,
    BiddingGroupStats,
    BiddingHandInput,
    BiddingNewGame,
    BiddingPassed,
    BiddingState,
    BiddingWrite,
)
from scorekeeper.api.schemas.reading import json_body
from scorekeeper.api.states import created, moment_json
from scorekeeper.api.writes import Answering
from scorekeeper.bidding import phrases, store
from scorekeeper.bidding.models import BiddingGame, BiddingHand
from scorekeeper.engine import CardError
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import read_card
from scorekeeper.engine.names import RepeatedPlayerError, UnnamedPlayersError
from scorekeeper.groups import bidding_games

bp = ApiBlueprint("bidding", __name__)

# How a game's requests are refused, for the document.
REFUSED_BY_GAME = "The shape is right but the game refuses a value."
NO_GAME = "No such game."
WRITE_REFUSED = refusals(
    key="The X-Edit-Key header is missing or is not the game's edit key.",
    unknown="No such game, or no such hand.",
    conflict="The game's state refuses the write: finished, stale version, key reused, the edit "
    "would end the game early, or no hand to undo.",
    refused=REFUSED_BY_GAME,
)
"""How a write to a game's hands can be refused."""
CREATION_REFUSED = creation_refused(REFUSED_BY_GAME)

ERROR_FIELDS: dict[type[Exception], str] = {
    rules.PlayersError: "players",
    RepeatedPlayerError: "players",
    UnnamedPlayersError: "players",
    rules.TargetError: "target",
    rules.BidError: "bid",
    rules.CardPointsError: "points",
}


def _engine_refusal(error: ValueError) -> ApiError:
    """A refusal of the engine as the API's error: 409 for a game over, else 422."""
    message = phrases.engine_error(error)
    if isinstance(error, rules.GameFinishedError | rules.TooManyHandsError):
        return ApiError(409, message, None, error.code)
    if isinstance(error, CardError):
        return ApiError(422, message, "called", "card")
    code = getattr(error, "code", "bidding")
    if isinstance(error, rules.UnknownSeatError):
        return ApiError(422, message, error.role, code)
    if isinstance(error, rules.OutcomeError):
        return ApiError(422, message, "made" if error.reason == "disagrees" else "points", code)
    return ApiError(422, message, ERROR_FIELDS.get(type(error)), code)


# The game's state --------------------------------------------------------------------------


def _hand_json(result: rules.BidResult, row: BiddingHand | None) -> dict[str, Any]:
    hand = result.hand
    return {
        "number": result.number,
        "kind": hand.kind.value,
        "dealer": result.dealer,
        "opener": result.opener,
        "bidder": hand.bidder,
        "bid": hand.bid,
        "partner": hand.partner,
        "alone": hand.alone,
        "points": hand.points,
        "made": result.made,
        "scores": list(result.changes),
        "scores_after": list(result.scores),
        "trump": row.trump if row is not None else None,
        "called": row.called if row is not None else None,
        "edited_at": moment_json(row.edited_at if row is not None else None),
    }


def game_json(game: BiddingGame, state: rules.BiddingState) -> dict[str, Any]:
    """The game state of API.md, with a few fields more."""
    rows = {row.number: row for row in game.hands}
    return {
        "id": game.id,
        "url": url_for("bidding.game", game_id=game.id, _external=True),
        "players": list(game.players),
        "target": state.table.target,
        "deck": state.table.deck_size,
        "cards_each": state.table.cards_each,
        "first_dealer": state.table.first_dealer,
        "scores": list(state.scores),
        "dealer": state.dealer,
        "opener": state.opener,
        "leader": state.leader,
        "finished": state.finished,
        "winner": state.winner,
        "version": game.version,
        "group": game.group_id,
        "hands": [_hand_json(result, rows.get(result.number)) for result in state.hands],
    }


def _no_game() -> ApiError:
    return ApiError(404, _("There is no bidding game with this id."), None, "no_game")


def _game(game_id: str) -> BiddingGame:
    game = store.get(game_id)
    if game is None:
        raise _no_game()
    return game


def _editable(game_id: str) -> BiddingGame:
    """The game, if the request carries its edit key."""
    game = _game(game_id)
    key = request.headers.get(EDIT_KEY_HEADER)
    if not key:
        message = _("Changing this game needs its edit key in the X-Edit-Key header.")
        raise ApiError(403, message, None, "edit_key_missing")
    if not store.key_matches(game, key):
        raise ApiError(403, _("This is not the game's edit key."), None, "edit_key_wrong")
    return game


def _etag(game: BiddingGame) -> str:
    seen = (game.id, game.version, request.scheme, request.host)
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:32]


# Operations --------------------------------------------------------------------------------


@bp.operation("POST /bidding", "createBiddingGame")
@bp.takes(BiddingNewGame)
@bp.answers(201, "The new game, with its edit key and link.", BiddingCreated, CREATION_REFUSED)
def create_game() -> tuple[Response, int, dict[str, str]]:
    """Start a game of bidding Sueca, 4 to 6 players."""
    given = BiddingNewGame.read(json_body(empty=True))
    group_id = access.group_to_join(given.group, given.players)
    try:
        game, edit_key = store.create_game(
            players=given.players,
            target=given.target,
            first_dealer=given.first_dealer,
            group_id=group_id,
        )
    except rules.BiddingError as error:
        raise _engine_refusal(error) from None
    state = game_json(game, game.state())
    return created(state, edit_key, "bidding.grant", "api.bidding.get_game", game_id=game.id)


@bp.operation("GET /groups/<group_id>/bidding", "getGroupBiddingStats")
@bp.answers(200, "The statistics, players by games won.", BiddingGroupStats, {404: NO_GROUP})
def group_stats(group_id: str) -> Response:
    """A group's bidding games counted on their own: games played and won, bids made and
    failed, the average bid (never in the rubbers' ratings).

    A group's bidding statistics, apart from its rubbers'."""  # noqa: D205  the API's summary, on two lines
    group = access.group(group_id, "group")
    stats = bidding_games.stats(group.id)
    return jsonify(
        {
            "games": stats.games,
            "in_play": stats.in_play,
            "players": [
                {
                    "name": player.name,
                    "games": player.games,
                    "won": player.won,
                    "bids": player.bids,
                    "made": player.made,
                    "failed": player.failed,
                    "average_bid": player.average_bid,
                }
                for player in stats.ranking()
            ],
        }
    )


@bp.operation("GET /bidding/<game_id>", "getBiddingGame", conditional=True)
@bp.answers(200, "The game.", BiddingState, {404: NO_GAME})
def get_game(game_id: str) -> Response:
    """A game's state (with an ETag: 304 to If-None-Match until a write).

    The state, with an ETag: a follower asking again with it gets 304 until a write."""
    game = _game(game_id)
    etag = _etag(game)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        response = jsonify(game_json(game, game.state()))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


ANSWERING = Answering(
    respond=game_json,
    conflict=phrases.conflict,
    unknown=_no_game,
    refused=(rules.BiddingError, CardError),
    refusal=_engine_refusal,
)


def _inputs(given: BiddingBid | BiddingPassed, players: int) -> tuple[Any, ...]:
    """The engine's hand, and the trump and called card to keep beside it."""
    if isinstance(given, BiddingPassed):
        return rules.BidHand.passed(), None, None
    hand = given.to_engine()
    called = str(read_card(given.called, players)) if given.called is not None else None
    return hand, given.trump, called


def _no_hand(number: int) -> ApiError:
    return ApiError(404, _("This game has no hand %(number)s.", number=number), None, "no_hand")


@bp.operation("POST /bidding/<game_id>/hands", "addBiddingHand")
@bp.takes(BiddingHandInput, security=EDIT_KEY)
@bp.answers(201, "The game with the new hand.", BiddingState, WRITE_REFUSED)
def add_hand(game_id: str) -> tuple[Response, int]:
    """Record the next hand: a bid and its outcome, or all passed."""
    _editable(game_id)
    body = json_body(empty=True)
    given = BiddingHandInput.read(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        return store.append_hand(*_inputs(given, len(game.players)))(game)

    return ANSWERING.answer(partial(store.write, game_id, change), given, body, 201)


@bp.operation("PUT /bidding/<game_id>/hands/<int:number>", "replaceBiddingHand")
@bp.takes(BiddingHandInput, security=EDIT_KEY)
@bp.answers(200, "The game with the hand replaced.", BiddingState, WRITE_REFUSED)
def replace_hand(game_id: str, number: int) -> tuple[Response, int]:
    """Replace hand `number` and score every later hand again."""
    game = _editable(game_id)
    if not 1 <= number <= len(game.hands):
        raise _no_hand(number)
    body = json_body(empty=True)
    given = BiddingHandInput.read(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        if number > len(game.hands):
            raise _no_hand(number)
        return store.replace_hand(number, *_inputs(given, len(game.players)))(game)

    return ANSWERING.answer(partial(store.write, game_id, change), given, body, 200)


@bp.operation("DELETE /bidding/<game_id>/hands/last", "undoBiddingHand")
@bp.takes(BiddingWrite | None, security=EDIT_KEY)
@bp.answers(200, "The game without its last hand.", BiddingState, WRITE_REFUSED)
def undo_hand(game_id: str) -> tuple[Response, int]:
    """Undo the last hand."""
    _editable(game_id)
    body = json_body(empty=True)
    given = BiddingWrite.read(body)
    return ANSWERING.answer(partial(store.write, game_id, store.undo_last), given, body, 200)
