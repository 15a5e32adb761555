"""The pages people use at the table: start a rubber, record hands, undo, the next rubber."""

from __future__ import annotations

import functools
import re
import secrets
from typing import Any

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers import bp, drawings, facts, house_rules, offers, recording, store
from scorekeeper.rubbers.access import editable_or_403, player_names, rubber_or_404
from scorekeeper.rubbers.forms import HandForm, NewRubberForm
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import page_cache, security, wording
from scorekeeper.web.device import current_device, ensure_device, held_key, remember_key
from scorekeeper.web.forms import choices
from scorekeeper.web.i18n import reader_zone
from scorekeeper.web.undo import undo_last_hand


@bp.route("/rubbers/new", methods=["GET", "POST"])
def new_rubber() -> Any:
    form = house_rules.new_rubber_form()
    if form.validate_on_submit():
        rules = form.rule_set()
        if rules is not None:
            return _start(form, rules)
    status = 422 if request.method == "POST" else 200
    return render_template("rubbers/new.html", form=form), status


@bp.post("/rubbers")
def quick_rubber() -> Any:
    """Start a rubber with the defaults: one tap from the home page."""
    form = house_rules.new_rubber_form()
    if form.validate_on_submit():
        rules = form.rule_set()
        if rules is not None:
            return _start(form, rules)
    return render_template("rubbers/new.html", form=form), 422


def _start(form: NewRubberForm, rules: engine.RuleSet) -> Response:
    teams = (form.team0.data or _("Nós"), form.team1.data or _("Eles"))
    names = [getattr(form, f"player{seat}").data or "" for seat in range(4)]
    players = names if any(names) else None
    if form.first_dealer.data == "random":
        first_dealer = secrets.randbelow(4)
    else:
        first_dealer = int(form.first_dealer.data)
    rubber, key = store.create_rubber(
        teams=teams, players=players, first_dealer=first_dealer, rules=rules, device=ensure_device()
    )
    remember_key(rubber.id, key)
    return redirect(url_for(".rubber", rubber_id=rubber.id))


@bp.get("/r/<rubber_id>")
def rubber(rubber_id: str) -> Any:
    if request.args or "_flashes" in session or offers.KEPT in session or current_app.debug:
        # A form prefilled from the address, or a note shown once: this answer's own page,
        # carrying the ETag of the kept one, which its script asks with (see follow.js).
        rubber = rubber_or_404(rubber_id)
        form = HandForm(formdata=None)
        refused = offers.take(rubber, form, rubber.state())
        if refused is None:
            _prefill(form, rubber.id)
        found = facts.page_facts(rubber.id, current_device() or "")
        if found is None:
            abort(404)
        answer_key, _edit_key = facts.answer_key(rubber.id, found)
        # A hand offered again is not followed: a new page would take it off the screen.
        etag = None if refused else facts.etag(answer_key)
        page = _render(rubber, form, etag=etag, next_id=found.next_id, offered=refused)
        return page, 200
    return _kept_page(rubber_id)


def _kept_page(rubber_id: str) -> Response:
    """Return the rubber page from one small query: rendered once per version of the rubber.

    The same answer goes to a phone that asks again before the rubber changes (see page_cache)."""
    if not store.is_token(rubber_id):
        abort(404)
    found = facts.page_facts(rubber_id, current_device() or "")
    if found is None:
        abort(404)
    answer_key, edit_key = facts.answer_key(rubber_id, found)
    if edit_key:
        security.holds_edit_key()  # the page carries the edit key (the offline sync's)
    cache = page_cache.pages()
    # The scorer asking again before the rubber changes gets the same page, write key and all,
    # as after a 304: a hand sent twice from it is answered as the repeat it is (and said so).
    answer: page_cache.Answer | None = cache.answers.get(answer_key)
    etag = answer.etag if answer is not None else facts.etag(answer_key)
    # Most requests ask without an ETag: the header is parsed only when sent.
    if "HTTP_IF_NONE_MATCH" in request.environ and request.if_none_match.contains_weak(etag):
        headers = (
            answer.headers
            if answer is not None
            else page_cache.validators(etag, found.updated_at, edit_key is not None)
        )
        return Response(status=304, headers=headers)
    if answer is None:
        answer = _answer(rubber_id, found, edit_key, answer_key[2], etag)
        if answer.version == found.version:  # else a write came in between: keep nothing
            cache.answers.put(answer_key, answer)
    # accept_encodings is typed as a list of (value, quality) pairs, but `in` takes a value.
    accepts_gzip = "gzip" in request.accept_encodings  # type: ignore[comparison-overlap]
    return answer.response(gzip_ok=accepts_gzip)


