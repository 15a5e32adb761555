"""A tournament's pages: where it stands, for everyone; each table's link, for its organizer."""

from __future__ import annotations

from flask import render_template, url_for

from scorekeeper.tournaments import bp, store
from scorekeeper.web.device import current_device

grant = bp.add_url_rule(
    "/t/<tournament_id>/edit/<key>",
    "grant",
    store.GRANTS.edit_link_view("tournaments.tournament", "tournament_id"),
)


@bp.get("/t/<tournament_id>")
def tournament(tournament_id: str) -> str:
    """The tournament: its rounds, each table's rubber, and the standings."""
    found = store.GRANTS.or_404(tournament_id)
    standing = store.sync(found.id) or store.standing(found)
    organizer = store.GRANTS.can_edit(current_device(), found)
    links = {}
    if organizer:  # each table's link, to open its rubber ready to record
        links = {
            rubber.id: url_for(
                "rubbers.grant", rubber_id=rubber.id, key=store.table_key(rubber.id), _external=True
            )
            for rows in standing.rubbers.values()
            for rubber in rows
        }
    return render_template(
        "tournaments/show.html", standing=standing, organizer=organizer, links=links
    )
