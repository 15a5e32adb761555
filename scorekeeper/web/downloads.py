"""Heavy downloads built once per version of what they show: a group's export, a cross's picture.

A download is named by a key that holds the version of its data (a group's latest change, a
rubber's version) and what else its bytes depend on; it is built the first time that key is
asked for, kept (gzipped when it is text) and sent again while the key holds, with a weak ETag
of the key: a client that has it gets 304 and nothing is built (docs/decisions/limits.md,
"Heavy reads").
"""

from __future__ import annotations

import csv
import hashlib
import io
import threading
import zlib
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from flask import Flask, Response, current_app, request
from werkzeug.http import quote_etag

from scorekeeper.web import delivery

KEPT_BYTES = 24 * 1024 * 1024
"""What a worker keeps of downloads, the least recently sent forgotten first: about forty
exports of a 500-rubber group (6.3 MB of JSON, 0.5 MB gzipped)."""
GZIP_WINDOW = 31
"""zlib's window bits for a gzip stream (with its header and trailer)."""
UNPACKED_CHUNK = 16 * 1024
"""Gzipped bytes unpacked at a time for a client that does not take gzip."""
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these is a formula to a spreadsheet."""


@dataclass(frozen=True)
class Kept:
    """A download as built: its bytes, gzipped when ``packed``.

    Packed bytes are sent as they are to a client that takes gzip, unpacked for one that does
    not."""

    data: bytes
    packed: bool


class Downloads:
    """The downloads a worker keeps, bounded by their size, and how many it built."""

    def __init__(self, size: int = KEPT_BYTES) -> None:
        self._items: LRUCache[Hashable, Kept] = LRUCache(
            maxsize=size, getsizeof=lambda kept: len(kept.data)
        )
        self._lock = threading.Lock()
        self._building: dict[Hashable, threading.Lock] = {}
        self.builds = 0
        """Downloads built since the worker started: what the tests count."""

    def building(self, key: Hashable) -> threading.Lock:
        """The lock one build of ``key`` holds.

        The worker's other threads asking for it wait for that build rather than each building
        the same bytes at once."""
        with self._lock:
            return self._building.setdefault(key, threading.Lock())

    def built(self, key: Hashable) -> None:
        with self._lock:
            self._building.pop(key, None)

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
    build: Callable[[], Iterable[bytes]],
    *,
    mimetype: str,
    filename: str | None,
    text: bool,
    cache_control: str = "no-cache",
) -> Response:
    """Answer the download of ``key``: 304 to an If-None-Match that holds, else its kept bytes.

    ``build`` yields the bytes, in parts, the first time ``key`` is asked for in this worker;
    ``text`` ones are gzipped part by part as they come (a large export is never held whole),
    kept so, and sent so to a client that takes gzip, unpacked as they are sent to one that does
    not. Without a ``filename`` it is a document shown in the browser (a TV, a page to print),
    not saved as a file."""
    tag = etag(key)
    headers = {
        "ETag": quote_etag(tag, weak=True),
        "Cache-Control": cache_control,
        # The language of their words, whether chosen by the browser or by the cookie.
        "Vary": "Accept-Encoding, Accept-Language, Cookie" if text else "Accept-Language, Cookie",
    }
    if filename is not None:
        headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    if request.if_none_match.contains_weak(tag):
        return Response(status=304, headers=headers)
    kept = downloads()
    found = kept.get(key)
    if found is None:
        with kept.building(key):
            found = kept.get(key)  # built meanwhile by another thread of this worker
            if found is None:
                try:
                    found = Kept(_packed(build()), True) if text else Kept(b"".join(build()), False)
                    kept.put(key, found)
                finally:
                    kept.built(key)
    if not found.packed:
        return Response(found.data, mimetype=mimetype, headers=headers)
    if "gzip" in request.accept_encodings:  # type: ignore[comparison-overlap]
        answer = Response(found.data, mimetype=mimetype, headers=headers)
        answer.headers["Content-Encoding"] = "gzip"
        return answer
    return Response(_unpacked(found.data), mimetype=mimetype, headers=headers)


def _packed(parts: Iterable[bytes]) -> bytes:
    """Return the parts gzipped, compressed one after another.

    >>> import gzip; gzip.decompress(_packed([b"Sueca ", b"a quatro"]))
    b'Sueca a quatro'
    """
    packer = zlib.compressobj(delivery.GZIP_LEVEL, zlib.DEFLATED, GZIP_WINDOW)
    packed = [packer.compress(part) for part in parts]
    packed.append(packer.flush())
    return b"".join(packed)


def _unpacked(data: bytes) -> Iterator[bytes]:
    """Yield gzipped ``data`` unpacked, a few kilobytes of it at a time."""
    unpacker = zlib.decompressobj(GZIP_WINDOW)
    for start in range(0, len(data), UNPACKED_CHUNK):
        yield unpacker.decompress(data[start : start + UNPACKED_CHUNK])
    yield unpacker.flush()


def cell(value: Any) -> str:
    """One CSV cell: numbers as they are, text that a spreadsheet would run defused with a '.

    >>> cell(3), cell(None), cell(True), cell("=SUM(A1)")
    ('3', '', 'true', "'=SUM(A1)")
    """
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    text = str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_text(table: Iterable[Iterable[Any]]) -> str:
    """Return a table as CSV text (a spreadsheet's line ends), every cell through :func:`cell`."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(
        [cell(value) for value in row] for row in table
    )
    return out.getvalue()


def init_app(app: Flask) -> None:
    app.extensions["downloads"] = Downloads()
