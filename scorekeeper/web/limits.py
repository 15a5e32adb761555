"""Rate limits on what creates, and on asking for analyses.

Rubbers, groups, bidding games, imports and the analyses' POSTs, per client address, applied by
endpoint here so the views need not know (docs/decisions/limits.md, "Rate limits")."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from functools import partial
from typing import Any

from flask import Flask, Response, current_app, jsonify, render_template, request
from flask_babel import gettext as _
from flask_limiter import Limiter
from flask_limiter.errors import RateLimitExceeded
from flask_limiter.util import get_remote_address

RUBBERS = "30/minute;300/hour"
"""A table starts a rubber every quarter of an hour or so; a café's phones share one address."""
GROUPS = "10/minute;60/hour"
IMPORTS = "5/minute;30/hour"
ANALYSES = "20/minute;300/hour"
"""A table asks for a hand's analysis every few minutes at most; asking again for one queued is
answered at once, so a phone has no reason to repeat it (docs/decisions/limits.md)."""

LIMITS: dict[str, tuple[str, str]] = {
    # endpoint: (scope, limit); endpoints of one scope share their count.
    "rubbers.new_rubber": ("rubbers", RUBBERS),
    "rubbers.quick_rubber": ("rubbers", RUBBERS),
    "rubbers.next_rubber": ("rubbers", RUBBERS),
    "groups.new_rubber": ("rubbers", RUBBERS),
    "api.rubbers.create_rubber": ("rubbers", RUBBERS),
    "groups.new_group": ("groups", GROUPS),
    "api.groups.create_group": ("groups", GROUPS),
    "api.tournaments.create_tournament": ("groups", GROUPS),
    "tournaments.new_tournament": ("groups", GROUPS),
    "bidding.new_game": ("bidding", RUBBERS),
    "bidding.quick_game": ("bidding", RUBBERS),
    "groups.new_bidding_game": ("bidding", RUBBERS),
    "api.bidding.create_game": ("bidding", RUBBERS),
    "api.groups.import_group": ("imports", IMPORTS),
    "groups.restore": ("imports", IMPORTS),
    "api.analysis.analyse": ("analyses", ANALYSES),
    "cards.start_analysis": ("analyses", ANALYSES),
    "cards.analyse": ("analyses", ANALYSES),
}
"""Every creation and every POST that queues an analysis, by the HTML forms and by the API. An
endpoint named here that the app does not have stops create_app (a KeyError), so a renamed view
cannot slip out of its limit."""

DOWNLOADS = "30/minute;300/hour"
"""Heavy reads (issue 24, item 7): a group's export, a rubber's CSV, a cross's files. Kept per
version (web.downloads), yet each still sends up to megabytes; one count for all of them."""
TV_CODES = "10/minute;60/hour"
"""A group's TV opened by its short code (issue 25, item 5): a TV types one now and then; an
address trying codes finds a group in decades (docs/decisions/groups.md, "The TV's short
address")."""
READS: dict[str, tuple[str, str]] = {
    "groups.tv": ("tv_codes", TV_CODES),
    "api.export.export_json": ("downloads", DOWNLOADS),
    "api.export.rubber_csv": ("downloads", DOWNLOADS),
    "rubbers.sheet": ("downloads", DOWNLOADS),
    "groups.sheet": ("downloads", DOWNLOADS),
    "groups.cross_png": ("downloads", DOWNLOADS),
    "groups.cross_svg": ("downloads", DOWNLOADS),
    "tournament_export.export_json": ("downloads", DOWNLOADS),
    "tournament_export.standings_csv": ("downloads", DOWNLOADS),
}
"""The GETs limited, as LIMITS names the POSTs."""


def scaled(limit: str, factor: int) -> str:
    """The limit with its counts multiplied (RATELIMIT_FACTOR).

    >>> scaled("30/minute;300/hour", 10)
    '300/minute;3000/hour'
    """
    parts = (part.split("/", 1) for part in limit.split(";"))
    return ";".join(f"{int(count) * factor}/{per}" for count, per in parts)


def _configured(limit: str) -> Callable[[], str]:
    """The limit as this app's configuration scales it, read at each request."""
    return lambda: scaled(limit, current_app.config["RATELIMIT_FACTOR"])


def _sentence() -> str:
    """What a 429 says: what was asked too often."""
    if request.endpoint in READS:
        return _("Too many downloads from this address: wait a minute and try again.")
    if LIMITS.get(request.endpoint or "", ("", ""))[0] == "analyses":
        return _("Too many analyses asked for from this address: wait a minute and try again.")
    return _(
        "Too many new rubbers, groups or imports from this address: wait a minute and try again."
    )


def too_many(error: RateLimitExceeded) -> Any:
    """429 with a sentence: the API's error body under /api/, a page elsewhere."""
    message = _sentence()
    response: Response | str
    if request.path.startswith("/api/"):
        response = jsonify(error=message, field=None, code="rate_limited")
    else:
        response = render_template("error.html", title=_("Too many at once"), message=message)
    answer = current_app.make_response((response, 429))
    # Only the limited answer says when to come back: the headers of every limited endpoint
    # would also replace a 503's own Retry-After.
    current = current_app.extensions["scorekeeper.limits"].current_limit
    if current is not None:
        answer.headers["Retry-After"] = str(max(1, math.ceil(current.reset_at - time.time())))
    return answer


def _checked_only_where_limited(app: Flask, limiter: Limiter) -> None:
    """Take off the hooks Flask-Limiter puts on every request: the limited views check their own.

    Before every view it looks for default and blueprint limits, which this app has none of; after
    it, it adds the RateLimit headers (off here) and deducts conditional costs (none here), and at
    the end it empties its context, which lives on the request's own context. The limited views'
    wrappers (below) check their limits, so a page that is not limited pays nothing for them
    (docs/performance.md, "The request path of the third round")."""

    def its_own(hook: Any) -> bool:
        bound_to = (
            hook.args[:1] if isinstance(hook, partial) else (getattr(hook, "__self__", None),)
        )
        return limiter in bound_to

    all_hooks: tuple[dict[Any, list[Any]], ...] = (
        app.before_request_funcs,
        app.after_request_funcs,
        app.teardown_request_funcs,
    )
    for hooks in all_hooks:
        if None in hooks:  # none at all while the limits are off (RATELIMIT_ENABLED)
            hooks[None] = [hook for hook in hooks[None] if not its_own(hook)]


def init_app(app: Flask) -> Limiter:
    """Limit the app's creations, once its blueprints are registered.

    Counters in memory, or in the storage of RATELIMIT_STORAGE_URI (Redis) that several servers
    share."""
    limiter = Limiter(get_remote_address, app=app)
    _checked_only_where_limited(app, limiter)
    # The limiter's wrappers hold it weakly: the app keeps it.
    app.extensions["scorekeeper.limits"] = limiter
    for endpoint, (scope, limit) in LIMITS.items():
        view = app.view_functions[endpoint]
        limited: Any = limiter.shared_limit(_configured(limit), scope=scope, methods=["POST"])(view)
        app.view_functions[endpoint] = limited  # typed as maybe async: these views are not
    for endpoint, (scope, limit) in READS.items():
        view = app.view_functions[endpoint]
        read: Any = limiter.shared_limit(_configured(limit), scope=scope, methods=["GET"])(view)
        app.view_functions[endpoint] = read
    app.register_error_handler(429, too_many)
    return limiter
