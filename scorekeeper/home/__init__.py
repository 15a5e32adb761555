"""The pages that gather a phone's rubbers and groups: the home page and the history."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("home", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: the home page and the history."""
    from scorekeeper.home import views  # noqa: F401  their routes

    app.register_blueprint(bp)
