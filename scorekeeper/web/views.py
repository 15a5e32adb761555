"""The pages of no feature: the glossary and the language switch; and the SVG ids of a page."""

from __future__ import annotations

from flask import Blueprint, g, redirect, render_template, request, url_for
from werkzeug.wrappers import Response

from scorekeeper.web import wording
from scorekeeper.web.i18n import LOCALE_COOKIE, LOCALES

bp = Blueprint("web", __name__)


@bp.get("/glossary")
def glossary() -> str:
    """The words of the game, explained in the reader's language."""
    return render_template("glossary.html")


@bp.app_template_global()
def svg_id(prefix: str) -> str:
    """An id unique within the page, for what one SVG defines and uses (its filters)."""
    g.svg_ids = getattr(g, "svg_ids", 0) + 1
    return f"{prefix}-{g.svg_ids}"


@bp.app_template_global()
def outcome_said(code: str) -> bool:
    """Whether the reader's interface names this outcome (chapéu and arrepio: pt-BR only)."""
    return wording.outcome_said(code)


@bp.get("/language/<locale>")
def language(locale: str) -> Response:
    """The language switch: the device remembers the choice for a year (a cookie, no write)."""
    target = request.args.get("next", "")
    if not target.startswith("/") or target.startswith("//") or "\\" in target:
        target = url_for("home.home")
    response = redirect(target)
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
