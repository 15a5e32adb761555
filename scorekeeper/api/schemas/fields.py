"""The values the API's bodies are made of.

Each type states its limits once, for the check and for the OpenAPI document, and says how its
refusals are worded (400 for a wrong shape, 422 for a value that is refused: API.md,
"Conventions")."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import AfterValidator, Field, PlainValidator
from pydantic.config import JsonDict

from scorekeeper import engine
from scorekeeper.api.errors import ApiError
from scorekeeper.api.schemas.reading import (
    Answer,
    Refused,
    Says,
    is_whole,
    type_error,
)
from scorekeeper.engine import names
from scorekeeper.engine.tournaments import MAX_PAIRS
from scorekeeper.rubbers import store
from scorekeeper.web import wording
from scorekeeper.web.columns import NAME_LENGTH, VERSION_MAX, WRITE_KEY_LENGTH, has_control


def values(kind: Any) -> tuple[Any, ...]:
    """The values of an engine enum, for a ``Literal``."""
    return tuple(member.value for member in kind)


SEATS = 4
TRUMPS = values(engine.Suit)
HAND_KINDS = values(engine.HandKind)
MAX_TRICKS = 10
MAX_CARDS_PER_TRICK = 40
"""A trick of the wrong size is reported by the verifier, up to the size of the deck."""
MAX_CARD_LENGTH = 8
PRINTABLE = "^[^\\x00-\\x1f\\x7f-\\x9f]*$"
"""Names and keys are stored: no control characters (PostgreSQL refuses NUL)."""
NOT_BLANK = "^[^\\x00-\\x1f\\x7f-\\x9f]*[^\\s\\x00-\\x1f\\x7f-\\x9f][^\\x00-\\x1f\\x7f-\\x9f]*$"
"""Printable, and not blank."""


SURROGATES = 0xD800


def _code_point(number: int) -> str:
    # JSON Schema's patterns are ECMA 262's: \uXXXX within the BMP; a character beyond it is
    # written as itself (hypothesis-jsonschema and Python's re read it as one character).
    return f"\\u{number:04x}" if number <= 0xFFFF else chr(number)


HIDDEN = "".join(
    _code_point(low) if low == high else f"{_code_point(low)}-{_code_point(high)}"
    for low, high in names.HIDDEN_RANGES
    if low != SURROGATES
)
"""The characters no name may hold (engine.names), as a pattern's character class.

