"""The OpenAPI 3.1 document of the API, served at ``/api/v1/openapi.json``.

It is made from the operations each part declares and the JSON Schema of their models
(docs/decisions/api.md, "One source for the contract"), never written by hand."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from flask import Response, jsonify
from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import GenerateJsonSchema, models_json_schema

from scorekeeper.api import analysis, bidding_games, export, groups, rubbers, tournaments
from scorekeeper.api.errors import Error
from scorekeeper.api.operations import (
    ETAG,
    IF_NONE_MATCH,
    NOT_JSON,
    NOT_MODIFIED,
    PREFIX,
    RATE_LIMITED,
    SECURITY_SCHEMES,
    ApiBlueprint,
    Content,
    Operation,
)
from scorekeeper.api.schemas.fields import PATH_PARAMETERS
from scorekeeper.web.limits import LIMITS

bp = ApiBlueprint("openapi", __name__)
PARTS = (rubbers.bp, export.bp, groups.bp, bidding_games.bp, analysis.bp, tournaments.bp, bp)
"""The blueprints whose operations the document lists."""
JSON = "application/json"
REFS = "#/components/schemas/{model}"
PARAMETER = re.compile(r"<(?:[a-z]+:)?(\w+)>")
API = "api."
"""The endpoints of the API's parts are under the API's blueprint."""


@bp.operation("GET /openapi.json", "openapi")
@bp.answers(200, "The OpenAPI document.", Content(JSON, {"type": "object"}))
def openapi_json() -> Response:
    """This document."""
    return jsonify(document())


class _Schemas(GenerateJsonSchema):
    """Pydantic's JSON Schema, without a title on every field."""

    def field_title_should_be_set(self, schema: Any) -> bool:
        return False


def _without_null_defaults(value: Any) -> Any:
    """The schemas without ``default: null``: a field that may be left out, not sent as null."""
    if isinstance(value, dict):
        return {
            key: _without_null_defaults(item)
            for key, item in value.items()
            if not (key == "default" and item is None)
        }
    if isinstance(value, list):
        return [_without_null_defaults(item) for item in value]
    return value


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REFS.format(model=model.__name__)}


def _forms(body: Any) -> tuple[type[BaseModel], ...]:
    """The models of a body that is one of several (a hand), else none."""
    return tuple(getattr(body, "forms", ()))


def _models(operations: list[Operation]) -> list[type[BaseModel]]:
    found: list[type[BaseModel]] = [Error]
    for operation in operations:
        answers = [
            answer[1] for answer in operation.responses.values() if isinstance(answer, tuple)
        ]
        for model in [operation.body, *answers]:
            if isinstance(model, type) and issubclass(model, BaseModel) and model not in found:
                found.append(model)
    return found


def _schemas(operations: list[Operation]) -> dict[str, Any]:
    _, top = models_json_schema(
        [(model, "validation") for model in _models(operations)],
        ref_template=REFS,
        schema_generator=_Schemas,
    )
    schemas: dict[str, Any] = top["$defs"]
    for body in {operation.body for operation in operations if _forms(operation.body)}:
        # Each form written out in the one-of, so a reader sees every key a form takes.
        forms = [
            form.model_json_schema(ref_template=REFS, schema_generator=_Schemas)
            for form in _forms(body)
        ]
        schemas[body.__name__] = {"description": body.__doc__, "oneOf": forms}
    without: dict[str, Any] = _without_null_defaults(dict(sorted(schemas.items())))
    return without


def _response(status: int, answer: Any) -> dict[str, Any]:
    if isinstance(answer, str):  # a refusal
        return {"description": answer, "content": {JSON: {"schema": _ref(Error)}}}
    description, shape = answer
    if isinstance(shape, Content):
        return {"description": description, "content": {shape.media_type: {"schema": shape.schema}}}
    return {"description": description, "content": {JSON: {"schema": _ref(shape)}}}


def _operation(operation: Operation) -> dict[str, Any]:
    item: dict[str, Any] = {"operationId": operation.operation_id, "summary": operation.summary}
    names = PARAMETER.findall(operation.rule)
    parameters = [
        {
            "name": name,
            "in": "path",
            "required": True,
            "schema": TypeAdapter(PATH_PARAMETERS[name]).json_schema(),
        }
        for name in names
    ]
    if operation.conditional:
        parameters.append(IF_NONE_MATCH)
    if parameters:
        item["parameters"] = parameters
    if operation.security:
        item["security"] = operation.security
    if operation.body is not None:
        schema = {"$ref": REFS.format(model=operation.body.__name__)}
        item["requestBody"] = {
            "required": operation.body_required,
            "content": {JSON: {"schema": schema}},
        }
    item["responses"] = {
        str(status): _response(status, answer) for status, answer in operation.responses.items()
    }
    if operation.conditional:
        item["responses"]["200"]["headers"] = ETAG
        item["responses"]["304"] = NOT_MODIFIED
        item["responses"] = dict(sorted(item["responses"].items()))
    return item


def _refusals_of_every_part(
    paths: dict[str, dict[str, Any]], limited: set[tuple[str, str]]
) -> None:
    """What the API's blueprint and the rate limits answer before any view, in the document.

    415 to a body not declared JSON (api/__init__.py), 429 with Retry-After to a creation over its
    limit (web/limits.py), its sentence in the reader's language."""
    for path, item in paths.items():
        for method, operation in item.items():
            responses = operation["responses"]
            if "requestBody" in operation:
                responses.setdefault("415", _response(415, NOT_JSON))
            if (method, path) in limited:
                # An operation that declares a 429 of its own (the analyses' cap) keeps its words.
                answer = responses.setdefault("429", _response(429, RATE_LIMITED))
                answer["headers"] = {
                    "Retry-After": {
                        "description": "Seconds until the count allows another.",
                        "schema": {"type": "integer", "minimum": 1},
                    }
                }
            operation["responses"] = dict(sorted(responses.items()))


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document of the API (built once; treat it as read-only)."""
    operations = [operation for part in PARTS for operation in part.operations]
    paths: dict[str, dict[str, Any]] = {}
    for operation in operations:
        path = PREFIX + PARAMETER.sub(r"{\1}", operation.rule)
        paths.setdefault(path, {})[operation.method] = _operation(operation)
    limited = {
        (operation.method, PREFIX + PARAMETER.sub(r"{\1}", operation.rule))
        for operation in operations
        if API + operation.endpoint in LIMITS
    }
    _refusals_of_every_part(paths, limited)
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
        "paths": paths,
        "components": {
            "schemas": _schemas(operations),
            "securitySchemes": SECURITY_SCHEMES,
        },
    }
