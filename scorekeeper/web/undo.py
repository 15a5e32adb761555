"""The undo button of a rubber's or a bidding game's page: one write, answered the same way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import flash, redirect
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper.web.forms import UndoForm
from scorekeeper.web.writes import Conflict


def undo_last_hand(
    write: Callable[..., Any], conflict_words: Callable[[str], str], page: str
) -> Response:
    """Undo the last hand through ``write``, then go back to ``page`` saying what happened.

    ``write`` is the store's, bound to the row and its undo. The page's version makes a second
    tap, or another phone's hand meanwhile, undo nothing."""
    form = UndoForm()
    if not form.validate():
        flash(_("This page is out of date: reload it."), "conflict")
        return redirect(page)
    try:
        write(key=form.key.data or None, body={"undo": True}, version=form.stored_version())
    except Conflict as conflict:
        if conflict.code == "stale":  # a second tap, or another phone: either way, not this
            flash(
                _("The hands changed meanwhile, so nothing was undone: here is the score."),
                "conflict",
            )
        else:
            flash(conflict.message or conflict_words(conflict.code), "conflict")
    else:
        flash(_("The last hand was undone."), "hand")
    return redirect(page)
