"""The bodies of a tournament's operations and its answers (API.md, "Tournaments").

What only the engine can judge (the number of pairs, a pair of other than two players, a player
in two pairs, an even best-of, rounds beyond n - 1, an unknown format) is read here as its type
alone and refused by the engine with 422, in its words; the document states those bounds all the
same, so that a client reads them there (docs/decisions/api.md, "The document's bounds")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

from flask_babel import gettext as _
from pydantic import BaseModel, Field, JsonValue

from scorekeeper.api.errors import ApiError
from scorekeeper.api.schemas import fields as f
from scorekeeper.api.schemas.reading import Body, Refused, Says
from scorekeeper.api.schemas.rubbers import GivenRules, Rules, RulesInput
from scorekeeper.engine import tournaments as tourney
from scorekeeper.web.columns import VERSION_MAX
from scorekeeper.web.i18n import LOCALES

MAX_LISTED_PAIRS = 1000
"""A body's longest list of pairs: more than the engine's 128, so that it says why."""

# Requests -------------------------------------------------------------------------------------


def _documented(**bounds: JsonValue) -> Any:
    """Bounds said to the document, checked by the engine (422 in its words)."""
    return Field(json_schema_extra=bounds)


def a_language(problem: Refused) -> ApiError:
    """Anything but a language the app speaks is refused (422), whatever its JSON type."""
    message = _(
        "The TV's language must be one of %(languages)s, or null for each TV's own.",
        languages=", ".join(LOCALES),
    )
    return ApiError(422, message, problem.label, "tv_language")


# The interface's languages, made a Literal at run time, which mypy cannot follow: it is told
# its type.
if TYPE_CHECKING:
    Language = str
else:
    Language = Literal[tuple(LOCALES)]
TV_LANGUAGE = (
    "The language the tournament's TV speaks, whatever the TV's browser does: pt_PT, pt_BR or "
    "en. Null (the default): each TV its own browser's."
)


PairNumber = Annotated[int, _documented(minimum=1, maximum=tourney.MAX_PAIRS), Says(f.whole_number)]
"""A pair's number, its seed: one the tournament does not have is the engine's to refuse."""


class PairInput(Body):
    players: Annotated[
        list[f.TeamName],
        _documented(minItems=2, maxItems=2),
        Says(f.listed(None, None, f.name(blank=False))),
    ]
    """Two players; another count is the engine's to refuse (422, naming the pair)."""
    name: f.TeamName | None = None


class NewTournament(Body):
    name: f.TeamName
    format: Annotated[f.Text, Field(max_length=40), _documented(enum=list(tourney.FORMATS))]
    pairs: Annotated[
        list[PairInput],
        Field(max_length=MAX_LISTED_PAIRS),
        _documented(minItems=tourney.MIN_PAIRS, maxItems=tourney.MAX_PAIRS),
    ]
    rules: GivenRules = Field(default_factory=RulesInput)
    best_of: f.WholeNumber = 1
    rounds: f.WholeNumber | None = Field(None, description="Swiss: the number of rounds.")
    draw: Literal["entry", "random"] = "entry"
    groups: f.WholeNumber | None = Field(None, description="A round robin in this many groups.")
    advance: f.WholeNumber | None = Field(
        None, description="With groups: how many of each group go on to the knockout."
    )
    third_place: f.Boolean = False
    group: f.Token | None = Field(
        None, description="A group whose history the matches join; its key goes in X-Group-Key."
    )
    tv_language: Annotated[Language | None, Says(a_language)] = Field(None, description=TV_LANGUAGE)


class Walkover(Body):
    winner: PairNumber = Field(description="The pair that came: it wins the match.")


class PaperResult(Body):
    games: Annotated[
        list[f.WholeNumber],
        _documented(minItems=2, maxItems=2),
        Says(f.listed(None, None, f.whole_number)),
    ] = Field(
        description="The games of each pair of the match, in the match's order, as the table "
        "kept them on paper: one pair at the rubber's target (4) or more, the other on fewer."
    )


# Answers --------------------------------------------------------------------------------------


class TournamentPair(BaseModel):
    number: Annotated[int, Field(ge=1)]
    name: str | None
    players: Annotated[list[str], Field(min_length=2, max_length=2)]
    withdrawn: bool = False


class Match(BaseModel):
    table: Annotated[int, Field(ge=1)]
    pairs: Annotated[list[int | None], Field(min_length=2, max_length=2)]
    rubbers: list[str]
    wins: Annotated[list[int], Field(min_length=2, max_length=2)]
    games: Annotated[list[int], Field(min_length=2, max_length=2)] = f.OMITTED
    winner: int | None
    walkover: bool
    stage: str = f.OMITTED
    group: str | None = f.OMITTED


class Round(BaseModel):
    number: Annotated[int, Field(ge=1)]
    matches: list[Match]


class StandingRow(BaseModel):
    rank: Annotated[int, Field(ge=1)]
    pair: Annotated[int, Field(ge=1)]
    played: f.Count
    won: f.Count
    lost: f.Count
    games_won: f.Count
    games_lost: f.Count
    buchholz: int | None
    group: str | None = f.OMITTED


class TableLink(BaseModel):
    """A table's one link for the evening: the rubber it plays now, whichever it is."""

    table: Annotated[int, Field(ge=1)]
    edit_url: f.Url


class TournamentState(BaseModel):
    id: str
    url: f.Url = Field(description="The tournament's page, read-only.")
    name: str
    format: str
    best_of: int
    rules: Rules
    version: Annotated[int, Field(ge=1, le=VERSION_MAX)]
    finished: bool
    winner: int | None
    current_round: int | None = Field(
        description="The lowest round with a match undecided; null while there is none."
    )
    pairs: list[TournamentPair]
    rounds: list[Round]
    standings: list[StandingRow]
    group: str | None = f.OMITTED
    tv_url: f.Url = Field(
        description="The short address of the tournament's TV, /tv/<code>, for a TV's remote to "
        "type or a phone to open from its QR code."
    )
    tv_language: Language | None = Field(description=TV_LANGUAGE)
    tables: list[TableLink] | None = Field(
        default=f.OMITTED,
        description="Read with the tournament's key only: each table's link for the evening.",
    )


class CreatedTournament(TournamentState):
    """The new tournament, with its edit key and edit link (given only here)."""

    edit_key: Annotated[str, Field(min_length=1)]
    edit_url: f.Url = Field(description="Opened in a browser, lets that device run the tournament.")
