"""The pages of no feature: the glossary and the language switch; and the SVG ids of a page."""

from __future__ import annotations

from urllib.parse import urlsplit

from babel.numbers import format_decimal
from flask import g, redirect, render_template, request, url_for
from flask_babel import get_locale
from markupsafe import Markup
from werkzeug.wrappers import Response

from scorekeeper.web import bp, wording
from scorekeeper.web.i18n import LOCALE_COOKIE, LOCALES


@bp.get("/glossary")
def glossary() -> str:
    """The words of the game, explained in the reader's language."""
    return render_template("glossary.html")


@bp.app_template_global()
def svg_id(prefix: str) -> str:
    """An id unique within the page, for what one SVG defines and uses (its filters)."""
    g.svg_ids = getattr(g, "svg_ids", 0) + 1
    return f"{prefix}-{g.svg_ids}"


def same_site_path(target: str) -> str | None:
    r"""``target`` if it is a path of this site ("/r/abc?x=1"), else None.

    Only printable ASCII, from one "/" (never "//" nor a backslash, which a browser reads as
    another host): a tab or a line break is refused, not left for the browser to strip (it
    turns "/\t/evil.example" into "//evil.example") nor for the header to choke on.

    >>> same_site_path("/r/abc?points=75")
    '/r/abc?points=75'
    >>> [same_site_path(t) for t in ("//evil.example", "/\t/evil.example", "/\\evil", "x")]
    [None, None, None, None]
    """
    if not target.startswith("/") or target.startswith("//"):
        return None
    if not all("!" <= character <= "~" for character in target[1:]) or "\\" in target:
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc:
        return None
    return target


@bp.app_template_global()
def outcome_said(code: str) -> bool:
    """Whether the reader's interface names this outcome (chapéu and arrepio: pt-BR only)."""
    return wording.outcome_said(code)


@bp.app_template_filter()
def whole_scores(text: str) -> Markup:
    """The text with each score one block that no line breaks (``wording.whole_scores``)."""
    return wording.whole_scores(text)


@bp.app_template_filter()
def number(value: float, pattern: str = "0") -> str:
    """A number as the reader's language writes it, under 0 with a real minus: −9, 70,0."""
    return format_decimal(value, format=pattern, locale=get_locale()).replace("-", "−")


@bp.get("/language/<locale>")
def language(locale: str) -> Response:
    """The language switch: the device remembers the choice for a year (a cookie, no write).

    ``next`` is a path of the app (the page's own, as ``request.full_path`` gives it): behind a
    proxy that mounts the app under a prefix, the answer goes back under that prefix.
    """
    target = same_site_path(request.args.get("next", ""))
    response = redirect(request.script_root + target if target else url_for("home.home"))
    if locale in LOCALES:
        response.set_cookie(
            LOCALE_COOKIE,
            locale,
            max_age=365 * 24 * 3600,
            samesite="Lax",
            httponly=True,
            secure=request.is_secure,
        )
    return response
