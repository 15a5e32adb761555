"""Response headers that keep rubber links private and pages free of injected code."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

from cachetools import TLRUCache
from flask import Flask, Request, Response, request
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
            data, signed = serializer.loads(cookie, max_age=lifetime, return_timestamp=True)
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


HEADERS = (
    ("Content-Security-Policy", CONTENT_SECURITY_POLICY),
    ("Referrer-Policy", "same-origin"),
    ("X-Content-Type-Options", "nosniff"),
)


def _headers(response: Response) -> Response:
    """Each of HEADERS that the view did not set itself (one look at the headers for all)."""
    present = {name.lower() for name, _ in response.headers.items()}
    for name, value in HEADERS:
        if name.lower() not in present:
            response.headers.add(name, value)
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
