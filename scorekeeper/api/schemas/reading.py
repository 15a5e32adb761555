"""Reading a request body with a model: one answer, for the first problem, in API.md's words.

The models are strict (``true`` is no number, nor is ``"3"``) and say what a body may hold; the
OpenAPI document is generated from the same models (docs/decisions/api.md, "One source for the
contract"). A body that breaks one is answered for its first problem in reading order: a key
the body may not hold, then a key it lacks, then the fields in the order the model declares
them, a list before its items. A field's type carries a :class:`Says` that words its refusals.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, ClassVar, Self

from flask import request
from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from scorekeeper.api.errors import ApiError, http_message

MISSING: Any = object()
"""The value of a field the body does not hold."""


# The body as JSON ------------------------------------------------------------------------------


def json_body(*, empty: bool = False) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body where ``empty`` allows it)."""
    data = request.get_data(cache=True)
    if empty and not data:  # no body at all; white space alone is no JSON
        return {}
    try:
        body = json.loads(data, parse_float=_number)
    except (ValueError, RecursionError):
        raise ApiError(400, _("The request body is not valid JSON."), code="invalid_json") from None
    if not isinstance(body, dict):
        raise ApiError(400, _("The request body must be a JSON object."), code="not_an_object")
    return body


def _number(text: str) -> int | float:
    """A JSON number with a fraction or exponent: whole ones (``3.0``, ``1e2``) are ints.

    JSON Schema counts them as integers too, so the OpenAPI document and the models agree.
    """
    value = float(text)
    return int(value) if value.is_integer() else value


# How a field words its refusals -----------------------------------------------------------------


@dataclass(frozen=True)
class Refused:
    """One problem pydantic found, placed: the field's name in the body and its value as sent.

    It also says where in that value the problem is (``rest``: the index of an item, say)."""

    error: ErrorDetails
    label: str
    value: Any
    rest: tuple[int | str, ...]

    @property
    def kind(self) -> str:
        return self.error["type"]

    def item(self) -> Refused:
        """The same problem, seen from the item of the list it is in."""
        index = self.rest[0]
        value = self.value[index] if isinstance(index, int) else MISSING
        return Refused(self.error, self.label, value, self.rest[1:])


Answer = Callable[[Refused], ApiError]
"""The answer to a problem of a field: 400 or 422, a code, and a sentence naming the field."""


@dataclass(frozen=True)
class Says:
    """How the API words the refusals of a field (``Annotated[int, Field(ge=0), Says(...)]``).

    ``missing`` words a required field left out, when "is missing" is not what API.md says.
    """

    answer: Answer
    missing: Answer | None = None


def is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def type_error(expected: str, label: str) -> ApiError:
    """Return the 400 of a value of the wrong JSON type.

    ``expected`` is whole, boolean, text, object or list."""
    message = {
        "whole": lambda: _("%(field)s must be a whole number.", field=label),
        "boolean": lambda: _("%(field)s must be true or false.", field=label),
        "text": lambda: _("%(field)s must be text.", field=label),
        "object": lambda: _("%(field)s must be an object.", field=label),
        "list": lambda: _("%(field)s must be a list.", field=label),
    }[expected]()
    return ApiError(400, message, label, "type")


GENERIC_TYPES = {
    "int_type": "whole",
    "bool_type": "boolean",
    "string_type": "text",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "list_type": "list",
}


def generic(problem: Refused) -> ApiError:
    """The answer for a field that has no :class:`Says` of its own."""
    if problem.kind == "missing":
        return missing(problem)
    expected = GENERIC_TYPES.get(problem.kind)
    if expected is not None:
        return type_error(expected, problem.label)
    return ApiError(400, http_message(400), problem.label, "type")


def missing(problem: Refused) -> ApiError:
    return ApiError(400, _("%(field)s is missing.", field=problem.label), problem.label, "missing")


# The models ------------------------------------------------------------------------------------


class Body(BaseModel):
    """A request body: strict, and a key it does not declare is refused, never ignored.

    A misspelt ``"alltricks"`` must not quietly turn a bandeira into a capote."""

    model_config = ConfigDict(strict=True, extra="forbid")
    names_in_full: ClassVar[bool] = False
    """Whether a refusal's sentence names the field by its place in a larger body (as the
    parts of a file do: ``rubbers[2].teams must be ...``) or by its own name."""

    @classmethod
    def refuse_extra(cls, name: str) -> ApiError:
        """The answer for a key this body does not take."""
        return ApiError(
            400, _("%(field)s is not a field of this request.", field=name), name, "unknown_field"
        )

    @classmethod
    def refuse_missing(cls, problem: Refused) -> ApiError:
        """The answer for a field the body lacks, when the field's :class:`Says` has none."""
        return missing(problem)

    @classmethod
    def read(cls, data: Any, where: str = "") -> Self:
        """Validate ``data``, or raise the :class:`ApiError` of its first problem.

        Its field is named within ``where`` when the body is part of a larger one."""
        try:
            return cls.model_validate(data)
        except ValidationError as error:
            if cls.names_in_full:
                raise first_refusal(cls, data, error.errors(), where) from None
            refusal = first_refusal(cls, data, error.errors())
            raise (refusal.placed(where) if where else refusal) from None


