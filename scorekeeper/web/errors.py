"""Error pages in the reader's language, and JSON errors under /api/: never a bare 500 page."""

from __future__ import annotations

from typing import Any

from flask import Flask, jsonify, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from werkzeug.exceptions import HTTPException


def _explain(error: HTTPException) -> tuple[str, str]:
    code = error.code or 500
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


def handle_http_error(error: HTTPException) -> Any:
    title, message = _explain(error)
    code = error.code or 500
    if request.path.startswith("/api/"):
        return jsonify(error=message, field=None, code=f"http_{code}"), code
    return render_template("error.html", title=title, message=message), code


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, handle_http_error)