def _answer(
    rubber_id: str, found: facts.Facts, edit_key: str | None, locale: str, etag: str
) -> page_cache.Answer:
    """This phone's page: the kept rendering with its own parts filled in, else a new one."""
    cache = page_cache.pages()
    can_edit = found.can_edit
    parts = {  # the session's CSRF token, which every form of the scorer's page carries
        "csrf_token": generate_csrf() if can_edit else "",
        "write_key": secrets.token_urlsafe(16) if can_edit else "",
        "edit_key": edit_key or "",
        "etag": etag,  # the page's own, which follow.js asks again with
    }
    render_key = (
        rubber_id,
        found.version,
        locale,
        reader_zone(locale),  # an edited hand's time is written in the reader's zone
        can_edit,
        edit_key is not None,
        request.scheme,
        request.host,
        facts.table(found),
    )
    version = found.version
    page = cache.page(render_key, parts)
    if page is None:
        rubber = rubber_or_404(rubber_id)
        page = _render(
            rubber,
            HandForm(formdata=None),
            write_key=parts["write_key"],
            etag=etag,
            next_id=found.next_id,
        )
        version = rubber.version
        if rubber.version == render_key[1]:
            cache.keep(render_key, page, parts)
    return page_cache.Answer(
        page.encode(),
        version,
        etag,
        page_cache.validators(etag, found.updated_at, edit_key is not None),
    )


def _prefill(form: HandForm, rubber_id: str) -> None:
    """Prefill the form with points counted elsewhere, or the team whose points were last typed.

    Points counted elsewhere (a pile counted card by card) wait in the form to be confirmed; after
    a hand, the team whose points were typed stays chosen (the same person counts)."""
    points = request.args.get("points", type=int)
    team = request.args.get("team")
    if points is not None and 0 <= points <= 120 and team in ("0", "1"):
        form.points.data = points
        form.team.data = team
    elif session.get("typed_for") in ([rubber_id, "0"], [rubber_id, "1"]):
        form.team.data = session["typed_for"][1]


def _show(rubber: Rubber, form: HandForm, status: int = 200) -> Any:
    return _render(rubber, form), status


INDENT = re.compile(r"\n\s+")
"""The templates' indentation: the page carries none of it to the phone (it has no <pre>)."""


def _render(  # noqa: PLR0913  the kept page's parts, and a refused hand offered again
    rubber: Rubber,
    form: HandForm,
    write_key: str | None = None,
    etag: str | None = None,
    next_id: str | None = None,
    offered: offers.Offer | None = None,
) -> str:
    state = rubber.state()
    can_edit = store.can_edit(current_device(), rubber)
    form.key.data = write_key or secrets.token_urlsafe(16)
    form.version.data = str(rubber.version)
    edit_key = held_key(rubber.id) if can_edit else None
    if edit_key:
        security.holds_edit_key()  # the page carries the edit key (the offline sync's)
    page = render_template(
        "rubbers/show.html",
        rubber=rubber,
        state=state,
        teams=rubber.teams,
        players=player_names(rubber),
        cross=drawings.cross(state),
        tallies=tuple(drawings.tally(games) for games in state.games),
        seats=drawings.table(state),
        summaries={r.number: wording.hand_note(r, rubber.teams) for r in state.hands},
        edited=rubber.edited_times(),
        outcome=wording.outcome_names(state.names),
        form=form if can_edit else None,
        can_edit=can_edit,
        # The hand form's offline sync posts to the JSON API with it; only an editing device,
        # which also shows it in its edit link (the share page), gets it.
        edit_key=edit_key,
        follow_tag=etag,
        next_id=next_id,
        offer=offered,
    )
    return INDENT.sub("\n", page)


bp.add_url_rule(
    "/r/<rubber_id>/edit/<key>", "grant", store.GRANTS.edit_link_view(".rubber", "rubber_id")
)


@bp.get("/rubbers")
def quick_rubber_again() -> Response:
    """The one-tap start's address opened again: the full form, nothing started."""
    return redirect(url_for(".new_rubber"))


@bp.get("/r/<rubber_id>/hands")
@bp.get("/r/<rubber_id>/undo")
@bp.get("/r/<rubber_id>/next")
@bp.get("/r/<rubber_id>/replay/confirm")
@bp.get("/r/<rubber_id>/replay/save")
def back_to_the_rubber(rubber_id: str) -> Response:
    """Redirect a form's address opened again to the rubber, never to a 405 page.

    The address is opened again when the tab is restored after a refused hand, or on a reload.
    Nothing is written; the form is on the page."""
    if not store.is_token(rubber_id):
        abort(404)
    target = "cards.replay" if request.path.endswith(("/confirm", "/save")) else ".rubber"
    return redirect(url_for(target, rubber_id=rubber_id))


