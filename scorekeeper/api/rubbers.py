"""The JSON API of API.md: rubbers, their hands, and the trick-record verifier.

Every answer is JSON, errors included: ``{"error": "<a sentence in the request's language>",
"field": "<name>" | null, "code": "<a short code>"}``. The statuses follow one line:

- 400: the body is not one of the documented shapes: not JSON, not an object, a field of the
  wrong JSON type (``true`` or ``1.5`` where a whole number goes, a string for a number), a list
  of the wrong length, no way of recording the hand or two at once, or a key the request does
  not take. Unknown keys are refused, never ignored, so a misspelt ``"alltricks"`` cannot
  quietly turn a bandeira into a capote.
- 422: the shape is right but a value is refused: points no hand can make, a team or seat that
  does not exist, a blank or too long name, a rule value, a trick record with problems or one
  that disagrees with the points sent beside it.
- 403: a write without the rubber's edit key in ``X-Edit-Key``, or with a wrong one.
- 404: an unknown rubber or hand; 405, 413 as HTTP says.
- 409: the rubber's state refuses the write: it is finished, the idempotency ``key`` was used
  for another body, the ``version`` is stale, the edit would end the rubber early, or there is
  no hand to undo.

A hand given by its cards is scored from them: with a proven revoke the hand is a revoke by the
team of the first one (the hand stops there, so the record may end at the trick that proves
it); otherwise the record must be complete, all 10 tricks without problems.
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, jsonify, request, url_for
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException, InternalServerError, MethodNotAllowed, NotFound

from scorekeeper import engine
from scorekeeper.extensions import db
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Hand as HandRow
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording
from scorekeeper.web.columns import NAME_LENGTH, WRITE_KEY_LENGTH

PREFIX = "/api/v1"
"""Where the JSON API of API.md lives; every operation under it answers JSON, errors too."""

bp = Blueprint("rubbers", __name__)

EDIT_KEY_HEADER = "X-Edit-Key"
DEFAULT_TEAMS = ("Nós", "Eles")
SEATS = 4
TRUMPS = tuple(suit.value for suit in engine.Suit)
MAX_TRICKS = 10
MAX_CARDS_PER_TRICK = 40
"""A trick of the wrong size is reported by the verifier, up to the size of the deck."""
MAX_CARD_LENGTH = 8
KEY_LENGTH = WRITE_KEY_LENGTH
RUBBER_ID = re.compile(r"[A-Za-z0-9_-]{1,43}")
"""What store.new_token makes, within the length of Rubber.id."""
RULE_FIELDS = frozenset(engine.RuleSet().to_dict())

RUBBER_FIELDS = frozenset({"teams", "players", "first_dealer", "rules", "group"})
WRITE_FIELDS = frozenset({"key", "version"})
HAND_FORMS: dict[str, frozenset[str]] = {
    "points": frozenset({"points", "all_tricks", "trump"}) | WRITE_FIELDS,
    "revoke": frozenset({"revoke", "trump"}) | WRITE_FIELDS,
    "spoiled": frozenset({"spoiled", "trump"}) | WRITE_FIELDS,
    "tricks": frozenset({"tricks", "trump", "points", "all_tricks"}) | WRITE_FIELDS,
}
"""The four ways to record a hand, each with the keys it takes (``points`` may go with the
cards, to be checked against them)."""
HAND_FIELDS = frozenset().union(*HAND_FORMS.values())
VERIFY_FIELDS = frozenset({"trump", "leader", "tricks", "rules", "trump_card"})


class ApiError(Exception):
    """An answer with a 4xx status and the error shape of API.md."""

    def __init__(
        self,
        status: int,
        message: str,
        field: str | None = None,
        code: str | None = None,
        **extra: Any,
    ) -> None:
        self.status = status
        self.message = message
        self.field = field
        self.code = code
        self.extra = extra
        super().__init__(message)


def _error_response(
    status: int,
    message: str,
    field: str | None = None,
    code: str | None = None,
    extra: Mapping[str, Any] | None = None,
) -> Response:
    body: dict[str, Any] = {"error": message, "field": field, "code": code}
    body.update(extra or {})
    response = jsonify(body)
    response.status_code = status
    return response


@bp.errorhandler(ApiError)
def _api_error(error: ApiError) -> Response:
    return _error_response(error.status, error.message, error.field, error.code, error.extra)


def _http_message(status: int) -> str:
    message: str = {
        400: _("The request could not be understood."),
        403: _("This is not allowed."),
        404: _("There is nothing at this address."),
        405: _("This address does not take that method."),
        409: _("The rubber changed: reload it."),
        413: _("The request is too large."),
        415: _("The request must be JSON."),
        422: _("The request could not be processed."),
    }.get(status, _("Something went wrong on the server: try again."))
    return message


def _http_error(error: HTTPException) -> Response:
    status = error.code or 500
    response = _error_response(status, _http_message(status), code=f"http_{status}")
    if isinstance(error, MethodNotAllowed) and error.valid_methods:
        response.headers["Allow"] = ", ".join(error.valid_methods)
    return response


for _status in (400, 403, 404, 405, 409, 413, 415, 422):
    bp.register_error_handler(_status, _http_error)


@bp.errorhandler(InternalServerError)
def _server_error(error: InternalServerError) -> Response:
    return _http_error(error)


def _under_api(path: str) -> bool:
    prefix = PREFIX
    return path == prefix or path.startswith(prefix + "/")


@bp.before_app_request
def _routing_errors() -> Response | None:
    """An unknown address or method under /api/v1 answers in the API's error shape too.

    Routing fails before any blueprint is chosen, so the blueprint's error handlers never see
    it; answering here also keeps the Allow header of a 405.
    """
    error = request.routing_exception
    if isinstance(error, NotFound | MethodNotAllowed) and _under_api(request.path):
        return _http_error(error)
    return None


@bp.after_request
def _no_store(response: Response) -> Response:
    # A rubber's state changes with every hand, and a creation answer carries its edit key.
    response.headers.setdefault("Cache-Control", "no-store")
    return response


# Reading a request body ----------------------------------------------------------------


def _body(*, empty: bool = False) -> dict[str, Any]:
    """The request's JSON object (``{}`` for an empty body where ``empty`` allows it)."""
    data = request.get_data(cache=True)
    if empty and not data:  # no body at all; white space alone is no JSON
        return {}
    try:
        body = json.loads(data, parse_float=_number)
    except (ValueError, RecursionError):
        raise ApiError(400, _("The request body is not valid JSON."), code="invalid_json") from None
    if not isinstance(body, dict):
        raise ApiError(400, _("The request body must be a JSON object."), code="not_an_object")
    return body


