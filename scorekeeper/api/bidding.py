"""The JSON API of bidding Sueca (API.md, "Bidding Sueca"), under ``/api/v1/bidding``.

The request bodies are pydantic models: the one source of their shape checks and of their part
of the OpenAPI document (:func:`openapi`). The statuses follow the rubbers' API: 400 for a body
that is not one of the shapes (not JSON, a wrong type, an unknown key), 422 for a value the game
refuses (a bid outside 61..120, a seat not at the table, impossible points, 3 or 7 players, a
name too long), 403 without the game's edit key in ``X-Edit-Key``, 404 for an unknown game or
hand, 409 when the game's state refuses the write (finished, stale version, key reused). Every
error is ``{"error": "<a sentence in the request's language>", "field": name | null, "code"}``
and stores nothing.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Mapping
from typing import Annotated, Any, Literal, TypeVar

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import gettext as _
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic import ValidationError as ShapeError
from pydantic_core import PydanticCustomError
from werkzeug.exceptions import HTTPException

from scorekeeper.bidding import store, wording
from scorekeeper.bidding.models import BiddingGame, BiddingHand
from scorekeeper.engine import CardError, Suit
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import read_card
from scorekeeper.web.columns import NAME_LENGTH, TOKEN_LENGTH, WRITE_KEY_LENGTH

bp = Blueprint("bidding", __name__)

EDIT_KEY_HEADER = "X-Edit-Key"
PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""Names and keys are stored: no control characters (PostgreSQL refuses NUL)."""
MAX_CARD_LENGTH = 8


class Refused(Exception):
    """An answer with a 4xx status and the error shape of API.md."""

    def __init__(self, status: int, message: str, field: str | None, code: str) -> None:
        self.status, self.message, self.field, self.code = status, message, field, code
        super().__init__(message)


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


# The request bodies ------------------------------------------------------------------------


def _storable(text: str) -> str:
    """Refuse what no database stores everywhere: control characters, lone surrogates."""
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in text):
        raise PydanticCustomError("control_characters", "control characters")
    return text


Name = Annotated[str, StringConstraints(max_length=NAME_LENGTH), AfterValidator(_storable)]
WriteKey = Annotated[
    str,
    StringConstraints(min_length=1, max_length=WRITE_KEY_LENGTH, pattern=PRINTABLE),
    AfterValidator(_storable),
]
Seat = Annotated[int, Field(json_schema_extra={"minimum": 0, "maximum": rules.MAX_PLAYERS - 1})]


class _Body(BaseModel):
    # Strict: true is not 1, "75" is not 75; an unknown key is refused, never ignored.
    model_config = ConfigDict(extra="forbid", strict=True)


class BiddingNewGame(_Body):
    """A new game: the players by seat in play order (4 to 6; a name may be blank)."""

    players: list[Name] = Field(
        json_schema_extra={"minItems": rules.MIN_PLAYERS, "maxItems": rules.MAX_PLAYERS}
    )
    target: int = Field(
        default=rules.DEFAULT_TARGET,
        json_schema_extra={"minimum": rules.MIN_TARGET, "maximum": rules.MAX_TARGET},
    )
    first_dealer: Seat = 0


class BiddingWrite(_Body):
    """What any write may carry: an idempotency key and the version last seen."""

    key: WriteKey | None = Field(
        default=None,
        description="An idempotency key: the same key with the same body returns the first "
        "answer; with another body, 409.",
    )
    version: Annotated[int, Field(ge=1)] | None = Field(
        default=None, description="The game's version the client last saw: 409 if it changed."
    )


