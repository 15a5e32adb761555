"""What each operation of the API takes and answers, declared on its view.

The blueprint routes the view and keeps the declaration, which the OpenAPI document is made of."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import UnionType
from typing import Any, get_args

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
Security = Sequence[dict[str, list[str]]]

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
NOT_JSON = (
    "The body is not declared JSON (Content-Type: application/json); a POST or PUT declares it "
    "even with no body."
)
RATE_LIMITED = (
    "Too many creations from this address: the sentence says to wait, Retry-After for how many "
    "seconds."
)
NO_GROUP_KEY = "The X-Group-Key header is missing or is not the group's edit key."
NO_GROUP = "No such group."


def refusals(
    *,
    key: str | None = None,
    unknown: str | None = None,
    conflict: str | None = None,
    too_large: str = TOO_LARGE,
    refused: str | None = REFUSED,
) -> dict[int, Any]:
    """How a request with a body can be refused, each refusal by its status.

    400 for a body not of the shapes and 413 for one too large, then each refusal given: 403
    for ``key``, 404, 409, and 422 (``None`` for none)."""
    statuses = {400: BAD_BODY, 403: key, 404: unknown, 409: conflict, 413: too_large, 422: refused}
    return {status: text for status, text in statuses.items() if text is not None}


HAND_WRITE_REFUSED = refusals(key=NO_KEY, unknown=UNKNOWN, conflict=CONFLICT)
"""How a write to a rubber's hands can be refused."""


def creation_refused(refused: str) -> dict[int, Any]:
    """How the start of a rubber or a game, which may join a group, can be refused.

    A value is refused with 422, ``refused``."""
    group_key = "A group was named without its key in X-Group-Key."
    return refusals(key=group_key, unknown="The group named does not exist.", refused=refused)


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


View = Callable[..., Any]


def summary_of(view: View) -> str:
    """The first paragraph of the view's docstring, its whitespace collapsed: its summary."""
    doc = inspect.getdoc(view)
    if not doc:
        raise TypeError(f"The operation {view.__name__} has no docstring to be its summary.")
    return " ".join(doc.split("\n\n", 1)[0].split())


class ApiBlueprint(Blueprint):
    """A blueprint whose routes are :class:`Operation`\\ s.

    They are declared in the spirit of flask-smorest: the summary is the first paragraph of the
    view's docstring, what it takes and answers are declared by decorators under
    :meth:`operation`, which comes first, above them::

        @bp.operation("PUT /rubbers/<rubber_id>/hands/<int:number>", "replaceHand")
        @bp.takes(HandInput, security=EDIT_KEY)
        @bp.answers(200, "The rubber with the hand replaced.", RubberState, HAND_WRITE_REFUSED)
        def replace_hand(rubber_id: str, number: int) -> tuple[Response, int]:
            \"\"\"Replace hand `number` and score every later hand again.\"\"\"
    """

    def __init__(self, name: str, import_name: str) -> None:
        super().__init__(name, import_name)
        self.operations: list[Operation] = []
        self._declared: dict[View, dict[str, Any]] = {}
        self._routed: set[View] = set()

    def operation(
        self, address: str, operation_id: str, *, conditional: bool = False
    ) -> Callable[[View], View]:
        """Route the view at ``address`` and declare it (see :class:`Operation`).

        The address is a method then a Flask rule, ``"POST /rubbers"``; the declaration takes
        what :meth:`takes` and :meth:`answers` declared below."""
        method, rule = address.split(" ")

        def register(view: View) -> View:
            declared = self._declared.pop(view, {})
            if method in ("POST", "PUT", "PATCH") and declared.get("body_required") is False:
                # It must say JSON even with no body (api/__init__.py): the document says the
                # body is required, and an empty one declared JSON is read as {}
                # (docs/decisions/api.md, "JSON only").
                raise TypeError(f"{view.__name__}: a {method} takes its body, {{}} at the least.")
            endpoint = f"{self.name}.{view.__name__}"
            operation = Operation(
                method.lower(),
                rule,
                operation_id,
                summary_of(view),
                **declared,
                conditional=conditional,
                endpoint=endpoint,
            )
            self.operations.append(operation)
            self._routed.add(view)
            self.add_url_rule(rule, view_func=view, methods=[method])
            return view

        return register

    def takes(self, body: Any, *, security: Security = ()) -> Callable[[View], View]:
        """Declare the body the view takes, and the keys it needs.

        ``body`` is a model, or ``Model | None`` for a body the view may go without (a DELETE
        only: a write that takes a body must say JSON, so its body is required)."""
        forms = get_args(body) if isinstance(body, UnionType) else (body,)
        given = [form for form in forms if form is not type(None)]
        (model,) = given
        return self._declare(
            body=model, body_required=len(given) == len(forms), security=list(security)
        )

    def answers(
        self, status: int, description: str, answer: Any, *more: dict[int, Any]
    ) -> Callable[[View], View]:
        """Declare what the view answers: ``answer``, a model or a :class:`Content`, with ``status``.

        ``more`` are other answers by status; a refusal is a description alone."""
        responses: dict[int, Any] = {status: (description, answer)}
        for answers in more:
            responses.update(answers)
        return self._declare(responses=responses)

    def _declare(self, **declared: Any) -> Callable[[View], View]:
        def declare(view: View) -> View:
            if view in self._routed:
                raise TypeError(f"Declare {view.__name__} below its @operation, not above.")
            self._declared.setdefault(view, {}).update(declared)
            return view

        return declare
