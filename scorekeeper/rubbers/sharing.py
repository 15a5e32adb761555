"""The rubber's share page: the link to follow the score and the link to record hands.

The link to record hands is shown on a phone that holds it; each link comes with the phone's share
sheet, a copy button and a QR code."""

from __future__ import annotations

from dataclasses import dataclass

from flask import render_template, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper.rubbers import bp, store
from scorekeeper.rubbers.access import rubber_or_404
from scorekeeper.web import security
from scorekeeper.web.device import current_device, held_key
from scorekeeper.web.qr import qr_svg


@dataclass(frozen=True)
class Link:
    """One link to pass on, as the share page shows it."""

    name: str
    """The element ids' stem: ``share`` (to follow) or ``edit`` (to record hands)."""
    url: str
    heading: str
    hint: str
    qr: Markup


@bp.get("/r/<rubber_id>/share")
def share(rubber_id: str) -> str:
    rubber = rubber_or_404(rubber_id)
    follow_url = url_for("rubbers.rubber", rubber_id=rubber.id, _external=True)
    links = [
        Link(
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
            Link(
                "edit",
                edit_url,
                _("Record hands on another phone"),
                _(
                    "Whoever opens it can record, change and undo hands: give it only to"
                    " whoever keeps the score."
                ),
                qr_svg(edit_url, _("QR code of the link to record hands")),
            )
        )
    return render_template("rubbers/share.html", rubber=rubber, links=links)
