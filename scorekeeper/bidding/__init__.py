"""Bidding Sueca at the table: 4 to 6 players, each on their own score (RULES.md)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("bidding", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: the game, its hands, counting a pile."""
    from scorekeeper.bidding import pile, views  # noqa: F401  their routes

    app.register_blueprint(bp)
