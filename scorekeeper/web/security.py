"""Response headers that keep rubber links private and pages free of injected code."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from cachetools import TLRUCache
from flask import Flask, Request, Response, has_request_context, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, URLSafeTimedSerializer

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIEnvironment

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

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """As Flask's, without working out the cookie's attributes when it is not sent.

        Most answers send no cookie: the session was only read. They still say that they
        differ by the cookie (``Vary``), unless the view said so itself."""
        if session.modified or (session and self.should_set_cookie(app, session)):
            super().save_session(app, session, response)
        elif session.accessed:
            said = {value.strip().lower() for value in response.headers.get("Vary", "").split(",")}
            if "cookie" not in said:
                response.vary.add("Cookie")

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
the screen stays on at the table (static/app.js) for this site only."""

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

DOCUMENT_ONLY = frozenset(
    {"content-security-policy", "permissions-policy", "cross-origin-opener-policy"}
)
"""What a browser reads only on a document or a worker's script: inert on a static file (a
style sheet, a script a page loads, an icon, all the app's own), where they cost a phone 344
bytes an answer (docs/decisions/security.md). The service worker is no static file: /sw.js."""

_STATIC_HEADERS = tuple(header for header in _HEADERS if header[0] not in DOCUMENT_ONLY)


HOLDS_EDIT_KEY = "scorekeeper.holds_edit_key"
"""The WSGI environ's mark of an answer that shows an edit key."""


def holds_edit_key() -> None:
    """Mark this answer as one that shows an edit key (an edit link, the offline sync's key).

    No cache, the browser's included, may keep a copy of it (``Cache-Control: no-store``)."""
    request.environ[HOLDS_EDIT_KEY] = True


class FixedHeaders:
    """WSGI middleware: each answer leaves with HEADERS, added as it starts.

    Set once per answer on the plain list the server sends, after every view, error handler and
    hook of the app: a view's own header of the same name is kept. A static file goes without
    DOCUMENT_ONLY's. An answer that shows an edit key is ``no-store``; a JSON answer is an
    attachment; over https, Strict-Transport-Security too: the phone comes back over https
    only. The scheme is read as the answer starts, after werkzeug's ProxyFix has set it from
    the proxy's header."""

    def __init__(self, app: Flask) -> None:
        self.app = app
        self.wsgi_app = app.wsgi_app
        self.static = f"{app.static_url_path}/" if app.static_url_path else None

    def __call__(self, environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        static = self.static is not None and environ.get("PATH_INFO", "").startswith(self.static)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            present = {name.lower(): index for index, (name, _) in enumerate(headers)}
            # A static file's error is an HTML page: it keeps every header.
            fixed = _STATIC_HEADERS if static and status[:1] in ("2", "3") else _HEADERS
            headers.extend((name, value) for low, name, value in fixed if low not in present)
            if environ.get(HOLDS_EDIT_KEY):
                no_store = ("Cache-Control", "no-store")
                if "cache-control" in present:  # in its place: the indices above stay true
                    headers[present["cache-control"]] = no_store
                else:
                    headers.append(no_store)
            if "content-disposition" not in present and "content-type" in present:
                if headers[present["content-type"]][1].split(";")[0] == "application/json":
                    # Opened in a browser's tab, an API answer is a file to save, never a page.
                    headers.append(("Content-Disposition", 'attachment; filename="answer.json"'))
            max_age = self.app.config["HSTS_MAX_AGE"]
            secure = environ.get("wsgi.url_scheme") == "https"
            if max_age and secure and "strict-transport-security" not in present:
                headers.append(("Strict-Transport-Security", f"max-age={int(max_age)}"))
            return start_response(status, headers, exc_info)

        return self.wsgi_app(environ, start)


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
    app.wsgi_app = FixedHeaders(app)  # type: ignore[method-assign]
