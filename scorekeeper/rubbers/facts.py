"""What a rubber page depends on, read in one small query.

These facts make the key of its kept answer (see web/page_cache.py) and its ETag, which the page
also carries for follow.js."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from flask import current_app, request, session
from flask_wtf.csrf import generate_csrf

from scorekeeper.extensions import db
from scorekeeper.web.device import opened
from scorekeeper.web.i18n import reader_zone, select_locale

PAGE_QUERY = (
    "SELECT rubbers.version, rubbers.updated_at, device_rubbers.device, next_rubber.id,"
    " prev_rubber.version, device_keys.sealed FROM rubbers"
    " LEFT OUTER JOIN device_rubbers ON device_rubbers.rubber_id = rubbers.id"
    " AND device_rubbers.device = {mark}"
    " LEFT OUTER JOIN device_keys ON device_keys.owner_id = rubbers.id"
    " AND device_keys.device = {mark} AND device_keys.book = 'keys'"
    " LEFT OUTER JOIN rubbers AS next_rubber ON next_rubber.previous_id = rubbers.id"
    " LEFT OUTER JOIN rubbers AS prev_rubber ON prev_rubber.id = rubbers.previous_id"
    " WHERE rubbers.id = {mark}"
)
"""What a kept rubber page needs to know: the rubber's version, whether this phone may edit (and
its edit key, sealed in its row: web/device.py), and
its neighbours at the table (the next rubber, the previous one's version) for the sitting's
count and link. Sent to the driver as it is: on the page's busiest path, building and compiling
a statement cost more than running it."""


@dataclass(frozen=True)
class Facts:
    version: int
    updated_at: datetime
    can_edit: bool
    next_id: str | None
    """The next rubber at the same table, once one is started."""
    previous_version: int | None
    sealed: str | None = None
    """This phone's edit key of the rubber as its row keeps it (web.device.opened reads it)."""


_QUERIES = {style: PAGE_QUERY.format(mark=mark) for style, mark in (("qmark", "?"), ("", "%s"))}
"""PAGE_QUERY with the driver's mark for its parameters: SQLite's ``?``, psycopg's ``%s``."""


def page_facts(rubber_id: str, device: str) -> Facts | None:
    engine = db.engine
    query = _QUERIES["qmark" if engine.dialect.paramstyle == "qmark" else ""]
    connection = engine.raw_connection()  # from the pool, and back to it (rolled back)
    try:
        cursor = connection.cursor()
        cursor.execute(query, (device, device, rubber_id))
        found = cursor.fetchone()
        cursor.close()
    finally:
        connection.close()
    if found is None:
        return None
    version, updated_at, holder, next_id, previous_version, sealed = found
    if isinstance(updated_at, str):  # SQLite's driver leaves a date as its text
        updated_at = datetime.fromisoformat(updated_at)
    can_edit = bool(device) and holder is not None
    return Facts(int(version), updated_at, can_edit, next_id, previous_version, sealed)


def answer_key(rubber_id: str, facts: Facts) -> tuple[tuple[Any, ...], str | None]:
    """What this phone's page depends on (the key of its kept answer), and its edit key."""
    can_edit = facts.can_edit
    edit_key = opened(rubber_id, "keys", facts.sealed) if can_edit else None
    locale = select_locale()  # Flask-Babel's own choice, without making a Babel locale of it
    if can_edit and "csrf_token" not in session:
        generate_csrf()  # the session's token, which every form of the scorer's page carries
    # A follower's page has no form, so no token of its own: one answer for every follower.
    token = session.get("csrf_token") if can_edit else None
    key = (
        rubber_id,
        facts.version,
        locale,
        reader_zone(locale),  # an edited hand's time is written in the reader's zone
        can_edit,
        edit_key,
        token,
        request.scheme,
        request.host,
        table(facts),
    )
    return key, edit_key


def table(facts: Facts) -> tuple[str | None, int | None]:
    """Return what the sitting's count and link depend on besides the rubber itself.

    See docs/decisions/rubber-page.md, "The sitting on the rubber page"."""
    return (facts.next_id, facts.previous_version)


def etag(answer_key: tuple[Any, ...]) -> str:
    """Return the (weak) ETag of an answer: a hash of its key and of the build.

    A new release is a new ETag. The page also carries it, for its script to ask again with (see
    follow.js)."""
    digest = hashlib.sha256(repr((*answer_key, current_app.extensions["build_id"])).encode())
    return digest.hexdigest()[:16]