class BiddingBid(BiddingWrite):
    """A hand played for a bid: ``partner`` equal to ``bidder`` plays alone; ``points`` are the
    card points the bidder's side took, or ``made`` says only whether the bid was made."""

    bidder: Seat
    bid: int = Field(json_schema_extra={"minimum": rules.MIN_BID, "maximum": rules.MAX_BID})
    partner: Seat
    points: int | None = Field(
        default=None, json_schema_extra={"minimum": 0, "maximum": rules.TOTAL_POINTS}
    )
    made: bool | None = None
    trump: Literal["C", "D", "H", "S"] | None = None
    called: Annotated[str, StringConstraints(max_length=MAX_CARD_LENGTH)] | None = Field(
        default=None, description="The card the bidder called, like AH.", examples=["AH"]
    )

    def to_engine(self) -> rules.BidHand:
        return rules.BidHand.played(
            self.bidder, self.bid, self.partner, points=self.points, made=self.made
        )


class BiddingPassed(BiddingWrite):
    """A hand everyone passed: no score, the deal passes on."""

    passed: Literal[True]


Model = TypeVar("Model", bound=BaseModel)
MODELS = (BiddingNewGame, BiddingWrite, BiddingBid, BiddingPassed)

SHAPE_MESSAGES = {
    "missing": lambda field: _("%(field)s is missing.", field=field),
    "extra_forbidden": lambda field: _("%(field)s is not a field of this request.", field=field),
    "int_type": lambda field: _("%(field)s must be a whole number.", field=field),
    "bool_type": lambda field: _("%(field)s must be true or false.", field=field),
    "string_type": lambda field: _("%(field)s must be text.", field=field),
    "list_type": lambda field: _("%(field)s must be a list.", field=field),
    "literal_error": lambda field: _("%(field)s is not one of the values it takes.", field=field),
}


def _json() -> dict[str, Any]:
    """The request's JSON object (``{}`` for no body at all)."""
    data = request.get_data(cache=True)
    if not data:
        return {}
    try:
        body = json.loads(data, parse_float=_number)
    except (ValueError, RecursionError):
        raise Refused(400, _("The request body is not valid JSON."), None, "invalid_json") from None
    if not isinstance(body, dict):
        raise Refused(400, _("The request body must be a JSON object."), None, "not_an_object")
    return body


def _number(text: str) -> int | float:
    """A JSON number with a fraction or exponent: whole ones (``3.0``) are ints, as JSON
    Schema counts them."""
    value = float(text)
    return int(value) if value.is_integer() else value


def _parse(model: type[Model], body: Mapping[str, Any]) -> Model:
    """The body as ``model``, or the first thing wrong with it as the API's error."""
    try:
        return model.model_validate(body)
    except ShapeError as error:
        # An unknown key first, as the rubbers' API says: a misspelt key is the likely cause
        # of whatever else is missing.
        problem = min(error.errors(), key=lambda found: found["type"] != "extra_forbidden")
        field = str(problem["loc"][0]) if problem["loc"] else None
        kind = problem["type"]
        if kind in ("control_characters", "string_unicode", "string_pattern_mismatch"):
            message = _("%(field)s must not contain control characters.", field=field)
            raise Refused(422, message, field, "control_characters") from None
        if kind == "string_too_long" and field == "players":
            message = _("A name has at most %(count)s characters.", count=NAME_LENGTH)
            raise Refused(422, message, field, "name_length") from None
        if field == "key":
            message = _("The key must have 1 to %(count)s characters.", count=WRITE_KEY_LENGTH)
            raise Refused(400, message, field, "type") from None
        if field == "version" and kind == "greater_than_equal":
            message = _("The version is a whole number from 1.")
            raise Refused(422, message, field, "version") from None
        if field == "called":
            message = _("Each card must be written as text, like 7H.")
            raise Refused(400, message, field, "type") from None
        if field == "trump" and kind == "literal_error":
            message = _("The trump must be one of C, D, H or S.")
            raise Refused(422, message, field, "trump") from None
        say = SHAPE_MESSAGES.get(kind, SHAPE_MESSAGES["literal_error"])
        raise Refused(400, say(field or "body"), field, "type") from None


