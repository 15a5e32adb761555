"""The app reading its session cookie as Flask does, its signature checked on every request.

It is the reference that tells what the verified-cookie cache of scorekeeper/web/security.py saves.
"""

from flask.sessions import SecureCookieSessionInterface

from scorekeeper.web import security

security.SessionInterface.open_session = SecureCookieSessionInterface.open_session  # type: ignore[method-assign]

from bench.wsgi import app  # noqa: E402  (the app made after the cache is taken out)

__all__ = ["app"]
