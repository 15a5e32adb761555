"""Response headers that keep rubber links private and pages free of injected code."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

from cachetools import TLRUCache
from flask import Flask, Request, Response, current_app, g, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


VERIFIED_KEPT = 1024
"""Session cookies a worker remembers having verified, the least recently seen forgotten first."""
VERIFIED_FOR = 3600.0
"""Seconds a verified cookie is trusted without checking its signature again (never past the
end of the cookie's own life)."""


_VERIFIED_LOCK = threading.Lock()  # the development server answers in threads


def _until(_key: Any, value: tuple[float, dict[str, Any]], _now: float) -> float:
    """When a remembered cookie is to be verified again: kept beside its session."""
    return value[0]


class SessionInterface(SecureCookieSessionInterface):
    """The signed-cookie session, marked Secure whenever the request came over HTTPS.

    It is then named with the ``__Host-`` prefix (SESSION_COOKIE_HTTPS_PREFIX): a browser keeps such
    a cookie only from this very host over https, for the whole site, so no sibling subdomain or
    plain-http page can plant a session of its own. Over plain http (``make run``) it keeps the
    plain name, which browsers would refuse with the prefix.

    A phone sends the same cookie with every request until its session changes: a cookie whose
    signature was checked in the last hour is read from memory (a forged one is never there,
    nor one past its life).
    """

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        cookie = request.cookies.get(self.get_cookie_name(app))
        serializer = self.get_signing_serializer(app)
        if not cookie or serializer is None:
            return super().open_session(app, request)
        verified: TLRUCache[tuple[Any, str], tuple[float, dict[str, Any]]]
        verified = app.extensions["verified_sessions"]
        key = (app.secret_key, cookie)  # a new secret key trusts no cookie signed with the old
        now = time.monotonic()
        with _VERIFIED_LOCK:
            seen = verified.get(key)  # None once its time is up
        if seen is not None:
            return self.session_class(_copied(seen[1]))
        # As Flask's own open_session, with the time the cookie was signed: it is remembered
        # an hour at most, and never past the end of its life.
        lifetime = app.permanent_session_lifetime.total_seconds()
        try:
            data, signed = serializer.loads(
                cookie,
                max_age=lifetime,  # type: ignore[arg-type]  # typed int; compared with a float age
                return_timestamp=True,
            )
        except BadSignature:
            return self.session_class()
        session = self.session_class(data)
        if session:
            left = lifetime - (datetime.now(UTC) - signed).total_seconds()
            with _VERIFIED_LOCK:
                verified[key] = (now + min(VERIFIED_FOR, left), _copied(dict(session)))
        return session

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or request.is_secure

    def _prefix(self, app: Flask) -> str:
        prefix = str(app.config.get("SESSION_COOKIE_HTTPS_PREFIX") or "")
        return prefix if prefix and has_request_context() and request.is_secure else ""

    def get_cookie_name(self, app: Flask) -> str:
        return self._prefix(app) + super().get_cookie_name(app)

    def get_cookie_domain(self, app: Flask) -> str | None:
        # A __Host- cookie has no Domain and the path / (a __Secure- one may have both).
        if self._prefix(app) == "__Host-":
            return None
        return super().get_cookie_domain(app)

    def get_cookie_path(self, app: Flask) -> str:
        if self._prefix(app) == "__Host-":
            return "/"
        return super().get_cookie_path(app)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        """Made once per secret key rather than on every request."""
        made = app.extensions.get("session_serializer")
        if made is None or made[0] != app.secret_key:
            made = app.extensions["session_serializer"] = (
                app.secret_key,
                super().get_signing_serializer(app),
            )
        serializer: URLSafeTimedSerializer | None = made[1]
        return serializer


PERMISSIONS_POLICY = (
    "accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), "
    "microphone=(), payment=(), usb=(), screen-wake-lock=(self)"
)
"""The browser features no page uses are off, for the pages and anything they might embed;
the screen stays on at the table (static/wakelock.js) for this site only."""

HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("Referrer-Policy", "same-origin"),
    ("X-Content-Type-Options", "nosniff"),
    ("Permissions-Policy", PERMISSIONS_POLICY),
    # No other site's window shares a browsing context group with ours (nor can reach ours
    # through window.opener), and no other site may load our answers as its images or scripts.
    ("Cross-Origin-Opener-Policy", "same-origin"),
    ("Cross-Origin-Resource-Policy", "same-origin"),
)


_HEADERS = tuple((name.lower(), name, value) for name, value in HEADERS)
"""HEADERS with each name in lower case, to compare with the view's own once per answer."""


def holds_edit_key() -> None:
    """Mark this answer as one that shows an edit key (an edit link, the offline sync's key).

    No cache, the browser's included, may keep a copy of it (``Cache-Control: no-store``)."""
    g.holds_edit_key = True


def _headers(response: Response) -> Response:
    """Add each of HEADERS that the view did not set itself (one look at the headers for all).

    Set no-store for an answer that shows an edit key; a JSON answer is an attachment; over
    https, Strict-Transport-Security too: the phone comes back over https only."""
    present = {name.lower() for name, _ in response.headers.items()}
    response.headers.extend([(name, value) for low, name, value in _HEADERS if low not in present])
    if g.get("holds_edit_key") and response.headers.get("Cache-Control") != "no-store":
        response.headers["Cache-Control"] = "no-store"
    if response.mimetype == "application/json" and "content-disposition" not in present:
        # Opened in a browser's tab, an API answer is a file to save, never a page to render.
        response.headers["Content-Disposition"] = 'attachment; filename="answer.json"'

    max_age = current_app.config["HSTS_MAX_AGE"]
    if max_age and request.is_secure and "strict-transport-security" not in present:
        response.headers.add("Strict-Transport-Security", f"max-age={int(max_age)}")
    return response


def _copied(value: Any) -> Any:
    """A copy of a session's value, deep enough that changing the copy leaves it alone."""
    if isinstance(value, dict):
        return {key: _copied(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copied(item) for item in value]
    return value  # str, numbers, tuples of them: not changed in place


def init_app(app: Flask) -> None:
    app.session_interface = SessionInterface()
    # cachetools' time-aware LRU: the least recently seen forgotten first, each at its time.
    app.extensions["verified_sessions"] = TLRUCache(VERIFIED_KEPT, _until, timer=time.monotonic)
    app.after_request(_headers)
