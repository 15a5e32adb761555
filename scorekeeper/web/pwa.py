"""The installable app: its web app manifest and the service worker that keeps it working offline."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from flask import Response, current_app, request, url_for
from flask_babel import get_locale
from flask_babel import gettext as _

from scorekeeper.web import bp
from scorekeeper.web.delivery import minified, packed_once

from .i18n import html_lang

SHELL = (
    "app.css",
    "bidding.css",
    "app.js",
    "hands.js",
    "outlook.js",
    "bidding.js",
    "cards.js",
    "network.js",
    "times.js",
    "icons/icon.svg",
    "icons/icon-192.png",
    "icons/icon-512.png",
)
"""The static files every page needs: the service worker keeps them for offline use."""
CONFIG_LINE = 'var CONFIG = {"version": "dev", "shell": []};'
"""The line of static/sw.js that the route below fills in with the shell and its hash."""
THEME_COLOUR = "#0b6b3a"
"""The felt green of the stylesheet's --accent."""
BACKGROUND = "#fbf8f1"
"""The paper of the stylesheet's --paper."""


def _static(name: str) -> Path:
    return Path(current_app.static_folder or "") / name


def shell_version() -> str:
    """A hash of the shell's files: a new one makes browsers install the new worker."""
    digest = hashlib.sha256()
    for name in (*SHELL, "sw.js"):
        digest.update(name.encode())
        digest.update(_static(name).read_bytes())
    return digest.hexdigest()[:16]


@bp.get("/sw.js")
def service_worker() -> Response:
    """The worker from the site's root, so its scope covers every page."""
    source = _static("sw.js").read_text(encoding="utf-8")
    config = {
        "version": shell_version(),
        # The hashed addresses the pages name (?v=…): the worker answers the very file a page
        # names from its copy, and fetches a file of another release (any copy, offline).
        "shell": [url_for("static", filename=name) for name in SHELL] + [url_for(".manifest")],
    }
    if CONFIG_LINE not in source:
        raise RuntimeError("static/sw.js lost its CONFIG line")
    filled = source.replace(CONFIG_LINE, f"var CONFIG = {json.dumps(config)};")
    # Made and compressed once per worker and version, as the static files are.
    built: dict[str, tuple[bytes, bytes]] = current_app.extensions.setdefault("sw_scripts", {})
    if filled not in built:
        script = minified(filled.encode(), "application/javascript")
        built.clear()
        built[filled] = (script, packed_once(script))
    script, packed = built[filled]
    # accept_encodings is typed as a list of (value, quality) pairs, but `in` takes a value.
    if "gzip" in request.accept_encodings:  # type: ignore[comparison-overlap]
        response = Response(packed, mimetype="application/javascript")
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(script, mimetype="application/javascript")
    response.vary.add("Accept-Encoding")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    """The manifest in the phone's language (the link asks for it with the language cookie)."""
    # Bare paths, as in the worker's shell: the manifest is fetched again (no-cache) anyway.
    png = {
        size: url_for("static", filename=f"icons/icon-{size}.png", v=None) for size in (192, 512)
    }
    data = {
        "id": url_for("home.home"),
        "name": _("Sueca scorekeeper"),
        "short_name": _("Sueca"),
        "description": _("Keep the score of the rubber: the cross, the games and who deals next."),
        "lang": html_lang(str(get_locale())),
        "dir": "ltr",
        "start_url": url_for("home.home"),
        "scope": url_for("home.home"),
        "display": "standalone",
        "background_color": BACKGROUND,
        "theme_color": THEME_COLOUR,
        "icons": [
            {"src": png[192], "sizes": "192x192", "type": "image/png"},
            {"src": png[512], "sizes": "512x512", "type": "image/png"},
            {
                "src": png[512],
                "sizes": "512x512",
                "type": "image/png",
                "purpose": "maskable",
            },
            {
                "src": url_for("static", filename="icons/icon.svg", v=None),
                "sizes": "any",
                "type": "image/svg+xml",
            },
        ],
    }
    response = Response(json.dumps(data, ensure_ascii=False), mimetype="application/manifest+json")
    response.headers["Cache-Control"] = "no-cache"
    return response