Lone surrogates are left out: JSON text cannot hold one as a character, and a generator reading
the pattern (schemathesis) drops a pattern that names them."""
NAME = f"^[^{HIDDEN}]*$"
NAME_NOT_BLANK = f"^[^{HIDDEN}]*[^\\s{HIDDEN}][^{HIDDEN}]*$"
"""A name as the engine reads it: no control, invisible or direction characters; not blank."""
TOKEN = f"^{store.TOKEN.pattern}$"
"""An id or key that store.new_token could have made."""
RULE_NAMES = frozenset(engine.RuleSet().to_dict())
CARD = "^\\s*(?:[2-7AJKQTajkqt]|10)[CDHScdhs]\\s*$"
"""A card of a Sueca deck as the engine reads it (the 10 only under the Azores manilha)."""


# Answers -------------------------------------------------------------------------------------


def whole_number(problem: Refused) -> ApiError:
    return type_error("whole", problem.label)


def boolean(problem: Refused) -> ApiError:
    return type_error("boolean", problem.label)


def an_object(problem: Refused) -> ApiError:
    return type_error("object", problem.label)


def control_characters(problem: Refused) -> ApiError | None:
    """The refusal of text that holds a control character (or a lone surrogate), else None."""
    if isinstance(problem.value, str) and has_control(problem.value):
        return ApiError(
            422,
            _("%(field)s must not contain control characters.", field=problem.label),
            problem.label,
            "control_characters",
        )
    return None


def _text_first(problem: Refused) -> ApiError | None:
    """The refusal of a value that is not text, or holds a control character."""
    if not isinstance(problem.value, str):
        return type_error("text", problem.label)
    return control_characters(problem)


def text(problem: Refused) -> ApiError:
    return _text_first(problem) or type_error("text", problem.label)


def hidden_characters(problem: Refused) -> ApiError | None:
    """The refusal of a name that holds a character no one sees (engine.names), else None."""
    if isinstance(problem.value, str) and not names.can_read_name(problem.value):
        return ApiError(
            422,
            _(
                "%(field)s must not contain control or invisible characters (%(characters)s).",
                field=problem.label,
                characters=", ".join(names.hidden_characters(problem.value)),
            ),
            problem.label,
            "control_characters",
        )
    return None


def name(*, blank: bool) -> Answer:
    def answer(problem: Refused) -> ApiError:
        if not isinstance(problem.value, str):
            return type_error("text", problem.label)
        if (refusal := hidden_characters(problem)) is not None:
            return refusal
        if blank:
            message = _("A name has at most %(count)s characters.", count=NAME_LENGTH)
        else:
            message = _("A name has 1 to %(count)s characters.", count=NAME_LENGTH)
        return ApiError(422, message, problem.label, "name_length")

    return answer


def seat(problem: Refused) -> ApiError:
    if not is_whole(problem.value):
        return whole_number(problem)
    message = _("%(field)s must be a seat from 0 to 3.", field=problem.label)
    return ApiError(422, message, problem.label, "seat")


def trump(problem: Refused) -> ApiError:
    if not isinstance(problem.value, str):
        return type_error("text", problem.label)
    return ApiError(422, _("The trump must be one of C, D, H or S."), problem.label, "trump")


def card(problem: Refused) -> ApiError:
    return ApiError(400, _("Each card must be written as text, like 7H."), problem.label, "type")


def key(problem: Refused) -> ApiError:
    if (refusal := _text_first(problem)) is not None:
        return refusal
    message = _("The key must have 1 to %(count)s characters.", count=WRITE_KEY_LENGTH)
    return ApiError(400, message, problem.label, "type")


def version(problem: Refused) -> ApiError:
    if not is_whole(problem.value):
        return whole_number(problem)
    message = _("The version is a whole number from 1 to %(most)s.", most=VERSION_MAX)
    return ApiError(422, message, problem.label, "version")


def spoiled(problem: Refused) -> ApiError:
    if not isinstance(problem.value, bool):
        return boolean(problem)
    return ApiError(400, _("spoiled is given only as true."), problem.label, "hand_form")


def kind(problem: Refused) -> ApiError:
    message = _("%(field)s must be one of played, tie, revoke, spoiled.", field=problem.label)
    return ApiError(422, message, problem.label, "kind")


def moment(problem: Refused) -> ApiError:
    if (refusal := _text_first(problem)) is not None:
        return refusal
    message = _("%(field)s must be a date and time.", field=problem.label)
    return ApiError(422, message, problem.label, "date")


def origin(problem: Refused) -> ApiError:
    message = _("%(field)s is not a rubber id.", field=problem.label)
    return ApiError(422, message, problem.label, "origin")


def rules(problem: Refused) -> ApiError:
    """The engine's own refusal of a rules object: it knows what every setting takes."""
    if not isinstance(problem.value, dict):
        name = problem.label.rpartition(".")[2]  # "rules must be an object.", even in a file
        return ApiError(400, _("%(field)s must be an object.", field=name), problem.label, "type")
    try:
        engine.RuleSet.from_dict(problem.value)
    except engine.RulesError as error:
        field = f"{problem.label}.{error.key}"
        if error.key not in RULE_NAMES:
            message = _("%(key)s is not a rule setting.", key=error.key)
        else:
            message = wording.engine_error(error)
        return ApiError(422, message, field, "rules")
    raise AssertionError(f"the rules model and the engine disagree on {problem.value!r}")


def listed(low: int | None, high: int | None, item: Answer | None) -> Answer:
    """The refusals of a list of ``low`` to ``high`` items: the list's own, then its items'."""

    def answer(problem: Refused) -> ApiError:
        value = problem.value
        if not isinstance(value, list) or (
            low is not None and high is not None and not low <= len(value) <= high
        ):
            field = problem.label
            if low is None or high is None:
                message = _("%(field)s must be a list.", field=field)
            elif low == high:
                message = _("%(field)s must be a list of %(count)s items.", field=field, count=low)
            else:
                message = _(
                    "%(field)s must be a list of %(low)s to %(high)s items.",
                    field=field,
                    low=low,
                    high=high,
                )
            return ApiError(400, message, field, "type")
        if item is None or not problem.rest:
            return type_error("list", problem.label)
        return item(problem.item())

    return answer


