"""The OpenAPI 3.1 description of the JSON API, served at ``/api/v1/openapi.json``.

The request schemas are as tight as the API's own checks: what they refuse, the API answers
with a 4xx; what they accept passes the shape checks (the game may still refuse a value with
422, for points no hand can make or a trick record with problems).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from scorekeeper import engine
from scorekeeper.api.groups import GROUP_KEY_HEADER
from scorekeeper.api.rubbers import (
    EDIT_KEY_HEADER,
    HAND_FORMS,
    KEY_LENGTH,
    MAX_CARD_LENGTH,
    MAX_CARDS_PER_TRICK,
    MAX_TRICKS,
    TRUMPS,
)
from scorekeeper.engine.rules import MAX_GAMES_TO_WIN, MIN_GAMES_TO_WIN
from scorekeeper.web.columns import NAME_LENGTH

PREFIX = "/api/v1"
PRINTABLE = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
"""Names and keys are stored: no control characters (PostgreSQL refuses NUL)."""
TEAM_NAME = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"
"""Printable, and not blank."""
JSON = "application/json"


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _enum_values(kind: Any) -> list[str]:
    return [member.value for member in kind]


SEAT: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 3}
TEAM: dict[str, Any] = {"type": "integer", "enum": [0, 1]}
PAIR: dict[str, Any] = {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2}
CARD: dict[str, Any] = {"type": "string", "maxLength": MAX_CARD_LENGTH, "examples": ["7H"]}
TEAM_NAMES: dict[str, Any] = {
    "type": "array",
    "items": {"type": "string", "minLength": 1, "maxLength": NAME_LENGTH, "pattern": TEAM_NAME},
    "minItems": 2,
    "maxItems": 2,
}
PLAYER_NAMES: dict[str, Any] = {
    "type": ["array", "null"],
    "items": {"type": "string", "maxLength": NAME_LENGTH, "pattern": PRINTABLE},
    "minItems": 4,
    "maxItems": 4,
}
"""The names a rubber is started or imported with: two teams, and four players or null."""

RULE_PROPERTIES: dict[str, Any] = {
    "preset": {"type": "string", "enum": list(engine.PRESETS)},
    "games_to_win": {"type": "integer", "minimum": MIN_GAMES_TO_WIN, "maximum": MAX_GAMES_TO_WIN},
    "tie": {"type": "string", "enum": _enum_values(engine.Tie)},
    "bandeira": {"type": "string", "enum": _enum_values(engine.Bandeira)},
    "bandeira_wins_rubber": {"type": "boolean"},
    "revoke": {"type": "string", "enum": _enum_values(engine.Revoke)},
    "manilha": {"type": "string", "enum": _enum_values(engine.Manilha)},
    "queen_over_jack": {"type": "boolean"},
    "direction": {"type": "string", "enum": _enum_values(engine.Direction)},
    "melar": {"type": "boolean"},
}

HAND_PROPERTIES: dict[str, Any] = {
    "points": {
        "description": "The card points of team 0 and team 1; they add up to 120.",
        "type": "array",
        "items": {"type": "integer", "minimum": 0, "maximum": 120},
        "minItems": 2,
        "maxItems": 2,
    },
    "all_tricks": {"type": "boolean", "description": "One team took all 10 tricks."},
    "revoke": {"description": "The team that revoked (renúncia).", **TEAM},
    "spoiled": {"description": "A spoiled deal (melar).", "const": True},
    "trump": {"type": "string", "enum": list(TRUMPS)},
    "tricks": {
        "description": "The 10 tricks in play order, each from its leader; the first is led by "
        "the hand's leader. A revoke may end the record at the trick that proves it.",
        "type": "array",
        "items": {
            "type": "array",
            "items": CARD,
            "maxItems": MAX_CARDS_PER_TRICK,
        },
        "minItems": 1,
        "maxItems": MAX_TRICKS,
    },
    "key": {
        "description": "An idempotency key: the same key with the same body returns the first "
        "answer; with another body, 409.",
        "type": "string",
        "minLength": 1,
        "maxLength": KEY_LENGTH,
        "pattern": PRINTABLE,
    },
    "version": {
        "description": "The rubber's version the client last saw: 409 if it has changed.",
        "type": "integer",
        "minimum": 1,
    },
}

FORM_TITLES = {
    "points": "Played, by its points",
    "revoke": "Stopped by a revoke",
    "spoiled": "Spoiled deal (melar)",
    "tricks": "Played, by its cards",
}


def _created(schema: str) -> dict[str, Any]:
    """What a create answers: the new thing, with its edit key and edit link."""
    return {
        "allOf": [
            _ref(schema),
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


def _hand_form(form: str) -> dict[str, Any]:
    required = ["tricks", "trump"] if form == "tricks" else [form]
    return {
        "title": FORM_TITLES[form],
        "type": "object",
        "properties": {name: HAND_PROPERTIES[name] for name in sorted(HAND_FORMS[form])},
        "required": required,
        "additionalProperties": False,
    }


def _schemas() -> dict[str, Any]:
    nullable_team = {"type": ["integer", "null"], "enum": [0, 1, None]}
    return {
        "Error": {
            "type": "object",
            "required": ["error", "field", "code"],
            "properties": {
                "error": {"type": "string", "minLength": 1},
                "field": {"type": ["string", "null"]},
                "code": {"type": "string"},
            },
        },
        "RulesInput": {
            "description": "Every field optional: the preset (default portugal) fills the rest.",
            "type": "object",
            "properties": {
                **RULE_PROPERTIES,
                # 7 and "7" mean the same manilha.
                "manilha": {"enum": [*_enum_values(engine.Manilha), 7, 10]},
            },
            "additionalProperties": False,
        },
        "Rules": {
            "type": "object",
            "properties": RULE_PROPERTIES,
            "required": list(RULE_PROPERTIES),
        },
        "NewRubber": {
            "type": "object",
            "properties": {
                "teams": TEAM_NAMES,
                "players": {"description": "By seat, or null.", **PLAYER_NAMES},
                "first_dealer": SEAT,
                "rules": _ref("RulesInput"),
                "group": {
                    "description": "A group to start the rubber in; its key goes in X-Group-Key.",
                    "type": ["string", "null"],
                    "pattern": GROUP_ID_PATTERN,
                },
            },
            "additionalProperties": False,
        },
        "HandInput": {"oneOf": [_hand_form(form) for form in HAND_FORMS]},
        "Undo": {
            "type": "object",
            "properties": {name: HAND_PROPERTIES[name] for name in ("key", "version")},
            "additionalProperties": False,
        },
        "Hand": {
            "type": "object",
            "required": [
                "number",
                "kind",
                "points",
                "all_tricks",
                "team",
                "games",
                "dealer",
                "trump",
            ],
            "properties": {
                "number": {"type": "integer", "minimum": 1},
                "kind": {"type": "string", "enum": _enum_values(engine.HandKind)},
                "points": {**PAIR, "type": ["array", "null"]},
                "all_tricks": {"type": "boolean"},
                "team": {**nullable_team, "description": "The offending team of a revoke."},
                "games": {**PAIR, "description": "What the hand added to each team."},
                "dealer": SEAT,
                "trump": {"type": ["string", "null"], "enum": [*TRUMPS, None]},
                "leader": SEAT,
                "games_after": PAIR,
                "winner": {**nullable_team, "description": "The team that won the hand."},
                "bandeira": {"type": "boolean"},
                "reasons": {"type": "array", "items": {"type": "string"}},
                "summary": {"type": "string"},
                "tricks": {
                    "description": "Only on a hand recorded by its cards.",
                    "type": "array",
                    "items": {"type": "array", "items": {"type": "string"}},
                },
            },
        },
        "RubberState": {
            "type": "object",
            "required": [
                "id",
                "url",
                "teams",
                "players",
                "rules",
                "games",
                "finished",
                "winner",
                "outcome",
                "pending",
                "dealer",
                "leader",
                "version",
                "hands",
            ],
            "properties": {
                "id": {"type": "string"},
                "url": {"type": "string", "format": "uri"},
                "teams": {
                    "type": "array",
                    "items": {"type": "string"},
                    "minItems": 2,
                    "maxItems": 2,
                },
                "players": {
                    "type": ["array", "null"],
                    "items": {"type": "string"},
                    "minItems": 4,
                    "maxItems": 4,
                },
                "rules": _ref("Rules"),
                "games": PAIR,
                "finished": {"type": "boolean"},
                "winner": nullable_team,
                "outcome": {
                    "type": ["string", "null"],
                    "enum": [*_enum_values(engine.Outcome), None],
                },
                "pending": {
                    "type": "object",
                    "required": ["extra_games", "multiplier"],
                    "properties": {
                        "extra_games": {"type": "integer", "minimum": 0},
                        "multiplier": {"type": "integer", "minimum": 1},
                    },
                },
                "dealer": SEAT,
                "leader": SEAT,
                "shuffler": SEAT,
                "cutter": SEAT,
                "first_dealer": SEAT,
                "version": {"type": "integer", "minimum": 1},
                "group": {"type": ["string", "null"], "description": "The rubber's group."},
                "hands": {"type": "array", "items": _ref("Hand")},
            },
        },
        "CreatedRubber": _created("RubberState"),
        "VerifyInput": {
            "type": "object",
            "required": ["trump", "leader", "tricks"],
            "properties": {
                "trump": HAND_PROPERTIES["trump"],
                "leader": {**SEAT, "description": "The seat that leads the first trick."},
                "tricks": {
                    **HAND_PROPERTIES["tricks"],
                    "description": "1 to 10 tricks in play order, each from its leader.",
                },
                "rules": _ref("RulesInput"),
                "trump_card": {**CARD, "description": "The dealer's turned card."},
            },
            "additionalProperties": False,
        },
        "Revoke": {
            "type": "object",
            "required": ["seat", "team", "trick", "suit", "proven_in"],
            "properties": {
                "seat": SEAT,
                "team": TEAM,
                "trick": {"type": "integer", "minimum": 1, "maximum": MAX_TRICKS},
                "suit": {"type": "string", "enum": list(TRUMPS)},
                "proven_in": {"type": "integer", "minimum": 1, "maximum": MAX_TRICKS},
            },
        },
        "VerifyResult": {
            "type": "object",
            "required": ["tricks", "points", "tricks_won", "complete", "revokes", "errors"],
            "properties": {
                "tricks": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["leader", "winner", "points"],
                        "properties": {
                            "number": {"type": "integer", "minimum": 1},
                            "leader": SEAT,
                            "winner": SEAT,
                            "points": {"type": "integer", "minimum": 0},
                            "cards": {"type": "array", "items": {"type": "string"}},
                        },
                    },
                },
                "points": PAIR,
                "tricks_won": PAIR,
                "complete": {"type": "boolean"},
                "revokes": {"type": "array", "items": _ref("Revoke")},
                "errors": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["trick", "card", "error"],
                        "properties": {
                            "trick": {"type": ["integer", "null"]},
                            "card": {"type": ["string", "null"]},
                            "error": {"type": "string", "minLength": 1},
                            "code": {"type": "string"},
                        },
                    },
                },
                "trump": {"type": "string", "enum": list(TRUMPS)},
                "leader": SEAT,
                "all_tricks": nullable_team,
                "first_revoke": {"oneOf": [_ref("Revoke"), {"type": "null"}]},
                "next_leader": {"type": ["integer", "null"], "minimum": 0, "maximum": 3},
            },
        },
    }


def _ok(description: str, schema: str) -> dict[str, Any]:
    return {"description": description, "content": {JSON: {"schema": _ref(schema)}}}


def _error(description: str) -> dict[str, Any]:
    return _ok(description, "Error")


def _body(schema: str, required: bool = True) -> dict[str, Any]:
    return {"required": required, "content": {JSON: {"schema": _ref(schema)}}}


RUBBER_ID = {
    "name": "rubber_id",
    "in": "path",
    "required": True,
    "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,43}$"},
}
NUMBER = {
    "name": "number",
    "in": "path",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}
EDIT_KEY: list[dict[str, list[str]]] = [{"editKey": []}]

BAD_BODY = _error("The body is not one of the documented shapes.")
REFUSED = _error("The shape is right but a value is refused.")
NO_KEY = _error("The X-Edit-Key header is missing or is not the rubber's edit key.")
UNKNOWN = _error("No such rubber, or no such hand.")
CONFLICT = _error(
    "The rubber's state refuses the write: finished, stale version, key reused, "
    "the edit would end the rubber early, or no hand to undo."
)
TOO_LARGE = _error("The request is too large.")
HAND_WRITE_REFUSED = {
    "400": BAD_BODY,
    "403": NO_KEY,
    "404": UNKNOWN,
    "409": CONFLICT,
    "413": TOO_LARGE,
    "422": REFUSED,
}
"""How a write to a rubber's hands can be refused."""


