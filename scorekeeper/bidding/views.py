"""The pages of bidding Sueca at the table: start a game, record and correct hands, follow one."""

from __future__ import annotations

import functools
import hashlib
import secrets
from typing import Any

from flask import abort, current_app, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from scorekeeper.bidding import bp, phrases, store
from scorekeeper.bidding.forms import ALONE, HandForm, NewGameForm
from scorekeeper.bidding.models import BiddingGame
from scorekeeper.engine import bidding as rules
from scorekeeper.engine import bidding_outlook
from scorekeeper.extensions import db
from scorekeeper.web import hand_edit, security
from scorekeeper.web.device import current_device, ensure_device, held_key, remember_key
from scorekeeper.web.forms import Form
from scorekeeper.web.i18n import select_locale
from scorekeeper.web.undo import undo_last_hand


@bp.route("/bidding/new", methods=["GET", "POST"])
def new_game() -> Any:
    form = NewGameForm()
    if form.validate_on_submit():
        names = form.names()
        first_dealer = form.first_dealer.data
        if first_dealer == "random":
            first_dealer = str(secrets.randbelow(max(len(names), 1)))
        try:
            return _start(names, form.target.data or rules.DEFAULT_TARGET, int(first_dealer))
        except rules.BiddingError as error:
            form.refuse(error)
    status = 422 if request.method == "POST" else 200
    return render_template("bidding/new.html", form=form, group=None, offered=()), status


@bp.post("/bidding")
def quick_game() -> Response:
    """Start the same table again, in one tap: the players of the game named, or of the last game.

    The game named is a finished one's "next game"; without one, the last game is this phone's. The
    deal goes on round."""
    if not Form().validate():  # its CSRF token
        flash(_("This page is out of date: reload it."), "conflict")
        return redirect(url_for("home.home"))
    previous = store.get(request.form.get("previous", ""))
    device = current_device()
    if previous is None or not store.can_edit(device, previous):
        previous = store.latest_of(device)
    if previous is None:
        return redirect(url_for(".new_game"))
    state = previous.state()
    if previous.finished:
        following = store.next_game_of(previous)
        if following is not None:  # a second tap, or the other phone's
            store.grant(ensure_device(), following)
            return redirect(url_for(".game", game_id=following.id))
    try:
        return _start(
            list(previous.players),
            previous.target,
            state.dealer,
            previous_id=previous.id if previous.finished else None,
            group_id=previous.group_id,
        )
    except IntegrityError:  # the other tap started it a moment before
        db.session.rollback()
        following = store.next_game_of(previous)
        if following is None:
            raise
        store.grant(ensure_device(), following)
        return redirect(url_for(".game", game_id=following.id))


def _start(
    names: list[str],
    target: int,
    first_dealer: int,
    *,
    previous_id: str | None = None,
    group_id: str | None = None,
) -> Response:
    game, key = store.create_game(
        players=names,
        target=target,
        first_dealer=first_dealer,
        device=ensure_device(),
        previous_id=previous_id,
        group_id=group_id,
    )
    remember_key(game.id, key, store.GRANTS.book)
    return redirect(url_for(".game", game_id=game.id))


bp.add_url_rule("/b/<game_id>/edit/<key>", "grant", store.GRANTS.edit_link_view(".game", "game_id"))


@bp.get("/b/<game_id>")
def game(game_id: str) -> Any:
    game = store.GRANTS.or_404(game_id)
    device = current_device()
    can_edit = store.can_edit(device, game)
    edit_key = held_key(game.id, store.GRANTS.book) if can_edit else None
    plain = not request.args and "_flashes" not in session
    if can_edit and "csrf_token" not in session:
        generate_csrf()
    seen = (game.id, game.version, select_locale(), can_edit, edit_key, session.get("csrf_token"))
    etag = hashlib.sha256(
        repr((*seen, request.host, current_app.extensions["build_id"])).encode()
    ).hexdigest()[:32]
    if plain and request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:
        form = HandForm(formdata=None)
        points = request.args.get("points", type=int)
        if points is not None and 0 <= points <= rules.TOTAL_POINTS:
            form.points.data = points  # counted from a pile: waits to be confirmed
        response = Response(_render(game, form, can_edit, edit_key), mimetype="text/html")
    if plain:
        response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.update(("Cookie", "Accept-Language"))
    return response


