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


def pairs_said(rubber: Rubber) -> str | None:
    """Who played, pair against pair ("Ana e Carla contra Bruno e Duarte"); None without names.

    Partners sit opposite: seats 1 and 3 are the first team, 2 and 4 the second."""
    if not rubber.players or not any(rubber.players):
        return None
    names = player_names(rubber)
    first = _("%(first)s and %(second)s", first=names[0], second=names[2])
    second = _("%(first)s and %(second)s", first=names[1], second=names[3])
    return _("%(pair0)s against %(pair1)s", pair0=first, pair1=second)
