"""The base of every HTML form: WTForms' messages from the app's own catalogues."""

from __future__ import annotations

from typing import Any

from flask_babel import get_translations
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (  # type: ignore[attr-defined]  # SelectChoice: WTForms 3.3, stubs 3.2
    Field,
    HiddenField,
    SelectChoice,
    StringField,
)
from wtforms.validators import Length, NumberRange, Optional, ValidationError

from scorekeeper.engine import names
from scorekeeper.web.columns import NAME_LENGTH, WRITE_KEY_LENGTH

# WTForms' own messages, in this app's catalogues so pt-PT and pt-BR each read right.
WTFORMS_MESSAGES = (
    _l("Not a valid integer value."),
    _l("Not a valid choice."),
    _l("This field is required."),
    _l("Invalid input."),
)


class _Translations:
    """The translations WTForms asks for its messages: the app's catalogue in the page's locale.

    A form asks for one per field as it is made; the catalogue is looked up once per form."""

    def __init__(self) -> None:
        self._catalogue = get_translations()

    def gettext(self, string: str) -> str:
        return str(self._catalogue.ugettext(string))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return str(self._catalogue.ungettext(singular, plural, n))


class Form(FlaskForm):
    """The base of every form: messages from the app's own catalogues.

    No form checks a CSRF token of its own: Flask-WTF's CSRFProtect checks every POST of the
    app before its view runs (``extensions.csrf``), and a page's forms carry the session's
    token as ``csrf_token()`` gives it. A token field would sign a new token and check the
    posted one a second time on every POST."""

    class Meta:
        csrf = False

        def get_translations(self, form: Any) -> _Translations:
            return _Translations()


def strip(text: Any) -> Any:
    """A text field as typed, without the spaces around it."""
    return text.strip() if isinstance(text, str) else text


def name_text(text: Any) -> Any:
    """Return a name as typed, read as it is stored (NFC, no spaces around).

    One the engine refuses is left for :func:`printable` to refuse."""
    if isinstance(text, str) and names.can_read_name(text):
        return names.read_name(text)
    return strip(text)


def printable(form: Any, field: Field) -> None:
    """Refuse a name that holds a character no one sees (engine.names), as the API does.

    A tab, an escape, a zero-width space, a direction mark: the error names their code points."""
    if isinstance(field.data, str) and not names.can_read_name(field.data):
        raise ValidationError(
            _l(
                "%(field)s must not contain control or invisible characters (%(characters)s).",
                field=field.label.text,
                characters=", ".join(names.hidden_characters(field.data)),
            )
        )


class InRange(NumberRange):
    """A number range that says nothing when the box did not hold a number at all.

    The field has already said so."""

    # NumberRange's may be None; within, which makes every InRange, gives all three.
    min: int
    max: int
    message: str

    def __call__(self, form: Any, field: Any) -> None:
        if field.data is None:
            return
        # NumberRange checks through a float, which a typed 10**400 overflows.
        if isinstance(field.data, int) and not self.min <= field.data <= self.max:
            raise ValidationError(str(self.message) % {"min": self.min, "max": self.max})
        super().__call__(form, field)


def within(low: int, high: int) -> InRange:
    return InRange(min=low, max=high, message=_l("Type a whole number from %(min)s to %(max)s."))


def name_field(label: Any) -> StringField:
    """A player's or a team's name: optional, at most NAME_LENGTH, no control characters."""
    return StringField(
        label,
        validators=[
            Optional(),
            Length(max=NAME_LENGTH, message=_l("At most %(max)d characters.")),
            printable,
        ],
        filters=[name_text],
    )


def write_key_field() -> HiddenField:
    """The idempotency key of a form's write; blank is no key (``Optional`` stops on whitespace)."""
    return HiddenField(
        validators=[
            Optional(),
            Length(max=WRITE_KEY_LENGTH, message=_l("At most %(max)d characters.")),
        ],
        filters=[strip],
    )


def choices(pairs: list[tuple[str, Any]]) -> list[SelectChoice]:
    """WTForms choices from (value, label) pairs."""
    return [SelectChoice(value, label) for value, label in pairs]


SUIT_CHOICES = [
    ("C", _l("♣ clubs (paus)")),
    ("D", _l("♦ diamonds (ouros)")),
    ("H", _l("♥ hearts (copas)")),
    ("S", _l("♠ spades (espadas)")),
]
"""The four suits as a trump is chosen, in the letters the API takes."""


def is_version(text: str) -> bool:
    """Whether ``text`` could be a version written into a page: a few ASCII digits.

    ``str.isdigit`` alone lets through "²" and 5,000 digits, both of which ``int()`` refuses.
    """
    return text.isascii() and text.isdigit() and len(text) <= 18


class VersionedForm(Form):
    """A write sent from a page: the version of the rubber or game that page showed."""

    version = HiddenField(validators=[Optional()])

    def validate_version(self, field: HiddenField) -> None:
        if field.data and not is_version(str(field.data)):
            raise ValidationError(_l("This page is out of date: reload it."))

    def stored_version(self) -> int | None:
        # Optional() lets a blank (" ") through: that is no version either.
        text = str(self.version.data or "").strip()
        return int(text) if text else None


class UndoForm(VersionedForm):
    """Undo the last hand: the version of the page it was sent from, and an optional write key."""

    key = write_key_field()
