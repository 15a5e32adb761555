"""What the hand form offers above its buttons: a refused hand again, or a one-tap hand to confirm.

A hand refused because another phone recorded one first: the form's values wait in the session
until the rubber page shows them once, prefilled, with a sentence that says the hand was not
recorded and a button that records it as the next hand (docs/decisions/offline-and-live.md,
"A hand refused as stale"). A revoke or a bandeira, one tap that gives 2 or 4 games and can end
the rubber, is recorded only once confirmed, the outcome said as the engine scores it
(docs/decisions/rubber-page.md, "Revoke and bandeira are confirmed").
"""

from __future__ import annotations

from dataclasses import dataclass

from flask import flash, session
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.rubbers.forms import HandForm
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording

KEPT = "unsent_hand"
"""The session's key: ``[rubber id, {field: value}]``, one hand at a time."""
FIELDS = ("action", "team", "points", "all_tricks", "trump")
CONFIRMED = ("revoke-0", "revoke-1", "bandeira-0", "bandeira-1")
"""The one-tap hands recorded only once confirmed."""


@dataclass(frozen=True)
class Offer:
    """A hand the page offers to record: the button's action and words, what it says.

    ``question``: a one-tap hand to confirm (with "Não"); else a hand refused as stale. Either
    way the button records a revoke or a bandeira as confirmed: its outcome is in the sentence.
    """

    action: str
    sentence: str
    button: str
    question: bool = False

    @property
    def confirms(self) -> bool:
        """Whether the button's hand is one that is recorded only once confirmed."""
        return self.action in CONFIRMED


def keep(rubber_id: str, form: HandForm) -> None:
    """Keep the refused hand of ``form`` for the rubber page's next answer."""
    session[KEPT] = [rubber_id, {name: getattr(form, name).data for name in FIELDS}]


def take(rubber: Rubber, form: HandForm, state: engine.RubberState) -> Offer | None:
    """Return the hand kept for ``rubber``, once, with ``form`` prefilled with it; else None.

    A rubber another phone has won meanwhile takes no hand: then the reader is told, in a note,
    which hand was not recorded."""
    kept = session.get(KEPT)
    if not (isinstance(kept, list) and len(kept) == 2 and kept[0] == rubber.id):
        return None
    session.pop(KEPT)
    values = kept[1] if isinstance(kept[1], dict) else {}
    for name in FIELDS:
        getattr(form, name).data = values.get(name)
    try:
        hand = form.engine_hand()
    except (ValueError, TypeError):  # nothing a valid form would have sent
        return None
    typed = _typed(form, hand, rubber.teams)
    if not engine.can_add_hand(state, hand):
        flash(_won(typed), "conflict")
        return None
    result = engine.play_hand(state, hand).hands[-1]
    said = typed or wording.hand_outcome(result, rubber.teams)
    sentence = _(
        "Your hand was not recorded: %(hand)s. Someone else recorded a hand first, counted "
        "above. If yours is another hand, record it as the next one.",
        hand=said,
    )
    button = _("Record it as hand %(number)s", number=result.number)
    return Offer(str(form.action.data), sentence, button)


def needs_confirming(form: HandForm) -> bool:
    """Whether the form's hand is a one-tap revoke or bandeira not confirmed yet."""
    return form.action.data in CONFIRMED and form.confirm.data != form.action.data


def confirmation(rubber: Rubber, form: HandForm, state: engine.RubberState) -> Offer | None:
    """Return the question for the form's one-tap hand: its outcome, as the engine scores it.

    None when the hand cannot be added (the engine's refusal is then the answer)."""
    hand = form.engine_hand()
    if not engine.can_add_hand(state, hand):
        return None
    result = engine.play_hand(state, hand).hands[-1]
    return Offer(
        str(form.action.data),
        wording.hand_outcome(result, rubber.teams),
        _("Yes, record it"),
        question=True,
    )


def _won(typed: str) -> str:
    if typed:
        return _(
            "Your hand was not recorded: %(hand)s. Someone else recorded a hand first, and the "
            "rubber is won.",
            hand=typed,
        )
    return _(
        "Your hand was not recorded: someone else recorded a hand first, and the rubber is won."
    )


def _typed(form: HandForm, hand: engine.Hand, teams: tuple[str, str]) -> str:
    """The points as they were typed ("Nós 65 – 55 Eles"), or "" for a quick button's hand."""
    if form.action.data != "points" or hand.points is None:
        return ""
    return f"{teams[0]} {hand.points[0]} – {hand.points[1]} {teams[1]}"
