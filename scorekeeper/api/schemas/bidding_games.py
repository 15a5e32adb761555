"""The bodies of bidding Sueca's operations and its answers (API.md, "Bidding Sueca").

The values are the rubbers' types (``fields.py``). A table's size, a seat, a target, a bid and
its points are the engine's to refuse, in its words (422): their types only document the
limits. Where this part of the API has always answered otherwise than the rubbers' it still
does: a refusal of a body's shape has the code ``type``, an unknown or missing field included;
a trump that is not a suit's letter is 422 whatever its JSON type; a key that is not text is
told how long a key is."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from flask_babel import gettext as _
from pydantic import BaseModel, ConfigDict, Field

from scorekeeper.api.errors import ApiError
from scorekeeper.api.schemas import fields as f
from scorekeeper.api.schemas.reading import Body, Refused, Says
from scorekeeper.engine import bidding as rules
from scorekeeper.web.columns import VERSION_MAX, WRITE_KEY_LENGTH

LAST_SEAT = rules.MAX_PLAYERS - 1


def _documented(low: int, high: int) -> Any:
    """Limits said to the document, checked by the engine."""
    return Field(json_schema_extra={"minimum": low, "maximum": high})


def one_of_its_values(problem: Refused) -> ApiError:
    message = _("%(field)s is not one of the values it takes.", field=problem.label)
    return ApiError(400, message, problem.label, "type")


def trump(problem: Refused) -> ApiError:
    """Anything but a suit's letter is a trump the game refuses (422), whatever its JSON type."""
    return ApiError(422, _("The trump must be one of C, D, H or S."), problem.label, "trump")


def key(problem: Refused) -> ApiError:
    """A key that is not 1 to 100 characters of text, whatever its JSON type."""
    if (refusal := f.control_characters(problem)) is not None:
        return refusal
    message = _("The key must have 1 to %(count)s characters.", count=WRITE_KEY_LENGTH)
    return ApiError(400, message, problem.label, "type")


# Requests -------------------------------------------------------------------------------------

Seat = Annotated[int, _documented(0, LAST_SEAT), Says(f.whole_number)]
"""A seat at a table of 4 to 6: one that is not at this table is the engine's to refuse."""
Target = Annotated[int, _documented(rules.MIN_TARGET, rules.MAX_TARGET), Says(f.whole_number)]
Bid = Annotated[int, _documented(rules.MIN_BID, rules.MAX_BID), Says(f.whole_number)]
CardPoints = Annotated[int, _documented(0, rules.TOTAL_POINTS), Says(f.whole_number)]
Players = Annotated[
    list[f.PlayerName],
    Field(
        json_schema_extra={"minItems": rules.MIN_PLAYERS, "maxItems": rules.MAX_PLAYERS},
        description="By seat, in play order; a name may be blank.",
    ),
    Says(f.listed(None, None, f.name(blank=True))),
]
"""The engine refuses a table of another size, and a name twice (engine.names.player_key)."""
Passed = Annotated[Literal[True], Says(one_of_its_values)]
Trump = Annotated[f.Trump, Says(trump)]
Key = Annotated[f.Key, Says(key)]
Called = Annotated[
    f.Card,
    Field(
        description="The card the bidder called, like AH.", json_schema_extra={"examples": ["AH"]}
    ),
]
Version = Annotated[
    f.Version, Field(description="The game's version the client last saw: 409 if it changed.")
]


class BiddingBody(Body):
    """A bidding body: its refusals of shape all have the code ``type``."""

    @classmethod
    def refuse_extra(cls, name: str) -> ApiError:
        message = _("%(field)s is not a field of this request.", field=name)
        return ApiError(400, message, name, "type")

    @classmethod
    def refuse_missing(cls, problem: Refused) -> ApiError:
        message = _("%(field)s is missing.", field=problem.label)
        return ApiError(400, message, problem.label, "type")


class BiddingNewGame(BiddingBody):
    """A new game: the players by seat in play order (4 to 6; a name may be blank)."""

    players: Players
    target: Target = rules.DEFAULT_TARGET
    first_dealer: Seat = 0
    group: f.Token | None = Field(
        None,
        description="The group the game joins, with the group's key in X-Group-Key (an id of any"
        " other shape names no group: 404, as for a rubber).",
    )


