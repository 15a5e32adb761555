"""The JSON API of API.md: rubbers, their hands, and the trick-record verifier.

A body is read with its model (``schemas/``): 400 when it is not one of the documented shapes
(not JSON, a field of the wrong JSON type, a list of the wrong length, no way of recording the
hand or two at once, a key the request does not take); 422 when the shape is right but a value
is refused (points no hand can make, a team or seat that does not exist, a blank or too long
name, a rule value, a trick record with problems or one that disagrees with the points sent
beside it). Then 403 without the edit key, 404 for an unknown rubber or hand, and 409 when the
rubber's state refuses the write: it is finished, the idempotency ``key`` was used for another
body, the ``version`` is stale, the edit would end the rubber early, or there is no hand to
undo.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from flask import Response, jsonify, request
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.api import access
from scorekeeper.api.errors import ApiError
from scorekeeper.api.hand_bodies import problem_json, to_engine
from scorekeeper.api.operations import (
    EDIT_KEY,
    HAND_WRITE_REFUSED,
    REFUSED,
    UNKNOWN,
    ApiBlueprint,
    creation_refused,
    refusals,
)
from scorekeeper.api.schemas.reading import json_body
from scorekeeper.api.schemas.rubbers import (
    CreatedRubber,
    HandInput,
    NewRubber,
    RubberState,
    Undo,
    VerifyInput,
    VerifyResult,
)
from scorekeeper.api.states import created, rubber_json
from scorekeeper.api.writes import Answering
from scorekeeper.rubbers import recording, store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording

bp = ApiBlueprint("rubbers", __name__)

CREATED = "The new rubber, with its edit key and edit link (given only here)."
VERIFIED = (
    "What the record shows; invalid, repeated cards and tricks of the wrong size are listed in "
    "errors."
)


@bp.operation("POST /rubbers", "createRubber")
@bp.takes(NewRubber)
@bp.answers(201, CREATED, CreatedRubber, creation_refused(REFUSED))
def create_rubber() -> tuple[Response, int, dict[str, str]]:
    """Start a rubber (partida)."""
    given = NewRubber.read(json_body(empty=True))
    group_id = access.group_to_join(given.group, given.players)
    rubber, edit_key = store.create_rubber(
        teams=(given.teams[0], given.teams[1]),
        players=given.players,
        first_dealer=given.first_dealer,
        rules=given.rules.to_engine(),
        group_id=group_id,
    )
    state = rubber_json(rubber, rubber.state())
    return created(state, edit_key, "rubbers.grant", "api.rubbers.get_rubber", rubber_id=rubber.id)


@bp.operation("GET /rubbers/<rubber_id>", "getRubber", conditional=True)
@bp.answers(200, "The rubber.", RubberState, {404: UNKNOWN})
def get_rubber(rubber_id: str) -> Response:
    """A rubber's state."""
    rubber = access.rubber(rubber_id)
    response = jsonify(rubber_json(rubber, rubber.state()))
    # API.md, "Following a rubber live": an ETag of the state, and 304 while it is unchanged.
    # Weak: the same state may be sent gzipped or not; the state is said in the reader's
    # language (each hand's summary), hence the Vary.
    response.add_etag(weak=True)
    response.headers["Cache-Control"] = "no-cache"
    response.vary.add("Accept-Language")
    response.make_conditional(request)  # a 304 in place when If-None-Match still holds
    return response


def _engine_refusal(error: engine.ScoringError) -> ApiError:
    """A refusal of the engine as the API's error: 409 for a rubber over, else 422."""
    message = wording.engine_error(error)
    if isinstance(error, engine.RubberFinishedError | engine.TooManyHandsError):
        return ApiError(409, message, None, error.code)
    spoiled = (
        isinstance(error, engine.HandNotAllowedError) and error.value is engine.HandKind.SPOILED
    )
    return ApiError(422, message, "spoiled" if spoiled else None, error.code)


ANSWERING = Answering(
    respond=rubber_json,
    conflict=wording.conflict,
    unknown=access.no_rubber,
    refused=(engine.ScoringError,),
    refusal=_engine_refusal,
)


