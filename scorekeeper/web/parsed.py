"""The request headers a phone sends the same on every request, parsed once per worker.

A phone sends the same Cookie header with every request until its session changes, and the same
Accept-Encoding always. Werkzeug parses each on every request that reads it; here each distinct
header is parsed once and kept (an LRU per worker): the parses are immutable, so one copy serves
every request that sends the header. The WSGI server joins a request's Cookie headers into one.
"""

from __future__ import annotations

import functools

from flask import Flask
from flask import Request as FlaskRequest
from werkzeug.datastructures import Accept, ImmutableMultiDict
from werkzeug.http import parse_accept_header, parse_cookie
from werkzeug.utils import cached_property

HEADERS_KEPT = 1024
"""Distinct headers of each kind a worker keeps parsed, the least recently seen forgotten first."""


@functools.lru_cache(maxsize=HEADERS_KEPT)
def _cookies(header: str) -> ImmutableMultiDict[str, str]:
    return ImmutableMultiDict(parse_cookie(header))


@functools.lru_cache(maxsize=HEADERS_KEPT)
def _accept(header: str) -> Accept:
    return parse_accept_header(header)


class Request(FlaskRequest):
    """Flask's request, its cookies and accepted encodings parsed once per distinct header."""

    @cached_property
    def cookies(self) -> ImmutableMultiDict[str, str]:
        return _cookies(self.environ.get("HTTP_COOKIE", ""))

    @cached_property
    def accept_encodings(self) -> Accept:
        return _accept(self.environ.get("HTTP_ACCEPT_ENCODING", ""))


def init_app(app: Flask) -> None:
    app.request_class = Request