class BiddingWrite(BiddingBody):
    """What any write may carry: an idempotency key and the version last seen."""

    key: Key | None = None
    version: Version | None = None


class BiddingHandForm(BiddingBody):
    """One of the two ways to record a hand, each with the keys it takes."""

    if TYPE_CHECKING:  # each form declares these itself, where its keys' order is the document's
        key: str | None
        version: int | None


class BiddingBid(BiddingHandForm):
    """A hand played for a bid: ``partner`` equal to ``bidder`` plays alone.

    ``points`` are the card points the bidder's side took, or ``made`` says only whether the bid
    was made."""

    model_config = ConfigDict(title="Played for a bid")

    bidder: Seat
    bid: Bid
    partner: Seat
    points: CardPoints | None = None
    made: f.Boolean | None = None
    trump: Trump | None = None
    called: Called | None = None
    key: Key | None = None
    version: Version | None = None

    def to_engine(self) -> rules.BidHand:
        return rules.BidHand.played(
            self.bidder, self.bid, self.partner, points=self.points, made=self.made
        )


class BiddingPassed(BiddingHandForm):
    """A hand everyone passed: no score, the deal passes on."""

    model_config = ConfigDict(title="All passed")

    passed: Passed
    key: Key | None = None
    version: Version | None = None


class BiddingHandInput:
    """A hand body: a bid played, or everyone passed (a body with ``passed``)."""

    forms: ClassVar[tuple[type[BiddingHandForm], ...]] = (BiddingBid, BiddingPassed)

    @classmethod
    def read(cls, body: dict[str, Any]) -> BiddingBid | BiddingPassed:
        """Return the body read with its form's model, or raise the ApiError of its first problem."""
        if "passed" in body:
            return BiddingPassed.read(body)
        return BiddingBid.read(body)


# Answers --------------------------------------------------------------------------------------

AnySeat = Annotated[int, Field(ge=0, le=LAST_SEAT)]
Scores = list[int]
# Made a Literal at run time, which mypy cannot follow: it is told its type.
if TYPE_CHECKING:
    HandKindName = str
else:
    HandKindName = Literal[f.values(rules.HandKind)]


class BiddingHand(BaseModel):
    number: f.HandNumber
    kind: HandKindName
    dealer: AnySeat | None
    opener: AnySeat | None = f.OMITTED
    bidder: AnySeat | None
    bid: Annotated[int, Field(ge=rules.MIN_BID, le=rules.MAX_BID)] | None
    partner: AnySeat | None
    alone: bool = f.OMITTED
    points: Annotated[int, Field(ge=0, le=rules.TOTAL_POINTS)] | None
    made: bool | None
    scores: Scores = Field(f.OMITTED, description="What this hand added to each seat's score.")
    scores_after: Scores = f.OMITTED
    trump: f.TrumpLetter | None = f.OMITTED
    called: str | None = f.OMITTED
    edited_at: f.EditedAt = None


class BiddingState(BaseModel):
    id: str
    url: f.Url = Field(description="The game's page, read-only.")
    players: Annotated[list[str], Field(min_length=rules.MIN_PLAYERS, max_length=rules.MAX_PLAYERS)]
    target: int
    deck: Literal[40, 48]
    cards_each: Literal[10, 8]
    first_dealer: AnySeat = f.OMITTED
    scores: Scores
    dealer: AnySeat
    opener: AnySeat = f.OMITTED
    leader: AnySeat | None = f.OMITTED
    finished: bool
    winner: AnySeat | None
    version: Annotated[int, Field(ge=1, le=VERSION_MAX)]
    group: str | None = Field(f.OMITTED, description="The game's group.")
    hands: list[BiddingHand]


class BiddingCreated(BiddingState):
    """The new game, with its edit key and edit link (given only here)."""

    edit_key: Annotated[str, Field(min_length=1)]
    edit_url: f.Url = Field(description="Opened in a browser, lets that device edit the game.")


class BiddingPlayerStats(BaseModel):
    name: str
    games: f.Count
    won: f.Count
    bids: f.Count
    made: f.Count
    failed: f.Count
    average_bid: float | None


class BiddingGroupStats(BaseModel):
    games: f.Count = Field(description="The group's finished bidding games.")
    in_play: f.Count
    players: list[BiddingPlayerStats]
