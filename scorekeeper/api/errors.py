"""The API's one error shape, ``{"error", "field", "code"}``, and the handlers that answer it.

``error`` is a sentence in the request's language, ``field`` the place in the body it is
about (or null) and ``code`` a short word a program can test. Every refusal of every part of
the API is an :class:`ApiError`; HTTP's own refusals (an unknown address, a body too large)
take the same shape, with the code ``http_<status>``.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify
from flask_babel import gettext as _
from pydantic import BaseModel, Field
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed

from scorekeeper.web import errors as web_errors

HTTP_STATUSES = (400, 403, 404, 405, 409, 413, 415, 422)
"""The statuses HTTP itself may refuse an API request with, answered in the error shape."""


class Problem(BaseModel):
    """One problem of a record of tricks: where it is and what is wrong."""

    trick: int | None
    card: str | None
    error: str = Field(min_length=1)
    code: str


class Error(BaseModel):
    """What every refusal answers (API.md, "Conventions")."""

    error: str = Field(min_length=1, description="A sentence in the request's language.")
    field: str | None = Field(description="The place in the body the refusal is about.")
    code: str = Field(description="A short code a program can test.")
    errors: list[Problem] = Field(
        default=[], description="A refused record of tricks: each of its problems."
    )


class ApiError(Exception):
    """A refusal: a 4xx status and the error shape."""

    def __init__(
        self,
        status: int,
        message: str,
        field: str | None = None,
        code: str | None = None,
        **extra: Any,
    ) -> None:
        self.status = status
        self.message = message
        self.field = field
        self.code = code or f"http_{status}"
        self.extra = extra
        super().__init__(message)

    def placed(self, where: str) -> ApiError:
        """The same refusal, its field named within a larger body (``rubbers[2].hands[0]``)."""
        field = f"{where}.{self.field}" if self.field else where
        return ApiError(self.status, self.message, field, self.code, **self.extra)

    def response(self) -> Response:
        body: dict[str, Any] = {"error": self.message, "field": self.field, "code": self.code}
        body.update(self.extra)
        answer = jsonify(body)
        answer.status_code = self.status
        return answer


def http_message(status: int) -> str:
    """What an API request refused by HTTP itself is told."""
    message: str = {
        400: _("The request could not be understood."),
        403: _("This is not allowed."),
        404: _("There is nothing at this address."),
        405: _("This address does not take that method."),
        409: _("The rubber changed: reload it."),
        413: _("The request is too large."),
        415: _("The request must be JSON."),
        422: _("The request could not be processed."),
    }.get(status, _("Something went wrong on the server: try again."))
    return message


def _api_error(error: ApiError) -> Response:
    return error.response()


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    response = ApiError(status, http_message(status)).response()
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


def _no_store(response: Response) -> Response:
    # A rubber's state changes with every hand, and a creation answer carries its edit key.
    response.headers.setdefault("Cache-Control", "no-store")
    return response


def init_blueprint(bp: Blueprint, prefix: str) -> None:
    """Answer every refusal under ``bp`` (its parts included) and under ``prefix`` as JSON.

    Routing fails before any blueprint is chosen, so the blueprint's error handlers never see an
    unknown address or method: the app's handler (web.errors) hands those under ``prefix`` to
    this one, which keeps the Allow header of a 405."""
    bp.register_error_handler(ApiError, _api_error)
    for status in HTTP_STATUSES:
        bp.register_error_handler(status, _http_error)
    bp.register_error_handler(InternalServerError, _http_error)
    bp.after_request(_no_store)
    bp.record_once(lambda state: web_errors.answer_routing_errors(state.app, prefix, _http_error))
