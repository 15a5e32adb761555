"""The one request guard of the whole app, before any view of any feature reads its input."""

from __future__ import annotations

from flask import Flask, abort, current_app, request
from flask_wtf.form import SUBMIT_METHODS

from scorekeeper.extensions import csrf

FORM_TYPES = frozenset({"application/x-www-form-urlencoded", "multipart/form-data"})
LARGER_BODIES = "larger_bodies"
"""Where the app keeps the endpoints whose forms may be larger than MAX_CONTENT_LENGTH."""


def refuse_nul() -> None:
    """Refuse the NUL character in an address or a form field.

    No address or form field needs a NUL character, and PostgreSQL cannot hold one: an address with
    one names nothing (404), a query or form field with one is refused (400). JSON bodies are the
    API's to refuse, field by field."""
    if "\x00" in request.path:
        abort(404)
    if any("\x00" in value for _, value in request.args.items(True)):
        abort(400)
    # Only a posted form is read here (Flask-WTF's submit methods and form types): a JSON body
    # is left unread, for the view that may allow it a larger size (a group's import).
    if (
        request.method in SUBMIT_METHODS
        and request.mimetype in FORM_TYPES
        and any("\x00" in value for _, value in request.form.items(True))
    ):
        abort(400)


def guard() -> None:
    """Check a posted write's CSRF token (Flask-WTF's CSRFProtect), then refuse a NUL.

    One hook for both: CSRFProtect's own (WTF_CSRF_CHECK_DEFAULT, off in config.py) would run on
    every request, a page's too, to find it has nothing to check. Both read a posted form, so a
    form allowed a larger body gets its size first."""
    larger: int | None = current_app.extensions[LARGER_BODIES].get(request.endpoint)
    if larger is not None:
        request.max_content_length = larger
    if request.method in SUBMIT_METHODS and current_app.config["WTF_CSRF_ENABLED"]:
        csrf.protect(apply_exemptions=True)  # the API's blueprints are exempt (api/__init__.py)
    refuse_nul()


def allow_larger_body(app: Flask, endpoint: str, size: int) -> None:
    """Let the form posted to ``endpoint`` be up to ``size`` bytes (a group's backup restored)."""
    app.extensions[LARGER_BODIES][endpoint] = size


def init_app(app: Flask) -> None:
    app.extensions[LARGER_BODIES] = {}
    app.before_request(guard)
