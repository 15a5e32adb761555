"""Who may see and change a rubber: the lookups every rubber page starts with."""

from __future__ import annotations

from flask import abort
from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web.device import current_device


def rubber_or_404(rubber_id: str) -> Rubber:
    rubber = db.session.get(Rubber, rubber_id) if store.is_token(rubber_id) else None
    if rubber is None:
        abort(404)
    return rubber


def editable_or_403(rubber_id: str) -> Rubber:
    rubber = rubber_or_404(rubber_id)
    if not store.can_edit(current_device(), rubber):
        abort(403)
    return rubber


def player_names(rubber: Rubber) -> list[str]:
    if rubber.players:
        return [
            name or _("Seat %(number)s", number=seat + 1)
            for seat, name in enumerate(rubber.players)
        ]
    return [_("Seat %(number)s", number=seat + 1) for seat in range(4)]
