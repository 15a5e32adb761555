"""The HTML forms of card entry: cards picked on the grid, a pile, a melar hand, a record."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField, StringField
from wtforms.validators import Optional

from scorekeeper import engine
from scorekeeper.web import card_grid
from scorekeeper.web.card_grid import MAX_CARD_TEXT as MAX_CARD_TEXT
from scorekeeper.web.card_grid import CardListField
from scorekeeper.web.forms import VersionedForm, choices, write_key_field

MAX_RECORD_TEXT = 600
"""A full record written ``AS 2S 7S JS|...`` is about 130 characters."""
MAX_TYPED_TEXT = 250
"""A whole hand typed out (40 cards, "10H " the longest), with room for a stray one."""


class CardsForm(card_grid.CardsForm):
    """Cards picked on the grid of the rubber's deck."""

    def picked(self, rules: engine.RuleSet) -> tuple[list[engine.Card], dict[str, str]]:
        """The picked cards read by the engine, and a sentence for each one refused, by card."""
        return self.read_cards(lambda card: engine.in_deck(card, rules))


class PileForm(CardsForm):
    """A pile of won cards to count, and the team it belongs to."""

    team = RadioField(
        _l("Whose pile"),
        choices=choices([("0", "0"), ("1", "1")]),
        default="0",
        validators=[Optional()],
    )


class MelarForm(CardsForm):
    """The 10 cards of the leader who may want to spoil the deal."""


class ReplayForm(VersionedForm):
    """A record of tricks in progress: it travels in the page until the person confirms it.

    ``record`` holds the tricks so far, ``AS 2S 7S JS|KS 3S``: each trick in play order from
    its leader, the last one possibly unfinished.
    """

    # Each value is read with care where it is used: a wrong one is never worse than missing.
    trump = HiddenField()
    set_trump = HiddenField()
    trump_card = StringField(filters=[lambda text: (text or "")[:MAX_CARD_TEXT]])
    record = HiddenField(filters=[lambda text: (text or "")[:MAX_RECORD_TEXT]])
    card = CardListField()
    typed = StringField(
        _l("Cards, rank then suit (AS 7H)"),
        filters=[lambda text: (text or "")[:MAX_TYPED_TEXT]],
        render_kw={"autocomplete": "off"},
    )
    pick = HiddenField()
    replace = HiddenField()
    action = HiddenField()
    key = write_key_field()

    def chosen_trump(self) -> str | None:
        """The trump: a suit button just pressed, else the one carried, else the turned card's suit."""
        for value in (self.set_trump.data, self.trump.data):
            if value in ("C", "D", "H", "S"):
                return str(value)
        try:
            return engine.Card.parse(self.trump_card.data or "").suit.value
        except engine.CardError:
            return None

    def tricks(self) -> list[list[str]]:
        """The record carried by the page, trick by trick (trailing empty tricks dropped)."""
        tricks = [trick.split() for trick in str(self.record.data or "").split("|")]
        while tricks and not tricks[-1]:
            tricks.pop()
        return tricks


def record_text(tricks: list[list[str]]) -> str:
    """The record as the page carries it: ``AS 2S 7S JS|KS 3S``."""
    return "|".join(" ".join(trick) for trick in tricks)
