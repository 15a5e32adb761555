"""The bodies of a rubber's operations and its answers (API.md, "Endpoints", "Rubber state")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper import engine
from scorekeeper.api.errors import ApiError, Problem
from scorekeeper.api.schemas import fields as f
from scorekeeper.api.schemas.reading import Body, Says
from scorekeeper.engine.rules import MAX_GAMES_TO_WIN, MIN_GAMES_TO_WIN

DEFAULT_TEAMS = ["Nós", "Eles"]

# Rules ----------------------------------------------------------------------------------------

# The engine knows what each setting takes; these types say the same to the document.
GamesToWin = Annotated[int, Field(ge=MIN_GAMES_TO_WIN, le=MAX_GAMES_TO_WIN)]
# The engine's values, made into Literals at run time, which mypy cannot follow: it is told
# their type.
if TYPE_CHECKING:
    PresetName = str
    TieRule = str
    BandeiraRule = str
    RevokeRule = str
    ManilhaRule = str
    DirectionRule = str
    ManilhaGiven = str | int
    OutcomeName = str
else:
    PresetName = Literal[tuple(engine.PRESETS)]
    TieRule = Literal[f.values(engine.Tie)]
    BandeiraRule = Literal[f.values(engine.Bandeira)]
    RevokeRule = Literal[f.values(engine.Revoke)]
    ManilhaRule = Literal[f.values(engine.Manilha)]
    DirectionRule = Literal[f.values(engine.Direction)]
    ManilhaGiven = Literal[(*f.values(engine.Manilha), 7, 10)]
    OutcomeName = Literal[f.values(engine.Outcome)]


class RulesInput(Body):
    """Every field optional: the preset (default portugal) fills the rest."""

    preset: PresetName = f.OMITTED
    games_to_win: GamesToWin = f.OMITTED
    tie: TieRule = f.OMITTED
    bandeira: BandeiraRule = f.OMITTED
    bandeira_wins_rubber: bool = f.OMITTED
    revoke: RevokeRule = f.OMITTED
    manilha: ManilhaGiven = f.OMITTED  # 7 and "7" are one manilha
    queen_over_jack: bool = f.OMITTED
    direction: DirectionRule = f.OMITTED
    melar: bool = f.OMITTED

    def to_engine(self) -> engine.RuleSet:
        return engine.RuleSet.from_dict(self.model_dump(exclude_unset=True))


class Rules(BaseModel):
    """A rubber's rules, every field present."""

    preset: PresetName
    games_to_win: GamesToWin
    tie: TieRule
    bandeira: BandeiraRule
    bandeira_wins_rubber: bool
    revoke: RevokeRule
    manilha: ManilhaRule
    queen_over_jack: bool
    direction: DirectionRule
    melar: bool


GivenRules = Annotated[RulesInput, Says(f.rules)]


# Requests -------------------------------------------------------------------------------------


class NewRubber(Body):
    teams: f.TeamNames = DEFAULT_TEAMS
    players: f.PlayerNames | None = None
    first_dealer: f.Seat = 0
    rules: GivenRules = Field(default_factory=RulesInput)
    group: f.Token | None = Field(
        None, description="A group to start the rubber in; its key goes in X-Group-Key."
    )


class HandForm(Body):
    """One of the four ways to record a hand, each with the keys it takes."""

    form: ClassVar[str]
    if TYPE_CHECKING:  # each form declares these itself, where its keys' order is the document's
        trump: str | None
        key: str | None
        version: int | None

    @classmethod
    def refuse_extra(cls, name: str) -> ApiError:
        message = _("%(field)s does not go with %(form)s.", field=name, form=cls.form)
        return ApiError(400, message, name, "hand_form")


class ByPoints(HandForm):
    model_config = ConfigDict(title="Played, by its points")
    form = "points"

    points: f.Points
    all_tricks: f.Boolean = Field(f.OMITTED, description="One team took all 10 tricks.")
    trump: f.Trump = f.OMITTED
    key: f.Key = f.OMITTED
    version: f.Version = f.OMITTED


class ByRevoke(HandForm):
    model_config = ConfigDict(title="Stopped by a revoke")
    form = "revoke"

    revoke: f.Team = Field(description="The team that revoked (renúncia).")
    trump: f.Trump = f.OMITTED
    key: f.Key = f.OMITTED
    version: f.Version = f.OMITTED


class BySpoiled(HandForm):
    model_config = ConfigDict(title="Spoiled deal (melar)")
    form = "spoiled"

    spoiled: f.Spoiled
    trump: f.Trump = f.OMITTED
    key: f.Key = f.OMITTED
    version: f.Version = f.OMITTED


def _trump_required(schema: dict[str, Any]) -> None:
    schema["required"] = [*schema.get("required", ()), "trump"]


class ByCards(HandForm):
    """The cards, scored by the server; points given beside them must agree.

    A revoke may end the record at the trick that proves it."""

    # The trump is required, but checked once the cards' own shape is (HandInput.read).
    model_config = ConfigDict(title="Played, by its cards", json_schema_extra=_trump_required)
    form = "tricks"

    points: f.Points = f.OMITTED
    all_tricks: f.Boolean = Field(f.OMITTED, description="One team took all 10 tricks.")
    trump: f.Trump = f.OMITTED
    tricks: Annotated[f.Tricks, f.played_cards(1, f.MAX_TRICKS, (1, f.SEATS))]
    key: f.Key = f.OMITTED
    version: f.Version = f.OMITTED


