"""How answers travel: gzip, and static files under hashed URLs that browsers keep for a year.

A static URL carries the hash of the file (``/static/app.css?v=3f9c…``): that URL is cached as
immutable, and a changed file gets a new URL. Static files are small, so each is read whole once,
minified when it is a stylesheet or a script, and kept with its gzip copy (no file stays open,
and no file is compressed twice in a process, however many apps it makes).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import logging
import mimetypes
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rcssmin
import zopfli.gzip
from flask import Flask, Response, abort, current_app, request
from werkzeug.security import safe_join

logger = logging.getLogger(__name__)

COMPRESSIBLE = frozenset(
    {
        "text/html",
        "text/css",
        "text/plain",
        "application/javascript",
        "text/javascript",
        "application/manifest+json",
        "image/svg+xml",
    }
)
"""What is worth compressing: the text a browser fetches; PNG files are compressed already.
The API's JSON is left alone: its answers are short, and its clients are scripts that may not
take gzip however they ask. A group's export file, which is not short, is kept gzipped and sent
so by web.downloads to a client that asks for gzip."""
SMALLEST = 256
"""Shorter answers are sent as they are: gzip would save little more than its own header."""
GZIP_LEVEL = 6
KEPT_GZIP_LEVEL = 9
"""For what is compressed once per version and sent many times: kept rubber pages (static
files, compressed once for good, get Zopfli's: packed_once)."""
PACKED_KEPT = 64
"""Files whose gzip a process keeps by their bytes: the static folder's, and the worker's
script (a few versions of each while files change under a development server)."""
YEAR = 365 * 24 * 3600
HASH_LENGTH = 12


@dataclass(frozen=True)
class StaticFile:
    """A static file as read once: its bytes, their gzip, and the hash its URL carries."""

    data: bytes
    gzipped: bytes | None
    digest: str
    mimetype: str
    mtime_ns: int


def gzipped(data: bytes, level: int = GZIP_LEVEL) -> bytes:
    # mtime=0: the same file gives the same bytes in every worker, so one ETag fits all.
    return gzip.compress(data, level, mtime=0)


@functools.lru_cache(maxsize=PACKED_KEPT)
def packed_once(data: bytes) -> bytes:
    """Return the smallest gzip there is time for, for a static file compressed once.

    The file is sent to every phone: Zopfli's gzip, 3 to 5 % under zlib's best (about 0.1 s a
    file, once per process: the same bytes are not packed again by another app of it, as the
    tests make thousands).

    >>> gzip.decompress(packed_once(b"Sueca " * 100)) == b"Sueca " * 100
    True
    """
    return bytes(zopfli.gzip.compress(data))


@functools.lru_cache(maxsize=PACKED_KEPT)
def minified(data: bytes, mimetype: str) -> bytes:
    """A stylesheet or script without its comments and spaces (the files keep them for people).

    A script's own names are shortened too (calmjs.parse, which reads the ES5 the scripts are
    written in): its top-level names, which other scripts and pages may use, are kept. Each
    answer is kept, by the file's bytes, as the packed copies are.

    >>> minified(b"a { color: red; } /* why */", "text/css")
    b'a{color:red}'
    >>> minified(b"var CONFIG = 1; (function () { var count = CONFIG; })();", "application/javascript")
    b'var CONFIG=1;(function(){var a=CONFIG;})();'
    """
    if mimetype == "text/css":
        return bytes(rcssmin.cssmin(data))
    if mimetype == "application/javascript":
        # Imported here: a process that serves no script does not load the parser.
        from calmjs.parse import es5
        from calmjs.parse.unparsers.es5 import minify_print

        try:
            program = es5(data.decode("utf-8"))
        except SyntaxError:
            # A syntax newer than ES5: the script goes as written rather than fail every page
            # that names it (tests/web/test_delivery.py fails on such a script).
            logger.warning("a script the minifier cannot read is served as written")
            return data
        return str(minify_print(program, obfuscate=True, obfuscate_globals=False)).encode()
    return data


def _load(path: str) -> StaticFile:
    with open(path, "rb") as source:
        data = source.read()
        mtime_ns = os.fstat(source.fileno()).st_mtime_ns
    mimetype = mimetypes.guess_type(path)[0] or "application/octet-stream"
    if mimetype == "text/javascript":
        mimetype = "application/javascript"
    digest = hashlib.sha256(data).hexdigest()[:HASH_LENGTH]
    data = minified(data, mimetype)
    packed = None
    if mimetype in COMPRESSIBLE and len(data) >= SMALLEST:
        packed = packed_once(data)
        if len(packed) >= len(data):
            packed = None
    return StaticFile(data, packed, digest, mimetype, mtime_ns)


def static_file(filename: str) -> StaticFile | None:
    """The static file ``filename`` as last read, read again when it changed on disk."""
    folder = current_app.static_folder or ""
    path = safe_join(folder, filename)
    if path is None:
        return None
    try:
        mtime_ns = os.stat(path).st_mtime_ns
    except (OSError, ValueError):
        return None
    if not Path(path).is_file():
        return None
    files: dict[str, StaticFile] = current_app.extensions["static_files"]
    known = files.get(path)
    if known is None or known.mtime_ns != mtime_ns:
        known = files[path] = _load(path)
    return known


def _hashed_static_urls(endpoint: str, values: dict[str, Any]) -> None:
    """``url_for("static", filename=…)`` adds the file's hash; ``v=None`` asks for the bare path."""
    if endpoint == "static" and "v" not in values and "filename" in values:
        found = static_file(str(values["filename"]))
        if found is not None:
            values["v"] = found.digest


def serve_static(filename: str) -> Response:
    """A static file, gzipped when the browser takes it; immutable for a year under its hash."""
    found = static_file(filename)
    if found is None:
        abort(404)
    # accept_encodings is typed as a list of (value, quality) pairs, but `in` takes a value.
    accepts_gzip = "gzip" in request.accept_encodings  # type: ignore[comparison-overlap]
    packed = found.gzipped is not None and accepts_gzip
    response = Response(found.gzipped if packed else found.data, mimetype=found.mimetype)
    if packed:
        response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    response.set_etag(found.digest + ("-gz" if packed else ""))
    if request.args.get("v") == found.digest:
        response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    else:
        response.headers["Cache-Control"] = "no-cache"
    response.make_conditional(request)  # answers 304 or 206 in place, and returns itself
    return response


def compress(response: Response, *, page_script: bool = False) -> Response:
    """Gzip a text answer made whole in memory, when the browser takes gzip.

    ``page_script=True`` is for a view whose JSON only the app's own page script reads (a browser
    always takes gzip): it compresses that answer too, before this hook sees it encoded."""
    if (
        "Content-Encoding" in response.headers  # a kept page comes gzipped already
        or response.direct_passthrough
        or response.is_streamed
        or response.status_code < 200
        or response.status_code in (204, 304)
        or (response.mimetype not in COMPRESSIBLE and not (page_script and response.is_json))
    ):
        return response
    response.vary.add("Accept-Encoding")
    if "gzip" not in request.accept_encodings:  # type: ignore[comparison-overlap]
        return response
    data = response.get_data()
    if len(data) < SMALLEST:
        return response
    response.set_data(gzipped(data))
    response.headers["Content-Encoding"] = "gzip"
    return response


def init_app(app: Flask) -> None:
    app.extensions["static_files"] = {}
    app.url_defaults(_hashed_static_urls)
    app.view_functions["static"] = serve_static
    app.after_request(compress)
