"""The JSON API of bidding Sueca (API.md, "Bidding Sueca"), under ``/api/v1/bidding``.

The request bodies are pydantic models (:mod:`.bidding_schemas`, with this API's part of the
OpenAPI document). The statuses follow the rubbers' API: 400 for a body
that is not one of the shapes (not JSON, a wrong type, an unknown key), 422 for a value the game
refuses (a bid outside 61..120, a seat not at the table, impossible points, 3 or 7 players, a
name too long), 403 without the game's edit key in ``X-Edit-Key``, 404 for an unknown game or
hand, 409 when the game's state refuses the write (finished, stale version, key reused). Every
error is ``{"error": "<a sentence in the request's language>", "field": name | null, "code"}``
and stores nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from scorekeeper.api.bidding_schemas import (
    BiddingBid,
    BiddingNewGame,
    BiddingPassed,
    BiddingWrite,
    Refused,
    parse,
    read_json,
)
from scorekeeper.bidding import store, wording
from scorekeeper.bidding.models import BiddingGame, BiddingHand
from scorekeeper.engine import CardError
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import read_card
from scorekeeper.engine.names import RepeatedPlayerError
from scorekeeper.groups import bidding as group_bidding
from scorekeeper.groups import statistics
from scorekeeper.groups import store as group_store

bp = Blueprint("bidding", __name__)

EDIT_KEY_HEADER = "X-Edit-Key"
GROUP_KEY_HEADER = "X-Group-Key"


def _answer(status: int, message: str, field: str | None, code: str) -> Response:
    response = jsonify(error=message, field=field, code=code)
    response.status_code = status
    return response


@bp.errorhandler(Refused)
def _refused(error: Refused) -> Response:
    return _answer(error.status, error.message, error.field, error.code)


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    message = {
        400: _("The request could not be understood."),
        403: _("This is not allowed."),
        404: _("There is nothing at this address."),
        405: _("This address does not take that method."),
        413: _("The request is too large."),
        415: _("The request must be JSON."),
    }.get(status, _("Something went wrong on the server: try again."))
    return _answer(status, message, None, f"http_{status}")


for _status in (400, 403, 404, 405, 413, 415):
    bp.register_error_handler(_status, _http_error)


@bp.after_request
def _no_store(response: Response) -> Response:
    # A creation answer carries the edit key; a game's state is asked for again with its ETag.
    response.headers.setdefault("Cache-Control", "no-store")
    return response


ERROR_FIELDS: dict[type[Exception], str] = {
    rules.PlayersError: "players",
    RepeatedPlayerError: "players",
    rules.TargetError: "target",
    rules.BidError: "bid",
    rules.CardPointsError: "points",
}


def _engine_refusal(error: ValueError) -> Refused:
    """A refusal of the engine as the API's error: 409 for a game over, else 422."""
    message = wording.engine_error(error)
    if isinstance(error, rules.GameFinishedError | rules.TooManyHandsError):
        return Refused(409, message, None, error.code)
    if isinstance(error, CardError):
        return Refused(422, message, "called", "card")
    code = getattr(error, "code", "bidding")
    if isinstance(error, rules.UnknownSeatError):
        return Refused(422, message, error.role, code)
    if isinstance(error, rules.OutcomeError):
        return Refused(422, message, "made" if error.reason == "disagrees" else "points", code)
    return Refused(422, message, ERROR_FIELDS.get(type(error)), code)


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


def _game(game_id: str) -> BiddingGame:
    game = store.get(game_id)
    if game is None:
        raise Refused(404, _("There is no bidding game with this id."), None, "no_game")
    return game


def _editable(game_id: str) -> BiddingGame:
    """The game, if the request carries its edit key."""
    game = _game(game_id)
    key = request.headers.get(EDIT_KEY_HEADER)
    if not key:
        message = _("Changing this game needs its edit key in the X-Edit-Key header.")
        raise Refused(403, message, None, "edit_key_missing")
    if not store.key_matches(game, key):
        raise Refused(403, _("This is not the game's edit key."), None, "edit_key_wrong")
    return game


def _etag(game: BiddingGame) -> str:
    seen = (game.id, game.version, request.scheme, request.host)
    return hashlib.sha256(repr(seen).encode()).hexdigest()[:32]


# Endpoints ---------------------------------------------------------------------------------


