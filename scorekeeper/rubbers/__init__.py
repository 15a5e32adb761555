"""A rubber at the table: what is stored, every write, the forms and pages.

It also holds the drawings (the cross, the tallies, the seats); card entry is the cards package's."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("rubbers", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: the rubber, its hands and their edit form, sharing, the offline score."""
    from scorekeeper.rubbers import (  # noqa: F401  their routes
        edit_hand,
        house_rules,
        offline_outlook,
        sharing,
        sheet,
        views,
    )

    app.context_processor(house_rules.template_globals)
    app.register_blueprint(bp)