class Part(Body):
    """A part of a document (an export file): keys it does not read are ignored.

    Its refusals name the place in the document."""

    model_config = ConfigDict(strict=True, extra="ignore")
    names_in_full = True


def first_refusal(
    model: type[BaseModel], data: Any, errors: list[ErrorDetails], where: str = ""
) -> ApiError:
    """Return the answer for the first of ``errors`` in reading order.

    Its fields are named from ``where``."""
    placed = [_place(model, data, error, where) for error in errors]
    _, answer = min(placed, key=lambda pair: pair[0])
    return answer()


def _place(
    model: type[BaseModel], data: Any, error: ErrorDetails, where: str
) -> tuple[tuple[Any, ...], Callable[[], ApiError]]:
    """Where ``error`` is in reading order, and how to answer it.

    The walk follows ``error``'s location through the models: a field that holds a model, or
    a list of them, is entered (its items named ``hands[2]``); any other field answers for
    everything inside it with its :class:`Says`.
    """
    loc = tuple(error["loc"])
    label, value, order = where, data, []
    if not loc:  # the body itself is not an object
        return (2,), partial(generic, Refused(error, label, value, ()))
    while True:
        key, rest = loc[0], loc[1:]
        if key not in model.model_fields:
            order.append((-1, key))
            return _ordered(error, order), partial(_extra, model, str(key), label)
        info = model.model_fields[key]
        order.append((list(model.model_fields).index(key), key))
        label = f"{label}.{key}" if label else str(key)
        value = value.get(key, MISSING) if isinstance(value, dict) else MISSING
        says = _says(info.annotation, info.metadata)
        nested, listed = _nested(info.annotation)
        if nested is not None and rest and listed:
            index, rest = rest[0], rest[1:]
            label = f"{label}[{index}]"
            order.append((0, index))
            value = value[index] if isinstance(value, list) and isinstance(index, int) else MISSING
            if not rest:  # the item itself is not an object
                return _ordered(error, order), partial(generic, Refused(error, label, value, ()))
        if nested is not None and rest and (listed or says is None):
            model, loc = nested, rest
            continue
        order.extend((0, part) if isinstance(part, int) else (1, part) for part in rest)
        refused = Refused(error, label, value, rest)
        return _ordered(error, order), partial(_answer, model, says, refused)


def _ordered(error: ErrorDetails, order: list[tuple[int, Any]]) -> tuple[Any, ...]:
    # A key the body may not hold, then one it lacks, come before the rest.
    top = len(error["loc"]) == 1
    if top and error["type"] == "extra_forbidden":
        return (0, str(error["loc"][0]))
    if top and error["type"] == "missing":
        return (1, *order)
    return (2, *order)


def _extra(model: type[BaseModel], name: str, where: str) -> ApiError:
    refusal = model.refuse_extra(name) if issubclass(model, Body) else Body.refuse_extra(name)
    return refusal.placed(where) if where else refusal


def _answer(model: type[BaseModel], says: Says | None, refused: Refused) -> ApiError:
    if refused.kind == "missing" and not refused.rest:
        if says is not None and says.missing is not None:
            return says.missing(refused)
        return model.refuse_missing(refused) if issubclass(model, Body) else missing(refused)
    if says is None:
        return generic(refused)
    return says.answer(refused)


def _says(annotation: Any, metadata: list[Any]) -> Says | None:
    """The :class:`Says` of a field: in its metadata, or inside ``X | None``."""
    found = [item for item in metadata if isinstance(item, Says)]
    for arg in _union_args(annotation):
        if typing.get_origin(arg) is typing.Annotated:
            found += [item for item in arg.__metadata__ if isinstance(item, Says)]
    return found[-1] if found else None


def _union_args(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def _bare(annotation: Any) -> Any:
    if typing.get_origin(annotation) is typing.Annotated:
        return typing.get_args(annotation)[0]
    return annotation


def _nested(annotation: Any) -> tuple[type[BaseModel] | None, bool]:
    """The model a field holds (itself, or as a list of them), and whether it is a list."""
    for arg in map(_bare, _union_args(annotation)):
        if isinstance(arg, type) and issubclass(arg, BaseModel):
            return arg, False
        if typing.get_origin(arg) is list:
            item = _bare(typing.get_args(arg)[0])
            if isinstance(item, type) and issubclass(item, BaseModel):
                return item, True
    return None, False
