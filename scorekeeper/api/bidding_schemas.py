"""The bidding API's request bodies as pydantic models, and the refusal every operation answers.

The models are the one source of the bodies' shape checks and of the bidding part of the OpenAPI
document (:func:`openapi`); the refusal every bidding operation answers with is in the error shape
of API.md."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Callable, Mapping
from typing import Annotated, Any, Literal, TypeVar

from flask import request
from flask_babel import gettext as _
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic import ValidationError as ShapeError
from pydantic_core import PydanticCustomError

from scorekeeper.api.operations import ETAG, IF_NONE_MATCH, NOT_MODIFIED
from scorekeeper.engine import Suit
from scorekeeper.engine import bidding as rules
from scorekeeper.web.columns import NAME_LENGTH, TOKEN_LENGTH, VERSION_MAX, WRITE_KEY_LENGTH

PRINTABLE = r"^[^\x00-\x1f\x7f-\x9f]*$"
"""Names and keys are stored: no control characters (PostgreSQL refuses NUL)."""
MAX_CARD_LENGTH = 8
TOKEN = f"^[A-Za-z0-9_-]{{1,{TOKEN_LENGTH}}}$"
"""An id as the store makes it."""


class Refused(Exception):
    """An answer with a 4xx status and the error shape of API.md."""

    def __init__(self, status: int, message: str, field: str | None, code: str) -> None:
        self.status, self.message, self.field, self.code = status, message, field, code
        super().__init__(message)


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
    group: Annotated[str, Field(json_schema_extra={"pattern": TOKEN})] | None = Field(
        default=None,
        description="The group the game joins, with the group's key in X-Group-Key (an id of any"
        " other shape names no group: 404, as for a rubber).",
    )


class BiddingWrite(_Body):
    """What any write may carry: an idempotency key and the version last seen."""

    key: WriteKey | None = Field(
        default=None,
        description="An idempotency key: the same key with the same body returns the first "
        "answer; with another body, 409.",
    )
    version: Annotated[int, Field(ge=1, le=VERSION_MAX)] | None = Field(
        default=None, description="The game's version the client last saw: 409 if it changed."
    )


class BiddingBid(BiddingWrite):
    """A hand played for a bid: ``partner`` equal to ``bidder`` plays alone.

    ``points`` are the card points the bidder's side took, or ``made`` says only whether the bid was
    made."""

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

SHAPE_MESSAGES: dict[str, Callable[[str], str]] = {
    "missing": lambda field: _("%(field)s is missing.", field=field),
    "extra_forbidden": lambda field: _("%(field)s is not a field of this request.", field=field),
    "int_type": lambda field: _("%(field)s must be a whole number.", field=field),
    "bool_type": lambda field: _("%(field)s must be true or false.", field=field),
    "string_type": lambda field: _("%(field)s must be text.", field=field),
    "list_type": lambda field: _("%(field)s must be a list.", field=field),
    "literal_error": lambda field: _("%(field)s is not one of the values it takes.", field=field),
}


def read_json() -> dict[str, Any]:
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
    """Read a JSON number with a fraction or exponent.

    Whole ones (``3.0``) are ints, as JSON Schema counts them."""
    value = float(text)
    return int(value) if value.is_integer() else value


def parse(model: type[Model], body: Mapping[str, Any]) -> Model:
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
        if field == "version" and kind in ("greater_than_equal", "less_than_equal"):
            message = _("The version is a whole number from 1 to %(most)s.", most=VERSION_MAX)
            raise Refused(422, message, field, "version") from None
        if field == "called":
            message = _("Each card must be written as text, like 7H.")
            raise Refused(400, message, field, "type") from None
        if field == "trump" and kind == "literal_error":
            message = _("The trump must be one of C, D, H or S.")
            raise Refused(422, message, field, "trump") from None
        say = SHAPE_MESSAGES.get(kind, SHAPE_MESSAGES["literal_error"])
        raise Refused(400, say(field or "body"), field, "type") from None


# The operations in the OpenAPI document ----------------------------------------------------

PREFIX = "/api/v1"
GAME_ID = {
    "name": "game_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": TOKEN},
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
        "version": {"type": "integer", "minimum": 1, "maximum": VERSION_MAX},
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
    """Return this module's paths and component schemas for the OpenAPI document.

    The request bodies' schemas are the pydantic models' own."""
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
    count = {"type": "integer", "minimum": 0}
    schemas["BiddingGroupStats"] = {
        "type": "object",
        "required": ["games", "in_play", "players"],
        "properties": {
            "games": {**count, "description": "The group's finished bidding games."},
            "in_play": count,
            "players": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["name", "games", "won", "bids", "made", "failed", "average_bid"],
                    "properties": {
                        "name": {"type": "string"},
                        "games": count,
                        "won": count,
                        "bids": count,
                        "made": count,
                        "failed": count,
                        "average_bid": {"type": ["number", "null"]},
                    },
                },
            },
        },
    }
    hand_body = _json_body({"oneOf": [_schema("BiddingBid"), _schema("BiddingPassed")]})
    write: dict[str, Any] = {"security": [{"editKey": []}]}
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
                    "403": _ok("A group was named without its key in X-Group-Key.", "Error"),
                    "404": _ok("The group named does not exist.", "Error"),
                },
            }
        },
        f"{PREFIX}/groups/{{group_id}}/bidding": {
            "get": {
                "operationId": "getGroupBiddingStats",
                "summary": "A group's bidding games counted on their own: games played and "
                "won, bids made and failed, the average bid (never in the rubbers' ratings).",
                "parameters": [{**GAME_ID, "name": "group_id"}],
                "responses": {
                    "200": _ok("The statistics, players by games won.", "BiddingGroupStats"),
                    **_errors(404),
                },
            }
        },
        f"{PREFIX}/bidding/{{game_id}}": {
            "get": {
                "operationId": "getBiddingGame",
                "summary": "A game's state (with an ETag: 304 to If-None-Match until a write).",
                "parameters": [GAME_ID, IF_NONE_MATCH],
                "responses": {
                    "200": {**_ok("The game."), "headers": ETAG},
                    "304": NOT_MODIFIED,
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
