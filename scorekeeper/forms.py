"""The HTML forms: starting a rubber and recording a hand."""

from __future__ import annotations

from typing import Any

from flask_babel import gettext, ngettext
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectChoice,
    SelectField,
    StringField,
)
from wtforms.validators import AnyOf, Length, NumberRange, Optional, ValidationError

from . import engine
from .messages import engine_error
from .models import NAME_LENGTH

csrf = CSRFProtect()

# WTForms' own messages, in this app's catalogues so pt-PT and pt-BR each read right.
WTFORMS_MESSAGES = (
    _l("Not a valid integer value."),
    _l("Not a valid choice."),
    _l("This field is required."),
    _l("Invalid input."),
)


class _Translations:
    """WTForms asks this for its messages; the app's catalogue answers in the page's locale."""

    def gettext(self, string: str) -> str:
        return str(gettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(ngettext(singular, plural, n))


class Form(FlaskForm):
    """The base of every form: messages from the app's own catalogues."""

    class Meta:
        def get_translations(self, form: Any) -> _Translations:
            return _Translations()


class InRange(NumberRange):
    """A number range that says nothing when the box did not hold a number at all
    (the field has already said so)."""

    def __call__(self, form: Any, field: Any) -> None:
        if field.data is not None:
            super().__call__(form, field)


def _within(low: int, high: int) -> InRange:
    return InRange(min=low, max=high, message=_l("Type a whole number from %(min)s to %(max)s."))


AS_PRESET = ""
RANDOM_DEALER = "random"
SUIT_CHOICES = [
    ("C", _l("♣ clubs (paus)")),
    ("D", _l("♦ diamonds (ouros)")),
    ("H", _l("♥ hearts (copas)")),
    ("S", _l("♠ spades (espadas)")),
]


def choices(pairs: list[tuple[str, Any]]) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


HAND_ACTIONS = ("points", "tie", "revoke-0", "revoke-1", "spoiled", "bandeira-0", "bandeira-1")


def _name(label: Any) -> StringField:
    return StringField(
        label,
        validators=[
            Optional(),
            Length(max=NAME_LENGTH, message=_l("At most %(max)d characters.")),
        ],
        filters=[lambda text: text.strip() if isinstance(text, str) else text],
    )


def _setting(label: Any, options: list[tuple[str, Any]]) -> SelectField:
    return SelectField(
        label, choices=choices([(AS_PRESET, _l("as the preset says")), *options]), default=""
    )


_YES_NO = [("yes", _l("yes")), ("no", _l("no"))]


class NewRubberForm(Form):
    """Everything a rubber can be started with; left empty, the defaults of the preset."""

    team0 = _name(_l("Team of seats 1 and 3"))
    team1 = _name(_l("Team of seats 2 and 4"))
    player0 = _name(_l("Seat 1"))
    player1 = _name(_l("Seat 2"))
    player2 = _name(_l("Seat 3"))
    player3 = _name(_l("Seat 4"))
    first_dealer = SelectField(
        _l("First dealer"),
        choices=choices(
            [
                ("0", _l("Seat 1")),
                ("1", _l("Seat 2")),
                ("2", _l("Seat 3")),
                ("3", _l("Seat 4")),
                (RANDOM_DEALER, _l("Draw at random")),
            ]
        ),
        default="0",
    )
    preset = SelectField(
        _l("Rules"),
        choices=choices(
            [
                ("portugal", _l("Portugal")),
                ("brasil", _l("Brazil")),
                ("acores", _l("Azores")),
                ("online", _l("Online tables")),
            ]
        ),
        default="portugal",
    )
    games_to_win = IntegerField(
        _l("Games to win the rubber"),
        validators=[Optional(), _within(1, 20)],
    )
    tie = _setting(
        _l("A 60-60 tie"),
        [
            ("carry", _l("the next hand is worth one more game")),
            ("void", _l("nothing happens")),
            ("double", _l("the next hand is worth double")),
        ],
    )
    bandeira = _setting(
        _l("Bandeira (4 games)"),
        [("tricks", _l("all 10 tricks")), ("points", _l("all 120 points"))],
    )
    bandeira_wins_rubber = _setting(_l("A bandeira wins the rubber"), _YES_NO)
    revoke = _setting(
        _l("A revoke (renúncia)"),
        [
            ("opponents_two", _l("the other team marks 2 games")),
            ("offender_minus_two", _l("the offending team loses 2 games")),
            ("lose_rubber", _l("the offending team loses the rubber")),
        ],
    )
    manilha = _setting(_l("Manilha"), [("7", _l("the 7")), ("10", _l("the 10 (Azores)"))])
    queen_over_jack = _setting(_l("The queen beats the jack"), _YES_NO)
    direction = _setting(
        _l("Direction of play"),
        [("counterclockwise", _l("counter-clockwise")), ("clockwise", _l("clockwise"))],
    )
    melar = _setting(_l("Melar (spoil a deal under 10 points)"), _YES_NO)

    SETTINGS = (
        "tie",
        "bandeira",
        "bandeira_wins_rubber",
        "revoke",
        "manilha",
        "queen_over_jack",
        "direction",
        "melar",
    )

    def rules_object(self) -> dict[str, Any]:
        """The API's rules object: the preset and every setting changed from it."""
        rules: dict[str, Any] = {"preset": self.preset.data}
        if self.games_to_win.data is not None:
            rules["games_to_win"] = self.games_to_win.data
        for name in self.SETTINGS:
            value = getattr(self, name).data
            if value == AS_PRESET:
                continue
            rules[name] = value == "yes" if value in ("yes", "no") else value
        return rules

    def rule_set(self) -> engine.RuleSet | None:
        """The rule set, or None with the error put on the field it belongs to."""
        try:
            return engine.RuleSet.from_dict(self.rules_object())
        except engine.RulesError as error:
            field = getattr(self, error.key, self.preset)
            field.errors = [*field.errors, engine_error(error)]
            return None


class HandForm(Form):
    """One hand: a team's card points, or a tie, a revoke, a spoiled deal, a bandeira."""

    action = HiddenField(validators=[AnyOf(HAND_ACTIONS)], default="points")
    team = RadioField(
        _l("Card points of"),
        choices=choices([("0", "0"), ("1", "1")]),
        default="0",
        validators=[Optional()],
    )
    points = IntegerField(
        _l("Card points"),
        validators=[Optional(), _within(0, 120)],
        render_kw={"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"},
    )
    all_tricks = BooleanField(_l("All the tricks (every vaza)"))
    trump = RadioField(
        _l("Trump (trunfo)"), choices=choices(SUIT_CHOICES), validators=[Optional()], default=None
    )
    key = HiddenField(
        validators=[Optional(), Length(max=100, message=_l("At most %(max)d characters."))]
    )
    version = HiddenField(validators=[Optional()])

    def validate(self, extra_validators: Any = None) -> bool:
        valid = bool(super().validate(extra_validators))
        if valid and self.action.data == "points" and self.points.data is None:
            # Optional() ends the field's own checks on an empty box, so ask here.
            self.points.errors = [_l("Type the card points of one team.")]
            return False
        return valid

    def validate_version(self, field: HiddenField) -> None:
        if field.data and not str(field.data).isdigit():
            raise ValidationError(_l("This page is out of date: reload it."))

    def engine_hand(self) -> engine.Hand:
        """The hand the form describes (the engine raises on impossible points)."""
        action = self.action.data
        if action == "tie":
            return engine.Hand.tie()
        if action == "spoiled":
            return engine.Hand.spoiled()
        if action in ("revoke-0", "revoke-1"):
            return engine.Hand.revoke(int(action[-1]))
        if action in ("bandeira-0", "bandeira-1"):
            points = [0, 0]
            points[int(action[-1])] = 120
            return engine.Hand.played(points[0], points[1], all_tricks=True)
        team = int(self.team.data or 0)
        typed = int(self.points.data or 0)
        points = [120 - typed, 120 - typed]
        points[team] = typed
        return engine.Hand.played(points[0], points[1], all_tricks=bool(self.all_tricks.data))

    def stored_version(self) -> int | None:
        return int(self.version.data) if self.version.data else None
