"""The interface's languages: European Portuguese by default, Brazilian Portuguese, English."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from babel.dates import get_timezone
from flask import Flask, g, request
from flask_babel import format_datetime, get_locale, refresh

from scorekeeper.extensions import babel

LOCALES = {"pt_PT": "Português", "pt_BR": "Português (Brasil)", "en": "English"}
"""The locales the interface speaks, with the name each gives itself."""

DEFAULT_LOCALE = "pt_PT"
LOCALE_COOKIE = "lang"
_ACCEPTED = {"pt-PT": "pt_PT", "pt-BR": "pt_BR", "en": "en", "pt": "pt_PT"}


def select_locale() -> str:
    """The page's own locale, if it has one; else the device's chosen locale, else the browser's.

    The browser's best match takes a bare ``pt`` as pt-PT."""
    pinned: str | None = g.get("page_locale")
    if pinned is not None:
        return pinned
    chosen = request.cookies.get(LOCALE_COOKIE)
    if chosen in LOCALES:
        return chosen
    if "Accept-Language" not in request.headers:
        return DEFAULT_LOCALE
    best = request.accept_languages.best_match(list(_ACCEPTED))
    return _ACCEPTED.get(best or "", DEFAULT_LOCALE)


def pin_locale(locale: str | None) -> None:
    """Make the rest of this request speak ``locale``, whatever its reader's device speaks.

    For a page whose language its owner chose (a tournament's TV, in the language the organizer
    picked): every word of it, and the name it is kept under (:func:`select_locale`), are in
    that language. None, or a locale the interface does not speak, leaves the reader's."""
    if locale in LOCALES:
        g.page_locale = locale
        refresh()  # a word already said in this request chose the reader's


TIME_ZONE_COOKIE = "tz"
"""The phone's own time zone, an IANA name its pages' script sets (static/app.js)."""
LOCALE_ZONES = {"pt_PT": "Europe/Lisbon", "pt_BR": "America/Sao_Paulo", "en": "Europe/Lisbon"}
"""Before the script has said, the zone of the language's country: Brasília time for Brazilian
Portuguese, Lisbon's otherwise (the app's home)."""


def known_zone(name: str) -> bool:
    """Return whether ``name`` is a time zone of the tz database the server has.

    >>> known_zone("America/Sao_Paulo"), known_zone("Lua/Mare")
    (True, False)
    """
    if not name or len(name) > 64:
        return False
    try:
        get_timezone(name)
    except (LookupError, ValueError):
        return False
    return True


def select_timezone() -> str:
    """The phone's own zone (its cookie), else its language's country's."""
    return reader_zone(str(get_locale() or DEFAULT_LOCALE))


def reader_zone(locale: str) -> str:
    """The zone :func:`select_timezone` chooses for a reader of ``locale``, its name only.

    For a key of kept pages, without making a Babel locale of the language."""
    given = request.cookies.get(TIME_ZONE_COOKIE, "")
    if known_zone(given):
        return given
    return LOCALE_ZONES.get(locale, LOCALE_ZONES[DEFAULT_LOCALE])


def html_lang(locale: str) -> str:
    """The BCP 47 tag for ``<html lang>``."""
    return locale.replace("_", "-")


MOMENT_PATTERNS = {
    "pt_PT": "dd/MM/yyyy HH:mm",
    "pt_BR": "dd/MM/yyyy HH:mm",
    "en": "d MMM yyyy, HH:mm",
}
"""A date and time the reader's way: 01/12/2026 09:04 in Portuguese, 1 Dec 2026, 09:04 in
English (neither month-first nor day-first digits, which English readers take both ways)."""


def moment(when: datetime) -> str:
    """A stored time (UTC) written the reader's way, in the reader's time zone."""
    locale = str(get_locale() or DEFAULT_LOCALE)
    return str(format_datetime(when, MOMENT_PATTERNS.get(locale, MOMENT_PATTERNS["pt_PT"])))


def clock(when: datetime) -> str:
    """A stored time (UTC) as the hour and minute in the reader's time zone: 01:49."""
    return str(format_datetime(when, "HH:mm"))


def _template_context() -> dict[str, Any]:
    locale = str(get_locale() or DEFAULT_LOCALE)
    return {"locale": locale, "html_lang": html_lang(locale), "locales": LOCALES, "moment": moment}


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale, timezone_selector=select_timezone)
    app.context_processor(_template_context)
    app.add_template_global(clock)  # a global: the macros of _hands.html see it