@bp.operation("POST /rubbers/<rubber_id>/hands", "addHand")
@bp.takes(HandInput, security=EDIT_KEY)
@bp.answers(201, "The rubber with the new hand.", RubberState, HAND_WRITE_REFUSED)
def add_hand(rubber_id: str) -> tuple[Response, int]:
    """Record the next hand: by its points, a revoke, a spoiled deal or its cards."""
    access.editable(rubber_id)
    body = json_body()
    given = HandInput.read(body)

    def hand_of(tally: engine.Tally) -> recording.NewHand:
        if tally.finished:
            raise engine.RubberFinishedError(tally.hand_count + 1)
        hand, tricks = to_engine(given, tally.rules, tally.leader)
        return recording.NewHand(hand, given.trump, tricks)

    return ANSWERING.answer(partial(recording.add_hand, rubber_id, hand_of), given, body, 201)


@bp.operation("PUT /rubbers/<rubber_id>/hands/<int:number>", "replaceHand")
@bp.takes(HandInput, security=EDIT_KEY)
@bp.answers(200, "The rubber with the hand replaced.", RubberState, HAND_WRITE_REFUSED)
def replace_hand(rubber_id: str, number: int) -> tuple[Response, int]:
    """Replace hand `number` and score every later hand again."""
    rubber = access.editable(rubber_id)
    if not 1 <= number <= len(rubber.hands):
        raise _no_hand(number)
    body = json_body()
    given = HandInput.read(body)

    def change(rubber: Rubber) -> engine.RubberState:
        state = rubber.state()
        if number > len(state.hands):
            raise _no_hand(number)
        hand, tricks = to_engine(given, state.rules, state.hands[number - 1].leader)
        return store.replace_hand(number, hand, given.trump, tricks)(rubber)

    return ANSWERING.answer(partial(store.write, rubber_id, change), given, body, 200)


def _no_hand(number: int) -> ApiError:
    return ApiError(404, _("This rubber has no hand %(number)s.", number=number), None, "no_hand")


@bp.operation("DELETE /rubbers/<rubber_id>/hands/last", "undoHand")
@bp.takes(Undo | None, security=EDIT_KEY)
@bp.answers(200, "The rubber without its last hand.", RubberState, HAND_WRITE_REFUSED)
def undo_hand(rubber_id: str) -> tuple[Response, int]:
    """Undo the last hand."""
    access.editable(rubber_id)
    body = json_body(empty=True)
    given = Undo.read(body)
    return ANSWERING.answer(partial(store.write, rubber_id, store.undo_last), given, body, 200)


def _revoke_json(revoke: engine.ProvenRevoke) -> dict[str, Any]:
    return {
        "seat": revoke.seat,
        "team": revoke.team,
        "trick": revoke.trick,
        "suit": revoke.suit.value,
        "proven_in": revoke.proven_in,
    }


@bp.operation("POST /verify", "verifyRecord")
@bp.takes(VerifyInput)
@bp.answers(200, VERIFIED, VerifyResult, refusals())
def verify() -> Response:
    """Check a record of tricks: winners, points, revokes and problems."""
    given = VerifyInput.read(json_body())
    record = engine.verify_record(
        engine.Suit(given.trump),
        given.leader,
        given.tricks,
        given.rules.to_engine(),
        trump_card=given.trump_card,
    )
    first_revoke = record.first_revoke
    return jsonify(
        {
            "tricks": [
                {
                    "number": trick.number,
                    "leader": trick.leader,
                    "winner": trick.winner,
                    "points": trick.points,
                    "cards": [str(card) for card in trick.cards],
                }
                for trick in record.tricks
            ],
            "points": list(record.points),
            "tricks_won": list(record.tricks_won),
            "complete": record.complete,
            "revokes": [_revoke_json(revoke) for revoke in record.revokes],
            "errors": [problem_json(problem) for problem in record.errors],
            "trump": record.trump.value,
            "leader": record.first_leader,
            "all_tricks": record.all_tricks,
            "first_revoke": _revoke_json(first_revoke) if first_revoke is not None else None,
            "next_leader": record.next_leader,
        }
    )
