"""The organizer's forms: a new tournament, a late pair, a result kept on paper, the TV's language."""

from __future__ import annotations

from typing import Any, cast

from flask_babel import gettext
from flask_babel import lazy_gettext as _l
from wtforms import (
    BooleanField,
    HiddenField,
    IntegerField,
    SelectField,
    StringField,
    TextAreaField,
)
from wtforms.validators import AnyOf, DataRequired, InputRequired, Length, Optional

from scorekeeper import engine
from scorekeeper.engine import tournaments as tourney
from scorekeeper.rubbers.forms import NewRubberForm
from scorekeeper.web.columns import NAME_LENGTH
from scorekeeper.web.forms import Form, choices, name_field, name_text, printable, within
from scorekeeper.web.i18n import LOCALES, select_locale

PAIRS_TEXT_LENGTH = 20_000
"""128 pairs of two long names a line, and room to spare."""


def tv_language_field() -> SelectField:
    """The language the tournament's TV speaks: the organizer's own unless another is picked.

    Each language named in itself, as the language switch names them."""
    return SelectField(
        _l("Language of the TV"),
        choices=choices(list(LOCALES.items())),
        default=select_locale,
        validate_choice=False,  # AnyOf says which ones, where WTForms says "Not a valid choice."
        validators=[
            AnyOf(
                list(LOCALES),
                message=_l("Choose the TV's language from the list."),
            )
        ],
    )


class NewTournamentForm(Form):
    """A tournament: its name, format, pairs pasted a line each, and its rules as a rubber's."""

    name = StringField(
        _l("Name of the tournament"),
        validators=[
            DataRequired(message=_l("Give the tournament a name.")),
            Length(max=NAME_LENGTH, message=_l("At most %(max)d characters.")),
            printable,
        ],
        filters=[name_text],
        render_kw={"placeholder": _l("Torneio da Tasca"), "autocomplete": "off"},
    )
    format = SelectField(
        _l("Format"),
        choices=choices(
            [
                ("knockout", _l("Knockout")),
                ("round_robin", _l("Round robin: every pair meets every other")),
                ("swiss", _l("Swiss system")),
                ("groups", _l("Groups, then a knockout")),
            ]
        ),
        default="knockout",
    )
    pairs = TextAreaField(
        _l("Pairs, one a line"),
        validators=[
            DataRequired(message=_l("Write the pairs, one a line.")),
            Length(max=PAIRS_TEXT_LENGTH, message=_l("At most %(max)d characters.")),
        ],
        render_kw={
            "rows": 8,
            "placeholder": "Ana e Bruno\nCarla / Duarte\nOs Primos: Eva, Filipe",
            "autocomplete": "off",
            "autocapitalize": "words",
        },
    )
    draw = SelectField(
        _l("Seeds"),
        choices=choices([("entry", _l("In the order written")), ("random", _l("Drawn at random"))]),
        default="entry",
    )
    best_of = SelectField(
        _l("A match is"),
        choices=choices(
            [
                ("1", _l("one rubber")),
                ("3", _l("best of 3 rubbers")),
                ("5", _l("best of 5 rubbers")),
            ]
        ),
        default="1",
    )
    rounds = IntegerField(
        _l("Rounds (Swiss)"),
        validators=[Optional(), within(1, tourney.MAX_PAIRS - 1)],
        render_kw={"inputmode": "numeric"},
    )
    groups = IntegerField(
        _l("Groups"),
        validators=[Optional(), within(2, tourney.MAX_PAIRS // 2)],
        render_kw={"inputmode": "numeric"},
    )
    advance = IntegerField(
        _l("Pairs of each group into the knockout"),
        validators=[Optional(), within(1, tourney.MAX_PAIRS)],
        render_kw={"inputmode": "numeric"},
    )
    third_place = BooleanField(_l("A match for third place"))
    tv_language = tv_language_field()
    group = HiddenField()
    """The group whose history the matches join (from its page), if any."""
    # The rules as a rubber's: the same fields, read the same way.
    preset = NewRubberForm.preset
    games_to_win = NewRubberForm.games_to_win
    tie = NewRubberForm.tie
    bandeira = NewRubberForm.bandeira
    bandeira_wins_rubber = NewRubberForm.bandeira_wins_rubber
    revoke = NewRubberForm.revoke
    manilha = NewRubberForm.manilha
    queen_over_jack = NewRubberForm.queen_over_jack
    direction = NewRubberForm.direction
    melar = NewRubberForm.melar
    GAMES_TO_WIN_OFFERED = NewRubberForm.GAMES_TO_WIN_OFFERED
    SETTINGS = NewRubberForm.SETTINGS

    def rules_object(self) -> dict[str, Any]:
        """The API's rules object, as a new rubber's form reads the same fields."""
        return NewRubberForm.rules_object(cast(NewRubberForm, self))

    def rule_set(self) -> engine.RuleSet | None:
        """The rule set, as a new rubber's form reads the same fields."""
        return NewRubberForm.rule_set(cast(NewRubberForm, self))

    def settings(self, pairs: int) -> tourney.Settings:
        """The engine's settings (TournamentError when they do not fit the pairs)."""
        grouped = self.format.data == "groups"
        swiss = self.format.data == "swiss"
        return tourney.Settings(
            format="round_robin" if grouped else self.format.data,
            pairs=pairs,
            best_of=int(self.best_of.data),
            rounds=self.rounds.data if swiss else None,
            groups=self.groups.data if grouped else None,
            advance=self.advance.data if grouped else None,
            third_place=bool(self.third_place.data) and self.format.data in ("knockout", "groups"),
        )


class LatePairForm(Form):
    """A pair that came late to a Swiss: its two players, and its name if it has one."""

    player0 = name_field(_l("Player 1"))
    player1 = name_field(_l("Player 2"))
    name = name_field(_l("Name of the pair (if it has one)"))

    def entry(self) -> tourney.PairEntry:
        """The pair as the engine takes it (its players checked there, as a pasted line's)."""
        players = (self.player0.data or "", self.player1.data or "")
        return tourney.PairEntry(players, self.name.data or None)


class TvLanguageForm(Form):
    """The organizer's later choice of the language the tournament's TV speaks."""

    tv_language = tv_language_field()


class GamesField(IntegerField):
    """A number of games as typed: anything but a whole number is asked again, in words."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        try:
            super().process_formdata(valuelist)
        except ValueError:
            raise ValueError(gettext("Type the games each pair made on the paper.")) from None


def games_field() -> GamesField:
    """One pair's games on the table's paper: a whole number the engine then weighs."""
    return GamesField(
        _l("Games"),
        validators=[
            InputRequired(_l("Type the games each pair made on the paper.")),
            within(0, engine.PAPER_MAX_GAMES),
        ],
        render_kw={"inputmode": "numeric"},
    )


class PaperResultForm(Form):
    """The games of a match's rubber that its table kept on paper, in the match's order."""

    games0 = games_field()
    games1 = games_field()

    def games(self) -> list[int]:
        """The games as the engine takes them (a rubber's end is checked there)."""
        return [self.games0.data or 0, self.games1.data or 0]
