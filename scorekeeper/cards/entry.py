"""Card entry: replay a hand trick by trick (the pile and melar calculators: calculators.py).

The engine decides every winner, point, illegal card and revoke. These pages carry the cards
the person taps (the record in progress travels in the form, never in the database), show the
engine's answer beside each card, and end by filling the hand for the person to confirm.
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper import engine
from scorekeeper.background import queue, work
from scorekeeper.cards import bp
from scorekeeper.cards.analysis_page import replay_address
from scorekeeper.cards.display import (
    SEATS,
    TRICKS,
    TYPED_AT_ONCE,
    Examined,
    Slot,
    TrickView,
    examine,
    face_of,
    grid,
    letters_hint,
    normal,
    problem_keys,
    problem_text,
    ranks_hint,
    suit_letter_error,
    trick_views,
    turned_card_choices,
    typed_card,
    typed_example,
)
from scorekeeper.cards.forms import MAX_CARD_TEXT, ReplayForm, record_text
from scorekeeper.engine.analysis import analysable
from scorekeeper.rubbers import store
from scorekeeper.rubbers.access import editable_or_403, player_names
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording

# Access ----------------------------------------------------------------------------------


TableView = Callable[[Rubber, engine.RubberState], Any]


def at_table(view: TableView) -> Callable[[str], Any]:
    """Wrap a view that gets the rubber and its state, if this device may record its hands.

    It is called only while a hand can still be added; otherwise the rubber page says why not."""

    @functools.wraps(view)
    def opened(rubber_id: str) -> Any:
        # The same access rule as every other page that records hands (404, then 403).
        rubber = editable_or_403(rubber_id)
        state = rubber.state()
        if state.finished:
            flash(_("This rubber is already won: no more hands can be added."), "conflict")
            return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
        return view(rubber, state)

    return opened


# Replay the tricks -----------------------------------------------------------------------


@dataclass
class Refusal:
    """A card the engine would not take, shown where it was tapped, with why."""

    text: str
    face: str
    suit: str
    problems: list[str]


class Unfinished(Exception):
    """A record confirmed before it can be scored."""


def _position(text: str | None, tricks: list[list[str]]) -> tuple[int, int] | None:
    """``"3.2"`` (trick 3, card 2) if the record has that card."""
    found = re.fullmatch(r"(\d{1,2})\.(\d)", text or "")
    if not found:
        return None
    number, position = int(found.group(1)), int(found.group(2))
    if 1 <= number <= len(tricks) and 1 <= position <= len(tricks[number - 1]):
        return number, position
    return None


@dataclass
class Step:
    """A page of the replay: the record, a card being replaced, a card refused, a note."""

    trump: str | None
    tricks: list[list[str]]
    replace: tuple[int, int] | None = None
    refusal: Refusal | None = None
    errors: list[str] = field(default_factory=list)


def _step(form: ReplayForm, leader: int, rules: engine.RuleSet) -> Step:
    """Apply what was tapped to the record carried by the page; the engine checks each card."""
    step = Step(form.chosen_trump(), form.tricks(), _position(form.replace.data, form.tricks()))
    if request.method != "POST" or _moved(step, form):
        return step
    texts = _brought(step, form)
    if texts and step.trump is None:
        step.errors.append(_("Choose the trump first."))
        return step
    for text in texts:
        if not _play(step, text[:MAX_CARD_TEXT], leader, rules, form.trump_card.data or None):
            break
    return step


def _moved(step: Step, form: ReplayForm) -> bool:
    """Apply a card picked to replace, a cancel or an undo; False when none was asked."""
    action = form.action.data
    if form.pick.data:
        step.replace = _position(form.pick.data, step.tricks)
    elif action == "cancel":
        step.replace = None
    elif action == "undo":
        if step.replace is not None:
            step.replace = None
        elif step.tricks:
            step.tricks[-1].pop()
            if not step.tricks[-1]:
                step.tricks.pop()
    else:
        return False
    return True


def _brought(step: Step, form: ReplayForm) -> list[str]:
    """The cards the page sent, tapped or typed; none when a typed suit letter is wrong."""
    if form.action.data != "type":
        return list(form.card.data or [])
    texts = [t for t in re.split(r"[\s,;]+", form.typed.data or "") if t]
    if len(texts) > TYPED_AT_ONCE:
        step.errors.append(_("A hand has 40 cards: the ones typed after the 40th were left out."))
        texts = texts[:TYPED_AT_ONCE]
    try:
        return [typed_card(text[:MAX_CARD_TEXT]) for text in texts]
    except engine.SuitLetterError as error:
        step.errors.append(suit_letter_error(error))
        return []


def _play(
    step: Step, text: str, leader: int, rules: engine.RuleSet, trump_card: str | None
) -> bool:
    """Put one card in the record if the engine finds nothing new wrong with it.

    It goes next or in place of the one replaced; else keep the record and say why beside it."""
    assert step.trump is not None
    text = normal(text)
    before = examine(step.trump, leader, step.tricks, rules, trump_card)
    face, suit = face_of(text)
    candidate = [list(trick) for trick in step.tricks]
    if step.replace is not None:
        number, position = step.replace
        candidate[number - 1][position - 1] = text
    elif before.stopped:
        if before.revoke is not None:
            why = _("The hand stops at the revoke: record it, or correct the tricks.")
        else:
            why = _("All 10 tricks are in: check the result.")
        step.refusal = Refusal(text, face, suit, [why])
        return False
    elif candidate and len(candidate[-1]) < SEATS:
        candidate[-1].append(text)
    else:
        candidate.append([text])
    after = examine(step.trump, leader, candidate, rules, trump_card)
    old = problem_keys(before)
    new = [p for p in after.problems if (p.code, p.trick, p.card) not in old]
    if new:
        step.refusal = Refusal(text, face, suit, [problem_text(p) for p in new])
        return False
    step.tricks = candidate
    step.replace = None
    return True


def _replay_page(
    rubber: Rubber,
    state: engine.RubberState,
    form: ReplayForm,
    step: Step,
    status: int = 200,
) -> Any:
    rules = rubber.rule_set()
    players = player_names(rubber)
    form.record.data = record_text(step.tricks)
    form.trump.data = step.trump or ""
    form.replace.data = "{}.{}".format(*step.replace) if step.replace else ""
    context: dict[str, Any] = {
        "rubber": rubber,
        "state": state,
        "form": form,
        "step": step,
        "players": players,
        "teams": rubber.teams,
        "turned_cards": turned_card_choices(rules),
        "suit_names": {s.value: wording.suit_name(s) for s in engine.Suit},
        "letters_hint": letters_hint(),
        "ranks_hint": ranks_hint(),
        "typed_example": typed_example(),
        "deck_cards": TRICKS * SEATS,  # what a kept record is counted against
    }
    if step.trump is None:
        return render_template("cards/replay_trump.html", **context), status
    examined = examine(step.trump, state.leader, step.tricks, rules, form.trump_card.data or None)
    views, general = trick_views(examined, players)
    replacing = None
    if step.replace is not None:
        number, position = step.replace
        replacing = views[number - 1].slots[position - 1]
    current = None
    if not examined.stopped or examined.partial:
        current = _current_trick(examined, views)
    revoke = examined.revoke
    context.update(
        examined=examined,
        views=views,
        general=general,
        current=current,
        replacing=replacing,
        suits=grid(rules),
        played={normal(text) for trick in step.tricks for text in trick},
        revoke_text=wording.revoke_proof(revoke, players, rubber.teams) if revoke else None,
        flagged=[wording.revoke_proof(r, players, rubber.teams) for r in examined.flagged],
    )
    return render_template("cards/replay.html", **context), status


@dataclass
class CurrentTrick:
    """The trick being entered: who plays in which order, and the cards so far."""

    number: int
    seats: list[int | None]
    slots: list[Slot | None]
    to_play: int | None


def _current_trick(examined: Examined, views: list[TrickView]) -> CurrentTrick:
    leader = examined.current_leader
    seats: list[int | None] = [
        None if leader is None else (leader + i) % SEATS for i in range(SEATS)
    ]
    slots: list[Slot | None] = [None] * SEATS
    if examined.partial:
        for i, slot in enumerate(views[-1].slots):
            slots[i] = slot
    return CurrentTrick(examined.trick_number, seats, slots, examined.to_play)


@bp.route("/r/<rubber_id>/replay", methods=["GET", "POST"])
@at_table
def replay(rubber: Rubber, state: engine.RubberState) -> Any:
    """Replay the hand: trump, then each trick's four cards in play order from its leader."""
    form = ReplayForm()
    if not form.version.data:  # from here on the page remembers which hand it is for
        form.version.data = str(rubber.version)
    step = _step(form, state.leader, rubber.rule_set())
    status = 422 if step.refusal or step.errors else 200
    return _replay_page(rubber, state, form, step, status)