def _number(text: str) -> int | float:
    """A JSON number with a fraction or exponent: whole ones (``3.0``, ``1e2``) are ints.

    JSON Schema counts them as integers too, so the OpenAPI document and these checks agree.
    """
    value = float(text)
    return int(value) if value.is_integer() else value


def _only(body: Mapping[str, Any], allowed: frozenset[str]) -> None:
    unknown = sorted(set(body) - allowed)
    if unknown:
        raise ApiError(
            400,
            _("%(field)s is not a field of this request.", field=unknown[0]),
            unknown[0],
            "unknown_field",
        )


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _whole_number(value: object, field: str) -> int:
    if not _is_int(value):
        raise ApiError(400, _("%(field)s must be a whole number.", field=field), field, "type")
    assert isinstance(value, int)
    return value


def _boolean(value: object, field: str) -> bool:
    if not isinstance(value, bool):
        raise ApiError(400, _("%(field)s must be true or false.", field=field), field, "type")
    return value


def _list(value: object, field: str, low: int, high: int) -> list[Any]:
    if not isinstance(value, list) or not low <= len(value) <= high:
        if low == high:
            message = _("%(field)s must be a list of %(count)s items.", field=field, count=low)
        else:
            message = _(
                "%(field)s must be a list of %(low)s to %(high)s items.",
                field=field,
                low=low,
                high=high,
            )
        raise ApiError(400, message, field, "type")
    return value


def _text(value: object, field: str) -> str:
    if not isinstance(value, str):
        raise ApiError(400, _("%(field)s must be text.", field=field), field, "type")
    # Control characters and lone surrogates cannot be stored everywhere (PostgreSQL refuses NUL).
    if any(unicodedata.category(char) in ("Cc", "Cs") for char in value):
        raise ApiError(
            422,
            _("%(field)s must not contain control characters.", field=field),
            field,
            "control_characters",
        )
    return value


