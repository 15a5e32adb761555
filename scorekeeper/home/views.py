"""The home page (start a rubber in one tap, the last ones) and the phone's history."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, render_template, request
from sqlalchemy.orm import selectinload

from scorekeeper.bidding import store as bidding_store
from scorekeeper.bidding import wording as bidding_wording
from scorekeeper.bidding.models import BiddingGame, DeviceBidding
from scorekeeper.extensions import db
from scorekeeper.groups.models import DeviceGroup, Group
from scorekeeper.rubbers import drawings, store
from scorekeeper.rubbers.forms import NewRubberForm
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.web import paging, wording
from scorekeeper.web.device import current_device

bp = Blueprint("home", __name__)

GROUPS_LISTED = 50
"""The groups of regulars a phone's history lists, newest first."""


@bp.get("/")
def home() -> str:
    device = current_device()
    recent: list[Rubber] = []
    if device:
        recent = list(
            db.session.execute(
                db.select(Rubber)
                .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
                .where(DeviceRubber.device == device)
                .order_by(DeviceRubber.created_at.desc(), DeviceRubber.rubber_id.desc())
                .limit(3)
            ).scalars()
        )
    last_game = bidding_store.latest_of(device)
    return render_template(
        "home.html",
        form=NewRubberForm(),
        recent=recent,
        # The bidding table starts again in one tap, with the names of the phone's last game.
        last_table=bidding_wording.seat_names(last_game.players) if last_game else None,
    )


def _game_place(device: str | None, game_id: str) -> tuple[Any, Any] | None:
    """Where a bidding game sits in the device's history, for its own links."""
    if not device or not bidding_store.get(game_id):
        return None
    grant = db.session.get(DeviceBidding, (device, game_id))
    return None if grant is None else (grant.created_at, grant.game_id)


def _place(device: str | None, rubber_id: str) -> tuple[Any, Any] | None:
    """Where a rubber sits in the device's history, for the "Older" and "Newer" links."""
    if not device or not store.is_token(rubber_id):
        return None
    grant = db.session.get(DeviceRubber, (device, rubber_id))
    return None if grant is None else (grant.created_at, grant.rubber_id)


@bp.get("/history")
def history() -> str:
    device = current_device()
    pagination = paging.page(
        db.select(Rubber)
        .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
        .where(DeviceRubber.device == (device or ""))
        .options(selectinload(Rubber.hands)),
        (DeviceRubber.created_at, DeviceRubber.rubber_id),
        current_app.config["HISTORY_PAGE_SIZE"],
        lambda rubber: rubber.id,
        before=_place(device, request.args.get("before", "")),
        after=_place(device, request.args.get("after", "")),
    )
    crosses = {}
    for rubber in pagination.items:
        crosses[rubber.id] = drawings.cross(rubber.state())
    groups = db.session.execute(
        db.select(Group)
        .join(DeviceGroup, DeviceGroup.group_id == Group.id)
        .where(DeviceGroup.device == (device or ""))
        .order_by(DeviceGroup.added_at.desc())
        .limit(GROUPS_LISTED)
    ).scalars()
    games = paging.page(
        db.select(BiddingGame)
        .join(DeviceBidding, DeviceBidding.game_id == BiddingGame.id)
        .where(DeviceBidding.device == (device or "")),
        (DeviceBidding.created_at, DeviceBidding.game_id),
        current_app.config["HISTORY_PAGE_SIZE"],
        lambda game: game.id,
        before=_game_place(device, request.args.get("games_before", "")),
        after=_game_place(device, request.args.get("games_after", "")),
    )
    return render_template(
        "history.html",
        pagination=pagination,
        games=games,
        seat_names=bidding_wording.seat_names,
        crosses=crosses,
        groups=list(groups),
        outcome_name=wording.outcome_name,
    )
