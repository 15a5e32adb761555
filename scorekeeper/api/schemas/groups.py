"""The bodies of a group's operations and its answers (API.md, "Review"), the export file included.

The import reads it with these models, and the hands in it with the hand's own."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, SkipValidation

from scorekeeper import engine
from scorekeeper.api.schemas import fields as f
from scorekeeper.api.schemas.reading import Body, Part, Says
from scorekeeper.api.schemas.rubbers import DEFAULT_TEAMS, GivenRules, RubberState

# Requests -------------------------------------------------------------------------------------


class NewGroup(Body):
    name: f.TeamName


class MoveRubber(Body):
    rubber: f.Token


class ExportedHand(Part):
    """A hand of an exported rubber state: its input is read again and scored again by the engine.

    Its figures are ignored. Which fields are read depends on ``kind``; they are checked as the body
    of a hand posted with them would be."""

    kind: f.HandKind
    points: SkipValidation[f.Points | None] = None
    all_tricks: SkipValidation[bool] = False
    team: SkipValidation[f.TeamOrNobody] = None
    trump: SkipValidation[f.Trump | None] = None
    tricks: SkipValidation[f.Tricks] = f.OMITTED
    dealer: SkipValidation[f.Seat] = f.OMITTED

    def hand_body(self) -> dict[str, Any]:
        """The hand's body, as it would be posted."""
        body: dict[str, Any] = {}
        if self.tricks is not None:
            body["tricks"] = self.tricks
        elif self.kind in ("played", "tie"):
            body["points"] = self.points
            body["all_tricks"] = self.all_tricks
        elif self.kind == "revoke":
            body["revoke"] = self.team
        else:
            body["spoiled"] = True
        if self.trump is not None:
            body["trump"] = self.trump
        return body


class DealtBy(Part):
    """The first hand's dealer, which names the first dealer of a rubber that does not."""

    dealer: f.Seat


class ImportedRubber(Part):
    """A rubber state of an export file, as the import reads it (its hands one by one)."""

    id: f.Origin = f.OMITTED
    origin: f.Origin = Field(f.OMITTED, description="The rubber first exported; else its id.")
    teams: f.TeamNames = DEFAULT_TEAMS
    players: f.PlayerNames | None = None
    hands: Annotated[
        list[SkipValidation[ExportedHand]],
        Field(max_length=engine.scoring.MAX_HANDS),
        Says(f.listed(0, engine.scoring.MAX_HANDS, None)),
    ] = []
    first_dealer: f.Seat | None = Field(
        None, description="Left out or null: the first hand's dealer, or seat 0."
    )
    rules: GivenRules | None = None
    created_at: f.Moment | None = None
    paper_games: Annotated[
        SkipValidation[list[Any]] | None,
        Field(description="A tournament's rubber kept on paper: its games, with no hand."),
    ] = None
    """Read by the engine (``engine.paper_result``), which says why games end no rubber."""


class GroupExport(Part):
    """The file GET export.json gives: every rubber of a group as a rubber state."""

    format: f.AnyText = f.OMITTED
    version: f.WholeNumber = 1
    group: Annotated[dict[str, Any], Says(f.an_object)] = f.OMITTED
    rubbers: Annotated[list[SkipValidation[ImportedRubber]], Says(f.listed(None, None, None))]
    """Read one by one, hands and all, by the import (each refusal names its rubber)."""
    key: f.Key = Field(
        f.OMITTED,
        description="An idempotency key: the same key with the same file answers the first "
        "answer again (the rubbers made under it, with their edit keys), also when that answer "
        "was lost; with another file, 409.",
    )


# Answers --------------------------------------------------------------------------------------


class Group(BaseModel):
    id: str
    url: f.Url
    name: str
    stats_url: f.Url
    export_url: f.Url
    rubbers: f.Count = Field(f.OMITTED, description="All the group's rubbers (GET only).")
    finished: f.Count = Field(f.OMITTED, description="Its finished rubbers (GET only).")


class CreatedGroup(Group):
    """The new group, with its edit key and edit link."""

    edit_key: Annotated[str, Field(min_length=1)]
    edit_url: f.Url


class PlayerStats(BaseModel):
    name: str
    rubbers: f.Count
    won: f.Count
    lost: f.Count
    games_won: f.Count
    games_lost: f.Count
    pentes: f.Count = Field(description="Rubbers won with the other team on 0 games.")
    pentes_taken: f.Count
    chapeus: f.Count
    chapeus_taken: f.Count
    arrepios: f.Count
    arrepios_taken: f.Count
    bandeiras: f.Count = Field(description="Hands the player's team won by bandeira.")
    card_points_per_hand: float | None
    rating: float = Field(
        description="OpenSkill (Plackett-Luce) mu - 3 sigma: what the ranking sorts by."
    )
    rating_mu: float
    rating_sigma: Annotated[float, Field(ge=0)]
    rated_rubbers: f.Count
    best_partner: str | None
    toughest_opponents: list[str]


class PairStats(BaseModel):
    players: Annotated[list[str], Field(min_length=2, max_length=2)]
    rubbers: f.Count
    won: f.Count
    games_won: f.Count
    games_lost: f.Count


class RatingModel(BaseModel):
    library: Literal["openskill"]
    model: Literal["PlackettLuce"]
    rating: Literal["mu - 3 * sigma"]


class GroupStats(BaseModel):
    """Statistics per player and per pair over the group's finished rubbers.

    Players are ranked by rating."""

    id: str
    name: str
    rubbers: f.Count = Field(description="The group's finished rubbers.")
    players: list[PlayerStats]
    pairs: list[PairStats]
    outcomes: dict[str, f.Count]
    rating: RatingModel


class ExportedState(RubberState):
    created_at: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    origin: str = Field(description="The rubber first exported.")


class GroupName(BaseModel):
    id: str
    name: str


class GroupExportFile(BaseModel):
    """GET export.json's file, which POST import takes back."""

    format: Literal["sueca-group"]
    version: Literal[1]
    group: GroupName
    exported_at: Annotated[str, Field(json_schema_extra={"format": "date-time"})]
    rubbers: list[ExportedState]


class ImportedCopy(BaseModel):
    id: str
    origin: str | None
    url: f.Url
    edit_key: str
    edit_url: f.Url


class ImportResult(BaseModel):
    """What an import created and what was there already."""

    created: f.Count
    skipped: f.Count
    rubbers: list[ImportedCopy]
    stats_url: f.Url
