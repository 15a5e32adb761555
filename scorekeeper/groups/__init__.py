"""Groups of regulars: what is stored, their statistics and ratings, and their pages.

It also holds the totals that follow every write of one of their rubbers."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("groups", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: the group, its bidding games, the TV."""
    from scorekeeper.groups import backup, bidding_games, display, views  # noqa: F401  routes

    app.register_blueprint(bp)
    backup.init_app(app)
