"""Error pages in the reader's language, and JSON errors under /api/.

Never a bare 500 page; a database that cannot be read or written is 503, said so."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from flask import Flask, current_app, jsonify, render_template, request
from flask.globals import request_ctx
from flask.sansio.app import App
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import DBAPIError
from werkzeug.exceptions import Forbidden, HTTPException

SQLITE_UNAVAILABLE = frozenset({3, 5, 6, 8, 10, 13, 14, 15})
"""SQLite's primary result codes for a database out of reach rather than a bad statement:
PERM, BUSY (past the busy timeout), LOCKED, READONLY (a read-only file or folder), IOERR,
FULL (the disk), CANTOPEN (no folder, no file), PROTOCOL. A missing table or a syntax error is
an OperationalError too, and stays the 500 it is."""
UNAVAILABLE_SQLSTATE_CLASSES = frozenset({"08", "53", "57", "58"})
"""PostgreSQL's classes for the same: connection, insufficient resources (disk full, memory,
connections), operator intervention (shutting down, starting, a statement timeout), system."""
READ_ONLY_SQLSTATE = "25006"
"""A read-only transaction: a standby, or a server set to default_transaction_read_only."""
RETRY_AFTER = 30


class ReadOnly(Forbidden):
    """A 403 for a phone without the edit link, whose sentence says what that link gives here.

    The read-only link of a group lets one look; its edit link starts rubbers in it, not "records
    hands" as a rubber's does."""

    def __init__(self, sentence: str) -> None:
        super().__init__(description=sentence)


def _explain(error: HTTPException) -> tuple[str, str]:
    code = error.code or 500
    if isinstance(error, ReadOnly) and error.description:
        return _("Not allowed"), error.description
    if isinstance(error, CSRFError):
        return _("Please try again"), _(
            "This form was open too long or came from elsewhere. Reload the page and try again."
        )
    return {
        400: (_("Bad request"), _("The request could not be understood.")),
        403: (
            _("Not allowed"),
            _("This phone has the read-only link: open the edit link to record hands."),
        ),
        404: (_("Not found"), _("There is no such page. Check the link.")),
        405: (_("Not allowed"), _("This address does not take that kind of request.")),
        413: (_("Too large"), _("The request is too large.")),
    }.get(code, (_("Something went wrong"), _("Try again in a moment.")))


def answer_routing_errors(app: App, prefix: str, answer: Callable[[HTTPException], Any]) -> None:
    """Let ``answer`` answer a request under ``prefix`` that no view took (an API's own shape).

    The check costs only a request that failed: no hook runs on every request for it."""
    app.extensions.setdefault("routing_errors", []).append((prefix, answer))


def handle_http_error(error: HTTPException) -> Any:
    if request_ctx.url_adapter is None:
        return _unbound_host(error)
    path = request.path
    for prefix, answer in current_app.extensions.get("routing_errors", ()):
        if path == prefix or path.startswith(prefix + "/"):
            return answer(error)
    title, message = _explain(error)
    code = error.code or 500
    if request.path.startswith("/api/"):
        return jsonify(error=message, field=None, code=f"http_{code}"), code
    return render_template("error.html", title=title, message=message), code


def _unbound_host(error: HTTPException) -> Any:
    """400 for a request whose Host is no address, or not one of ``TRUSTED_HOSTS``.

    No address of the app can be built for it (Flask could not bind its routes to that host),
    so the answer is a sentence alone: plain text, or the API's error."""
    message = _(
        "The request names a site (its Host) that this server does not answer for. Check the "
        "address."
    )
    if request.path.startswith("/api/"):
        return jsonify(error=message, field=None, code="bad_host"), error.code or 400
    title = _("Bad request")
    response = current_app.response_class(f"{title}\n\n{message}\n", mimetype="text/plain")
    response.status_code = error.code or 400
    return response


def unavailable(error: Exception) -> bool:
    """Return whether a database error means the database is out of reach, not a bug in a statement.

    Out of reach is a disk full, a read-only file or folder, or a server gone; SQLite's result code,
    PostgreSQL's SQLSTATE, or a connection that could not be made tells."""
    if isinstance(error, DBAPIError):
        if error.connection_invalidated:
            return True
        error = error.orig  # type: ignore[assignment]
    code = getattr(error, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in SQLITE_UNAVAILABLE
    sqlstate = getattr(error, "sqlstate", None)
    if isinstance(sqlstate, str):
        return sqlstate == READ_ONLY_SQLSTATE or sqlstate[:2] in UNAVAILABLE_SQLSTATE_CLASSES
    # A driver's own failure to reach the server (psycopg's has no SQLSTATE).
    return type(error).__name__ == "OperationalError"


def handle_database_error(error: Exception) -> Any:
    """Answer 503 with a sentence (a page, or the API's error), for a database out of reach.

    Any other database error goes on to be the 500 it is. A write refused so was not acknowledged,
    and the transaction is rolled back with the request's session: nothing stored changes."""
    if not unavailable(error):
        raise error
    # The address's rule, not the address: an edit link's key stays out of the log.
    rule = request.url_rule.rule if request.url_rule else "?"
    current_app.logger.error(
        "The database is out of reach (%s %s): %s",
        request.method,
        rule,
        getattr(error, "orig", error),
    )
    message = _(
        "The server cannot read or write its records just now. Every hand already on the "
        "score is kept: try again in a moment."
    )
    if request.path.startswith("/api/"):
        response = jsonify(error=message, field=None, code="unavailable")
    else:
        response = current_app.make_response(
            render_template("error.html", title=_("The scores are out of reach"), message=message)
        )
    response.status_code = 503
    response.headers["Retry-After"] = str(RETRY_AFTER)
    response.headers["Cache-Control"] = "no-store"
    return response


def database_errors() -> tuple[type[Exception], ...]:
    """Return SQLAlchemy's wrapped errors, and the drivers' own.

    A raw connection raises the drivers' errors as they are (the rubber page's query, opening a
    connection from the pool)."""
    classes: list[type[Exception]] = [DBAPIError, sqlite3.Error]
    try:
        import psycopg
    except ImportError:  # only PostgreSQL needs it
        pass
    else:
        classes.append(psycopg.Error)
    return tuple(classes)


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
    for error in database_errors():
        app.register_error_handler(error, handle_database_error)
