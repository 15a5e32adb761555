"""The page "Analisar a mão": the exact analysis of a hand recorded card by card.

Asked for with a POST (it queues the analysis, ``scorekeeper/analysis/``), then followed on its
page: the progress while it waits or runs (the page reloads itself), then the value with best
play beside the points played, in games too, the card that changed the games first, and each
trick's cards with their cost and the best card instead.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from scorekeeper import engine
from scorekeeper.analysis import queue, work
from scorekeeper.analysis.models import Analysis, Status
from scorekeeper.engine.analysis import CardAnalysis, games_of, turning_card
from scorekeeper.rubbers.access import player_names, rubber_or_404
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording

bp = Blueprint("rubber_analysis", __name__)


@dataclass(frozen=True)
class CardView:
    player: str
    card: str
    suit: str
    cost: int
    best: str
    """The best cards instead, in words, when this one cost something."""


def _content(rubber: Rubber, number: int) -> dict[str, Any]:
    """What the hand's analysis reads; 404 unless it is a complete record without a revoke."""
    state = rubber.state()
    if not 1 <= number <= len(state.hands):
        abort(404)
    row = rubber.hands[number - 1]
    leader = state.hands[number - 1].leader
    if not row.tricks or row.trump is None:
        abort(404)
    rules = rubber.rule_set()
    record = engine.verify_record(row.trump, leader, row.tricks, rules)
    if not record.complete or record.revokes or record.errors:
        abort(404)
    tricks = [[str(card) for card in trick.cards] for trick in record.tricks]
    return work.record_request(row.trump, leader, tricks, rules)


@bp.post("/r/<rubber_id>/hands/<int:number>/analysis")
def start(rubber_id: str, number: int) -> Response:
    rubber = rubber_or_404(rubber_id)
    content = _content(rubber, number)
    try:
        queue.submit(content, queue.client_key(request.remote_addr))
    except queue.QueueFull as full:
        flash(wording.analysis_queue_full(full.mine, full.limit), "error")
    return redirect(url_for(".page", rubber_id=rubber_id, number=number))


@bp.get("/r/<rubber_id>/hands/<int:number>/analysis")
def page(rubber_id: str, number: int) -> str:
    rubber = rubber_or_404(rubber_id)
    content = _content(rubber, number)
    row = queue.lookup(work.content_key(content))
    facts: dict[str, Any] = {}
    if row is not None and row.status == Status.DONE and row.result is not None:
        facts = _verdict(rubber, row)
    return render_template(
        "rubbers/analysis.html",
        rubber=rubber,
        number=number,
        row=row,
        waiting=row is not None and row.status in Status.WAITING,
        failed=wording.analysis_failed(row.error)
        if row is not None and row.status == Status.FAILED
        else None,
        **facts,
    )


def games_words(points: tuple[int, int], rules: engine.RuleSet, teams: tuple[str, str]) -> str:
    """The games card points are worth, as the table says it: "2 jogos para Nós"."""
    winner, games = games_of(points, rules)
    if winner is None:
        return _("a tie (empate)")
    return ngettext(
        "%(num)d game to %(team)s", "%(num)d games to %(team)s", games, team=teams[winner]
    )


def _faces(cards: tuple[engine.Card, ...]) -> str:
    return ", ".join(wording.card_face(card) for card in cards)


def _verdict(rubber: Rubber, row: Analysis) -> dict[str, Any]:
    assert row.result is not None
    analysis = work.record_from_json(row.result)
    rules, teams, players = rubber.rule_set(), rubber.teams, player_names(rubber)
    turning = turning_card(analysis, rules)
    tricks: dict[int, list[CardView]] = {}
    for card in analysis.cards:
        best = _faces(card.best_cards) if card.cost else ""
        tricks.setdefault(card.trick, []).append(
            CardView(
                players[card.seat],
                wording.card_face(card.card),
                card.card.suit.value,
                card.cost,
                best,
            )
        )
    return {
        "played": analysis.played,
        "value": analysis.value,
        "played_games": games_words(analysis.played, rules, teams),
        "value_games": games_words(analysis.value, rules, teams) if analysis.value else None,
        "turning": _turning_words(turning, rules, teams) if turning is not None else None,
        "tricks": sorted(tricks.items()),
        "incomplete": None
        if analysis.complete
        else wording.analysis_out_of_time(len(analysis.cards)),
    }


def _turning_words(card: CardAnalysis, rules: engine.RuleSet, teams: tuple[str, str]) -> str:
    team = engine.team_of(card.seat)
    return _(
        "With %(card)s in trick %(trick)s, %(team)s would have made %(points)s: %(games)s.",
        card=_faces(card.best_cards[:1]),
        trick=card.trick,
        team=teams[team],
        points=card.best[team],
        games=games_words(card.best, rules, teams),
    )
