"""Counting a pile of a bidding game, with the table's deck: 40 cards, or 48 for six players.

The engine counts; the page carries the cards tapped (nothing is stored) and ends on the game
page with the points waiting in the hand form, to be confirmed with who bid, how much and with
whom.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from scorekeeper.bidding import wording
from scorekeeper.bidding.forms import PileForm
from scorekeeper.bidding.views import editable_or_403
from scorekeeper.engine import Card, CardError, Suit
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import (
    PileError,
    card_points,
    deck,
    in_deck,
    pile_points,
    won_pile_points,
)
from scorekeeper.web import wording as words

bp = Blueprint("bidding_cards", __name__)

DISPLAY_SUITS = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
"""The grid's rows: dark and red suits take turns, as a hand is sorted at the table."""


@dataclass(frozen=True)
class Cell:
    """One card of the grid: how it is written, shown and named, and what it is worth."""

    text: str
    face: str
    name: str
    suit: str
    points: int


@dataclass(frozen=True)
class SuitRow:
    """One suit of the grid, its cards highest first."""

    suit: str
    symbol: str
    name: str
    cells: list[Cell]


def grid(players: int) -> list[SuitRow]:
    """The table's deck by suit, each suit highest first (the 9 and 8 below the queen)."""
    by_suit: dict[Suit, list[Cell]] = {suit: [] for suit in Suit}
    for card in deck(players):
        cell = Cell(
            str(card),
            words.card_face(card),
            words.card_name(card),
            card.suit.value,
            card_points(card),
        )
        by_suit[card.suit].append(cell)
    return [
        SuitRow(suit.value, words.SUIT_SYMBOLS[suit.value], words.suit_name(suit), by_suit[suit])
        for suit in DISPLAY_SUITS
    ]


def picked(texts: list[str], players: int) -> tuple[list[Card], dict[str, str]]:
    """The cards tapped, read by the engine, and a sentence for each one refused, by card."""
    cards: list[Card] = []
    problems: dict[str, str] = {}
    for text in texts:
        try:
            card = Card.parse(text)
        except CardError:
            problems[text] = _(
                "%(card)s is not a card: write the rank then the suit, like 7H.", card=text
            )
            continue
        if not in_deck(card, players):
            problems[str(card)] = _("%(card)s is not in this deck.", card=str(card))
        elif card in cards:
            problems[str(card)] = _("%(card)s is picked twice: a card counts once.", card=str(card))
        else:
            cards.append(card)
    return cards, problems


@bp.before_request
def _refuse_nul() -> None:
    """No card needs a NUL character, and PostgreSQL cannot hold one."""
    if "\x00" in request.path or any("\x00" in value for _name, value in request.args.items(True)):
        abort(400)


@bp.get("/b/<game_id>/count")
def count_pile(game_id: str) -> Any:
    """Tap the cards of the bidder's side's pile: its total, and the rest for the others."""
    game = editable_or_403(game_id)
    if game.finished:
        flash(wording.conflict("finished"), "conflict")
        return redirect(url_for("bidding.game", game_id=game.id))
    players = len(game.players)
    form = PileForm(request.args)
    if form.action.data == "clear":
        form.cards.data = []
    cards, problems = picked(form.cards.data or [], players)
    total = pile_points(cards, players)
    pile_error = None
    if form.action.data in ("use", "count") and not problems:
        try:
            total = won_pile_points(cards, players)
        except PileError as error:
            pile_error = wording.engine_error(error)
    if form.action.data == "use" and not problems and pile_error is None:
        return redirect(url_for("bidding.game", game_id=game.id, points=total, _anchor="record"))
    suits = grid(players)
    known = {cell.text for row in suits for cell in row.cells}
    return render_template(
        "bidding/count.html",
        game=game,
        suits=suits,
        checked={str(card) for card in cards},
        problems=problems,
        strays=[text for text in problems if text not in known],
        count=len(cards),
        pile_error=pile_error,
        total=total,
        other=rules.others_points(total),
        deck_points=rules.TOTAL_POINTS,
        deck_size=len(deck(players)),
    ), (422 if problems or pile_error else 200)
