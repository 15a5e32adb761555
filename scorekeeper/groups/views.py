"""The review pages: groups of regulars, their history, sittings, statistics and players.

Also the pictures of a rubber (its cross to download, its games over the hands)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from flask import (
    Response,
    abort,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response as WerkzeugResponse

from scorekeeper import engine
from scorekeeper.engine.names import player_key
from scorekeeper.extensions import db
from scorekeeper.groups import bp, charts, sittings, statistics
from scorekeeper.groups import store as group_store
from scorekeeper.groups.forms import GroupRubberForm, NewGroupForm
from scorekeeper.groups.models import Group
from scorekeeper.rubbers import drawings, house_rules, store
from scorekeeper.rubbers.access import editable_or_403, player_names, rubber_or_404
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.web import downloads, paging, security, wording
from scorekeeper.web.device import current_device, ensure_device, held_key, remember_key
from scorekeeper.web.i18n import select_locale
from scorekeeper.web.qr import SharedLink, qr_svg

MOVABLE_SHOWN = 10
"""The device's rubbers offered for moving into a group: its latest ones in no group."""
SEATS = 4


@bp.app_template_global()
def games_chart(state: engine.RubberState) -> charts.Chart:
    """The games over the rubber, for the rubber page."""
    return charts.games_chart(state)


@dataclass(frozen=True)
class SittingCount:
    """A rubber's place in its sitting, and the rubbers each of its teams won there so far."""

    number: int
    """From 1: the first rubber of the sitting is 1."""
    won: tuple[int, int]
    """By the rubber's team 0 and team 1, up to and with this rubber (if it is won)."""


@bp.app_template_global()
def sitting_count(rubber: Rubber) -> SittingCount:
    """The running count of rubbers at this rubber's table, for the rubber page and the TV."""
    views = [sittings.sitting_view(r) for r in sittings.neighbours(rubber)]
    rows = sittings.running_count(sittings.sitting(views, rubber.id))
    place = next(i for i, row in enumerate(rows) if row.rubber.id == rubber.id)
    row = rows[place]
    won = (row.rubbers[1], row.rubbers[0]) if row.flipped else row.rubbers
    return SittingCount(place + 1, won)


_group_or_404 = group_store.GRANTS.or_404
_editable_or_403 = group_store.GRANTS.editable_or_403


# Groups -----------------------------------------------------------------------------------------


@bp.route("/groups/new", methods=["GET", "POST"])
def new_group() -> Any:
    form = NewGroupForm()
    if form.validate_on_submit():
        assert form.name.data is not None  # DataRequired
        group, key = group_store.create_group(form.name.data, device=ensure_device())
        remember_key(group.id, key, group_store.GRANTS.book)
        return redirect(url_for(".group", group_id=group.id))
    status = 422 if request.method == "POST" else 200
    return render_template("groups/new.html", form=form), status


bp.add_url_rule(
    "/g/<group_id>/edit/<key>", "grant", group_store.GRANTS.edit_link_view(".group", "group_id")
)


@bp.get("/g/<group_id>")
def group(group_id: str) -> str:
    group = _group_or_404(group_id)
    can_edit = group_store.can_edit(current_device(), group)
    pagination = paging.page(
        sa.select(Rubber).where(Rubber.group_id == group.id),
        (Rubber.created_at, Rubber.group_seq),
        Rubber.id,
    )
    stats = group_store.stats(group.id)
    movable: list[Rubber] = []
    if can_edit:
        movable = list(
            db.session.execute(
                sa.select(Rubber)
                .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
                .where(DeviceRubber.device == current_device(), Rubber.group_id.is_(None))
                .order_by(Rubber.created_at.desc())
                .limit(MOVABLE_SHOWN)
            ).scalars()
        )
    key = held_key(group.id, group_store.GRANTS.book) if can_edit else None
    if key:
        security.holds_edit_key()  # the page shows the group's edit link
    moved_id = (session.get("moved") or [None, None])[1] if can_edit else None
    just_moved = db.session.get(Rubber, moved_id) if store.is_token(moved_id or "") else None
    if just_moved is not None and just_moved.group_id != group.id:
        just_moved = None
    return render_template(
        "groups/show.html",
        just_moved=just_moved,
        group=group,
        can_edit=can_edit,
        pagination=pagination,
        stats=stats,
        ranking=stats.ranking()[:5],
        movable=movable,
        outcome_names=wording.outcome_names,
        links=_shared_links(group, key),
    )


