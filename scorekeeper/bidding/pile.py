"""Counting a pile of a bidding game, with the table's deck: 40 cards, or 48 for six players.

The engine counts; the page carries the cards tapped (nothing is stored) and ends on the game
page with the points waiting in the hand form, to be confirmed with who bid, how much and with
whom.
"""

from __future__ import annotations

from typing import Any

from flask import flash, redirect, render_template, request, url_for

from scorekeeper.bidding import bp, phrases, store
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import (
    PileError,
    card_points,
    deck,
    in_deck,
    pile_points,
    won_pile_points,
)
from scorekeeper.web import card_grid


def grid(players: int) -> list[card_grid.SuitRow]:
    """The table's deck by suit, each suit highest first (the 9 and 8 below the queen)."""
    return card_grid.grid(deck(players), card_points)


@bp.get("/b/<game_id>/count")
def count_pile(game_id: str) -> Any:
    """Tap the cards of the bidder's side's pile: its total, and the rest for the others."""
    game = store.GRANTS.editable_or_403(game_id)
    if game.finished:
        flash(phrases.conflict("finished"), "conflict")
        return redirect(url_for("bidding.game", game_id=game.id))
    players = len(game.players)
    form = card_grid.CardsForm(request.args)
    cards, problems = form.read_cards(lambda card: in_deck(card, players))
    total = pile_points(cards, players)
    pile_error = None
    if form.action.data in ("use", "count") and not problems:
        try:
            total = won_pile_points(cards, players)
        except PileError as error:
            pile_error = phrases.engine_error(error)
    if form.action.data == "use" and not problems and pile_error is None:
        return redirect(url_for("bidding.game", game_id=game.id, points=total, _anchor="record"))
    return render_template(
        "bidding/count.html",
        game=game,
        can_edit=True,  # editable_or_403: only a phone that records the game's hands counts here
        **card_grid.shown(grid(players), cards, problems),
        pile_error=pile_error,
        total=total,
        other=rules.others_points(total),
        deck_points=rules.TOTAL_POINTS,
        deck_size=len(deck(players)),
    ), (422 if problems or pile_error else 200)
