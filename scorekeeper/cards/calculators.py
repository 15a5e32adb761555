"""The calculators of the card-entry pages: count a pile, check a leader's hand for melar.

They change nothing until the person records what they found, so a follower's phone (the
read-only link) may use them too; only a phone that records hands gets the buttons that do.
The engine counts the pile, refuses a pile no trick count makes, and decides a melar on the
very cards sent with it.
"""

from __future__ import annotations

import secrets
from typing import Any

from flask import abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from scorekeeper import engine
from scorekeeper.cards import bp
from scorekeeper.cards.display import TRICKS, grid
from scorekeeper.cards.forms import CardsForm, MelarForm, PileForm
from scorekeeper.rubbers import recording, store
from scorekeeper.rubbers.access import player_names, rubber_or_404
from scorekeeper.rubbers.forms import SpoilForm
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import card_grid, wording
from scorekeeper.web.device import current_device


def _opened(rubber_id: str, editing: bool = False) -> tuple[Rubber, engine.RubberState, bool] | Any:
    """Return the rubber, its state and whether this phone records its hands.

    Once the rubber is won, the rubber page says so instead, but for the check of a hand
    already recorded (``editing``): a won rubber's hands can still be edited."""
    rubber = rubber_or_404(rubber_id)
    state = rubber.state()
    if state.finished and not editing:
        flash(_("This rubber is already won: no more hands can be added."), "conflict")
        return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
    return rubber, state, store.can_edit(current_device(), rubber)


def _picked(
    rules: engine.RuleSet, cards: list[engine.Card], problems: dict[str, str]
) -> dict[str, Any]:
    """Return what a grid of toggled cards shows (a pile, a melar hand)."""
    return card_grid.shown(grid(rules), cards, problems)


# Count a pile ----------------------------------------------------------------------------


def _pile_error(error: engine.PileError) -> str:
    return ngettext(
        "%(num)s card: a team's pile holds 4 cards for each trick it won (4, 8, 12 …).",
        "%(num)s cards: a team's pile holds 4 cards for each trick it won (4, 8, 12 …).",
        int(error.value),
    )


def _zero_question(rubber: Rubber, state: engine.RubberState, team: int) -> str:
    """What 0 points for ``team`` would give the other team, asked before it is used."""
    hand = engine.Hand.played(0)
    preview = engine.play_hand(state, hand if team == 0 else hand.mirrored()).hands[-1]
    return _(
        "%(team)s: 0 points. Then the hand reads “%(summary)s”. Is that right?",
        team=rubber.teams[team],
        summary=wording.hand_summary(preview, rubber.teams),
    )


@bp.get("/r/<rubber_id>/count")
def count_pile(rubber_id: str) -> Any:
    """Tap the cards of one team's pile: its total, and 120 minus it for the other team."""
    opened = _opened(rubber_id)
    if not isinstance(opened, tuple):
        return opened
    rubber, state, can_edit = opened
    rules = rubber.rule_set()
    form = PileForm(request.args)
    cards, problems = form.picked(rules)
    total = engine.tricks.trick_points(cards, rules)
    deck_points = engine.tricks.full_deck_points(rules)
    team = form.team.data if form.team.data in ("0", "1") else "0"
    pile_error = question = None
    using = form.action.data in ("use", "confirm-zero")
    if (using or form.action.data == "count") and not problems:
        try:
            total = engine.pile_points(cards, rules)
        except engine.PileError as error:
            pile_error = _pile_error(error)
    if using and can_edit and not problems and pile_error is None:
        if total or form.action.data == "confirm-zero":
            return redirect(
                url_for(
                    "rubbers.rubber", rubber_id=rubber.id, points=total, team=team, _anchor="record"
                )
            )
        question = _zero_question(rubber, state, int(team))
    return render_template(
        "cards/count.html",
        rubber=rubber,
        teams=rubber.teams,
        team=team,
        **_picked(rules, cards, problems),
        total=total,
        other=engine.tricks.other_pile_points(total, rules),
        deck_points=deck_points,
        can_edit=can_edit,
        pile_error=pile_error,
        question=question,
    ), (422 if problems or (pile_error and using) else 200)


# Melar -----------------------------------------------------------------------------------


def _hand_count_error(count: int) -> str:
    return ngettext(
        "A hand has 10 cards: %(num)s is picked.", "A hand has 10 cards: %(num)s are picked.", count
    )


