"""The tournaments a phone runs (created, or opened with the organizer's link): its history's."""

from __future__ import annotations

from flask_babel import gettext as _

from scorekeeper.extensions import db
from scorekeeper.tournaments.models import DeviceTournament, Tournament

LISTED = 50
"""The tournaments a phone's history lists, newest first."""


def run_by(device: str | None) -> list[Tournament]:
    """Return the tournaments this device may run, the one it took last first."""
    if not device:
        return []
    return list(
        db.session.execute(
            db.select(Tournament)
            .join(DeviceTournament, DeviceTournament.tournament_id == Tournament.id)
            .where(DeviceTournament.device == device)
            .order_by(DeviceTournament.added_at.desc(), Tournament.created_at.desc())
            .limit(LISTED)
        ).scalars()
    )


def format_name(tournament: Tournament) -> str:
    """Return the tournament's format as the form named it: "Swiss system", "Knockout"..."""
    if tournament.groups:
        return _("Groups, then a knockout")
    return {
        "knockout": _("Knockout"),
        "round_robin": _("Round robin"),
        "swiss": _("Swiss system"),
    }.get(tournament.format, tournament.format)
