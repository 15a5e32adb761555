"""The engine's codes: enums whose values are the strings the database and the API hold."""

from __future__ import annotations

import enum

import pytest

from scorekeeper.engine import (
    Hand,
    HandNotAllowedError,
    HandReason,
    ImpossiblePointsError,
    IncompleteRecordError,
    PointsFault,
    ProblemCode,
    RecordProblem,
    RubberFinishedError,
    RuleSet,
    ScoringError,
    TooManyHandsError,
    UnknownTeamError,
    replay,
    verify_record,
)

STORED = {
    HandReason: [
        "one_game",
        "capote",
        "bandeira",
        "tie",
        "tie_carry",
        "tie_double",
        "tie_void",
        "tie_carried",
        "tie_doubled",
        "revoke_penalty",
        "revoke_minus_two",
        "revoke_loses_rubber",
        "spoiled",
        "bandeira_wins_rubber",
        "rubber_won",
    ],
    ProblemCode: [
        "unknown_card",
        "not_in_deck",
        "repeated_card",
        "trick_size",
        "too_many_tricks",
        "trump_card_suit",
        "trump_card_in_deck",
        "trump_card_seat",
    ],
    PointsFault: ["value", "range", "one", "sum", "tie", "all_tricks"],
}
"""The strings each code had before it was an enum: changing one changes stored rows and
the API's answers."""


@pytest.mark.parametrize("codes", list(STORED), ids=lambda codes: codes.__name__)
def test_the_codes_keep_their_strings(codes: type[enum.StrEnum]) -> None:
    assert [member.value for member in codes] == STORED[codes]
    for member in codes:
        assert member == member.value and str(member) == member.value


def test_a_hand_result_gives_its_reasons_as_members() -> None:
    result = replay(RuleSet(), [Hand.played(95), Hand.played(95)]).hands[-1]
    assert result.reasons == (HandReason.CAPOTE, HandReason.RUBBER_WON)
    assert all(type(reason) is HandReason for reason in result.reasons)
    assert result.rubber_winner == 0


def test_a_problem_code_given_as_text_is_read_as_its_member() -> None:
    problem = RecordProblem("unknown_card", 1, "XX", "")  # type: ignore[arg-type]
    assert problem.code is ProblemCode.UNKNOWN_CARD
    with pytest.raises(ValueError):
        RecordProblem("no_such_problem", 1, "XX", "")  # type: ignore[arg-type]
    record = verify_record("H", 1, [["XX"]], RuleSet())
    assert [type(problem.code) for problem in record.errors] == [ProblemCode, ProblemCode]


def test_a_points_fault_given_as_text_is_read_as_its_member() -> None:
    assert ImpossiblePointsError(1, "", "one").reason is PointsFault.ONE
    assert ImpossiblePointsError("x", "").reason is PointsFault.VALUE
    with pytest.raises(ValueError):
        ImpossiblePointsError(1, "", "no_such_fault")


@pytest.mark.parametrize(
    ("error", "code", "value"),
    [
        (ImpossiblePointsError((70, 60), "", PointsFault.SUM), "impossible_points", (70, 60)),
        (UnknownTeamError(2), "unknown_team", 2),
        (RubberFinishedError(5), "rubber_finished", 5),
        (HandNotAllowedError(None, ""), "hand_not_allowed", None),
        (TooManyHandsError(201), "too_many_hands", 201),
        (ScoringError("x"), "scoring", None),
    ],
)
def test_every_scoring_error_has_its_code_and_value(
    error: ScoringError, code: str, value: object
) -> None:
    assert error.code == code
    assert error.value == value


def test_an_incomplete_record_error_holds_the_record() -> None:
    record = verify_record("H", 1, [], RuleSet())
    error = IncompleteRecordError(record)
    assert (error.code, error.value) == ("incomplete", record)
    assert str(error) == "The record has 0 of the 10 tricks and proves no revoke."
