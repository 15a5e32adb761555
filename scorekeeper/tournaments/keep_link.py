"""The organizer's link offered to keep, once, on the tournament's first page after creating it.

That link is the only way to run the tournament from another phone (or from this one, once its
browser forgets it), so the page the creation leads to asks for it to be shared or copied; after
that it stays folded at the foot of the organizer's page."""

from __future__ import annotations

from flask import session

OFFER = "tournament_link_to_keep"
"""The session's note of the tournament just created, until its page has offered the link."""


def ask_to_keep_link(tournament_id: str) -> None:
    """Ask this phone's next page of the tournament to offer its organizer's link to keep."""
    session[OFFER] = tournament_id


def offered(tournament_id: str) -> bool:
    """Return whether this page offers the link: the first one after creating, not again."""
    if session.get(OFFER) != tournament_id:
        return False
    session.pop(OFFER)
    return True
