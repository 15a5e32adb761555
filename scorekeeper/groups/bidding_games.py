"""A group's bidding Sueca games: started in the group, listed in its history, counted apart.

They are counted in statistics of their own (games played and won, bids made and failed, the average
bid), apart from the rubbers' statistics and ratings."""

from __future__ import annotations

import secrets
from typing import Any

import sqlalchemy as sa
from flask import redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.bidding import phrases
from scorekeeper.bidding import store as bidding_store
from scorekeeper.bidding.forms import NewGameForm
from scorekeeper.bidding.models import BiddingGame, BiddingHand
from scorekeeper.engine import bidding as rules
from scorekeeper.extensions import db
from scorekeeper.groups import bidding_stats, bp, statistics
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.web import paging
from scorekeeper.web.device import current_device, ensure_device, remember_key

_group_or_404 = group_store.GRANTS.or_404


def stats(group_id: str) -> bidding_stats.BiddingStats:
    """Return the group's bidding statistics: its finished games' players, winners and bids.

    The bids are summed per game, bidder and outcome by the database (a few rows per game)."""
    games = db.session.execute(
        sa.select(BiddingGame.id, BiddingGame.players, BiddingGame.winner)
        .where(BiddingGame.group_id == group_id, BiddingGame.finished.is_(True))
        .order_by(BiddingGame.created_at, BiddingGame.id)
    ).all()
    bids: dict[str, list[bidding_stats.Bids]] = {}
    summed = db.session.execute(
        sa.select(
            BiddingHand.game_id,
            BiddingHand.bidder,
            BiddingHand.made,
            sa.func.count(),
            sa.func.sum(BiddingHand.bid),
        )
        .join(BiddingGame, BiddingGame.id == BiddingHand.game_id)
        .where(
            BiddingGame.group_id == group_id,
            BiddingGame.finished.is_(True),
            BiddingHand.kind == rules.HandKind.BID.value,
        )
        .group_by(BiddingHand.game_id, BiddingHand.bidder, BiddingHand.made)
    )
    for game_id, bidder, made, hands, total in summed:
        if bidder is not None:  # always, for a bid; the column is empty for a passed hand
            bids.setdefault(game_id, []).append(
                bidding_stats.Bids(bidder, bool(made), int(hands), int(total or 0))
            )
    in_play = db.session.execute(
        sa.select(sa.func.count())
        .select_from(BiddingGame)
        .where(BiddingGame.group_id == group_id, BiddingGame.finished.is_(False))
    ).scalar_one()
    return bidding_stats.count(
        (
            bidding_stats.FinishedGame(players, winner, bids.get(game_id, []))
            for game_id, players, winner in games
            if winner is not None  # a finished game has its winner
        ),
        in_play=in_play,
    )


@bp.app_template_global()
def group_bidding_count(group_id: str) -> int:
    """How many bidding games the group holds, for its page."""
    return int(
        db.session.execute(
            sa.select(sa.func.count())
            .select_from(BiddingGame)
            .where(BiddingGame.group_id == group_id)
        ).scalar_one()
    )


@bp.get("/g/<group_id>/bidding")
def bidding_games(group_id: str) -> str:
    """The group's bidding games, newest first, and their statistics."""
    group = _group_or_404(group_id)
    pagination = paging.page(
        sa.select(BiddingGame).where(BiddingGame.group_id == group.id),
        (BiddingGame.created_at, BiddingGame.id),
        BiddingGame.id,
    )
    return render_template(
        "groups/bidding.html",
        group=group,
        pagination=pagination,
        stats=stats(group.id),
        seat_names=phrases.seat_names,
        can_edit=group_store.can_edit(current_device(), group),
    )


@bp.route("/g/<group_id>/bidding/new", methods=["GET", "POST"])
def new_bidding_game(group_id: str) -> Any:
    """A bidding game started in the group: its regulars' names offered, no name twice."""
    group = group_store.GRANTS.editable_or_403(group_id)
    form = NewGameForm()
    if request.method == "GET":
        last = db.session.execute(
            sa.select(BiddingGame.players)
            .where(BiddingGame.group_id == group.id)
            .order_by(BiddingGame.created_at.desc(), BiddingGame.id.desc())
            .limit(1)
        ).scalar_one_or_none()
        for seat, name in enumerate(last or []):
            getattr(form, f"player{seat}").data = name
    elif form.validate_on_submit():
        started = _start(form, group)
        if started is not None:
            return started
    offered = group_store.known_names(group.id)
    status = 422 if request.method == "POST" else 200
    return render_template("bidding/new.html", group=group, form=form, offered=offered), status


def _start(form: NewGameForm, group: Group) -> Response | None:
    names = form.names()
    repeated = statistics.repeated_name(names)
    if repeated is not None:
        form.player0.errors = [
            *form.player0.errors,
            _("%(name)s sits in two seats: in a group every player has one seat.", name=repeated),
        ]
        return None
    if form.first_dealer.data == "random":
        first_dealer = secrets.randbelow(max(len(names), 1))
    else:
        first_dealer = int(form.first_dealer.data)
    try:
        game, key = bidding_store.create_game(
            players=names,
            target=form.target.data or rules.DEFAULT_TARGET,
            first_dealer=first_dealer,
            device=ensure_device(),
            group_id=group.id,
        )
    except rules.BiddingError as error:
        form.refuse(error)
        return None
    remember_key(game.id, key, bidding_store.GRANTS.book)
    return redirect(url_for("bidding.game", game_id=game.id))
