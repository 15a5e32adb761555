"""The JSON API of ../shared/API.md, one parent blueprint at /api/v1 over its parts."""

from __future__ import annotations

from flask import Blueprint, Flask

from scorekeeper.api import errors, export, groups, rubbers
from scorekeeper.extensions import csrf

bp = Blueprint("api", __name__, url_prefix=rubbers.PREFIX)
bp.register_blueprint(rubbers.bp)
bp.register_blueprint(groups.bp)
bp.register_blueprint(export.bp)
errors.init_blueprint(bp, rubbers.PREFIX)


def init_app(app: Flask) -> None:
    """Register the API; its writes are authenticated by their key headers, not by CSRF."""
    for part in (rubbers.bp, groups.bp, export.bp):
        csrf.exempt(part)
    app.register_blueprint(bp)