def _shared_links(group: Group, key: str | None) -> list[SharedLink]:
    """Return the group's links to pass on: to follow it, and to start rubbers in it for a key."""
    share_url = url_for(".group", group_id=group.id, _external=True)
    links = [
        SharedLink(
            "share",
            share_url,
            _("Link to the group's history and statistics (read only)"),
            _("Whoever opens it sees the group's rubbers and statistics, and can change nothing."),
            qr_svg(share_url, _("QR code of the link to the group")),
        )
    ]
    if key:
        edit_url = url_for(".grant", group_id=group.id, key=key, _external=True)
        links.append(
            SharedLink(
                "edit",
                edit_url,
                _("Link that lets another phone start rubbers in this group"),
                _(
                    "Whoever opens it can start rubbers in the group and restore a backup into"
                    " it: give it only to whoever keeps the score."
                ),
                qr_svg(edit_url, _("QR code of the link to start rubbers in the group")),
                _("Show the code for whoever will record hands"),
            )
        )
    return links


@bp.get("/g/<group_id>/stats")
def stats(group_id: str) -> str:
    group = _group_or_404(group_id)
    stats = group_store.stats(group.id)
    return render_template("groups/stats.html", group=group, stats=stats)


@bp.get("/g/<group_id>/player")
def player(group_id: str) -> str:
    group = _group_or_404(group_id)
    key = player_key(request.args.get("name", "")[: 3 * 40])
    stats = group_store.stats(group.id)
    found = stats.players.get(key)
    if found is None:
        abort(404)
    history = group_store.rating_history(group.id, key)
    return render_template(
        "groups/player.html",
        group=group,
        stats=stats,
        player=found,
        partner=stats.best_partner(key),
        opponents=stats.toughest_opponents(key),
        history=history,
        # The chart starts from the rating everybody starts with (or where the shown part starts).
        chart=charts.rating_chart([*_chart_start(history), *history]),
    )


def _chart_start(history: list[tuple[float, float]]) -> list[tuple[float, float]]:
    if len(history) >= group_store.CHART_POINTS:
        return []
    start = statistics.Rating()
    return [(start.mu, start.sigma)]


# Starting a rubber in a group, and moving one into it ----------------------------------------


def _fill_seat(form: GroupRubberForm, name: str) -> None:
    for seat in range(SEATS):
        field = getattr(form, f"player{seat}")
        if not (field.data or "").strip():
            field.data = name
            return


@bp.route("/g/<group_id>/rubbers/new", methods=["GET", "POST"])
def new_rubber(group_id: str) -> Any:
    group = _editable_or_403(group_id)
    form = GroupRubberForm()
    status = 200
    if request.method == "GET":
        house_rules.fill(form, house_rules.group_starting_rules(group.id))
    if request.method == "POST":
        valid = form.validate()
        picked = (form.pick.data or "").strip()
        if picked and len(picked) <= 40:
            _fill_seat(form, picked)
        elif form.unpick.data in ("0", "1", "2", "3"):
            getattr(form, f"player{form.unpick.data}").data = ""
        elif form.action.data == "start":
            if valid:
                started = _start(form, group)
                if started is not None:
                    return started
            status = 422
    seated = {player_key(getattr(form, f"player{seat}").data) for seat in range(SEATS)}
    names = group_store.known_names(group.id)
    house_rules.dress(form)
    return render_template(
        "groups/new_rubber.html",
        group=group,
        form=form,
        names=[(name, player_key(name) in seated) for name in names],
    ), status


def _start(form: GroupRubberForm, group: Group) -> WerkzeugResponse | None:
    rules = form.rule_set()
    if rules is None:
        return None
    names = [(getattr(form, f"player{seat}").data or "").strip() for seat in range(SEATS)]
    repeated = statistics.repeated_name(names)
    if repeated is not None:
        form.player0.errors = [
            *form.player0.errors,
            _("%(name)s sits in two seats: in a group every player has one seat.", name=repeated),
        ]
        return None
    teams = (form.team0.data or _("Nós"), form.team1.data or _("Eles"))
    if form.first_dealer.data == "random":
        first_dealer = secrets.randbelow(SEATS)
    else:
        first_dealer = int(form.first_dealer.data)
    rubber, key = store.create_rubber(
        teams=teams,
        players=names if any(names) else None,
        first_dealer=first_dealer,
        rules=rules,
        device=ensure_device(),
        group_id=group.id,
    )
    remember_key(rubber.id, key)
    return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))


@bp.get("/g/<group_id>/rubbers/<rubber_id>/move")
def move_again(group_id: str, rubber_id: str) -> WerkzeugResponse:
    """The move's address opened again: the group's page, nothing moved."""
    return redirect(url_for(".group", group_id=group_id))


