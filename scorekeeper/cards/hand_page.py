"""One recorded hand of a rubber: its page.

It shows the hand as played, its tricks and a revoke the cards prove, and offers the hand's exact
analysis (analysis_page.py); its edit form is the rubber's (rubbers/edit_hand.py)."""

from __future__ import annotations

from flask import abort, render_template

from scorekeeper import engine
from scorekeeper.cards import analysis_page, bp
from scorekeeper.rubbers import store
from scorekeeper.rubbers.access import player_names, rubber_or_404
from scorekeeper.web import wording
from scorekeeper.web.device import current_device


@bp.get("/r/<rubber_id>/hands/<int:number>")
def hand(rubber_id: str, number: int) -> str:
    rubber = rubber_or_404(rubber_id)
    state = rubber.state()
    if not 1 <= number <= len(state.hands):
        abort(404)
    result = state.hands[number - 1]
    row = rubber.hands[number - 1]
    record = None
    if row.tricks:
        record = engine.verify_record(
            row.trump or "H", result.leader, row.tricks, rubber.rule_set()
        )
    return render_template(
        "cards/hand.html",
        rubber=rubber,
        result=result,
        row=row,
        record=record,
        analysis=analysis_page.offer(rubber, number, state),
        Offer=analysis_page.Offer,
        trump=wording.suit_words(engine.Suit(row.trump)) if row.trump else None,
        summary=wording.hand_note(result, rubber.teams),
        players=player_names(rubber),
        revoke=wording.revoke_proof(record.first_revoke, player_names(rubber), rubber.teams)
        if record is not None and record.first_revoke is not None
        else None,
        can_edit=store.can_edit(current_device(), rubber),
    )