ERROR_FIELDS: dict[type[rules.BiddingError], str] = {
    rules.PlayersError: "players",
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
    given = _parse(BiddingNewGame, _json())
    players = [name.strip() for name in given.players]
    try:
        game, edit_key = store.create_game(
            players=players, target=given.target, first_dealer=given.first_dealer
        )
    except rules.BiddingError as error:
        raise _engine_refusal(error) from None
    data = game_json(game, game.state())
    data["edit_key"] = edit_key
    data["edit_url"] = url_for("bidding.grant", game_id=game.id, key=edit_key, _external=True)
    location = url_for("api.bidding.get_game", game_id=game.id, _external=True)
    return jsonify(data), 201, {"Location": location}


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
    answer = jsonify(written.response or game_json(written.game, written.state))
    if written.repeated:
        answer.headers["Idempotent-Replayed"] = "true"
    return answer, written.status


def _hand(body: Mapping[str, Any]) -> BiddingBid | BiddingPassed:
    if "passed" in body:
        return _parse(BiddingPassed, body)
    return _parse(BiddingBid, body)


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
    body = _json()
    given = _hand(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        return store.append_hand(*_inputs(given, len(game.players)))(game)

    return _write(game_id, change, given, body, 201)


@bp.put("/bidding/<game_id>/hands/<int:number>")
def replace_hand(game_id: str, number: int) -> tuple[Response, int]:
    game = _editable(game_id)
    if not 1 <= number <= len(game.hands):
        raise _no_hand(number)
    body = _json()
    given = _hand(body)

    def change(game: BiddingGame) -> rules.BiddingState:
        if number > len(game.hands):
            raise _no_hand(number)
        return store.replace_hand(number, *_inputs(given, len(game.players)))(game)

    return _write(game_id, change, given, body, 200)


@bp.delete("/bidding/<game_id>/hands/last")
def undo_hand(game_id: str) -> tuple[Response, int]:
    _editable(game_id)
    body = _json()
    given = _parse(BiddingWrite, body)
    return _write(game_id, store.undo_last, given, body, 200)


# The operations in the OpenAPI document ----------------------------------------------------

PREFIX = "/api/v1"
GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": f"^[A-Za-z0-9_-]{{1,{TOKEN_LENGTH}}}$"},
}
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer"}}
NULLABLE_SEAT = {"type": ["integer", "null"], "minimum": 0, "maximum": rules.MAX_PLAYERS - 1}
SCORES = {"type": "array", "items": {"type": "integer"}}
HAND_STATE = {
    "type": "object",
    "required": ["number", "kind", "dealer", "bidder", "bid", "partner", "points", "made"],
    "properties": {
        "number": {"type": "integer", "minimum": 1},
        "kind": {"type": "string", "enum": [kind.value for kind in rules.HandKind]},
        "dealer": NULLABLE_SEAT,
        "opener": NULLABLE_SEAT,
        "bidder": NULLABLE_SEAT,
        "bid": {"type": ["integer", "null"], "minimum": rules.MIN_BID, "maximum": rules.MAX_BID},
        "partner": NULLABLE_SEAT,
        "alone": {"type": "boolean"},
        "points": {"type": ["integer", "null"], "minimum": 0, "maximum": rules.TOTAL_POINTS},
        "made": {"type": ["boolean", "null"]},
        "scores": {**SCORES, "description": "What this hand added to each seat's score."},
        "scores_after": SCORES,
        "trump": {"type": ["string", "null"], "enum": [*(suit.value for suit in Suit), None]},
        "called": {"type": ["string", "null"]},
    },
}
STATE = {
    "type": "object",
    "required": [
        "id",
        "url",
        "players",
        "target",
        "deck",
        "cards_each",
        "scores",
        "dealer",
        "finished",
        "winner",
        "version",
        "hands",
    ],
    "properties": {
        "id": {"type": "string"},
        "url": {"type": "string", "format": "uri"},
        "players": {"type": "array", "items": {"type": "string"}, "minItems": 4, "maxItems": 6},
        "target": {"type": "integer"},
        "deck": {"type": "integer", "enum": [40, 48]},
        "cards_each": {"type": "integer", "enum": [10, 8]},
        "first_dealer": {"type": "integer", "minimum": 0},
        "scores": SCORES,
        "dealer": {"type": "integer", "minimum": 0},
        "opener": {"type": "integer", "minimum": 0},
        "leader": NULLABLE_SEAT,
        "finished": {"type": "boolean"},
        "winner": NULLABLE_SEAT,
        "version": {"type": "integer", "minimum": 1},
        "group": {"type": ["string", "null"]},
        "hands": {"type": "array", "items": HAND_STATE},
    },
}


def _schema(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json_body(schema: dict[str, Any], required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {"application/json": {"schema": schema}}}


def _ok(description: str, schema: str = "BiddingState") -> dict[str, Any]:
    return {
        "description": description,
        "content": {"application/json": {"schema": _schema(schema)}},
    }


def _errors(*statuses: int) -> dict[str, Any]:
    said = {
        400: "The body is not one of the documented shapes.",
        403: "The X-Edit-Key header is missing or is not the game's edit key.",
        404: "No such game, or no such hand.",
        409: "The game's state refuses the write: finished, stale version, key reused, the "
        "edit would end the game early, or no hand to undo.",
        413: "The request is too large.",
        422: "The shape is right but the game refuses a value.",
    }
    return {str(status): _ok(said[status], "Error") for status in statuses}


def openapi() -> tuple[dict[str, Any], dict[str, Any]]:
    """This module's paths and component schemas for the OpenAPI document; the request bodies'
    schemas are the pydantic models' own."""
    schemas = {
        model.__name__: model.model_json_schema(ref_template="#/components/schemas/{model}")
        for model in MODELS
    }
    schemas["BiddingState"] = STATE
    schemas["BiddingCreated"] = {
        "allOf": [
            _schema("BiddingState"),
            {
                "type": "object",
                "required": ["edit_key", "edit_url"],
                "properties": {
                    "edit_key": {"type": "string", "minLength": 1},
                    "edit_url": {"type": "string", "format": "uri"},
                },
            },
        ]
    }
    hand_body = _json_body({"oneOf": [_schema("BiddingBid"), _schema("BiddingPassed")]})
    write = {"security": [{"editKey": []}]}
    refused = _errors(400, 403, 404, 409, 413, 422)
    paths = {
        f"{PREFIX}/bidding": {
            "post": {
                "operationId": "createBiddingGame",
                "summary": "Start a game of bidding Sueca, 4 to 6 players.",
                "requestBody": _json_body(_schema("BiddingNewGame")),
                "responses": {
                    "201": _ok("The new game, with its edit key and link.", "BiddingCreated"),
                    **_errors(400, 413, 422),
                },
            }
        },
        f"{PREFIX}/bidding/{{game_id}}": {
            "get": {
                "operationId": "getBiddingGame",
                "summary": "A game's state (with an ETag: 304 to If-None-Match until a write).",
                "parameters": [GAME_ID],
                "responses": {
                    "200": _ok("The game."),
                    "304": {"description": "Nothing changed since the ETag sent."},
                    **_errors(404),
                },
            }
        },
        f"{PREFIX}/bidding/{{game_id}}/hands": {
            "post": {
                "operationId": "addBiddingHand",
                "summary": "Record the next hand: a bid and its outcome, or all passed.",
                "parameters": [GAME_ID],
                "requestBody": hand_body,
                **write,
                "responses": {"201": _ok("The game with the new hand."), **refused},
            }
        },
        f"{PREFIX}/bidding/{{game_id}}/hands/{{number}}": {
            "put": {
                "operationId": "replaceBiddingHand",
                "summary": "Replace hand `number` and score every later hand again.",
                "parameters": [GAME_ID, NUMBER],
                "requestBody": hand_body,
                **write,
                "responses": {"200": _ok("The game with the hand replaced."), **refused},
            }
        },
        f"{PREFIX}/bidding/{{game_id}}/hands/last": {
            "delete": {
                "operationId": "undoBiddingHand",
                "summary": "Undo the last hand.",
                "parameters": [GAME_ID],
                "requestBody": _json_body(_schema("BiddingWrite"), required=False),
                **write,
                "responses": {"200": _ok("The game without its last hand."), **refused},
            }
        },
    }
    return paths, schemas
