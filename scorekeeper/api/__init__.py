"""The JSON API of ../shared/API.md, one parent blueprint at /api/v1 over its parts."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, jsonify, request
from flask_babel import gettext as _

from scorekeeper.api import export, groups, rubbers
from scorekeeper.extensions import csrf

bp = Blueprint("api", __name__, url_prefix=rubbers.PREFIX)
bp.register_blueprint(rubbers.bp)
bp.register_blueprint(groups.bp)
bp.register_blueprint(export.bp)


@bp.before_request
def _json_only() -> Response | None:
    """415 for a body that is not declared JSON: a web page can make a visitor's browser send
    ``text/plain`` anywhere without asking, never ``application/json`` to another site
    (docs/decisions.md, "Rate limits and JSON only")."""
    has_body = (
        bool(request.content_length)
        or "chunked" in request.headers.get("Transfer-Encoding", "").lower()
    )
    if not has_body or request.mimetype == "application/json":
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
    for part in (rubbers.bp, groups.bp, export.bp):
        csrf.exempt(part)
    app.register_blueprint(bp)
