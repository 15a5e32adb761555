"""The score the next hands would make, for a phone that records hands with no network.

``/r/<id>/outlook`` answers the engine's :func:`~scorekeeper.engine.outlook.outlook` of the
rubber as it stands, with the sentences its page shows for what the graph reaches. hands.js keeps
it with the page's version, and walks it along the hands waiting on the phone. The route is the
rubber page's blueprint's (``rubbers.rubber_outlook``).
"""

from __future__ import annotations

from typing import Any

from flask import jsonify
from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper.engine.outlook import DEPTH, UNKNOWN, outlook
from scorekeeper.rubbers import bp
from scorekeeper.rubbers.access import editable_or_403
from scorekeeper.web import delivery


@bp.get("/r/<rubber_id>/outlook")
def rubber_outlook(rubber_id: str) -> Any:
    """Return the outlook of the rubber's tally, for the version its page shows.

    Only to a phone that records its hands: only its page asks, and only it can add the hands
    the outlook is about."""
    rubber = editable_or_403(rubber_id)
    tally = rubber.state().tally
    view = outlook(tally)
    teams = rubber.teams
    extras = sorted({node.pending_extra for node in view.nodes} - {0})
    multipliers = sorted({node.pending_multiplier for node in view.nodes} - {1})
    answer = jsonify(
        version=rubber.version,
        played=["".join(_class_letter(c) for c in table) for table in view.played],
        tie=view.tie,
        spoiled=view.spoiled,
        revoke=list(view.revoke),
        deal_steps=list(view.deal_steps),
        roles=[list(roles) for roles in view.roles],
        # games, ties' extra games, multiplier, finished, winner (-1: none), then the nodes
        # each class leads to (-1: not followed).
        nodes=[
            [
                *node.games,
                node.pending_extra,
                node.pending_multiplier,
                int(node.finished),
                -1 if node.winner is None else node.winner,
                list(node.next),
            ]
            for node in view.nodes
        ],
        words={
            "marker": _("counting the hands not yet sent"),
            "finished": _("This rubber is already won: no more hands can be added."),
            "won": [_("%(team)s won the rubber", team=team) for team in teams],
            "hand": [
                _("Hand %(number)s", number=tally.hand_count + 1 + ahead)
                for ahead in range(DEPTH + 1)
            ],
            "extra": {
                str(extra): ngettext(
                    "Tie: the next decided hand is worth %(num)s more game",
                    "Ties: the next decided hand is worth %(num)s more games",
                    extra,
                )
                for extra in extras
            },
            # A revoke's or a bandeira's question (hands.js asks it before keeping one): "{0}"
            # and "{1}" are the games of the node the outlook reaches with it.
            "outcome": {
                action: [
                    _(
                        "%(hand)s — the score becomes %(games0)s-%(games1)s",
                        hand=what,
                        games0="{0}",
                        games1="{1}",
                    ),
                    _(
                        "%(hand)s — the rubber ends %(games0)s-%(games1)s",
                        hand=what,
                        games0="{0}",
                        games1="{1}",
                    ),
                ]
                for action, what in _quick_hands(teams)
            },
            "multiplier": {
                str(multiplier): _(
                    "60-60: the next decided hand is worth × %(multiplier)s",
                    multiplier=multiplier,
                )
                for multiplier in multipliers
            },
        },
    )
    answer.headers["Cache-Control"] = "private, no-cache"
    # A few KB gzipped, unlike the API's JSON (delivery.COMPRESSIBLE).
    return delivery.compress(answer, page_script=True)


def _quick_hands(teams: tuple[str, str]) -> list[tuple[str, str]]:
    """The one-tap hands confirmed before they count, with their buttons' names."""
    return [
        *(
            (f"revoke-{team}", _("Revoke (renúncia) by %(team)s", team=teams[team]))
            for team in (0, 1)
        ),
        *((f"bandeira-{team}", _("Bandeira by %(team)s", team=teams[team])) for team in (0, 1)),
    ]


_LETTERS = "0123456789abcdefghijklmnopqrstuvwxyz"


def _class_letter(number: int) -> str:
    """One character per class (36 at most: a phone records far fewer), "-" for no hand."""
    return "-" if number == UNKNOWN else _LETTERS[number]