def _paths() -> dict[str, Any]:
    hand_write = {
        "security": EDIT_KEY,
        "requestBody": _body("HandInput"),
    }
    return {
        f"{PREFIX}/rubbers": {
            "post": {
                "operationId": "createRubber",
                "summary": "Start a rubber (partida).",
                "requestBody": _body("NewRubber", required=False),
                "responses": {
                    "201": _ok(
                        "The new rubber, with its edit key and edit link (given only here).",
                        "CreatedRubber",
                    ),
                    "400": BAD_BODY,
                    "403": _error("A group was named without its key in X-Group-Key."),
                    "404": _error("The group named does not exist."),
                    "413": TOO_LARGE,
                    "422": REFUSED,
                },
            }
        },
        f"{PREFIX}/rubbers/{{rubber_id}}": {
            "get": {
                "operationId": "getRubber",
                "summary": "A rubber's state.",
                "parameters": [RUBBER_ID],
                "responses": {"200": _ok("The rubber.", "RubberState"), "404": UNKNOWN},
            }
        },
        f"{PREFIX}/rubbers/{{rubber_id}}/export.csv": {
            "get": {
                "operationId": "exportRubberCsv",
                "summary": "A rubber's hands as CSV, one row per hand of the engine's fold.",
                "parameters": [RUBBER_ID],
                "responses": {
                    "200": {
                        "description": "Header number,kind,points_0,points_1,all_tricks,team,"
                        "games_0,games_1,dealer,trump, then one row per hand.",
                        "content": {"text/csv": {"schema": {"type": "string"}}},
                    },
                    "404": UNKNOWN,
                },
            }
        },
        f"{PREFIX}/rubbers/{{rubber_id}}/hands": {
            "post": {
                "operationId": "addHand",
                "summary": "Record the next hand: by its points, a revoke, a spoiled deal or "
                "its cards.",
                "parameters": [RUBBER_ID],
                **hand_write,
                "responses": {
                    "201": _ok("The rubber with the new hand.", "RubberState"),
                    **HAND_WRITE_REFUSED,
                },
            }
        },
        f"{PREFIX}/rubbers/{{rubber_id}}/hands/{{number}}": {
            "put": {
                "operationId": "replaceHand",
                "summary": "Replace hand `number` and score every later hand again.",
                "parameters": [RUBBER_ID, NUMBER],
                **hand_write,
                "responses": {
                    "200": _ok("The rubber with the hand replaced.", "RubberState"),
                    **HAND_WRITE_REFUSED,
                },
            }
        },
        f"{PREFIX}/rubbers/{{rubber_id}}/hands/last": {
            "delete": {
                "operationId": "undoHand",
                "summary": "Undo the last hand.",
                "parameters": [RUBBER_ID],
                "security": EDIT_KEY,
                "requestBody": _body("Undo", required=False),
                "responses": {
                    "200": _ok("The rubber without its last hand.", "RubberState"),
                    **HAND_WRITE_REFUSED,
                },
            }
        },
        f"{PREFIX}/verify": {
            "post": {
                "operationId": "verifyRecord",
                "summary": "Check a record of tricks: winners, points, revokes and problems.",
                "requestBody": _body("VerifyInput"),
                "responses": {
                    "200": _ok(
                        "What the record shows; invalid, repeated cards and tricks of the "
                        "wrong size are listed in errors.",
                        "VerifyResult",
                    ),
                    "400": BAD_BODY,
                    "413": TOO_LARGE,
                    "422": REFUSED,
                },
            }
        },
        f"{PREFIX}/openapi.json": {
            "get": {
                "operationId": "openapi",
                "summary": "This document.",
                "responses": {
                    "200": {
                        "description": "The OpenAPI document.",
                        "content": {JSON: {"schema": {"type": "object"}}},
                    }
                },
            }
        },
    }


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document of the API (built once; treat it as read-only)."""
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Sueca scorekeeper",
            "version": "1",
            "description": "Keep the score of Sueca rubbers. Errors are "
            '`{"error": "<a sentence>", "field": "<name>" | null, "code": "<a short code>"}`; '
            "writes need the rubber's edit key in the X-Edit-Key header.",
        },
        "servers": [{"url": "/"}],
        "paths": {**_paths(), **_group_paths()},
        "components": {
            "schemas": {**_schemas(), **_group_schemas()},
            "securitySchemes": {
                "editKey": {"type": "apiKey", "in": "header", "name": EDIT_KEY_HEADER},
                "groupKey": {"type": "apiKey", "in": "header", "name": GROUP_KEY_HEADER},
            },
        },
    }


# Groups (API.md, "Review") ----------------------------------------------------------------

GROUP_ID_PATTERN = "^[A-Za-z0-9_-]{1,43}$"
GROUP_ID = {
    **RUBBER_ID,
    "name": "group_id",
    "schema": {"type": "string", "pattern": GROUP_ID_PATTERN},
}
GROUP_KEY: list[dict[str, list[str]]] = [{"groupKey": []}]
NO_GROUP_KEY = _error("The X-Group-Key header is missing or is not the group's edit key.")
NO_GROUP = _error("No such group.")
COUNT: dict[str, Any] = {"type": "integer", "minimum": 0}


def _group_schemas() -> dict[str, Any]:
    player_fields = {
        "name": {"type": "string"},
        "rubbers": COUNT,
        "won": COUNT,
        "lost": COUNT,
        "games_won": COUNT,
        "games_lost": COUNT,
        "pentes": {**COUNT, "description": "Rubbers won with the other team on 0 games."},
        "pentes_taken": COUNT,
        "chapeus": COUNT,
        "chapeus_taken": COUNT,
        "arrepios": COUNT,
        "arrepios_taken": COUNT,
        "bandeiras": {**COUNT, "description": "Hands the player's team won by bandeira."},
        "card_points_per_hand": {"type": ["number", "null"]},
        "rating": {
            "type": "number",
            "description": "OpenSkill (Plackett-Luce) mu - 3 sigma: what the ranking sorts by.",
        },
        "rating_mu": {"type": "number"},
        "rating_sigma": {"type": "number", "minimum": 0},
        "rated_rubbers": COUNT,
        "best_partner": {"type": ["string", "null"]},
        "toughest_opponents": {"type": "array", "items": {"type": "string"}},
    }
    exported_hand = {
        "description": "A hand of an exported rubber state: its input is read again, the "
        "figures are scored again by the engine (other fields are ignored).",
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"type": "string", "enum": _enum_values(engine.HandKind)},
            "points": {**HAND_PROPERTIES["points"], "type": ["array", "null"]},
            "all_tricks": {"type": "boolean"},
            "team": {"type": ["integer", "null"], "enum": [0, 1, None]},
            "trump": {"type": ["string", "null"], "enum": [*TRUMPS, None]},
            "tricks": HAND_PROPERTIES["tricks"],
            "dealer": SEAT,
        },
    }
    return {
        "NewGroup": {
            "type": "object",
            "required": ["name"],
            "properties": {
                "name": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": NAME_LENGTH,
                    "pattern": TEAM_NAME,
                }
            },
            "additionalProperties": False,
        },
        "Group": {
            "type": "object",
            "required": ["id", "url", "name"],
            "properties": {
                "id": {"type": "string"},
                "url": {"type": "string", "format": "uri"},
                "name": {"type": "string"},
                "stats_url": {"type": "string", "format": "uri"},
                "export_url": {"type": "string", "format": "uri"},
                "rubbers": COUNT,
                "finished": COUNT,
            },
        },
        "CreatedGroup": _created("Group"),
        "GroupStats": {
            "type": "object",
            "required": ["rubbers", "players", "pairs"],
            "properties": {
                "rubbers": {**COUNT, "description": "The group's finished rubbers."},
                "players": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": [
                            "name",
                            "rubbers",
                            "won",
                            "games_won",
                            "games_lost",
                            "pentes",
                            "bandeiras",
                            "rating",
                        ],
                        "properties": player_fields,
                    },
                },
                "pairs": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["players", "rubbers", "won"],
                        "properties": {
                            "players": {
                                "type": "array",
                                "items": {"type": "string"},
                                "minItems": 2,
                                "maxItems": 2,
                            },
                            "rubbers": COUNT,
                            "won": COUNT,
                            "games_won": COUNT,
                            "games_lost": COUNT,
                        },
                    },
                },
                "outcomes": {"type": "object", "additionalProperties": COUNT},
            },
        },
        "GroupExport": {
            "description": "GET export.json's file: every rubber of a group as a rubber state.",
            "type": "object",
            "required": ["rubbers"],
            "properties": {
                "format": {"type": "string"},
                "version": {"type": "integer"},
                "group": {"type": "object"},
                "rubbers": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "pattern": GROUP_ID_PATTERN},
                            "origin": {"type": "string", "pattern": GROUP_ID_PATTERN},
                            "teams": TEAM_NAMES,
                            "players": PLAYER_NAMES,
                            # Left out or null: seat 0 (or the first hand's dealer), portugal.
                            "first_dealer": {**SEAT, "type": ["integer", "null"]},
                            "rules": {"anyOf": [_ref("RulesInput"), {"type": "null"}]},
                            "created_at": {"type": "string", "format": "date-time"},
                            "hands": {
                                "type": "array",
                                "items": exported_hand,
                                "maxItems": engine.scoring.MAX_HANDS,
                            },
                        },
                    },
                },
            },
        },
        "GroupExportFile": {
            "allOf": [
                _ref("GroupExport"),
                {
                    "type": "object",
                    "properties": {"rubbers": {"type": "array", "items": _ref("RubberState")}},
                },
            ]
        },
        "ImportResult": {
            "type": "object",
            "required": ["created", "skipped", "rubbers"],
            "properties": {
                "created": COUNT,
                "skipped": COUNT,
                "rubbers": {
                    "type": "array",
                    "items": {
                        "type": "object",
                        "required": ["id", "url", "edit_key", "edit_url"],
                        "properties": {
                            "id": {"type": "string"},
                            "origin": {"type": ["string", "null"]},
                            "url": {"type": "string", "format": "uri"},
                            "edit_key": {"type": "string"},
                            "edit_url": {"type": "string", "format": "uri"},
                        },
                    },
                },
                "stats_url": {"type": "string", "format": "uri"},
            },
        },
        "MoveRubber": {
            "type": "object",
            "required": ["rubber"],
            "properties": {"rubber": {"type": "string", "pattern": GROUP_ID_PATTERN}},
            "additionalProperties": False,
        },
    }


def _group_paths() -> dict[str, Any]:
    return {
        f"{PREFIX}/groups": {
            "post": {
                "operationId": "createGroup",
                "summary": "Start a group: the regulars of a table.",
                "requestBody": _body("NewGroup"),
                "responses": {
                    "201": _ok("The new group, with its edit key and edit link.", "CreatedGroup"),
                    "400": BAD_BODY,
                    "413": TOO_LARGE,
                    "422": REFUSED,
                },
            }
        },
        f"{PREFIX}/groups/{{group_id}}": {
            "get": {
                "operationId": "getGroup",
                "summary": "A group: its name, links and number of rubbers.",
                "parameters": [GROUP_ID],
                "responses": {"200": _ok("The group.", "Group"), "404": NO_GROUP},
            }
        },
        f"{PREFIX}/groups/{{group_id}}/stats": {
            "get": {
                "operationId": "getGroupStats",
                "summary": "Statistics per player and per pair over the group's finished "
                "rubbers, players ranked by rating.",
                "parameters": [GROUP_ID],
                "responses": {"200": _ok("The statistics.", "GroupStats"), "404": NO_GROUP},
            }
        },
        f"{PREFIX}/groups/{{group_id}}/export.json": {
            "get": {
                "operationId": "exportGroup",
                "summary": "Every rubber of the group as a rubber state.",
                "parameters": [GROUP_ID],
                "responses": {
                    "200": _ok("The export file.", "GroupExportFile"),
                    "404": NO_GROUP,
                },
            }
        },
        f"{PREFIX}/groups/{{group_id}}/import": {
            "post": {
                "operationId": "importGroup",
                "summary": "Take an export file back: recreate every rubber not in the group yet.",
                "parameters": [GROUP_ID],
                "security": GROUP_KEY,
                "requestBody": _body("GroupExport"),
                "responses": {
                    "200": _ok("What was created and what was there already.", "ImportResult"),
                    "400": BAD_BODY,
                    "403": NO_GROUP_KEY,
                    "404": NO_GROUP,
                    "409": _error("Another write to the group got there first: try again."),
                    "413": TOO_LARGE,
                    "422": REFUSED,
                },
            }
        },
        f"{PREFIX}/groups/{{group_id}}/rubbers": {
            "post": {
                "operationId": "moveRubberIntoGroup",
                "summary": "Move a rubber in no group into this one: the group's key in "
                "X-Group-Key and the rubber's in X-Edit-Key.",
                "parameters": [GROUP_ID],
                "security": [{"groupKey": [], "editKey": []}],
                "requestBody": _body("MoveRubber"),
                "responses": {
                    "200": _ok("The rubber, now in the group.", "RubberState"),
                    "400": BAD_BODY,
                    "403": _error("A key is missing or wrong."),
                    "404": _error("No such group or rubber."),
                    "409": _error("The rubber is in another group, or the group was busy."),
                    "413": TOO_LARGE,
                    "422": REFUSED,
                },
            }
        },
    }