def list_of(item: Any, low: int, high: int, **field: Any) -> Any:
    """The type of a list of ``low`` to ``high`` items, worded by the item's :class:`Says`."""
    found = [m.answer for m in getattr(item, "__metadata__", ()) if isinstance(m, Says)]
    words = found[-1] if found else None  # the item type's own words come last
    return Annotated[
        list[item], Field(min_length=low, max_length=high, **field), Says(listed(low, high, words))
    ]


def _any_text(value: object) -> str:
    if not isinstance(value, str):
        raise ValueError("not text")
    return value


def _printable(value: str) -> str:
    if has_control(value):
        raise ValueError("control characters")
    return value


def _moment(value: str) -> datetime:
    moment = datetime.fromisoformat(value)  # a ValueError is refused as not a date
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(UTC).replace(tzinfo=None)
        except OverflowError:  # 0001-01-01T00:00:00+14:00 is before the first year in UTC
            raise ValueError("out of the years a date can have") from None
    return moment


def _name(value: str) -> str:
    # The engine reads it (a ValueError for what it refuses); its NFC may be longer than what
    # was sent, and is stored.
    text = names.read_name(value)
    if len(text) > NAME_LENGTH:
        raise ValueError("too long once read")
    return text


def _not_blank(value: str) -> str:
    if not value:
        raise ValueError("blank")
    return value


def _everyone_or_nobody(names: list[str]) -> list[str] | None:
    return names if any(names) else None


def _must_be_true(value: bool) -> bool:
    if value is not True:
        raise ValueError("spoiled is given only as true")
    return value


OMITTED: Any = None
"""The default of a field that may be left out but is not sent as null: None, which pydantic
does not check, typed Any so that the field keeps the type of a value given for it."""


# Types -----------------------------------------------------------------------------------------

WholeNumber = Annotated[int, Says(whole_number)]
Count = Annotated[int, Field(ge=0)]
Boolean = Annotated[bool, Says(boolean)]
Seat = Annotated[int, Field(ge=0, le=SEATS - 1), Says(seat)]
Team = Annotated[int, Field(json_schema_extra={"enum": [0, 1]}), Says(whole_number)]
"""A team, 0 or 1; any other whole number is the engine's to refuse (422)."""
TeamOrNobody = Literal[0, 1] | None
Pair = Annotated[list[int], Field(min_length=2, max_length=2)]
AnyText = Annotated[str, PlainValidator(_any_text, json_schema_input_type=str), Says(text)]
"""Any text, lone surrogates too, which pydantic's ``str`` refuses: for text that is only read
(a card, which the verifier names when it cannot read it), never stored."""
Text = Annotated[str, AfterValidator(_printable), Says(text)]
"""Text that is stored or looked up: no control characters."""
Token = Annotated[Text, Field(json_schema_extra={"pattern": TOKEN})]
"""An id: one of any other shape names nothing (404), so its pattern is only documented."""
Url = Annotated[str, Field(json_schema_extra={"format": "uri"})]
TeamName = Annotated[
    str,
    Field(min_length=1, max_length=NAME_LENGTH, json_schema_extra={"pattern": NAME_NOT_BLANK}),
    AfterValidator(_name),
    AfterValidator(_not_blank),
    Says(name(blank=False)),
]
"""A name that must be given: a team's, a pair's player's, a group's, a tournament's."""
PlayerName = Annotated[
    str,
    Field(max_length=NAME_LENGTH, json_schema_extra={"pattern": NAME}),
    AfterValidator(_name),
    Says(name(blank=True)),
]
"""A name that may be blank: a seat's player."""
# list_of and values make these types at run time, which mypy cannot follow: it is told what
# they hold (pydantic checks the rest).
if TYPE_CHECKING:
    TeamNames = list[TeamName]
    PlayerNames = list[PlayerName]
    TrumpLetter = str
    HandKindName = str
