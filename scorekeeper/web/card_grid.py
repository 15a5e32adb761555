"""The grid of a deck that the card pages tap: a rubber's 40 cards, a bidding table's 40 or 48.

A grid is a row per suit, its cards in the game's rank order; the cards tapped come back as a
GET form (:class:`CardsForm`), read by the engine, with a sentence for each one refused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext
from wtforms import Field, HiddenField

from scorekeeper import engine
from scorekeeper.web import wording
from scorekeeper.web.forms import Form

DISPLAY_SUITS = (engine.Suit.SPADES, engine.Suit.HEARTS, engine.Suit.CLUBS, engine.Suit.DIAMONDS)
"""The grid's rows: dark and red suits take turns, as a hand is sorted at the table."""
MAX_CARD_TEXT = 4
"""The longest card as written (``10H``), with room for one stray character."""
MAX_PICKED = 48
"""More values than the largest deck holds are not a person tapping: the rest are ignored."""


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
    """One suit of the grid, its cards in the deck's order."""

    suit: str
    symbol: str
    name: str
    cells: list[Cell]


def grid(deck: Iterable[engine.Card], points: Callable[[engine.Card], int]) -> list[SuitRow]:
    """The deck by suit, each suit in the order the deck gives its cards."""
    by_suit: dict[engine.Suit, list[Cell]] = {suit: [] for suit in engine.Suit}
    for card in deck:
        by_suit[card.suit].append(
            Cell(
                str(card),
                wording.card_face(card),
                wording.card_name(card),
                card.suit.value,
                points(card),
            )
        )
    return [
        SuitRow(
            suit.value, wording.SUIT_SYMBOLS[suit.value], wording.suit_name(suit), by_suit[suit]
        )
        for suit in DISPLAY_SUITS
    ]


def shown(
    suits: list[SuitRow], cards: list[engine.Card], problems: dict[str, str]
) -> dict[str, Any]:
    """What a grid of tapped cards shows (a pile, a melar hand): the template's variables.

    The deck with the picked cards ticked, the problems by card, and the typed texts that are no
    card of the deck."""
    known = {cell.text for row in suits for cell in row.cells}
    return {
        "suits": suits,
        "checked": {str(card) for card in cards},
        "problems": problems,
        "strays": [text for text in problems if text not in known],
        "count": len(cards),
    }


class CardListField(Field):
    """Every value sent under one name (a checkbox or a button per card), as written."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        cards = (str(value).strip()[:MAX_CARD_TEXT] for value in valuelist[:MAX_PICKED])
        self.data = [card for card in cards if card]


class CardsForm(Form):
    """Cards picked on the grid; a GET form, since picking changes nothing, so no CSRF token."""

    cards = CardListField()
    action = HiddenField()

    def read_cards(
        self, in_deck: Callable[[engine.Card], bool]
    ) -> tuple[list[engine.Card], dict[str, str]]:
        """The picked cards read by the engine, and a sentence for each one refused, by card.

        "Clear" picks none."""
        if self.action.data == "clear":
            self.cards.data = []
        cards: list[engine.Card] = []
        problems: dict[str, str] = {}
        for text in self.cards.data or []:
            try:
                card = engine.Card.parse(text)
            except engine.CardError:
                problems[text] = wording.unknown_card(text)
                continue
            face = wording.card_face(card)
            if not in_deck(card):
                problems[str(card)] = gettext("%(card)s is not in this deck.", card=face)
            elif card in cards:
                problems[str(card)] = gettext(
                    "%(card)s is picked twice: a card counts once.", card=face
                )
            else:
                cards.append(card)
        return cards, problems
