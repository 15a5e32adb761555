"""Which forwarded headers to believe: those the PROXY_COUNT proxies in front set, no others."""

from __future__ import annotations

from flask import Flask
from werkzeug.middleware.proxy_fix import ProxyFix


def init_app(app: Flask) -> None:
    """With PROXY_COUNT=N, the address, scheme, host and prefix each of the N proxies saw.

    Unset (0), a request's X-Forwarded-* headers are never read: links are built from the
    request's own Host and scheme, so a client cannot name another site in them.
    """
    count = int(app.config["PROXY_COUNT"])
    if count:
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=count, x_proto=count, x_host=count, x_port=0, x_prefix=count
        )