def _edited_hand(state: engine.RubberState) -> int | None:
    """The recorded hand a melar check is for (``?hand=N``, from its edit form), or None.

    None is the next hand; a number that is no recorded hand is 404."""
    number = request.values.get("hand", type=int)
    if "hand" in request.values and not (number and 1 <= number <= len(state.hands)):
        abort(404)
    return number


@bp.route("/r/<rubber_id>/melar", methods=["GET", "POST"])
def melar(rubber_id: str) -> Any:
    """Check the leader's 10 cards: with fewer than 10 points they may spoil the deal.

    The melar recorded (a POST from a phone that records hands) is the engine's verdict on the
    cards sent with it, never the verdict shown for other cards before. With ``hand=N`` it is
    hand N's leader who is checked, and the melar replaces that hand (its edit)."""
    opened = _opened(rubber_id, editing="hand" in request.values)
    if not isinstance(opened, tuple):
        return opened
    rubber, state, can_edit = opened
    rules = rubber.rule_set()
    if not rules.melar:
        abort(404)
    posted = request.method == "POST"
    if posted and not can_edit:
        abort(403)
    number = _edited_hand(state)
    leader = state.leader if number is None else state.hands[number - 1].leader
    form: CardsForm = MelarForm(request.form if posted else request.args)
    cards, problems = form.picked(rules)
    texts = [str(card) for card in cards]
    action = form.action.data
    points = may_spoil = count_error = refusal = None
    if (action in ("check", "spoil") or "check" in request.args) and not problems:
        if len(texts) != TRICKS:
            count_error = _hand_count_error(len(texts))
        else:
            points = engine.verify_melar_hand(texts, rules)
            may_spoil = engine.can_spoil(texts, rules)
    if posted and action == "spoil" and points is not None:
        recorded = _record_melar(rubber, texts, rules, number)
        if isinstance(recorded, Response):
            return recorded
        refusal = recorded
    refused = problems or count_error or refusal or (posted and action == "spoil")
    return render_template(
        "cards/melar.html",
        rubber=rubber,
        leader=player_names(rubber)[leader],
        number=number,
        **_picked(rules, cards, problems),
        count_error=count_error,
        refusal=refusal,
        points=points,
        may_spoil=may_spoil,
        can_edit=can_edit,
        key=secrets.token_urlsafe(16),
    ), (422 if refused else 200)


def _record_melar(
    rubber: Rubber, texts: list[str], rules: engine.RuleSet, number: int | None
) -> Response | str | None:
    """Record the deal spoiled by the leader's cards ``texts``: the next hand, or hand ``number``.

    Return the redirect to the rubber when it is recorded or the form was stale; else what the
    melar page shows: the engine's refusal, or None when the cards may not spoil the deal (the
    verdict on them says why)."""
    spoil = SpoilForm()
    try:
        if not spoil.validate():
            raise store.Conflict("stale")
        if number is not None:
            return _replace_by_melar(rubber, number, texts, rules, spoil)
        device = current_device()
        assert device is not None  # can_edit
        recorded = recording.record_hand(
            rubber.id,
            device,
            engine.Hand.spoiled_by(texts, rules),
            key=spoil.key.data or None,
            body={"melar": sorted(texts)},
            version=spoil.stored_version(),
        )
    except engine.CannotSpoilError:
        return None  # the verdict on these cards says why: 10 points or more
    except engine.ScoringError as error:
        return wording.engine_error(error)
    except store.Conflict as conflict:
        flash(conflict.message or wording.conflict(conflict.code), "conflict")
        return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
    if recorded.result is not None:
        flash(wording.hand_summary(recorded.result, recorded.teams), "hand")
    return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))


def _replace_by_melar(
    rubber: Rubber, number: int, texts: list[str], rules: engine.RuleSet, spoil: SpoilForm
) -> Response:
    """Replace hand ``number`` by the melar checked on its leader's cards, as its edit form does.

    Raises the engine's refusal or the store's :class:`~scorekeeper.rubbers.store.Conflict`
    (nothing is stored then)."""
    store.write(
        rubber.id,
        store.replace_hand(number, engine.Hand.spoiled_by(texts, rules)),
        key=spoil.key.data or None,
        body={"melar": sorted(texts), "hand": number},
        version=spoil.stored_version(),
    )
    flash(_("Hand %(number)s was changed; the score was counted again.", number=number), "hand")
    return redirect(url_for("rubbers.rubber", rubber_id=rubber.id))