@bp.post("/r/<rubber_id>/hands")
def record_hand(rubber_id: str) -> Any:
    """Record a hand from the form: the busiest write, so it reads no more than it must.

    See recording.record_hand; a refusal is answered with the whole page, loaded the usual way."""
    device = current_device()
    form = HandForm()
    if not store.is_token(rubber_id) or not device or not form.validate():
        return _refused(editable_or_403(rubber_id), form)
    question = _confirm(rubber_id, form)
    if question is not None:
        return question
    try:
        recorded = recording.record_hand(
            rubber_id,
            device,
            form.engine_hand(),
            trump=form.trump.data or None,
            typed_team=form.typed_team(),
            key=form.key.data or None,
            body=request.form.to_dict(),
            version=form.stored_version(),
        )
    except LookupError:
        abort(404)
    except recording.NotAllowed:
        abort(403)
    except engine.ScoringError as error:
        form.points.errors = [*form.points.errors, wording.engine_error(error)]
        return _refused(rubber_or_404(rubber_id), form)
    except store.Conflict as conflict:
        return _conflict(rubber_id, form, conflict)
    if recorded.repeated:  # a double tap, or a second copy of the page: one hand, said so
        flash(_("That hand was already recorded: here is the score."), "conflict")
    elif recorded.result is not None:
        flash(wording.recorded_note(recorded.result, recorded.teams), "hand")
        if form.action.data == "points":
            session["typed_for"] = [rubber_id, form.team.data or "0"]
    return redirect(url_for(".rubber", rubber_id=rubber_id))


def _conflict(rubber_id: str, form: HandForm, conflict: store.Conflict) -> Response:
    """Back to the rubber, saying why: a hand refused as stale is kept and offered again."""
    if conflict.code == "stale":  # said, kept and offered again by the page (offers.py)
        offers.keep(rubber_id, form)
    else:
        flash(conflict.message or wording.conflict(conflict.code), "conflict")
    return redirect(url_for(".rubber", rubber_id=rubber_id))


def _confirm(rubber_id: str, form: HandForm) -> str | None:
    """Return the page that asks to confirm a one-tap revoke or bandeira, its outcome said.

    None when there is nothing to confirm, or when the engine would refuse the hand: the write
    then refuses it, saying why. Nothing is recorded here."""
    if not offers.needs_confirming(form):
        return None
    rubber = editable_or_403(rubber_id)
    question = None if rubber.finished else offers.confirmation(rubber, form, rubber.state())
    if question is None:
        return None
    form.team.choices = choices([("0", rubber.team0), ("1", rubber.team1)])
    return _render(rubber, form, offered=question)


def _refused(rubber: Rubber, form: HandForm) -> Any:
    """Answer a hand refused: the page with the form's errors, or the score and why not.

    The page says the score and why nothing was added when another phone has just ended the rubber
    (its page shows no form, so no errors)."""
    form.team.choices = choices([("0", rubber.team0), ("1", rubber.team1)])
    if rubber.finished:
        flash(wording.conflict("finished"), "conflict")
        return redirect(url_for(".rubber", rubber_id=rubber.id))
    return _show(rubber, form, 422)


@bp.post("/r/<rubber_id>/undo")
def undo(rubber_id: str) -> Response:
    rubber = editable_or_403(rubber_id)
    write = functools.partial(store.write, rubber.id, store.undo_last)
    return undo_last_hand(write, wording.conflict, url_for(".rubber", rubber_id=rubber_id))


@bp.post("/r/<rubber_id>/next")
def next_rubber(rubber_id: str) -> Response:
    """Next rubber, same table: same teams, players and rules; the deal goes on round."""
    previous = editable_or_403(rubber_id)
    state = previous.state()
    if not state.finished:  # a stale page: another phone undid the last hand meanwhile
        flash(_("This rubber is not won yet: the next one starts when it is."), "conflict")
        return redirect(url_for(".rubber", rubber_id=previous.id))
    # The next rubber's edit key follows from this one's, for every phone that holds it.
    held = held_key(previous.id)
    key = store.next_edit_key(held) if held and store.key_matches(previous, held) else None
    # One next rubber per rubber: a second tap, or the other phone's, lands on the same one.
    following = store.next_rubber_of(previous)
    if following is None and previous.tournament_id is not None:
        # A match's next rubber is the tournament's to make: none here means the match is
        # decided, and a rubber made here would be played outside the tournament.
        flash(_("This match is decided: the tournament's page shows what comes next."), "conflict")
        return redirect(url_for("tournaments.tournament", tournament_id=previous.tournament_id))
    if following is None:
        try:
            following, key = store.create_rubber(
                teams=previous.teams,
                players=previous.players,
                first_dealer=state.dealer,
                rules=previous.rule_set(),
                previous_id=previous.id,
                device=ensure_device(),
                group_id=previous.group_id,
                edit_key=key,
            )
        except IntegrityError:  # the other tap got there a moment before
            db.session.rollback()
            following = store.next_rubber_of(previous)
            if following is None:
                raise
    if key is not None and store.key_matches(following, key):
        remember_key(following.id, key)
    store.grant(ensure_device(), following)
    return redirect(url_for(".rubber", rubber_id=following.id))
