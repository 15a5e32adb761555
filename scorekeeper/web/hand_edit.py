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

from flask import flash, redirect, render_template, request
from flask_babel import gettext as _

from scorekeeper.web.writes import Conflict, Versioned


@dataclass(frozen=True)
class HandEdits:
    """What the edits of one feature's hands share.

    ``kind`` is the store's kind of row (its versioned write); ``refused`` is the engine's
    refusal; ``conflict_words`` says a write's conflict; the conflicts ``on_form`` stay on the
    form, which can fix them (the others go back to the score); ``template`` is the edit page.
    """

    kind: Versioned[Any, Any]
    refused: type[Exception]
    conflict_words: Callable[[str], str]
    on_form: tuple[str, ...]
    template: str

    def edit(  # noqa: PLR0913  the feature's parts, keyword-only
        self,
        row: Any,
        number: int,
        form: Any,
        *,
        fill: Callable[[], None],
        shown: dict[str, Any],
        change: Callable[[], Callable[[Any], Any]],
        refuse: Callable[[Any], None],
        back: str,
    ) -> Any:
        """The edit page of hand ``number`` of ``row`` (GET), or the hand replaced (POST).

        ``fill`` puts the stored hand in the form; ``shown`` is what the page shows besides;
        ``change`` makes the store's change from the validated form; ``refuse`` puts the
        engine's refusal on its field; ``back`` is the row's page."""

        def page() -> str:
            return render_template(self.template, number=number, form=form, **shown)

        if request.method == "GET":
            fill()
            form.version.data = str(row.version)
            form.key.data = secrets.token_urlsafe(16)
            return page()
        if form.validate():
            try:
                self.kind.write(
                    row.id,
                    change(),
                    key=form.key.data or None,
                    body=request.form.to_dict(),
                    version=form.stored_version(),
                )
            except self.refused as error:
                refuse(error)
            except Conflict as conflict:
                if conflict.code not in self.on_form:
                    flash(conflict.message or self.conflict_words(conflict.code), "conflict")
                    return redirect(back)
                form.action.errors = [*form.action.errors, self.conflict_words(conflict.code)]
            else:
                flash(
                    _("Hand %(number)s was changed; the score was counted again.", number=number),
                    "hand",
                )
                return redirect(back)
        return page(), 422