@bp.post("/g/<group_id>/rubbers/<rubber_id>/move")
def move(group_id: str, rubber_id: str) -> WerkzeugResponse:
    """Move a rubber into the group: the device must hold both edit links."""
    group = _editable_or_403(group_id)
    rubber = editable_or_403(rubber_id)
    if rubber.group_id == group.id:
        return redirect(url_for(".group", group_id=group.id))
    if rubber.group_id is not None:
        flash(_("This rubber is already in another group."), "conflict")
        return redirect(url_for(".group", group_id=group.id))
    repeated = statistics.repeated_name(rubber.players)
    if repeated is not None:
        flash(
            _("%(name)s sits in two seats: in a group every player has one seat.", name=repeated),
            "conflict",
        )
        return redirect(url_for(".group", group_id=group.id))
    try:
        group_store.move(rubber, group)
    except store.Conflict:
        flash(_("The group is busy: try again."), "conflict")
    else:
        flash(_("The rubber is now in %(group)s.", group=group.name), "hand")
        session["moved"] = [group.id, rubber.id]  # this phone may take it out again
    return redirect(url_for(".group", group_id=group.id))


@bp.post("/g/<group_id>/rubbers/<rubber_id>/leave")
def leave(group_id: str, rubber_id: str) -> WerkzeugResponse:
    """Undo the move this phone just made: the rubber leaves the group.

    See docs/decisions/groups.md, "Bringing a rubber into a group asks first".
    """
    group = _editable_or_403(group_id)
    rubber = editable_or_403(rubber_id)
    if session.get("moved") != [group.id, rubber.id] or rubber.group_id != group.id:
        flash(_("Only the rubber this phone just brought here can be taken out."), "conflict")
        return redirect(url_for(".group", group_id=group.id))
    try:
        group_store.leave(rubber)
    except store.Conflict:
        flash(_("The group is busy: try again."), "conflict")
    else:
        session.pop("moved", None)
        flash(_("The rubber is out of %(group)s again.", group=group.name), "hand")
    return redirect(url_for(".group", group_id=group.id))


# A rubber's sitting and its pictures ----------------------------------------------------------


@bp.get("/r/<rubber_id>/sitting")
def sitting(rubber_id: str) -> str:
    """The rubbers of the same four players one after another: each cross, the running count."""
    rubber = rubber_or_404(rubber_id)
    around = sittings.neighbours(rubber)
    views = [sittings.sitting_view(r) for r in around]
    rows = sittings.running_count(sittings.sitting(views, rubber.id))
    ids = [row.rubber.id for row in rows]
    loaded = {
        r.id: r
        for r in db.session.execute(
            sa.select(Rubber).where(Rubber.id.in_(ids)).options(selectinload(Rubber.hands))
        ).scalars()
    }
    first = loaded[ids[0]]
    sides = (first.teams[0], first.teams[1])
    sheets = []
    for row in rows:
        shown = loaded[row.rubber.id]
        state = shown.state()
        sheets.append(
            {
                "rubber": shown,
                "row": row,
                "state": state,
                "cross": drawings.cross(state),
                "outcome": wording.outcome_names(state.names),
            }
        )
    return render_template(
        "groups/sitting.html",
        rubber=rubber,
        target_id=rubber.id,
        sheets=sheets,
        sides=sides,
        side_players=_side_players(first),
        group=db.session.get(Group, rubber.group_id) if rubber.group_id else None,
    )


def _side_players(rubber: Rubber) -> tuple[str, str]:
    names = player_names(rubber)
    if not rubber.players:
        return rubber.teams
    return (f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}")


def _cross_file(rubber: Rubber) -> str:
    state = rubber.state()
    return render_template(
        "groups/cross.svg",
        rubber=rubber,
        state=state,
        cross=drawings.cross(state),
        outcome=wording.outcome_names(state.names),
    )


def _cross_key(rubber: Rubber, kind: str) -> tuple[str, ...]:
    """What a cross's file shows: the rubber's version, and the language of its words."""
    return (kind, rubber.id, str(rubber.version), rubber.updated_at.isoformat(), select_locale())


@bp.get("/r/<rubber_id>/cross.svg")
def cross_svg(rubber_id: str) -> Response:
    """The rubber's cross as a standalone SVG file, to share in a chat."""
    rubber = rubber_or_404(rubber_id)
    return downloads.send(
        _cross_key(rubber, "cross.svg"),
        lambda: [_cross_file(rubber).encode()],
        mimetype="image/svg+xml",
        filename=f"sueca-{rubber.id}.svg",
        text=True,
    )


@bp.get("/r/<rubber_id>/cross.png")
def cross_png(rubber_id: str) -> Response:
    """The same picture as a PNG, for chats that do not show SVG (rendered by resvg).

    Drawn once per version of the rubber (web.downloads)."""
    import resvg_py

    rubber = rubber_or_404(rubber_id)
    return downloads.send(
        _cross_key(rubber, "cross.png"),
        lambda: [bytes(resvg_py.svg_to_bytes(svg_string=_cross_file(rubber)))],
        mimetype="image/png",
        filename=f"sueca-{rubber.id}.png",
        text=False,
    )
