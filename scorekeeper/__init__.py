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

    from scorekeeper import api, bidding, cards, groups, home, rubbers, tournaments, web
    from scorekeeper.background import queue as analysis_queue
    from scorekeeper.extensions import csrf, db, migrate
    from scorekeeper.web import limits

    db.init_app(app)
    migrate.init_app(app, db, directory=asset_folder("migrations"))
    csrf.init_app(app)
    analysis_queue.init_app(app)
    web.init_app(app)
    home.init_app(app)
    rubbers.init_app(app)
    cards.init_app(app)
    bidding.init_app(app)
    groups.init_app(app)
    tournaments.init_app(app)
    api.init_app(app)
    limits.init_app(app)
    return app
