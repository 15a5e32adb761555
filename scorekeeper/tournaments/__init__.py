"""Tournaments of pairs: what is stored, the fold that draws their rounds, and their pages.

A match is played in ordinary rubbers, recorded at its table; the tournament follows their
writes (store.sync)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("tournaments", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: the tournament, its edit link, its TV, paper and files."""
    from scorekeeper.tournaments import display, paper, views  # noqa: F401  their routes

    app.register_blueprint(bp)
