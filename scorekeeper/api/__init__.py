"""The JSON API of ../shared/API.md, one parent blueprint at /api/v1 over its parts."""

from __future__ import annotations

from flask import Blueprint, Flask

from scorekeeper.api import analysis, bidding, errors, export, groups, openapi, rubbers
from scorekeeper.api.operations import PREFIX
from scorekeeper.extensions import csrf

PARTS = (rubbers.bp, groups.bp, export.bp, bidding.bp, analysis.bp, openapi.bp)

bp = Blueprint("api", __name__, url_prefix=PREFIX)
for _part in PARTS:
    bp.register_blueprint(_part)
errors.init_blueprint(bp, PREFIX)


def init_app(app: Flask) -> None:
    """Register the API; its writes are authenticated by their key headers, not by CSRF."""
    for part in PARTS:
        csrf.exempt(part)
    app.register_blueprint(bp)
