"""The HTML forms of bidding Sueca: starting a game, recording a hand, undoing one."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import (  # type: ignore[attr-defined]  # SelectChoice: WTForms 3.3, stubs 3.2
    Field,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import AnyOf, Length, Optional, ValidationError

from scorekeeper.bidding import phrases
from scorekeeper.engine import CardError
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import read_card
from scorekeeper.web.card_grid import MAX_CARD_TEXT
from scorekeeper.web.forms import (
    SUIT_CHOICES,
    Form,
    VersionedForm,
    choices,
    name_field,
    strip,
    within,
    write_key_field,
)

ALONE = "alone"
"""The partner choice of a bidder who called a card of their own hand."""
HAND_ACTIONS = ("made", "failed", "points", "passed")
SUITS = choices(SUIT_CHOICES)


class NewGameForm(Form):
    """A new game: the names of the players in play order, the target and the first dealer.

    The boxes filled are the seats."""

    player0 = name_field(_l("Player 1"))
    player1 = name_field(_l("Player 2"))
    player2 = name_field(_l("Player 3"))
    player3 = name_field(_l("Player 4"))
    player4 = name_field(_l("Player 5"))
    player5 = name_field(_l("Player 6"))
    target = IntegerField(
        _l("Play to (points)"),
        default=rules.DEFAULT_TARGET,
        validators=[Optional(), within(rules.MIN_TARGET, rules.MAX_TARGET)],
        render_kw={"inputmode": "numeric"},
    )
    first_dealer = SelectField(
        _l("First dealer"),
        choices=[
            SelectChoice(str(seat), _l("Player %(number)s", number=seat + 1)) for seat in range(6)
        ]
        + [SelectChoice("random", _l("Draw at random"))],
        default="0",
    )
    TARGETS_OFFERED = (rules.DEFAULT_TARGET, rules.LONG_TARGET)

    def names(self) -> list[str]:
        """The players' names, the boxes left empty skipped."""
        boxes = (getattr(self, f"player{seat}").data for seat in range(rules.MAX_PLAYERS))
        return [name for name in boxes if name]

    def refuse(self, error: rules.BiddingError) -> None:
        """Show the engine's refusal of the game beside the box it is about."""
        field: Field = self.player0
        if isinstance(error, rules.TargetError):
            field = self.target
        elif isinstance(error, rules.UnknownSeatError):
            field = self.first_dealer
        field.errors = [*field.errors, phrases.engine_error(error)]


class HandForm(VersionedForm):
    """One hand: who bid, how much, with whom, and the points or only made / not made.

    Or everyone passed. The seats' choices are the game's (:meth:`seat`)."""

    action = HiddenField(
        validators=[AnyOf(HAND_ACTIONS, message=_l("Choose what happened in the hand."))],
        default="made",
    )
    # A seat not at the table is the engine's refusal, said as it says it (validate_bidder).
    bidder = RadioField(_l("Who bid"), choices=[], validators=[Optional()], validate_choice=False)
    bid = RadioField(
        _l("How much"),
        choices=[SelectChoice(str(bid), str(bid)) for bid in rules.QUICK_BIDS],
        validators=[Optional()],
    )
    other_bid = IntegerField(
        _l("Another bid"),
        validators=[Optional(), within(rules.MIN_BID, rules.MAX_BID)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    partner = RadioField(_l("Partner"), choices=[], validators=[Optional()], validate_choice=False)
    points = IntegerField(
        _l("Card points of the bidder's side"),
        validators=[Optional(), within(0, rules.TOTAL_POINTS)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    trump = RadioField(_l("Trump (trunfo)"), choices=SUITS, validators=[Optional()], default=None)
    called = StringField(
        _l("Called card (carta pedida)"),
        validators=[
            Optional(),
            Length(max=MAX_CARD_TEXT, message=_l("At most %(max)d characters.")),
        ],
        filters=[strip],
        render_kw={"autocomplete": "off", "autocapitalize": "characters", "placeholder": "AH"},
    )
    key = write_key_field()
    players = rules.MIN_PLAYERS
    """The seats of the game the form is for: the deck the called card is read in."""

    def seat(self, names: list[str]) -> None:
        """Offer the game's players as bidders and partners (and the bidder alone)."""
        self.players = len(names)
        seats = [SelectChoice(str(seat), name) for seat, name in enumerate(names)]
        self.bidder.choices = seats
        self.partner.choices = [*seats, SelectChoice(ALONE, _l("alone (sozinho)"))]

    def validate(self, extra_validators: Any = None) -> bool:
        valid = bool(super().validate(extra_validators))
        if not valid or self.action.data == "passed":
            return valid
        # Optional() ends each field's own checks on an empty choice, so ask here.
        if self.bidder.data is None:
            self.bidder.errors = [_l("Choose who bid.")]
        if self.bid.data is None and self.other_bid.data is None:
            self.bid.errors = [_l("Choose or type the bid.")]
        if self.partner.data is None:
            self.partner.errors = [_l("Choose the partner, or alone.")]
        if self.action.data == "points" and self.points.data is None:
            self.points.errors = [_l("Type the card points of the bidder's side.")]
        return not (self.bidder.errors or self.bid.errors or self.partner.errors) and not (
            self.points.errors
        )

    def validate_called(self, field: StringField) -> None:
        if field.data and self.action.data != "passed":  # a hand all passed calls no card
            try:
                read_card(field.data, self.players)
            except CardError as error:
                raise ValidationError(phrases.engine_error(error)) from None

    def called_card(self) -> str | None:
        """The called card as the game keeps it (``AH``), or None: none for a hand all passed."""
        if self.action.data == "passed" or not self.called.data:
            return None
        return str(read_card(self.called.data, self.players))

    def validate_bidder(self, field: RadioField) -> None:
        self._at_the_table(field, rules.SeatRole.BIDDER)

    def validate_partner(self, field: RadioField) -> None:
        self._at_the_table(field, rules.SeatRole.PARTNER)

    @staticmethod
    def _at_the_table(field: RadioField, role: rules.SeatRole) -> None:
        values = [value for value, *_ in field.iter_choices()]
        if field.data is not None and field.data not in values:
            players = len(values) - (role is rules.SeatRole.PARTNER)
            refusal = rules.UnknownSeatError(field.data, players, role)
            raise ValidationError(phrases.engine_error(refusal))

    def engine_hand(self) -> rules.BidHand:
        """The hand the form describes (the engine raises on a bad seat, bid or points)."""
        if self.action.data == "passed":
            return rules.BidHand.passed()
        bidder = int(self.bidder.data or 0)
        bid = self.other_bid.data if self.other_bid.data is not None else int(self.bid.data or 0)
        partner = bidder if self.partner.data == ALONE else int(self.partner.data or 0)
        made = {"made": True, "failed": False}.get(str(self.action.data))
        return rules.BidHand.played(bidder, bid, partner, points=self.points.data, made=made)
