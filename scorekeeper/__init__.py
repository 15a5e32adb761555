"""The Sueca scorekeeper: the application factory."""

from __future__ import annotations

from typing import Any

from flask import Flask

from scorekeeper.config import asset_folder, configure


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app.

    Config, extensions, the shared web layer, the features, the API, and the rate limits on their
    creations."""
    app = Flask(
        __name__,
        instance_relative_config=True,
        template_folder=asset_folder("templates"),
        static_folder=asset_folder("static"),
    )
    configure(app, test_config)

    from scorekeeper import api, web
    from scorekeeper.analysis import queue as analysis_queue
    from scorekeeper.bidding import card_entry as bidding_cards
    from scorekeeper.bidding import views as bidding
    from scorekeeper.extensions import csrf, db, migrate
    from scorekeeper.groups import bidding as group_bidding
    from scorekeeper.groups import display
    from scorekeeper.groups import views as groups
    from scorekeeper.home import views as home
    from scorekeeper.rubbers import (
        analysis_page,
        calculators,
        card_display,
        card_entry,
        hand_pages,  # noqa: F401 (a hand's pages are routes of the rubbers' blueprint)
        house_rules,
        outlook,  # noqa: F401 (the outlook is a route of the rubbers' blueprint)
        sharing,
    )
    from scorekeeper.rubbers import views as rubbers
    from scorekeeper.web import limits

    db.init_app(app)
    migrate.init_app(app, db, directory=asset_folder("migrations"))
    csrf.init_app(app)
    analysis_queue.init_app(app)
    web.init_app(app)
    app.context_processor(house_rules.template_globals)
    app.context_processor(card_display.template_globals)
    app.register_blueprint(home.bp)
    app.register_blueprint(rubbers.bp)
    assert calculators.bp is card_entry.bp  # its pages are routes of the card-entry blueprint
    app.register_blueprint(card_entry.bp)
    app.register_blueprint(sharing.bp)
    app.register_blueprint(analysis_page.bp)
    app.register_blueprint(bidding.bp)
    app.register_blueprint(bidding_cards.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(display.bp)
    app.register_blueprint(group_bidding.bp)
    api.init_app(app)
    limits.init_app(app)
    return app
