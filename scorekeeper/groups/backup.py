"""A group's backup from its page: the file to download, restored, and the sheet a person reads.

The backup is the API's export file (``/api/v1/groups/<id>/export.json``), and restoring it
runs the API's import: the API hands its import to this package when it is registered
(:func:`use_import`), so the page and the API share one import and this feature imports no API
(docs/decisions/groups.md, "Backup, restore and the sheet")."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import Flask, Response, current_app, flash, redirect, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper.extensions import db
from scorekeeper.groups import bp
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import downloads, guard, wording
from scorekeeper.web.device import held_key
from scorekeeper.web.i18n import select_locale

FILE_LIMIT = 16 * 1024 * 1024
"""An export file may be larger than other requests: about 2,000 rubbers fit in one; a larger
group is imported in parts (the import only adds what is missing)."""
IMPORT = "group_import"
"""Where the app keeps the import the API handed over."""


@dataclass(frozen=True)
class Restored:
    """What a restore did: the rubbers it created, and those the group held already."""

    created: int
    skipped: int


class Refused(ValueError):
    """A backup refused, nothing of it stored: the import's sentence and the place it names."""

    def __init__(self, sentence: str, place: str | None) -> None:
        super().__init__(sentence)
        self.sentence = sentence
        self.place = place


Import = Callable[[Group, object, str], Restored]
"""The import of a file (its JSON read) into a group, under the group's key."""


def use_import(app: Flask, run: Import) -> None:
    """Make ``run`` the import the group page's restore runs (the API's)."""
    app.extensions[IMPORT] = run


def init_app(app: Flask) -> None:
    """Let the restore's form be as large as an import's body."""
    guard.allow_larger_body(app, "groups.restore", FILE_LIMIT)


def _refusal(sentence: str) -> WerkzeugResponse:
    flash(sentence, "conflict")
    return redirect(url_for(".group", group_id=request.view_args["group_id"]))  # type: ignore[index]


@bp.post("/g/<group_id>/restore")
def restore(group_id: str) -> WerkzeugResponse:
    """Restore a backup into the group: the phone must be able to edit it and hold its key."""
    group = group_store.GRANTS.editable_or_403(group_id)
    key = held_key(group.id, group_store.GRANTS.book)
    if not key:
        return _refusal(_("Open the group's edit link on this phone to restore a backup."))
    upload = request.files.get("backup")  # up to FILE_LIMIT (web.guard, init_app below)
    data = upload.read() if upload is not None else b""
    if not data:
        return _refusal(_("Choose the backup file to restore."))
    try:
        body = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError):
        return _refusal(
            _("This file is not a group's backup: it is not the JSON file the backup button gives.")
        )
    run: Import = current_app.extensions[IMPORT]
    try:
        restored = run(group, body, key)
    except Refused as refused:
        # The import's sentences about a field often name its place already.
        named = not refused.place or refused.place in refused.sentence
        where = "" if named else _(" (at %(place)s)", place=refused.place)
        return _refusal(
            _(
                "The backup was not restored: %(reason)s%(where)s",
                reason=refused.sentence,
                where=where,
            )
        )
    flash(
        ngettext(
            "Backup restored: %(num)s rubber added, %(skipped)s already here.",
            "Backup restored: %(num)s rubbers added, %(skipped)s already here.",
            restored.created,
            skipped=restored.skipped,
        ),
        "hand",
    )
    return redirect(url_for(".group", group_id=group.id))


def sheet_rows(group: Group) -> list[list[Any]]:
    """Return the header and one row per rubber of the group, oldest first, in words."""
    table: list[list[Any]] = [
        [
            _("Started"),
            _("Team"),
            _("Players"),
            _("Games"),
            _("Other team"),
            _("Their players"),
            _("Their games"),
            _("Result"),
        ]
    ]
    rubbers = db.session.execute(
        sa.select(Rubber)
        .where(Rubber.group_id == group.id)
        .order_by(Rubber.created_at, Rubber.group_seq)
    ).scalars()
    for rubber in rubbers:
        players = rubber.players or [""] * 4
        if rubber.finished and rubber.winner is not None:
            result = _("%(team)s won", team=rubber.teams[rubber.winner])
            named = wording.outcome_names(rubber.names)
            result = f"{result} · {named}" if named else result
        else:
            result = _("in play")
        table.append(
            [
                rubber.created_at.strftime("%Y-%m-%d %H:%M"),
                rubber.team0,
                _pair(players[0], players[2]),
                rubber.games0,
                rubber.team1,
                _pair(players[1], players[3]),
                rubber.games1,
                result,
            ]
        )
    return table


def _pair(first: str | None, second: str | None) -> str:
    if first and second:
        return _("%(first)s and %(second)s", first=first, second=second)
    return first or second or ""


@bp.get("/g/<group_id>/sheet.csv")
def sheet(group_id: str) -> Response:
    """The group's rubbers as a sheet to download, built once per version of the group."""
    group = group_store.GRANTS.or_404(group_id)
    key = ("sheet.csv", group.id, group.name, group.updated_at.isoformat(), select_locale())
    return downloads.send(
        key,
        lambda: [("\ufeff" + downloads.csv_text(sheet_rows(group))).encode()],
        mimetype="text/csv",
        filename=f"sueca-group-{group.id}.csv",
        text=True,
    )
