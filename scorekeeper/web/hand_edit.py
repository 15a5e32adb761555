"""The edit page of one recorded hand, a rubber's or a bidding game's: one flow, two features.

GET fills the form with the hand as it was entered; POST replaces it through the store's
versioned write, which folds every later hand again. The engine's refusal goes on its field; a
conflict the form can fix (the edit would end the game early) stays on the form, any other
goes back to the score with the sentence that says why.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from flask import flash, redirect, request
from flask_babel import gettext as _

from scorekeeper.web.writes import Conflict


@dataclass(frozen=True)
class HandEdit:
    """What the edit page of hand ``number`` needs of its feature.

    ``write`` is the store's, bound to the row; ``change`` makes the store's change from the
    validated form; ``refused`` is the engine's refusal, which ``refuse`` puts on its field."""

    number: int
    form: Any
    version: int
    fill: Callable[[], None]
    page: Callable[[], str]
    write: Callable[..., Any]
    change: Callable[[], Callable[[Any], Any]]
    refused: type[Exception]
    refuse: Callable[[Any], None]
    conflict_words: Callable[[str], str]
    on_form: tuple[str, ...]
    back: str


def edit_hand(edit: HandEdit) -> Any:
    """The edit page (GET), or the hand replaced and the score again (POST)."""
    form = edit.form
    if request.method == "GET":
        edit.fill()
        form.version.data = str(edit.version)
        form.key.data = secrets.token_urlsafe(16)
        return edit.page()
    if form.validate():
        try:
            edit.write(
                edit.change(),
                key=form.key.data or None,
                body=request.form.to_dict(),
                version=form.stored_version(),
            )
        except edit.refused as error:
            edit.refuse(error)
        except Conflict as conflict:
            if conflict.code not in edit.on_form:
                flash(edit.conflict_words(conflict.code), "conflict")
                return redirect(edit.back)
            form.action.errors = [*form.action.errors, edit.conflict_words(conflict.code)]
        else:
            flash(
                _("Hand %(number)s was changed; the score was counted again.", number=edit.number),
                "hand",
            )
            return redirect(edit.back)
    return edit.page(), 422
