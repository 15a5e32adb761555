"""Downloads: a rubber's hands as a CSV file for spreadsheets, and a group's as JSON.

The CSV file has one row per hand of the engine's fold; the JSON file holds a group's every rubber,
as its import takes it back."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial

import sqlalchemy as sa
from flask import Response, request
from sqlalchemy.orm import selectinload

from scorekeeper.api import access
from scorekeeper.api.operations import NO_GROUP, UNKNOWN, ApiBlueprint, Content
from scorekeeper.api.schemas.groups import GroupExportFile
from scorekeeper.api.states import exported_rubber
from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import downloads
from scorekeeper.web.downloads import cell
from scorekeeper.web.i18n import select_locale

bp = ApiBlueprint("export", __name__)

HEADER = (
    "number",
    "kind",
    "points_0",
    "points_1",
    "all_tricks",
    "team",
    "games_0",
    "games_1",
    "dealer",
    "trump",
)
CSV = Content("text/csv", {"type": "string"})
EXPORT_BATCH = 200
EXPORT_FORMAT = "sueca-group"


def rows(rubber: Rubber) -> list[list[str]]:
    """The header and one row per hand, from the engine's fold of the stored hands."""
    trumps = {row.number: row.trump for row in rubber.hands}
    table = [list(HEADER)]
    for result in rubber.state().hands:
        hand = result.hand
        points = hand.points or (None, None)
        values = (
            result.number,
            hand.kind.value,
            points[0],
            points[1],
            hand.all_tricks,
            hand.team,
            result.games[0],
            result.games[1],
            result.dealer,
            trumps.get(result.number),
        )
        table.append([cell(value) for value in values])
    return table


@bp.operation("GET /rubbers/<rubber_id>/export.csv", "exportRubberCsv")
@bp.answers(200, f"Header {','.join(HEADER)}, then one row per hand.", CSV, {404: UNKNOWN})
def rubber_csv(rubber_id: str) -> Response:
    """A rubber's hands as CSV, one row per hand of the engine's fold."""
    rubber = access.rubber(rubber_id)
    out = io.StringIO()
    csv.writer(out, lineterminator="\r\n").writerows(rows(rubber))
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={
            "Content-Disposition": f'attachment; filename="sueca-{rubber.id}.csv"',
            "Cache-Control": "no-store",
        },
    )


@bp.operation("GET /groups/<group_id>/export.json", "exportGroup", conditional=True)
@bp.answers(200, "The export file.", GroupExportFile, {404: NO_GROUP})
def export_json(group_id: str) -> Response:
    """Every rubber of the group as a rubber state.

    Built once per version of the group (its latest change), with an ETag: 304 to
    If-None-Match until a write; gzipped for a client that takes it."""
    group = access.group(group_id)
    # Every write to one of the group's rubbers takes the group's lock, which stamps updated_at;
    # the links in the file name the address it was asked at, the hands' summaries its language.
    key = (
        "export.json",
        group.id,
        group.name,
        group.updated_at.isoformat(),
        select_locale(),
        request.host_url,
    )
    return downloads.send(
        key,
        partial(_export_file, group.id, group.name),
        mimetype="application/json",
        filename=f"sueca-group-{group.id}.json",
        text=True,
    )


def _export_file(group_id: str, name: str) -> Iterator[bytes]:
    """Yield the group's export file in parts, its rubbers read in batches.

    A group of thousands of rubbers is never held whole in memory."""
    head = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "group": {"id": group_id, "name": name},
        "exported_at": datetime.now(UTC).replace(tzinfo=None).isoformat() + "Z",
    }
    query = (
        sa.select(Rubber)
        .where(Rubber.group_id == group_id)
        .order_by(Rubber.created_at, Rubber.group_seq)
        .options(selectinload(Rubber.hands))
        .execution_options(yield_per=EXPORT_BATCH)
    )
    yield (json.dumps(head, ensure_ascii=False)[:-1] + ', "rubbers": [').encode()
    for index, rubber in enumerate(db.session.execute(query).scalars()):
        part = json.dumps(exported_rubber(rubber), ensure_ascii=False)
        yield (("," if index else "") + part).encode()
    yield b"]}"
