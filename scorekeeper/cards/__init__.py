"""A rubber's hands card by card: card entry, the calculators, a recorded hand and its analysis.

The pages that count a pile, check a hand for melar, replay the tricks, show a recorded hand and
analyse it; their templates are in templates/cards/."""

from __future__ import annotations

from flask import Blueprint, Flask

bp = Blueprint("cards", __name__)
"""The package's one blueprint: every module of its pages adds its routes to it."""


def init_app(app: Flask) -> None:
    """Register the package's pages: card entry, the calculators, a hand and its analysis."""
    from scorekeeper.cards import analysis_page, calculators, display, entry, hand_page  # noqa: F401  their routes

    app.context_processor(display.template_globals)
    app.register_blueprint(bp)
