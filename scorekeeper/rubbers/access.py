"""Who may see and change a rubber: the lookups every rubber page starts with."""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber

rubber_or_404 = store.GRANTS.or_404
editable_or_403 = store.GRANTS.editable_or_403


def player_names(rubber: Rubber) -> list[str]:
    if rubber.players:
        return [
            name or _("Seat %(number)s", number=seat + 1)
            for seat, name in enumerate(rubber.players)
        ]
    return [_("Seat %(number)s", number=seat + 1) for seat in range(4)]
