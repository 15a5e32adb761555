"""Rendered rubber pages, kept until the rubber changes: a page is rendered once per version.

A rubber page depends on the rubber's version, the language, the address it is served under and
what the phone may do; those make the key. What each answer needs of its own (the session's CSRF
token, the hand form's fresh write key, the phone's edit key) is cut out of the kept copy and
filled in again for every answer.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
from collections.abc import Hashable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from cachetools import LRUCache
from flask import Flask, Response, current_app
from werkzeug.http import http_date, quote_etag

from scorekeeper.web import delivery

PAGES_KEPT = 256
"""Rendered pages (and answers) a worker keeps, the least recently shown forgotten first."""


class Kept:
    """A bounded least-recently-used map: cachetools' LRUCache, one thread at a time.

    The development server answers in threads; cachetools leaves locking to its caller."""

    def __init__(self, size: int) -> None:
        self._items: LRUCache[Hashable, Any] = LRUCache(maxsize=size)
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any:
        with self._lock:
            return self._items.get(key)

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = value

    def __len__(self) -> int:
        return len(self._items)


class Answer:
    """A rubber page as sent to one phone, and its gzip once a phone has taken it.

    Its headers are made once with it: each answer sends the same ones (see :func:`validators`).
    """

    def __init__(
        self, html: bytes, version: int, etag: str, headers: list[tuple[str, str]]
    ) -> None:
        self.html = html
        self.version = version
        self.etag = etag
        self.headers = headers
        self._gzipped: bytes | None = None

    def response(self, gzip_ok: bool) -> Response:
        if not gzip_ok:
            return Response(self.html, mimetype="text/html", headers=self.headers)
        if self._gzipped is None:
            self._gzipped = delivery.gzipped(self.html, delivery.KEPT_GZIP_LEVEL)
        return Response(self._gzipped, mimetype="text/html", headers=[*self.headers, GZIP_ENCODING])


GZIP_ENCODING = ("Content-Encoding", "gzip")


def validators(etag: str, updated_at: datetime, holds_edit_key: bool) -> list[tuple[str, str]]:
    """The headers of a kept page's answer, its 304 too: what a browser asks again with.

    The weak ETag and the time of the page's version; the phone asks again before each use
    (``no-cache``), and no cache keeps a page that shows an edit key (``no-store``, as
    web.security says for every such answer); the page differs by the encoding, the phone and
    the language."""
    return [
        ("ETag", quote_etag(etag, weak=True)),
        ("Last-Modified", http_date(updated_at.replace(tzinfo=UTC))),
        ("Cache-Control", "no-store" if holds_edit_key else "private, no-cache"),
        ("Vary", "Accept-Encoding, Cookie, Accept-Language"),
    ]


class PageCache:
    """Renderings shared by every phone, and each phone's last answer.

    The renderings have the per-answer parts cut out. A phone is given its last answer again (as a
    browser would show its cached copy after a 304) until the rubber changes."""

    def __init__(self, size: int = PAGES_KEPT) -> None:
        self.renders = Kept(size)
        self.answers = Kept(size)
        # Unguessable marks: no team name or other text of a page can spell one.
        self._marks: dict[str, str] = {}

    def mark(self, name: str) -> str:
        return self._marks.setdefault(name, f"\u2060{name}-{secrets.token_hex(16)}\u2060")

    def keep(self, key: Hashable, page: str, parts: Mapping[str, str]) -> None:
        """Keep ``page`` with each of ``parts`` (name → the text this answer had) cut out."""
        kept = page
        names = []
        for name, text in parts.items():
            if text:
                kept = kept.replace(text, self.mark(name))
                names.append(name)
        self.renders.put(key, (kept, tuple(names)))

    def page(self, key: Hashable, parts: Mapping[str, str]) -> str | None:
        """The page kept under ``key`` with this answer's parts filled in, or None."""
        found = self.renders.get(key)
        if found is None:
            return None
        page, names = found
        for name in names:
            page = page.replace(self.mark(name), parts[name])
        return str(page)


def pages() -> PageCache:
    cache: PageCache = current_app.extensions["page_cache"]
    return cache


def build_id(app: Flask) -> str:
    """Return a hash of the code, templates, catalogues and static files this worker renders with.

    It is part of each ETag, so a new release never answers 304 for a page the old one rendered."""
    digest = hashlib.sha256()
    folders = [
        (Path(app.root_path), "*.py"),  # the engine's rules and the views' wording
        (Path(app.template_folder or ""), "*"),
        (Path(app.root_path) / "translations", "*"),
        (Path(app.static_folder or ""), "*"),
    ]
    for folder, pattern in folders:
        for path in sorted(folder.rglob(pattern)):
            if path.is_file():
                digest.update(str(path.relative_to(folder)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def init_app(app: Flask) -> None:
    app.extensions["page_cache"] = PageCache()
    app.extensions["build_id"] = build_id(app)