@bp.post("/bidding")
def create_game() -> tuple[Response, int, dict[str, str]]:
    given = parse(BiddingNewGame, read_json())
    players = [name.strip() for name in given.players]
    group_id = _group_to_join(given.group, players) if given.group is not None else None
    try:
        game, edit_key = store.create_game(
            players=players,
            target=given.target,
            first_dealer=given.first_dealer,
            group_id=group_id,
        )
    except rules.BiddingError as error:
        raise _engine_refusal(error) from None
    data = game_json(game, game.state())
    data["edit_key"] = edit_key
    data["edit_url"] = url_for("bidding.grant", game_id=game.id, key=edit_key, _external=True)
    location = url_for("api.bidding.get_game", game_id=game.id, _external=True)
    return jsonify(data), 201, {"Location": location}


def _group(group_id: str) -> Any:
    group = group_store.get(group_id)
    if group is None:
        raise Refused(404, _("There is no group with this id."), "group", "no_group")
    return group


def _group_to_join(group_id: str, players: list[str]) -> str:
    """The group a new game joins, its key checked, and no name in two seats."""
    group = _group(group_id)
    key = request.headers.get(GROUP_KEY_HEADER)
    if not key:
        message = _("Changing this group needs its edit key in the X-Group-Key header.")
        raise Refused(403, message, None, "group_key_missing")
    if not group_store.key_matches(group, key):
        raise Refused(403, _("This is not the group's edit key."), None, "group_key_wrong")
    repeated = statistics.repeated_name(players)
    if repeated is not None:
        message = _(
            "%(name)s sits in two seats: in a group every player has one seat.", name=repeated
        )
        raise Refused(422, message, "players", "repeated_player")
    return str(group.id)


@bp.get("/groups/<group_id>/bidding")
def group_stats(group_id: str) -> Response:
    """A group's bidding statistics, apart from its rubbers'."""
    group = _group(group_id)
    stats = group_bidding.stats(group.id)
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


@bp.get("/bidding/<game_id>")
def get_game(game_id: str) -> Response:
    """The state, with an ETag: a follower asking again with it gets 304 until a write."""
    game = _game(game_id)
    etag = _etag(game)
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        response = jsonify(game_json(game, game.state()))
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _write(
    game_id: str, change: store.Change, given: BiddingWrite, body: Any, status: int
) -> tuple[Response, int]:
    # The key covers the request, not just its body: the same body elsewhere is another write.
    request_body = {"method": request.method, "path": request.path, "body": body}
    try:
        written = store.write(
            game_id,
            change,
            key=given.key,
            body=request_body,
            version=given.version,
            status=status,
            respond=game_json,
        )
    except store.Conflict as conflict:
        field = {"stale": "version", "key_reused": "key"}.get(conflict.code)
        raise Refused(409, wording.conflict(conflict.code), field, conflict.code) from None
    except (rules.BiddingError, CardError) as error:
        raise _engine_refusal(error) from None
    except LookupError as error:
        if isinstance(error, KeyError | IndexError):
            raise
        raise Refused(404, _("There is no bidding game with this id."), None, "no_game") from None
    answer = jsonify(written.response or game_json(written.row, written.state))
    if written.repeated:
        answer.headers["Idempotent-Replayed"] = "true"
    return answer, written.status


def _hand(body: Mapping[str, Any]) -> BiddingBid | BiddingPassed:
    if "passed" in body:
        return parse(BiddingPassed, body)
    return parse(BiddingBid, body)


def _inputs(given: BiddingBid | BiddingPassed, players: int) -> tuple[Any, ...]:
    """The engine's hand, and the trump and called card to keep beside it."""
    if isinstance(given, BiddingPassed):
        return rules.BidHand.passed(), None, None
    hand = given.to_engine()
    called = str(read_card(given.called, players)) if given.called is not None else None
    return hand, given.trump, called


def _no_hand(number: int) -> Refused:
    return Refused(404, _("This game has no hand %(number)s.", number=number), None, "no_hand")


@bp.post("/bidding/<game_id>/hands")
def add_hand(game_id: str) -> tuple[Response, int]:
    _editable(game_id)
    body = read_json()
    given = _hand(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        return store.append_hand(*_inputs(given, len(game.players)))(game)

    return _write(game_id, change, given, body, 201)


@bp.put("/bidding/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> tuple[Response, int]:
    game = _editable(game_id)
    if not 1 <= number <= len(game.hands):
        raise _no_hand(number)
    body = read_json()
    given = _hand(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        if number > len(game.hands):
            raise _no_hand(number)
        return store.replace_hand(number, *_inputs(given, len(game.players)))(game)

    return _write(game_id, change, given, body, 200)


@bp.delete("/bidding/<game_id>/hands/last")
def undo_hand(game_id: str) -> tuple[Response, int]:
    _editable(game_id)
    body = read_json()
    given = parse(BiddingWrite, body)
    return _write(game_id, store.undo_last, given, body, 200)
