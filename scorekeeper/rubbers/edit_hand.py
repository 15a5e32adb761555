"""The edit form of one recorded hand of a rubber.

It replaces the hand and counts every later hand again (web.hand_edit). The hand's own page is
the card pages' (cards/hand_page.py)."""

from __future__ import annotations

from typing import Any

from flask import abort, url_for

from scorekeeper import engine
from scorekeeper.rubbers import bp, store
from scorekeeper.rubbers.access import editable_or_403
from scorekeeper.rubbers.forms import EditHandForm, melar_only_checked
from scorekeeper.web import hand_edit, wording
from scorekeeper.web.forms import choices

EDITS = hand_edit.HandEdits(
    store.RUBBERS,
    engine.ScoringError,
    wording.conflict,
    ("ends_early", "cards_shift"),
    "rubbers/edit_hand.html",
)
"""A hand's edit: a change that would end the rubber early, or move the deal of a later hand
recorded by its cards, stays on the form."""


@bp.route("/r/<rubber_id>/hands/<int:number>/edit", methods=["GET", "POST"])
def edit_hand(rubber_id: str, number: int) -> Any:
    rubber = editable_or_403(rubber_id)
    if not 1 <= number <= len(rubber.hands):
        abort(404)
    form = EditHandForm()
    form.stored_kind = rubber.hands[number - 1].kind
    form.team.choices = choices([("0", rubber.team0), ("1", rubber.team1)])

    def refuse(error: engine.ScoringError) -> None:
        form.points.errors = [*form.points.errors, wording.engine_error(error)]

    return EDITS.edit(
        rubber,
        number,
        form,
        fill=lambda: _fill(form, rubber.hands[number - 1], rubber.state().hands[number - 1].winner),
        shown={
            "rubber": rubber,
            "by_cards": bool(rubber.hands[number - 1].tricks),
            "melar_only_checked": melar_only_checked(),
        },
        change=lambda: store.replace_hand(
            number, form.engine_hand(), form.trump.data or None, typed_team=form.typed_team()
        ),
        refuse=refuse,
        back=url_for(".rubber", rubber_id=rubber_id),
    )


def _fill(form: EditHandForm, row: Any, winner: int | None) -> None:
    """Put a stored hand back into the form as it was entered.

    A played hand goes on the side whose points were typed ("Nós, 25" stays "Nós, 25", not
    "Eles, 95"), so a number changed without looking stays that team's; a hand with no side kept,
    on its winner's side."""
    if row.kind == "tie":
        form.action.data = "tie"
    elif row.kind == "spoiled":
        form.action.data = "spoiled"
    elif row.kind == "revoke":
        form.action.data = f"revoke-{row.team}"
    else:
        form.action.data = "points"
        side = row.typed_team if row.typed_team in (0, 1) else winner or 0
        form.team.data = str(side)
        form.points.data = row.points1 if side == 1 else row.points0
        form.all_tricks.data = row.all_tricks
    form.trump.data = row.trump