def _name(value: object, field: str, *, blank: bool) -> str:
    text = _text(value, field)
    name = text.strip()
    # The limit holds before the strip too, as the OpenAPI document's maxLength says.
    if len(text) > NAME_LENGTH or (not name and not blank):
        if blank:
            message = _("A name has at most %(count)s characters.", count=NAME_LENGTH)
        else:
            message = _("A name has 1 to %(count)s characters.", count=NAME_LENGTH)
        raise ApiError(422, message, field, "name_length")
    return name


def _seat(value: object, field: str) -> int:
    seat = _whole_number(value, field)
    if not 0 <= seat < SEATS:
        raise ApiError(422, _("%(field)s must be a seat from 0 to 3.", field=field), field, "seat")
    return seat


def _trump(value: object) -> engine.Suit:
    if not isinstance(value, str):
        raise ApiError(400, _("%(field)s must be text.", field="trump"), "trump", "type")
    if value not in TRUMPS:
        raise ApiError(422, _("The trump must be one of C, D, H or S."), "trump", "trump")
    return engine.Suit(value)


def _rules(value: object) -> engine.RuleSet:
    if not isinstance(value, dict):
        raise ApiError(400, _("%(field)s must be an object.", field="rules"), "rules", "type")
    try:
        return engine.RuleSet.from_dict(value)
    except engine.RulesError as error:
        field = f"rules.{error.key}"
        if error.key not in RULE_FIELDS:
            message = _("%(key)s is not a rule setting.", key=error.key)
        else:
            message = wording.engine_error(error)
        raise ApiError(422, message, field, "rules") from None


def _tricks(value: object) -> list[list[str]]:
    tricks = _list(value, "tricks", 1, MAX_TRICKS)
    for trick in tricks:
        _list(trick, "tricks", 0, MAX_CARDS_PER_TRICK)
        for card in trick:
            if not isinstance(card, str) or len(card) > MAX_CARD_LENGTH:
                raise ApiError(
                    400,
                    _("Each card must be written as text, like 7H."),
                    "tricks",
                    "type",
                )
    return tricks


def _write_options(body: Mapping[str, Any]) -> tuple[str | None, int | None]:
    """The idempotency key and the version a write may carry."""
    key = None
    if "key" in body:
        key = _text(body["key"], "key")
        if not 1 <= len(key) <= KEY_LENGTH:
            raise ApiError(
                400,
                _("The key must have 1 to %(count)s characters.", count=KEY_LENGTH),
                "key",
                "type",
            )
    version = None
    if "version" in body:
        version = _whole_number(body["version"], "version")
        if version < 1:
            raise ApiError(422, _("The version is a whole number from 1."), "version", "version")
    return key, version


# Rubber state --------------------------------------------------------------------------


def _hand_json(
    result: engine.HandResult, row: HandRow | None, teams: tuple[str, str]
) -> dict[str, Any]:
    hand = result.hand
    data: dict[str, Any] = {
        "number": result.number,
        "kind": hand.kind.value,
        "points": list(hand.points) if hand.points is not None else None,
        "all_tricks": hand.all_tricks,
        "team": hand.team,
        "games": list(result.games),
        "dealer": result.dealer,
        "trump": row.trump if row is not None else None,
        "leader": result.leader,
        "games_after": list(result.games_after),
        "winner": result.winner,
        "bandeira": result.bandeira,
        "reasons": list(result.reasons),
        "summary": wording.hand_summary(result, teams),
    }
    if row is not None and row.tricks is not None:
        data["tricks"] = row.tricks
    return data


def rubber_json(rubber: Rubber, state: engine.RubberState) -> dict[str, Any]:
    """The rubber state of API.md, with a few fields more."""
    rows = {row.number: row for row in rubber.hands}
    return {
        "id": rubber.id,
        "url": url_for("rubbers.rubber", rubber_id=rubber.id, _external=True),
        "teams": list(rubber.teams),
        "players": list(rubber.players) if rubber.players is not None else None,
        "rules": state.rules.to_dict(),
        "games": list(state.games),
        "finished": state.finished,
        "winner": state.winner,
        "outcome": state.outcome.value if state.outcome is not None else None,
        "pending": {"extra_games": state.pending_extra, "multiplier": state.pending_multiplier},
        "dealer": state.dealer,
        "leader": state.leader,
        "shuffler": state.shuffler,
        "cutter": state.cutter,
        "first_dealer": state.first_dealer,
        "version": rubber.version,
        "group": rubber.group_id,
        "hands": [
            _hand_json(result, rows.get(result.number), rubber.teams) for result in state.hands
        ],
    }


