"""What every feature shares and that imports no feature.

The phone's identity, ids and keys, the one request guard, errors, languages and the wording
of the engine's codes, delivery (compression, static files), the page cache, security headers, the
proxies trusted, paging, SQLite's specifics."""

from __future__ import annotations

from flask import Blueprint, Flask

from scorekeeper.web import (
    delivery,
    downloads,
    errors,
    guard,
    i18n,
    logs,
    page_cache,
    parsed,
    proxy,
    security,
    sqlite,
)

bp = Blueprint("web", __name__)
"""The package's one blueprint: the pages of no feature (views.py) and the installable app's
files (pwa.py) add their routes to it."""


def init_app(app: Flask) -> None:
    """Bind the shared layer to the app, before any feature's blueprint."""
    parsed.init_app(app)
    proxy.init_app(app)
    sqlite.init_app(app)
    guard.init_app(app)
    i18n.init_app(app)
    security.init_app(app)
    delivery.init_app(app)
    page_cache.init_app(app)
    downloads.init_app(app)
    errors.init_app(app)
    logs.init_app(app)
    from scorekeeper.web import pwa, views  # noqa: F401  their routes, on bp

    app.register_blueprint(bp)