@bp.post("/r/<rubber_id>/replay/confirm")
@at_table
def confirm(rubber: Rubber, state: engine.RubberState) -> Any:
    """The result the cards give, for the person to confirm before it is recorded."""
    form = ReplayForm()
    step = Step(form.chosen_trump(), form.tricks())
    if form.version.data != str(rubber.version):
        # The hand the tricks were entered for is not the next one any more (or the page never
        # said which it was): show them against the next hand's leader before confirming.
        stale = bool(form.version.data)
        form.version.data = str(rubber.version)
        if stale:
            step.errors.append(_stale())
            return _replay_page(rubber, state, form, step, 409)
    try:
        examined = _recordable(step, state.leader, rubber.rule_set(), form.trump_card.data or None)
        preview = engine.play_hand(state, examined.hand()).hands[-1]
    except (Unfinished, engine.ScoringError) as error:
        step.errors.append(_why_not(error))
        return _replay_page(rubber, state, form, step, 422)
    form.key.data = secrets.token_urlsafe(16)
    form.record.data = record_text(step.tricks)
    form.trump.data = step.trump
    players = player_names(rubber)
    views, _general = trick_views(examined, players)
    revoke = examined.revoke
    return render_template(
        "cards/confirm.html",
        analysable=analysable(examined.record),
        rubber=rubber,
        form=form,
        examined=examined,
        views=views,
        players=players,
        teams=rubber.teams,
        summary=wording.hand_note(preview, rubber.teams),
        revoke_text=wording.revoke_proof(revoke, players, rubber.teams) if revoke else None,
        suit_names={s.value: wording.suit_name(s) for s in engine.Suit},
    )