def _rubber(rubber_id: str) -> Rubber:
    rubber = db.session.get(Rubber, rubber_id) if RUBBER_ID.fullmatch(rubber_id) else None
    if rubber is None:
        raise ApiError(404, _("There is no rubber with this id."), None, "no_rubber")
    return rubber


def _editable(rubber_id: str) -> Rubber:
    """The rubber, if the request carries its edit key."""
    rubber = _rubber(rubber_id)
    key = request.headers.get(EDIT_KEY_HEADER)
    if not key:
        raise ApiError(
            403,
            _("Changing this rubber needs its edit key in the X-Edit-Key header."),
            None,
            "edit_key_missing",
        )
    if not store.key_matches(rubber, key):
        raise ApiError(403, _("This is not the rubber's edit key."), None, "edit_key_wrong")
    return rubber


# Endpoints -----------------------------------------------------------------------------


@bp.post("/rubbers")
def create_rubber() -> tuple[Response, int, dict[str, str]]:
    body = _body(empty=True)
    _only(body, RUBBER_FIELDS)
    teams = DEFAULT_TEAMS
    if "teams" in body:
        first, second = (
            _name(name, "teams", blank=False) for name in _list(body["teams"], "teams", 2, 2)
        )
        teams = (first, second)
    players: list[str] | None = None
    if body.get("players") is not None:
        names = [
            _name(name, "players", blank=True) for name in _list(body["players"], "players", 4, 4)
        ]
        players = names if any(names) else None
    first_dealer = _seat(body["first_dealer"], "first_dealer") if "first_dealer" in body else 0
    rules = _rules(body["rules"]) if "rules" in body else engine.RuleSet()
    group_id = None
    if "group" in body:
        from scorekeeper.api.groups import group_to_join

        group_id = group_to_join(body["group"], players)
    rubber, edit_key = store.create_rubber(
        teams=teams, players=players, first_dealer=first_dealer, rules=rules, group_id=group_id
    )
    data = rubber_json(rubber, rubber.state())
    data["edit_key"] = edit_key
    data["edit_url"] = url_for("rubbers.grant", rubber_id=rubber.id, key=edit_key, _external=True)
    location = url_for("api.rubbers.get_rubber", rubber_id=rubber.id, _external=True)
    return jsonify(data), 201, {"Location": location}


@bp.get("/rubbers/<rubber_id>")
def get_rubber(rubber_id: str) -> Response:
    rubber = _rubber(rubber_id)
    response = jsonify(rubber_json(rubber, rubber.state()))
    # API.md, "Following a rubber live": an ETag of the state, and 304 while it is unchanged.
    response.add_etag()
    response.headers["Cache-Control"] = "no-cache"
    return response.make_conditional(request)