def _render(game: BiddingGame, form: HandForm, can_edit: bool, edit_key: str | None) -> str:
    state = game.state()
    names = phrases.seat_names(game.players)
    form.seat(names)
    form.key.data = secrets.token_urlsafe(16)
    form.version.data = str(game.version)
    if edit_key:
        security.holds_edit_key()  # the page shows the edit link
    return render_template(
        "bidding/show.html",
        game=game,
        state=state,
        names=names,
        summaries={result.number: phrases.hand_summary(result, names) for result in state.hands},
        edited={row.number: row.edited_at for row in game.hands if row.edited_at is not None},
        signed=phrases.signed,
        tie_note=phrases.tie_note(state, names),
        form=form if can_edit else None,
        can_edit=can_edit,
        edit_key=edit_key,
        edit_url=url_for(".grant", game_id=game.id, key=edit_key, _external=True)
        if edit_key
        else None,
        share_url=url_for(".game", game_id=game.id, _external=True),
        quick_bids=rules.QUICK_BIDS,
        outlook=bidding_outlook.outlook(state) if can_edit and not state.finished else None,
    )


@bp.post("/b/<game_id>/hands")
def record_hand(game_id: str) -> Any:
    game = store.GRANTS.editable_or_403(game_id)
    form = HandForm()
    form.seat(phrases.seat_names(game.players))
    if game.finished:  # another phone ended it: its page has no form, so no errors to show
        flash(phrases.conflict("finished"), "conflict")
        return redirect(url_for(".game", game_id=game.id))
    if form.validate():
        try:
            written = store.write(
                game.id,
                store.append_hand(form.engine_hand(), form.trump.data or None, form.called_card()),
                key=form.key.data or None,
                body=request.form.to_dict(),
                version=form.stored_version(),
            )
        except rules.BiddingError as error:
            _refusal_on(form, error)
        except store.Conflict as conflict:
            flash(phrases.conflict(conflict.code), "conflict")
            return redirect(url_for(".game", game_id=game.id))
        else:
            if written.repeated:
                flash(_("That hand was already recorded: here is the score."), "conflict")
            else:
                names = phrases.seat_names(game.players)
                flash(phrases.hand_summary(written.state.hands[-1], names), "hand")
            return redirect(url_for(".game", game_id=game.id))
    return _render(game, form, True, held_key(game.id, store.GRANTS.book)), 422


def _refusal_on(form: HandForm, error: rules.BiddingError) -> None:
    """Put the engine's refusal on the field it is about."""
    field: Any = form.points
    if isinstance(error, rules.UnknownSeatError):
        field = form.partner if error.role is rules.SeatRole.PARTNER else form.bidder
    elif isinstance(error, rules.BidError):
        field = form.bid
    form.action.errors = list(form.action.errors)
    field.errors = [*field.errors, phrases.engine_error(error)]


@bp.post("/b/<game_id>/undo")
def undo(game_id: str) -> Response:
    game = store.GRANTS.editable_or_403(game_id)
    write = functools.partial(store.write, game.id, store.undo_last)
    return undo_last_hand(write, phrases.conflict, url_for(".game", game_id=game_id))


EDITS = hand_edit.HandEdits(
    store.GAMES, rules.BiddingError, phrases.conflict, ("ends_early",), "bidding/edit_hand.html"
)
"""A hand's edit: a change that would end the game early stays on the form."""


@bp.route("/b/<game_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(game_id: str, number: int) -> Any:
    game = store.GRANTS.editable_or_403(game_id)
    if not 1 <= number <= len(game.hands):
        abort(404)
    form = HandForm()
    form.seat(phrases.seat_names(game.players))
    return EDITS.edit(
        game,
        number,
        form,
        fill=functools.partial(_fill, form, game.hands[number - 1]),
        shown={
            "game": game,
            "names": phrases.seat_names(game.players),
            "quick_bids": rules.QUICK_BIDS,
        },
        change=lambda: store.replace_hand(
            number, form.engine_hand(), form.trump.data or None, form.called_card()
        ),
        refuse=functools.partial(_refusal_on, form),
        back=url_for(".game", game_id=game_id),
    )


def _fill(form: HandForm, row: Any) -> None:
    """Put a stored hand back into the form."""
    if row.kind == rules.HandKind.PASSED.value:
        form.action.data = "passed"
        return
    form.bidder.data = str(row.bidder)
    if row.bid in rules.QUICK_BIDS:
        form.bid.data = str(row.bid)
    else:
        form.other_bid.data = row.bid
    form.partner.data = ALONE if row.partner == row.bidder else str(row.partner)
    form.points.data = row.points
    form.action.data = "points" if row.points is not None else ("made" if row.made else "failed")
    form.trump.data = row.trump
    form.called.data = row.called
