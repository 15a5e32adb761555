"""Heavy downloads built once per version of what they show: a group's export, a cross's picture.

A download is named by a key that holds the version of its data (a group's latest change, a
rubber's version) and what else its bytes depend on; it is built the first time that key is
asked for, kept (gzipped when it is text) and sent again while the key holds, with a weak ETag
of the key: a client that has it gets 304 and nothing is built (docs/decisions/limits.md,
"Heavy reads").
"""

from __future__ import annotations

import gzip
import hashlib
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from cachetools import LRUCache
from flask import Flask, Response, current_app, request
from werkzeug.http import quote_etag

from scorekeeper.web import delivery

KEPT_BYTES = 24 * 1024 * 1024
"""What a worker keeps of downloads, the least recently sent forgotten first: about forty
exports of a 500-rubber group (6.3 MB of JSON, 0.5 MB gzipped)."""


@dataclass(frozen=True)
class Kept:
    """A download as built: its bytes, gzipped when ``packed`` (then sent as they are to a
    client that takes gzip, unpacked for one that does not)."""  # noqa: D205

    data: bytes
    packed: bool


class Downloads:
    """The downloads a worker keeps, bounded by their size, and how many it built."""

    def __init__(self, size: int = KEPT_BYTES) -> None:
        self._items: LRUCache[Hashable, Kept] = LRUCache(
            maxsize=size, getsizeof=lambda kept: len(kept.data)
        )
        self._lock = threading.Lock()
        self.builds = 0
        """Downloads built since the worker started: what the tests count."""

    def get(self, key: Hashable) -> Kept | None:
        with self._lock:
            return self._items.get(key)

    def put(self, key: Hashable, kept: Kept) -> None:
        with self._lock:
            self.builds += 1
            if len(kept.data) <= self._items.maxsize:  # larger: sent, not kept
                self._items[key] = kept


def downloads() -> Downloads:
    kept: Downloads = current_app.extensions["downloads"]
    return kept


def etag(key: Hashable) -> str:
    """Return the weak ETag of a download: a hash of its key and of the build (web.page_cache)."""
    digest = hashlib.sha256(repr((key, current_app.extensions["build_id"])).encode())
    return digest.hexdigest()[:20]


def send(  # noqa: PLR0913  what a download is, each named by its caller
    key: Hashable,
    build: Callable[[], bytes],
    *,
    mimetype: str,
    filename: str,
    text: bool,
) -> Response:
    """Answer the download of ``key``: 304 to an If-None-Match that holds, else its kept bytes.

    ``build`` makes the bytes the first time ``key`` is asked for in this worker; ``text`` ones
    are kept gzipped and sent so to a client that takes gzip."""
    tag = etag(key)
    headers = {
        "ETag": quote_etag(tag, weak=True),
        "Cache-Control": "no-cache",
        "Content-Disposition": f'attachment; filename="{filename}"',
    }
    if text:
        headers["Vary"] = "Accept-Encoding, Accept-Language"
    if request.if_none_match.contains_weak(tag):
        return Response(status=304, headers=headers)
    found = downloads().get(key)
    if found is None:
        data = build()
        found = (
            Kept(delivery.gzipped(data, delivery.GZIP_LEVEL), True) if text else Kept(data, False)
        )
        downloads().put(key, found)
    if not found.packed:
        return Response(found.data, mimetype=mimetype, headers=headers)
    if "gzip" in request.accept_encodings:  # type: ignore[comparison-overlap]
        answer = Response(found.data, mimetype=mimetype, headers=headers)
        answer.headers["Content-Encoding"] = "gzip"
        return answer
    return Response(gzip.decompress(found.data), mimetype=mimetype, headers=headers)


def init_app(app: Flask) -> None:
    app.extensions["downloads"] = Downloads()