class HandInput:
    """A hand body: one of the forms, told apart by the keys it holds.

    ``points`` may go with the cards, to be checked against them."""

    forms: tuple[type[HandForm], ...] = (ByPoints, ByRevoke, BySpoiled, ByCards)
    keys = frozenset(name for form in forms for name in form.model_fields)

    @classmethod
    def read(cls, body: dict[str, Any], where: str = "") -> HandForm:
        """Return the body read with its form's model, or raise the ApiError of its first problem.

        The error is the :class:`ApiError` of the body's first problem, its field named within
        ``where``."""
        try:
            form = cls._form(body)
            given = form.read(body)
            if isinstance(given, ByCards) and given.trump is None:
                raise ApiError(
                    400, _("The cards need the trump they were played with."), "trump", "trump"
                )
        except ApiError as error:
            raise (error.placed(where) if where else error) from None
        return given

    @classmethod
    def _form(cls, body: dict[str, Any]) -> type[HandForm]:
        unknown = sorted(set(body) - cls.keys)
        if unknown:
            raise Body.refuse_extra(unknown[0])
        given: list[str] = [form for form in ("points", "revoke", "spoiled") if form in body]
        if "tricks" in body:
            given = ["tricks", *(form for form in given if form != "points")]
        if len(given) != 1:
            message = (
                _("A hand needs one of points, revoke, spoiled or tricks.")
                if not given
                else _("A hand is recorded by only one of points, revoke, spoiled or tricks.")
            )
            raise ApiError(400, message, None, "hand_form")
        return next(form for form in cls.forms if form.form == given[0])


class Undo(Body):
    key: f.Key = f.OMITTED
    version: f.Version = f.OMITTED


class VerifyInput(Body):
    trump: f.Trump
    leader: f.Seat = Field(description="The seat that leads the first trick.")
    tricks: f.Tricks = Field(description="1 to 10 tricks in play order, each from its leader.")
    rules: GivenRules = Field(default_factory=RulesInput)
    trump_card: f.Card = Field(f.OMITTED, description="The dealer's turned card.")


# Answers --------------------------------------------------------------------------------------


class Pending(BaseModel):
    extra_games: f.Count
    multiplier: Annotated[int, Field(ge=1)]


class Hand(BaseModel):
    number: f.HandNumber
    kind: f.HandKindName
    points: f.Pair | None
    all_tricks: bool
    team: f.TeamOrNobody = Field(description="The offending team of a revoke.")
    games: f.Pair = Field(description="What the hand added to each team.")
    dealer: f.Seat
    trump: f.TrumpLetter | None
    leader: f.Seat
    games_after: f.Pair
    winner: f.TeamOrNobody = Field(description="The team that won the hand.")
    bandeira: bool
    reasons: list[str]
    summary: str
    tricks: list[list[str]] = Field(f.OMITTED, description="Only on a hand recorded by its cards.")
    edited_at: f.EditedAt = None


class MatchPlace(BaseModel):
    id: str
    round: Annotated[int, Field(ge=1)]
    table: Annotated[int, Field(ge=1)]


class RubberState(BaseModel):
    id: str
    url: f.Url = Field(description="The rubber's page, read-only.")
    teams: Annotated[list[str], Field(min_length=2, max_length=2)]
    players: Annotated[list[str], Field(min_length=4, max_length=4)] | None
    rules: Rules
    games: f.Pair
    finished: bool
    winner: f.TeamOrNobody
    outcome: OutcomeName | None
    pending: Pending
    dealer: f.Seat
    leader: f.Seat
    shuffler: f.Seat
    cutter: f.Seat
    first_dealer: f.Seat
    version: f.Version
    group: str | None = Field(description="The rubber's group.")
    tournament: MatchPlace | None = Field(
        f.OMITTED, description="A tournament's match: where it is played."
    )
    paper_games: Annotated[list[int], Field(min_length=2, max_length=2)] | None = Field(
        f.OMITTED,
        description="A tournament's rubber its table kept on paper: its games, given with no "
        "hand (POST .../matches/<table>/result); null for every other.",
    )
    hands: list[Hand]


class CreatedRubber(RubberState):
    """The new rubber, with its edit key and edit link (given only here)."""

    edit_key: Annotated[str, Field(min_length=1)]
    edit_url: f.Url = Field(description="Opened in a browser, lets that device edit the rubber.")


class Revoke(BaseModel):
    seat: f.Seat
    team: Literal[0, 1]
    trick: Annotated[int, Field(ge=1, le=f.MAX_TRICKS)]
    suit: f.TrumpLetter
    proven_in: Annotated[int, Field(ge=1, le=f.MAX_TRICKS)]


class Trick(BaseModel):
    number: f.HandNumber
    leader: f.Seat
    winner: f.Seat
    points: f.Count
    cards: list[str]


class VerifyResult(BaseModel):
    """What a record shows.

    Invalid and repeated cards, tricks of the wrong size are listed in ``errors``."""

    tricks: list[Trick]
    points: f.Pair
    tricks_won: f.Pair
    complete: bool
    revokes: list[Revoke]
    errors: list[Problem]
    trump: f.TrumpLetter
    leader: f.Seat
    all_tricks: f.TeamOrNobody
    first_revoke: Revoke | None
    next_leader: f.Seat | None
