"""A hand's body turned into the engine's hand.

Points, a revoke, a spoiled deal, or the cards, which the verifier scores.

With a proven revoke the hand is a revoke by the team of the first one (the hand stops there,
so the record may end at the trick that proves it); otherwise the record must be complete, all
10 tricks without problems, and agree with any points given beside it.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.api.errors import ApiError
from scorekeeper.api.schemas.rubbers import ByCards, ByPoints, ByRevoke, HandForm
from scorekeeper.web import wording

Stored = list[list[str]] | None
"""The tricks a hand stores (a hand given by its cards), or None."""


def to_engine(given: HandForm, rules: engine.RuleSet, leader: int) -> tuple[engine.Hand, Stored]:
    """The engine's hand, and the tricks to store; ``leader`` led the hand's first trick."""
    try:
        if isinstance(given, ByCards):
            return _from_cards(given, rules, leader)
        if isinstance(given, ByPoints):
            points = given.points
            second = points[1] if len(points) > 1 else None
            hand = engine.Hand.played(points[0], second, all_tricks=bool(given.all_tricks))
            return hand, None
        if isinstance(given, ByRevoke):
            return engine.Hand.revoke(given.revoke), None
        return engine.Hand.spoiled(), None
    except engine.ScoringError as error:
        field = given.form
        value = getattr(error, "value", None)
        if isinstance(value, tuple) and sum(value) == engine.scoring.TOTAL_POINTS:
            field = "all_tricks"  # the points add up: only all_tricks can be wrong
        raise ApiError(422, wording.engine_error(error), field, error.code) from None


def problem_json(problem: engine.RecordProblem) -> dict[str, Any]:
    return {
        "trick": problem.trick,
        "card": problem.card,
        "error": wording.record_problem(problem),
        "code": problem.code,
    }


def _from_cards(given: ByCards, rules: engine.RuleSet, leader: int) -> tuple[engine.Hand, Stored]:
    record = engine.verify_record(engine.Suit(given.trump), leader, given.tricks, rules)
    if record.errors:
        problems = [problem_json(problem) for problem in record.errors]
        raise ApiError(422, problems[0]["error"], "tricks", "record", errors=problems)
    stored = [[str(card) for card in trick.cards] for trick in record.tricks]
    revoke = record.first_revoke
    if revoke is not None:
        if given.points is not None or given.all_tricks:
            raise ApiError(
                422,
                _(
                    "The cards prove a revoke by team %(team)s in trick %(trick)s: "
                    "a revoke has no card points.",
                    team=revoke.team,
                    trick=revoke.trick,
                ),
                "points" if given.points is not None else "all_tricks",
                "cards_disagree",
            )
        return engine.Hand.revoke(revoke.team), stored
    if not record.complete:
        raise ApiError(
            422,
            _(
                "The record has %(count)s tricks: a hand is scored from all 10.",
                count=len(record.tricks),
            ),
            "tricks",
            "incomplete",
        )
    points = record.points
    if given.points is not None and tuple(given.points) != points:
        raise ApiError(
            422,
            _(
                "The cards give %(first)s-%(second)s, not %(given_first)s-%(given_second)s.",
                first=points[0],
                second=points[1],
                given_first=given.points[0],
                given_second=given.points[1],
            ),
            "points",
            "cards_disagree",
        )
    all_tricks = record.all_tricks is not None
    if given.all_tricks is not None and given.all_tricks != all_tricks:
        message = (
            _("The cards show team %(team)s taking all 10 tricks.", team=record.all_tricks)
            if all_tricks
            else _("The cards do not show one team taking all 10 tricks.")
        )
        raise ApiError(422, message, "all_tricks", "cards_disagree")
    return engine.Hand.played(*points, all_tricks=all_tricks), stored