else:
    TeamNames = list_of(TeamName, 2, 2)
    PlayerNames = Annotated[
        list_of(PlayerName, SEATS, SEATS, description="By seat; blank seats are nobody."),
        AfterValidator(_everyone_or_nobody),
    ]
    TrumpLetter = Literal[TRUMPS]
    HandKindName = Literal[HAND_KINDS]
Trump = Annotated[TrumpLetter, Says(trump)]
Card = Annotated[
    AnyText, Field(max_length=MAX_CARD_LENGTH, json_schema_extra={"examples": ["7H"]}), Says(card)
]
if TYPE_CHECKING:
    Trick = list[Card]
    Tricks = list[Trick]
    Points = list[int]
else:
    Trick = list_of(Card, 0, MAX_CARDS_PER_TRICK)
    Tricks = list_of(
        Trick,
        1,
        MAX_TRICKS,
        description="The tricks in play order, each from its leader; the first is led by the "
        "hand's leader.",
    )
    Points = list_of(
        Annotated[int, Field(json_schema_extra={"minimum": 0, "maximum": 120}), Says(whole_number)],
        2,
        2,
        description="The card points of team 0 and team 1; they add up to 120.",
    )
"""Points no hand can make are the engine's to refuse (422), in its words."""
Spoiled = Annotated[
    bool,
    AfterValidator(_must_be_true),
    Field(json_schema_extra={"const": True}, description="A spoiled deal (melar)."),
    Says(spoiled),
]
Key = Annotated[
    str,
    Field(
        min_length=1,
        max_length=WRITE_KEY_LENGTH,
        pattern=PRINTABLE,
        description="An idempotency key: the same key with the same body returns the first "
        "answer; with another body, 409.",
    ),
    Says(key),
]
Version = Annotated[
    int,
    Field(
        ge=1,
        le=VERSION_MAX,
        description="The rubber's version the client last saw: 409 if it has changed.",
    ),
    Says(version),
]
HandKind = Annotated[HandKindName, Says(kind, missing=kind)]
if TYPE_CHECKING:
    Moment = datetime  # given as text, held as the datetime _moment reads from it
else:
    Moment = Annotated[
        str, AfterValidator(_moment), Field(json_schema_extra={"format": "date-time"}), Says(moment)
    ]
Origin = Annotated[str, Field(pattern=TOKEN), Says(origin)]
EditedAt = Annotated[
    Annotated[str, Field(json_schema_extra={"format": "date-time"})] | None,
    Field(description="When the hand was last changed, in UTC; null for a hand as recorded."),
]
HandNumber = Annotated[int, Field(ge=1)]


def played_cards(low: int, high: int, cards: tuple[int, int]) -> Any:
    """Return the document's bounds of a record the engine reads.

    ``low`` to ``high`` lists of ``cards`` cards of a Sueca deck each; the engine refuses
    another (422 in its words, not 400)."""
    card: JsonDict = {"type": "string", "maxLength": MAX_CARD_LENGTH, "pattern": CARD}
    items: JsonDict = {"type": "array", "minItems": cards[0], "maxItems": cards[1], "items": card}
    return Field(json_schema_extra={"minItems": low, "maxItems": high, "items": items})


PATH_PARAMETERS: dict[str, Any] = {
    "rubber_id": Annotated[str, Field(pattern=TOKEN)],
    "group_id": Annotated[str, Field(pattern=TOKEN)],
    "game_id": Annotated[str, Field(pattern=TOKEN)],
    "number": HandNumber,
    "analysis_id": Annotated[str, Field(pattern="^[0-9a-f]{64}$")],
    "tournament_id": Annotated[str, Field(pattern=TOKEN)],
    "round_number": Annotated[int, Field(ge=1)],
    "table": Annotated[int, Field(ge=1, le=MAX_PAIRS // 2)],
    "pair": Annotated[int, Field(ge=1, le=MAX_PAIRS)],
}
"""The types of the addresses' parts, for the document (an id of another shape is a 404)."""
