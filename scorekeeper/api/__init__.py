"""The JSON API of ../shared/API.md, one parent blueprint at /api/v1 over its parts."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify, request
from flask_babel import gettext as _

from scorekeeper.api import (
    analysis,
    bidding_games,
    errors,
    export,
    groups,
    openapi,
    rubbers,
    tournament_export,
    tournaments,
)
from scorekeeper.api.operations import PREFIX
from scorekeeper.extensions import csrf
from scorekeeper.groups import backup

PARTS = (
    rubbers.bp,
    groups.bp,
    export.bp,
    bidding_games.bp,
    analysis.bp,
    tournaments.bp,
    openapi.bp,
)

bp = Blueprint("api", __name__, url_prefix=PREFIX)
for _part in PARTS:
    bp.register_blueprint(_part)
errors.init_blueprint(bp, PREFIX)
TAKE_JSON = frozenset(
    f"{bp.name}.{operation.endpoint}"
    for part in PARTS
    for operation in getattr(part, "operations", ())
    if operation.body is not None and operation.method in ("post", "put", "patch")
)
"""The endpoints of the writes that take a body: each must say JSON, even with none sent."""


@bp.before_request
def _json_only() -> Response | None:
    """415 for a body that is not declared JSON, or a write that takes one and does not say JSON.

    A web page can make a visitor's browser send ``text/plain``, or a POST with no body and no
    type, anywhere without asking, never ``application/json`` to another site
    (docs/decisions/api.md, "JSON only"). A DELETE cannot be sent so: its body, when it has one,
    must be JSON."""
    if request.mimetype == "application/json":
        return None
    has_body = (
        bool(request.content_length)
        or "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    )
    if not has_body and request.endpoint not in TAKE_JSON:
        return None
    response = jsonify(
        error=_("Send the body as JSON, with the header Content-Type: application/json."),
        field=None,
        code="not_json",
    )
    response.status_code = 415
    return response


def init_app(app: Flask) -> None:
    """Register the API; its writes are authenticated by their key headers, not by CSRF."""
    for part in PARTS:
        csrf.exempt(part)
    app.register_blueprint(bp)
    backup.use_import(app, groups.restore)
    app.register_blueprint(tournament_export.bp)
