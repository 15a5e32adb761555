"""The home page (start a rubber in one tap, the last ones) and the phone's history.

The history lists what the phone holds: its groups, the tournaments it runs, its rubbers and its
bidding games."""

from __future__ import annotations

from flask import render_template
from sqlalchemy.orm import selectinload

from scorekeeper.bidding import phrases as bidding_wording
from scorekeeper.bidding import store as bidding_store
from scorekeeper.bidding.models import BiddingGame, DeviceBidding
from scorekeeper.extensions import db
from scorekeeper.groups.models import DeviceGroup, Group
from scorekeeper.home import bp
from scorekeeper.rubbers import access, drawings, house_rules
from scorekeeper.rubbers.forms import NewRubberForm
from scorekeeper.rubbers.models import DeviceRubber, Rubber
from scorekeeper.tournaments import held
from scorekeeper.web import paging, wording
from scorekeeper.web.device import current_device

GROUPS_LISTED = 50
"""The groups of regulars a phone's history lists, newest first."""


@bp.get("/")
def home() -> str:
    device = current_device()
    recent: list[Rubber] = []
    # A rubber started and never played is no "latest rubber": a tap on "New rubber" made it.
    if device:
        recent = list(
            db.session.execute(
                db.select(Rubber)
                .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
                .where(DeviceRubber.device == device, Rubber.hand_count > 0)
                .order_by(DeviceRubber.created_at.desc(), DeviceRubber.rubber_id.desc())
                .limit(3)
            ).scalars()
        )
    last_game = bidding_store.latest_of(device)
    start_rules = house_rules.starting_rules(device)
    return render_template(
        "home.html",
        form=NewRubberForm(),
        start_rules=start_rules,
        start_values=house_rules.form_values(start_rules),
        recent=recent,
        outcome_names=wording.outcome_names,
        # The bidding table starts again in one tap, with the names of the phone's last game.
        last_table=bidding_wording.seat_names(last_game.players) if last_game else None,
    )


@bp.get("/history")
def history() -> str:
    device = current_device()
    pagination = paging.page(
        db.select(Rubber)
        .join(DeviceRubber, DeviceRubber.rubber_id == Rubber.id)
        .where(DeviceRubber.device == (device or ""))
        .options(selectinload(Rubber.hands)),
        (DeviceRubber.created_at, DeviceRubber.rubber_id),
        Rubber.id,
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
        BiddingGame.id,
        links="games_",
    )
    group_ids = {rubber.group_id for rubber in pagination.items if rubber.group_id}
    named = db.select(Group.id, Group.name).where(Group.id.in_(group_ids))
    group_names = {row.id: row.name for row in db.session.execute(named)} if group_ids else {}
    return render_template(
        "history.html",
        pagination=pagination,
        pairs_said=access.pairs_said,
        group_names=group_names,
        games=games,
        seat_names=bidding_wording.seat_names,
        crosses=crosses,
        groups=list(groups),
        tournaments=held.run_by(device),
        tournament_format=held.format_name,
        outcome_names=wording.outcome_names,
    )