@dataclass(frozen=True)
class HandInput:
    """A hand body of API.md, its shape checked; the cards are only read inside the write."""

    form: str
    points: tuple[int, int] | None = None
    all_tricks: bool | None = None
    team: int | None = None
    trump: engine.Suit | None = None
    tricks: list[list[str]] | None = None

    @classmethod
    def parse(cls, body: Mapping[str, Any]) -> HandInput:
        _only(body, HAND_FIELDS)
        given = [form for form in ("points", "revoke", "spoiled") if form in body]
        if "tricks" in body:
            given = ["tricks", *(form for form in given if form != "points")]
        if len(given) != 1:
            message = (
                _("A hand needs one of points, revoke, spoiled or tricks.")
                if not given
                else _("A hand is recorded by only one of points, revoke, spoiled or tricks.")
            )
            raise ApiError(400, message, None, "hand_form")
        form = given[0]
        for name in body:
            if name not in HAND_FORMS[form]:
                raise ApiError(
                    400,
                    _("%(field)s does not go with %(form)s.", field=name, form=form),
                    name,
                    "hand_form",
                )
        points = None
        if "points" in body:
            first, second = (
                _whole_number(value, "points") for value in _list(body["points"], "points", 2, 2)
            )
            points = (first, second)
        all_tricks = _boolean(body["all_tricks"], "all_tricks") if "all_tricks" in body else None
        team = _whole_number(body["revoke"], "revoke") if form == "revoke" else None
        if form == "spoiled" and body["spoiled"] is not True:
            _boolean(body["spoiled"], "spoiled")
            raise ApiError(400, _("spoiled is given only as true."), "spoiled", "hand_form")
        trump = _trump(body["trump"]) if "trump" in body else None
        tricks = _tricks(body["tricks"]) if form == "tricks" else None
        if form == "tricks" and trump is None:
            raise ApiError(
                400, _("The cards need the trump they were played with."), "trump", "trump"
            )
        return cls(form, points, all_tricks, team, trump, tricks)

    def to_engine(
        self, rules: engine.RuleSet, leader: int
    ) -> tuple[engine.Hand, list[list[str]] | None]:
        """The engine's hand, and the tricks to store; ``leader`` led the hand's first trick."""
        try:
            if self.tricks is not None:
                return self._from_cards(rules, leader)
            if self.points is not None:
                return engine.Hand.played(*self.points, all_tricks=bool(self.all_tricks)), None
            if self.team is not None:
                return engine.Hand.revoke(self.team), None
            return engine.Hand.spoiled(), None
        except engine.ScoringError as error:
            field = self.form
            value = getattr(error, "value", None)
            if isinstance(value, tuple) and sum(value) == engine.scoring.TOTAL_POINTS:
                field = "all_tricks"  # the points add up: only all_tricks can be wrong
            raise ApiError(422, wording.engine_error(error), field, error.code) from None

    def _from_cards(
        self, rules: engine.RuleSet, leader: int
    ) -> tuple[engine.Hand, list[list[str]] | None]:
        assert self.tricks is not None and self.trump is not None
        record = engine.verify_record(self.trump, leader, self.tricks, rules)
        if record.errors:
            problems = [_problem_json(problem) for problem in record.errors]
            raise ApiError(422, problems[0]["error"], "tricks", "record", errors=problems)
        stored = [[str(card) for card in trick.cards] for trick in record.tricks]
        revoke = record.first_revoke
        if revoke is not None:
            if self.points is not None or self.all_tricks:
                raise ApiError(
                    422,
                    _(
                        "The cards prove a revoke by team %(team)s in trick %(trick)s: "
                        "a revoke has no card points.",
                        team=revoke.team,
                        trick=revoke.trick,
                    ),
                    "points" if self.points is not None else "all_tricks",
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
        if self.points is not None and self.points != points:
            raise ApiError(
                422,
                _(
                    "The cards give %(first)s-%(second)s, not %(given_first)s-%(given_second)s.",
                    first=points[0],
                    second=points[1],
                    given_first=self.points[0],
                    given_second=self.points[1],
                ),
                "points",
                "cards_disagree",
            )
        all_tricks = record.all_tricks is not None
        if self.all_tricks is not None and self.all_tricks != all_tricks:
            message = (
                _("The cards show team %(team)s taking all 10 tricks.", team=record.all_tricks)
                if all_tricks
                else _("The cards do not show one team taking all 10 tricks.")
            )
            raise ApiError(422, message, "all_tricks", "cards_disagree")
        return engine.Hand.played(*points, all_tricks=all_tricks), stored


def _write(
    rubber_id: str, change: store.Change, body: Mapping[str, Any], status: int
) -> tuple[Response, int]:
    """Run a write through the shared write path and answer it (or its first answer)."""
    key, version = _write_options(body)
    # The key covers the request, not just its body: the same body to another address is
    # another write.
    request_body = {"method": request.method, "path": request.path, "body": body}
    try:
        written = store.write(
            rubber_id,
            change,
            key=key,
            body=request_body,
            version=version,
            status=status,
            respond=rubber_json,
        )
    except store.Conflict as conflict:
        field = {"stale": "version", "key_reused": "key"}.get(conflict.code)
        raise ApiError(409, wording.conflict(conflict.code), field, conflict.code) from None
    except (engine.RubberFinishedError, engine.TooManyHandsError) as error:
        raise ApiError(409, wording.engine_error(error), None, error.code) from None
    except engine.HandNotAllowedError as error:
        field = "spoiled" if error.value is engine.HandKind.SPOILED else None
        raise ApiError(422, wording.engine_error(error), field, error.code) from None
    except engine.ScoringError as error:
        raise ApiError(422, wording.engine_error(error), None, error.code) from None
    except LookupError as error:
        if isinstance(error, KeyError | IndexError):
            raise
        raise ApiError(404, _("There is no rubber with this id."), None, "no_rubber") from None
    response = written.response or rubber_json(written.rubber, written.state)
    answer = jsonify(response)
    if written.repeated:
        answer.headers["Idempotent-Replayed"] = "true"
    return answer, written.status


@bp.post("/rubbers/<rubber_id>/hands")
def add_hand(rubber_id: str) -> tuple[Response, int]:
    _editable(rubber_id)
    body = _body()
    given = HandInput.parse(body)

    def change(rubber: Rubber) -> engine.RubberState:
        state = rubber.state()
        if state.finished:
            raise engine.RubberFinishedError(len(state.hands) + 1)
        hand, tricks = given.to_engine(state.rules, state.leader)
        trump = given.trump.value if given.trump is not None else None
        return store.append_hand(hand, trump, tricks)(rubber)

    return _write(rubber_id, change, body, 201)


@bp.put("/rubbers/<rubber_id>/hands/<int:number>")
def replace_hand(rubber_id: str, number: int) -> tuple[Response, int]:
    rubber = _editable(rubber_id)
    if not 1 <= number <= len(rubber.hands):
        raise _no_hand(number)
    body = _body()
    given = HandInput.parse(body)

    def change(rubber: Rubber) -> engine.RubberState:
        state = rubber.state()
        if number > len(state.hands):
            raise _no_hand(number)
        hand, tricks = given.to_engine(state.rules, state.hands[number - 1].leader)
        trump = given.trump.value if given.trump is not None else None
        return store.replace_hand(number, hand, trump, tricks)(rubber)

    return _write(rubber_id, change, body, 200)


def _no_hand(number: int) -> ApiError:
    return ApiError(404, _("This rubber has no hand %(number)s.", number=number), None, "no_hand")


@bp.delete("/rubbers/<rubber_id>/hands/last")
def undo_hand(rubber_id: str) -> tuple[Response, int]:
    _editable(rubber_id)
    body = _body(empty=True)
    _only(body, WRITE_FIELDS)
    return _write(rubber_id, store.undo_last, body, 200)


def _problem_json(problem: engine.RecordProblem) -> dict[str, Any]:
    return {
        "trick": problem.trick,
        "card": problem.card,
        "error": wording.record_problem(problem),
        "code": problem.code,
    }


def _revoke_json(revoke: engine.ProvenRevoke) -> dict[str, Any]:
    return {
        "seat": revoke.seat,
        "team": revoke.team,
        "trick": revoke.trick,
        "suit": revoke.suit.value,
        "proven_in": revoke.proven_in,
    }


@bp.post("/verify")
def verify() -> Response:
    body = _body()
    _only(body, VERIFY_FIELDS)
    for name in ("trump", "leader", "tricks"):
        if name not in body:
            raise ApiError(400, _("%(field)s is missing.", field=name), name, "missing")
    leader = _seat(body["leader"], "leader")
    tricks = _tricks(body["tricks"])
    trump = _trump(body["trump"])
    rules = _rules(body["rules"]) if "rules" in body else engine.RuleSet()
    trump_card = None
    if "trump_card" in body:
        trump_card = body["trump_card"]
        if not isinstance(trump_card, str) or len(trump_card) > MAX_CARD_LENGTH:
            raise ApiError(
                400, _("Each card must be written as text, like 7H."), "trump_card", "type"
            )
    record = engine.verify_record(trump, leader, tricks, rules, trump_card=trump_card)
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
            "errors": [_problem_json(problem) for problem in record.errors],
            "trump": record.trump.value,
            "leader": record.first_leader,
            "all_tricks": record.all_tricks,
            "first_revoke": _revoke_json(first_revoke) if first_revoke is not None else None,
            "next_leader": record.next_leader,
        }
    )


@bp.get("/openapi.json")
def openapi_json() -> Response:
    # Imported here: the document is built from this module's limits.
    from scorekeeper.api.openapi import document

    return jsonify(document())
