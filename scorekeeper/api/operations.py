"""What each operation of the API takes and answers, declared on its view.

The blueprint routes the view and keeps the declaration, which the OpenAPI document is made of."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from flask import Blueprint

PREFIX = "/api/v1"
"""Where the JSON API of API.md lives; every operation under it answers JSON, errors too."""

EDIT_KEY_HEADER = "X-Edit-Key"
GROUP_KEY_HEADER = "X-Group-Key"
SECURITY_SCHEMES = {
    "editKey": {"type": "apiKey", "in": "header", "name": EDIT_KEY_HEADER},
    "groupKey": {"type": "apiKey", "in": "header", "name": GROUP_KEY_HEADER},
}
EDIT_KEY: list[dict[str, list[str]]] = [{"editKey": []}]
GROUP_KEY: list[dict[str, list[str]]] = [{"groupKey": []}]

# How requests are refused, for the document: each answers the error shape.
BAD_BODY = "The body is not one of the documented shapes."
REFUSED = "The shape is right but a value is refused."
NO_KEY = "The X-Edit-Key header is missing or is not the rubber's edit key."
UNKNOWN = "No such rubber, or no such hand."
CONFLICT = (
    "The rubber's state refuses the write: finished, stale version, key reused, "
    "the edit would end the rubber early, or no hand to undo."
)
TOO_LARGE = "The request is too large."
NOT_JSON = "The body is not declared JSON (Content-Type: application/json)."
RATE_LIMITED = (
    "Too many creations from this address: the sentence says to wait, Retry-After for how many "
    "seconds."
)
NO_GROUP_KEY = "The X-Group-Key header is missing or is not the group's edit key."
NO_GROUP = "No such group."
HAND_WRITE_REFUSED: dict[int, Any] = {
    400: BAD_BODY,
    403: NO_KEY,
    404: UNKNOWN,
    409: CONFLICT,
    413: TOO_LARGE,
    422: REFUSED,
}
"""How a write to a rubber's hands can be refused."""
CREATION_REFUSED: dict[int, Any] = {
    400: BAD_BODY,
    403: "A group was named without its key in X-Group-Key.",
    404: "The group named does not exist.",
    413: TOO_LARGE,
}
"""How the start of a rubber or a game, which may join a group, can be refused (besides 422,
each its own)."""

# A read that answers 304 while nothing changed (API.md, "Following a rubber live").
IF_NONE_MATCH = {
    "name": "If-None-Match",
    "in": "header",
    "required": False,
    "description": "The ETag of the answer last seen: 304, with no body, while it still holds.",
    "schema": {"type": "string"},
}
ETAG = {
    "ETag": {
        "description": "A weak ETag of this answer, for If-None-Match.",
        "schema": {"type": "string"},
    }
}
NOT_MODIFIED = {"description": "Nothing changed since the ETag sent in If-None-Match: no body."}


@dataclass(frozen=True)
class Content:
    """An answer that is not a model: its media type and JSON Schema."""

    media_type: str
    schema: dict[str, Any]


@dataclass(frozen=True)
class Operation:
    """One operation: its address, what it takes and what it answers.

    The address is a Flask rule under :data:`PREFIX`.

    ``responses`` maps a status to a description (a refusal: it answers the error shape) or
    to a description and what it answers, a model or a :class:`Content`. ``body`` is a
    model, or a class with ``forms`` (a body that is one of them). A ``conditional`` read
    answers 200 with an ETag, and 304 to an If-None-Match that still holds.
    """

    method: str
    rule: str
    operation_id: str
    summary: str
    responses: dict[int, Any]
    body: Any = None
    body_required: bool = True
    security: list[dict[str, list[str]]] = field(default_factory=list)
    conditional: bool = False
    endpoint: str = ""
    """The view's endpoint within the API's blueprint (``groups.import_group``), set as the
    view is routed."""


class ApiBlueprint(Blueprint):
    """A blueprint whose routes are :class:`Operation`\\ s."""

    def __init__(self, name: str, import_name: str) -> None:
        super().__init__(name, import_name)
        self.operations: list[Operation] = []

    def operation(
        self, method: str, rule: str, operation_id: str, summary: str, **declared: Any
    ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
        """Route the view at ``rule`` for ``method`` and declare it (see :class:`Operation`)."""
        operation = Operation(method, rule, operation_id, summary, **declared)

        def register(view: Callable[..., Any]) -> Callable[..., Any]:
            self.operations.append(replace(operation, endpoint=f"{self.name}.{view.__name__}"))
            self.add_url_rule(rule, view_func=view, methods=[method.upper()])
            return view

        return register
