"""The rubber's share page: the link to follow the score and the link to record hands.

The link to record hands is shown on a phone that holds it; each link comes with the phone's share
sheet, a copy button and a QR code, the edit link's folded away (docs/decisions/rubber-page.md,
"Sharing")."""

from __future__ import annotations

from flask import render_template, url_for
from flask_babel import gettext as _

from scorekeeper.rubbers import bp, store
from scorekeeper.rubbers.access import rubber_or_404
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import security
from scorekeeper.web.device import current_device, held_key
from scorekeeper.web.qr import SharedLink, qr_svg

UNNAMED_TEAMS = ("Nós", "Eles")
"""The teams' names when nobody writes others, in every language (glossary.html)."""


def side_name(rubber: Rubber, team: int) -> str:
    """Return how a share names a team: its own name where one was set, else its two players.

    Team 0 sits in seats 1 and 3, team 1 in seats 2 and 4; a team named by nobody whose seats
    are not both named keeps "Nós" or "Eles"."""
    name = rubber.team1 if team else rubber.team0
    players = rubber.players or [""] * 4
    first, second = players[team], players[team + 2]
    if name != UNNAMED_TEAMS[team] or not first or not second:
        return name
    return _("%(first)s and %(second)s", first=first, second=second)


def share_title(rubber: Rubber) -> str:
    """Return the title a share sheet gives the link: "Sueca: Ana e Bruno 0 – 1 Carla e Duarte"."""
    return _(
        "Sueca: %(team0)s %(games0)s – %(games1)s %(team1)s",
        team0=side_name(rubber, 0),
        games0=rubber.games0,
        games1=rubber.games1,
        team1=side_name(rubber, 1),
    )


@bp.get("/r/<rubber_id>/share")
def share(rubber_id: str) -> str:
    rubber = rubber_or_404(rubber_id)
    follow_url = url_for("rubbers.rubber", rubber_id=rubber.id, _external=True)
    links = [
        SharedLink(
            "share",
            follow_url,
            _("Follow the score (read only)"),
            _("Whoever opens it sees the score update by itself, and can change nothing."),
            qr_svg(follow_url, _("QR code of the link to follow the score")),
        )
    ]
    # The edit link only where the rubber page showed it: a phone that may edit and holds the key.
    key = held_key(rubber.id)
    if key and store.can_edit(current_device(), rubber):
        security.holds_edit_key()  # no cache may keep the page: it shows the edit link
        edit_url = url_for("rubbers.grant", rubber_id=rubber.id, key=key, _external=True)
        links.append(
            SharedLink(
                "edit",
                edit_url,
                _("Record hands on another phone"),
                _(
                    "Whoever opens it can record, change and undo hands: give it only to"
                    " whoever keeps the score."
                ),
                qr_svg(edit_url, _("QR code of the link to record hands")),
                _("Show the code for whoever will record hands"),
            )
        )
    return render_template(
        "rubbers/share.html", rubber=rubber, links=links, title=share_title(rubber)
    )
