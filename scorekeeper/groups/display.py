"""The group's display page, for the café's TV: its rubbers being played now and its standings.

Every table of the group playing now is shown, its current rubber with its cross and score, beside
the group's standings, big enough to read across the room; the TV's short address (/tv/<code>)
opens it. It has no controls and keeps itself up to date (app.js, "Following live" in
docs/decisions/offline-and-live.md)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from flask import Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response as Redirect

from scorekeeper.extensions import db
from scorekeeper.groups import bp, sittings
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.rubbers import drawings
from scorekeeper.rubbers.access import player_names
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import downloads, wording
from scorekeeper.web.columns import utcnow
from scorekeeper.web.i18n import select_locale
from scorekeeper.web.qr import qr_svg

PLAYING_FOR = sittings.SITTING_GAP
"""A rubber not finished and not written to for this long is no longer being played."""
FINISHED_SHOWN = timedelta(minutes=10)
"""A rubber just won stays on the screen this long, for the room to see how it ended."""
STARTED_WITHIN = timedelta(hours=12)
"""Only rubbers started this recently are looked at (the index's range, not the whole group)."""
MOST_SHOWN = 12
"""The latest rubbers shown, should more tables than this be playing."""
STANDINGS_SHOWN = 10


@dataclass(frozen=True)
class TvLink:
    """The short address that opens a group's TV, as a remote types it, and its QR code."""

    address: str
    """Without its scheme, which a browser puts in by itself."""
    qr: Markup


@bp.app_template_global()
def tv_link(group: Group) -> TvLink:
    """Return the short address of the group's TV and its QR code (the group page and the TV's)."""
    return short_tv_link(group.tv_code)


def short_tv_link(code: str) -> TvLink:
    """Return the short address that a TV code makes, and its QR code: a group's or another's."""
    url = tv_url(code)
    address = url.split("://", 1)[-1]
    return TvLink(address, qr_svg(url, _("QR code of the TV's link")))


def tv_url(code: str) -> str:
    """Return the TV's short address in full (a scheme and host), as a phone's camera opens it."""
    return url_for("groups.tv", code=code, _external=True)


@bp.get("/tv/<code>")
def tv(code: str) -> Redirect:
    """Open the TV whose code this is: a group's, or a tournament's (docs/decisions/groups.md)."""
    page = group_store.tv_page(code)
    if page is None:
        abort(404)
    return redirect(url_for(page.endpoint, **page.values))


def playing(group_id: str, now: datetime) -> list[Rubber]:
    """The group's rubbers being played now, in the order they were started."""
    found = db.session.execute(
        sa.select(Rubber)
        .where(
            Rubber.group_id == group_id,
            Rubber.created_at >= now - STARTED_WITHIN,
            Rubber.updated_at >= now - PLAYING_FOR,
        )
        .order_by(Rubber.created_at, Rubber.group_seq)
    ).scalars()
    shown = [
        r for r in current(list(found)) if not r.finished or r.updated_at >= now - FINISHED_SHOWN
    ]
    return shown[-MOST_SHOWN:]


def current(rubbers: list[Rubber]) -> list[Rubber]:
    """Return each table's current rubber: those no later rubber replaced (:func:`replaced_by`).

    ``rubbers`` are in the order they were started."""
    views = [sittings.sitting_view(rubber) for rubber in rubbers]
    return [
        rubber
        for index, rubber in enumerate(rubbers)
        if not any(replaced_by(views[index], later) for later in views[index + 1 :])
    ]


def replaced_by(earlier: sittings.SittingRubber, later: sittings.SittingRubber) -> bool:
    """Whether ``later`` is the same table's next rubber, so ``earlier`` leaves the screen.

    The same table is a sitting's (sittings.follows): the next rubber started from this one, or
    the same two pairs again. Pairs known only by their team names ("Nós", "Eles") may be two
    tables playing at once, so those replace only a rubber already won."""
    if not sittings.follows(earlier, later):
        return False
    return later.previous_id == earlier.id or earlier.finished or earlier.named


def _facts(group: Group, rubbers: list[Rubber]) -> Hashable:
    """What the page depends on: the name it is kept under (web.downloads).

    That is the rubbers shown at their versions, and the group's last write: every write of one of
    its rubbers stamps the group's row, so an edit to an older rubber, which moves the standings,
    is seen too."""
    return (
        "group display",
        group.id,
        group.updated_at.isoformat(),
        tuple((rubber.id, rubber.version) for rubber in rubbers),
        select_locale(),
        request.scheme,
        request.host,
    )


def _table(rubber: Rubber) -> dict[str, Any]:
    state = rubber.state()
    names = player_names(rubber)
    return {
        "rubber": rubber,
        "state": state,
        "cross": drawings.cross(state),
        "sides": (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")
        if rubber.players
        else None,
        "dealer": names[state.dealer],
        "outcome": wording.outcome_name(state.outcome),
    }


@bp.get("/g/<group_id>/display")
def display(group_id: str) -> Response:
    group = group_store.get(group_id)
    if group is None:
        abort(404)
    rubbers = playing(group.id, utcnow())
    name = _facts(group, rubbers)
    tag = downloads.etag(name)

    def build() -> list[bytes]:
        stats = group_store.stats(group.id)
        page = render_template(
            "groups/display.html",
            group=group,
            tables=[_table(rubber) for rubber in rubbers],
            standings=stats.ranking()[:STANDINGS_SHOWN],
            follow_tag=tag,
        )
        return [page.encode()]

    # Rendered once per change of what it shows, however many TVs and floods ask for it.
    return downloads.send(
        name,
        build,
        mimetype="text/html",
        filename=None,
        text=True,
        cache_control="private, no-cache",
    )
