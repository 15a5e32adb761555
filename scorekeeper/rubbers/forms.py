"""The HTML forms of a rubber: starting one, recording a hand, undoing one (cards: cards/forms.py)."""

from __future__ import annotations

import re
from typing import Any

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    RadioField,
    SelectField,
)
from wtforms.validators import (
    AnyOf,
    Optional,
    ValidationError,
)

from scorekeeper import engine
from scorekeeper.engine.names import player_key
from scorekeeper.web.forms import (
    SUIT_CHOICES,
    Form,
    UndoForm,
    VersionedForm,
    choices,
    name_field,
    within,
    write_key_field,
)
from scorekeeper.web.wording import engine_error

AS_PRESET = ""
RANDOM_DEALER = "random"
HAND_ACTIONS = ("points", "tie", "revoke-0", "revoke-1", "spoiled", "bandeira-0", "bandeira-1")


def _setting(label: Any, options: list[tuple[str, Any]]) -> RadioField:
    # Choices as radio buttons: their words wrap on a small phone, where a box's were cut.
    return RadioField(
        label, choices=choices([(AS_PRESET, _l("as the preset says")), *options]), default=""
    )


_YES_NO = [("yes", _l("yes")), ("no", _l("no"))]


class NewRubberForm(Form):
    """Everything a rubber can be started with; left empty, the defaults of the preset."""

    team0 = name_field(_l("Team of seats 1 and 3"))
    team1 = name_field(_l("Team of seats 2 and 4"))
    player0 = name_field(_l("Seat 1"))
    player1 = name_field(_l("Seat 2"))
    player2 = name_field(_l("Seat 3"))
    player3 = name_field(_l("Seat 4"))
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
        validators=[
            Optional(),
            within(engine.rules.MIN_GAMES_TO_WIN, engine.rules.MAX_GAMES_TO_WIN),
        ],
        render_kw={"inputmode": "numeric"},
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

    GAMES_TO_WIN_OFFERED = engine.rules.GAMES_TO_WIN_OFFERED
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

    def validate(self, extra_validators: Any = None) -> bool:
        valid = bool(super().validate(extra_validators))
        seated: set[str] = set()
        for seat in range(4):
            field = getattr(self, f"player{seat}")
            key = player_key(field.data)
            if key in seated:
                field.errors = [
                    *field.errors,
                    gettext("%(name)s sits in two seats: a player has one seat.", name=field.data),
                ]
                valid = False
            elif key:
                seated.add(key)
        return valid

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


class PointsField(IntegerField):
    """Card points as typed: a whole number; "60,5" or "60.5" is refused, never read as 605."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist and re.fullmatch(r"\s*\d*[.,]\d*\s*", str(valuelist[0])):
            self.data = None
            raise ValueError(
                gettext(
                    "Card points are whole numbers: no card is worth half a point (%(typed)s).",
                    typed=str(valuelist[0]).strip(),
                )
            )
        super().process_formdata(valuelist)


class HandForm(VersionedForm):
    """One hand: a team's card points, or a tie, a revoke, a spoiled deal, a bandeira."""

    action = HiddenField(
        validators=[AnyOf(HAND_ACTIONS, message=_l("Choose what happened in the hand."))],
        default="points",
    )
    team = RadioField(
        _l("Card points of"),
        choices=choices([("0", "0"), ("1", "1")]),
        default="0",
        validators=[Optional()],
    )
    points = PointsField(
        _l("Card points"),
        validators=[Optional(), within(0, 120)],
        # A text box: a number box reads "60,5" its own way (605 in some locales).
        render_kw={"type": "text", "inputmode": "numeric", "autocomplete": "off"},
    )
    all_tricks = BooleanField(_l("All the tricks (every vaza)"))
    trump = RadioField(
        _l("Trump (trunfo)"), choices=choices(SUIT_CHOICES), validators=[Optional()], default=None
    )
    key = write_key_field()
    confirm = HiddenField()
    """The one-tap hand confirmed (its action): a revoke or a bandeira waits for it; any other
    value is no confirmation, so it is never an error of its own."""

    def validate(self, extra_validators: Any = None) -> bool:
        valid = bool(super().validate(extra_validators))
        if valid and self.action.data == "points" and self.points.data is None:
            # Optional() ends the field's own checks on an empty box, so ask here.
            self.points.errors = [_l("Type the card points of one team.")]
            return False
        return valid

    def engine_hand(self) -> engine.Hand:
        """The hand the form describes (the engine raises on impossible points)."""
        action = self.action.data
        if action == "tie":
            return engine.Hand.tie()
        if action == "spoiled":
            return engine.Hand.spoiled()
        if action in ("revoke-0", "revoke-1"):
            return engine.Hand.revoke(int(action[-1]))
        # The engine completes the other team's points; the form only says whose were typed.
        if action in ("bandeira-0", "bandeira-1"):
            hand = engine.Hand.played(engine.scoring.TOTAL_POINTS, all_tricks=True)
            return hand if action == "bandeira-0" else hand.mirrored()
        typed = int(self.points.data or 0)
        hand = engine.Hand.played(typed, all_tricks=bool(self.all_tricks.data))
        return hand if (self.team.data or "0") == "0" else hand.mirrored()

    def typed_team(self) -> int | None:
        """Return which team's points were typed or bandeira tapped, for its edit form, or None."""
        action = self.action.data
        if action in ("bandeira-0", "bandeira-1"):
            return int(action[-1])
        if action == "points":
            return 1 if self.team.data == "1" else 0
        return None


def melar_only_checked() -> str:
    """Why a page takes no melar but the melar check's (docs/decisions/scoring.md, "Melar")."""
    return gettext(
        "A melar is recorded from the melar check, on the leader's 10 cards: "
        "only with fewer than 10 points may they spoil the deal."
    )


class EditHandForm(HandForm):
    """A recorded hand's edit: a melar stays one, but no other hand becomes a melar unchecked.

    ``stored_kind`` is the kind of the hand as it is stored."""

    stored_kind = ""

    def validate_action(self, field: HiddenField) -> None:
        if field.data == "spoiled" and self.stored_kind != "spoiled":
            raise ValidationError(melar_only_checked())


class SpoilForm(UndoForm):
    """A melar recorded from the melar check: the page's version and its write key.

    The cards travel in the check's own form."""