@bp.post("/r/<rubber_id>/replay/analysis")
@at_table
def analyse(rubber: Rubber, state: engine.RubberState) -> Any:
    """Queue the analysis of the record being confirmed: not yet a hand, analysed by its content.

    Once recorded, the hand's analysis is the same one (docs/decisions/analysis.md, "The best
    line from any card, and the replay's analysis").
    """
    form = ReplayForm()
    step = Step(form.chosen_trump(), form.tricks())
    rules = rubber.rule_set()
    try:
        examined = _recordable(step, state.leader, rules, form.trump_card.data or None)
        if not analysable(examined.record):
            raise Unfinished(
                _("Only a hand played to its last trick without a revoke is analysed.")
            )
    except Unfinished as error:
        step.errors.append(_why_not(error))
        return _replay_page(rubber, state, form, step, 422)
    tricks = [[str(card) for card in trick.cards] for trick in examined.record.tricks]
    content = work.record_request(str(step.trump), state.leader, tricks, rules)
    try:
        queue.submit(content, queue.client_key(request.remote_addr))
    except queue.Unqueued as refused:
        flash(refused.message, "error")
    return redirect(replay_address(rubber.id, form))


def _stale() -> str:
    return _("Someone else recorded a hand meanwhile: check the tricks, then record them.")


def _recordable(step: Step, leader: int, rules: engine.RuleSet, trump_card: str | None) -> Examined:
    """The record as the engine sees it, if it can be recorded; Unfinished says why not."""
    if step.trump is None:
        raise Unfinished(_("Choose the trump first."))
    examined = examine(step.trump, leader, step.tricks, rules, trump_card)
    if not examined.finished:
        raise Unfinished(_not_finished(examined))
    return examined


def _why_not(error: Unfinished | engine.ScoringError) -> str:
    """Why the hand cannot be recorded, in a sentence."""
    if isinstance(error, engine.ScoringError):
        return wording.engine_error(error)
    return str(error)


def _not_finished(examined: Examined) -> str:
    if examined.problems:
        return _("Correct the cards marked in red first.")
    done = len(examined.record.tricks)
    return ngettext(
        "%(num)s trick is in: a hand is recorded from all 10, or up to a revoke.",
        "%(num)s tricks are in: a hand is recorded from all 10, or up to a revoke.",
        done,
    )


@bp.post("/r/<rubber_id>/replay/save")
@at_table
def save(rubber: Rubber, state: engine.RubberState) -> Any:
    """Record the confirmed hand with its tricks; the engine scores it again as it is stored."""
    form = ReplayForm()
    step = Step(form.chosen_trump(), form.tricks())
    trump_card = form.trump_card.data or None
    if not form.validate():
        step.errors += [str(error) for errors in form.errors.values() for error in errors]
        form.version.data = str(rubber.version)
        return _replay_page(rubber, state, form, step, 422)

    def change(target: Rubber) -> engine.RubberState:
        examined = _recordable(step, target.state().leader, target.rule_set(), trump_card)
        return store.append_hand(examined.hand(), step.trump, examined.stored_tricks())(target)

    try:
        written = store.write(
            rubber.id,
            change,
            key=form.key.data or None,
            body=request.form.to_dict(),
            version=form.stored_version(),
        )
    except (Unfinished, engine.ScoringError) as error:
        step.errors.append(_why_not(error))
        return _replay_page(rubber, state, form, step, 422)
    except store.Conflict as conflict:
        if conflict.code != "stale":
            flash(conflict.message or wording.conflict(conflict.code), "conflict")
            return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
        # Someone recorded a hand meanwhile: keep the tricks, and let the person check them
        # against the new hand's leader before recording them.
        fresh = editable_or_403(rubber.id)
        form.version.data = str(fresh.version)
        step.errors.append(_stale())
        return _replay_page(fresh, fresh.state(), form, step, 409)
    if not written.repeated and written.state.hands:
        flash(wording.recorded_note(written.state.hands[-1], rubber.teams), "hand")
    return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
