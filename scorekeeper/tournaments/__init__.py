"""Tournaments of pairs: what is stored, the fold that draws their rounds, and their pages.

A match is played in ordinary rubbers, recorded at its table; the tournament follows their
writes (store.sync)."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("tournaments", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages and what a match's rubber page says of its tournament.

    The pages: the tournament, its edit link, each table's link, its TV, paper and files."""
    from scorekeeper.tournaments import display, keep_link, paper, store, tables, views  # noqa: F401

    app.register_blueprint(bp)
    # A rubber knows nothing of tournaments: its page asks this of the one it belongs to.
    app.add_template_global(store.match_of, "tournament_match")
    app.add_template_global(display.numbered_in_its_sitting, "numbered_in_its_sitting")
    # The organizer's page offers its link to keep once, on the first page after creating it.
    app.add_template_global(keep_link.offered, "keep_link_offered")
