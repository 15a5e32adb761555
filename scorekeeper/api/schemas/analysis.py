"""The bodies and answers of the exact analysis (API.md, "Exact analysis")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.api.errors import ApiError
from scorekeeper.api.schemas import fields as f
from scorekeeper.api.schemas.reading import Body
from scorekeeper.api.schemas.rubbers import GivenRules, RulesInput

if TYPE_CHECKING:
    Hands = list[list[str]]
else:
    Hands = Annotated[
        f.list_of(
            f.list_of(f.Card, 0, f.MAX_CARDS_PER_TRICK),
            4,
            4,
            description="Seat 0's to seat 3's cards: four hands of the same size, 1 to 10 cards.",
        ),
        f.played_cards(4, 4, (1, f.MAX_TRICKS)),
    ]


class AnalysisForm(Body):
    """One of the two things to analyse, each with the keys it takes."""

    form: ClassVar[str]


class RecordToAnalyse(AnalysisForm):
    model_config = ConfigDict(title="A complete record of tricks")
    form = "tricks"

    trump: f.Trump
    leader: f.Seat = Field(description="The seat that leads the first trick.")
    tricks: Annotated[f.Tricks, f.played_cards(f.MAX_TRICKS, f.MAX_TRICKS, (f.SEATS, f.SEATS))] = (
        Field(description="The 10 tricks in play order, each from its leader.")
    )
    rules: GivenRules = Field(default_factory=RulesInput)


class HandsToAnalyse(AnalysisForm):
    model_config = ConfigDict(title="Open hands")
    form = "hands"

    trump: f.Trump
    leader: f.Seat = Field(description="The seat that leads.")
    hands: Hands
    rules: GivenRules = Field(default_factory=RulesInput)


class AnalysisInput:
    """An analysis body: a record (``tricks``) or open hands (``hands``), never both."""

    forms: tuple[type[AnalysisForm], ...] = (RecordToAnalyse, HandsToAnalyse)
    keys = frozenset(name for form in forms for name in form.model_fields)

    @classmethod
    def read(cls, body: dict[str, Any]) -> AnalysisForm:
        unknown = sorted(set(body) - cls.keys)
        if unknown:
            raise Body.refuse_extra(unknown[0])
        given = [form for form in cls.forms if form.form in body]
        if len(given) != 1:
            message = _("An analysis needs either tricks or hands, and only one of them.")
            raise ApiError(400, message, None, "analysis_form")
        return given[0].read(body)


# Answers --------------------------------------------------------------------------------------

Status = Literal["queued", "running", "done", "failed"]


class CardAnalysis(BaseModel):
    trick: int = Field(ge=1, le=f.MAX_TRICKS)
    seat: f.Seat
    card: str
    value: f.Pair = Field(description="Each team's points with best play after this card.")
    best: f.Pair = Field(description="The best value this seat could have kept here.")
    cost: f.Count
    best_cards: list[str]


class AnalysisResult(BaseModel):
    """Each team's card points with best play by all; for a record, card by card too."""

    value: f.Pair | None = Field(
        description="From the first lead to the end; null when the budget ran out first."
    )
    complete: bool = Field(description="False when the time budget ran out: the later cards.")
    played: f.Pair = Field(f.OMITTED, description="A record's points as played.")
    cards: list[CardAnalysis] = Field(
        f.OMITTED, description="A record's cards in play order, all 40 unless time ran out."
    )
    lines: list[list[str] | None] = Field(
        f.OMITTED,
        description="A record's best line from before each card (one of them where cards tie), "
        "beside cards; null where time ran out.",
    )
    best_cards: list[str] = Field(f.OMITTED, description="Open hands: the leader's best cards.")
    status_url: f.Url = Field(f.OMITTED, description="Where the analysis stays (answers of POST).")


class AnalysisStatus(BaseModel):
    status: Status
    progress: f.Pair = Field(description="[done, total]: cards of a record, or 1 for hands.")
    status_url: f.Url
    result: AnalysisResult = Field(f.OMITTED, description="When done.")
    message: str = Field(
        f.OMITTED, description="A sentence when it failed or when time ran out before the end."
    )


class AnalysisQueued(BaseModel):
    status_url: f.Url
    status: Status
    progress: f.Pair
