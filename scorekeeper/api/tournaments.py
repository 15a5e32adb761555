"""The JSON API of API.md, "Tournaments": a tournament, its rounds and its walkovers.

Its matches' rubbers are recorded through the rubbers' own operations, whose ``X-Edit-Key`` may
be the tournament's key (``access.editable``). The engine refuses what only it can judge (the
number of pairs, a player in two pairs, an even best-of, the rounds) with 422; a write the
tournament's state refuses (a round drawn before the last one ends, a walkover on a played
match) is 409.
"""

from __future__ import annotations

import json

from flask import Response, jsonify, request
from flask_babel import gettext as _
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper import engine
from scorekeeper.api import access
from scorekeeper.api.errors import ApiError
from scorekeeper.api.operations import (
    EDIT_KEY,
    EDIT_KEY_HEADER,
    ApiBlueprint,
    creation_refused,
    refusals,
)
from scorekeeper.api.schemas.reading import json_body
from scorekeeper.api.schemas.tournaments import (
    CreatedTournament,
    NewTournament,
    PairInput,
    PaperResult,
    TournamentState,
    Walkover,
)
from scorekeeper.api.states import created
from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import db
from scorekeeper.tournaments import shown, store, tables, writes
from scorekeeper.tournaments.facts import tournament_json
from scorekeeper.tournaments.models import Tournament
from scorekeeper.tournaments.wording import fault
from scorekeeper.web.wording import conflict, engine_error
from scorekeeper.web.writes import Conflict

bp = ApiBlueprint("tournaments", __name__)

REFUSED = (
    "Fewer than 3 or more than 128 pairs, a player in two pairs, an even best_of, an unknown "
    "format, rounds of 0 or more than n - 1, groups that do not fit, a TV language the app does "
    "not speak."
)
UNKNOWN = "No such tournament, or no such match."
NO_KEY = "The X-Edit-Key header is missing or is not the tournament's edit key."
STATE_REFUSES = (
    "The tournament's state refuses it: a match of the last round unfinished, every round "
    "drawn, a format whose rounds draw themselves, a match already played."
)
STATUSES = {
    "no_such_match": 404,
    "round_unfinished": 409,
    "all_rounds_drawn": 409,
    "rounds_draw_themselves": 409,
    "match_played": 409,
    "bye_match": 409,
    "withdrawn": 409,
    "not_last_round": 409,
    "round_played": 409,
    "no_walkover": 409,
    "no_late_pairs": 409,
    "not_withdrawn": 409,
    "result_used": 409,
    "not_in_play": 409,
    "match_decided": 409,
    "rubber_played": 409,
}
"""The status of each refusal of the engine that is not 422 (a value refused)."""


CREATION_FIELDS = {
    "too_few_pairs": "pairs",
    "too_many_pairs": "pairs",
    "unknown_format": "format",
    "even_best_of": "best_of",
    "bad_best_of": "best_of",
    "bad_rounds": "rounds",
    "bad_groups": "groups",
    "bad_third_place": "third_place",
}
"""The field of a new tournament's body each refusal of the engine is about."""


def refusal(error: tourney.TournamentError, field: str | None = None) -> ApiError:
    """The engine's refusal as the API's error, in the reader's language."""
    return ApiError(STATUSES.get(error.code, 422), fault(error), field, error.code)


def creation_refusal(error: tourney.TournamentError) -> ApiError:
    """The engine's refusal of a new tournament, naming the field: a pair's players, say."""
    if error.pair is not None:
        return refusal(error, f"pairs[{error.pair - 1}].players")
    return refusal(error, CREATION_FIELDS.get(error.code))


def _no_tournament() -> ApiError:
    return ApiError(404, _("There is no tournament with this id."), None, "no_tournament")


def _tournament(tournament_id: str) -> Tournament:
    found = store.GRANTS.get(tournament_id)
    if found is None:
        raise _no_tournament()
    return found


def _editable(tournament_id: str) -> Tournament:
    found = _tournament(tournament_id)
    key = request.headers.get(EDIT_KEY_HEADER)
    if not key:
        raise ApiError(
            403,
            _("Changing this tournament needs its edit key in the X-Edit-Key header."),
            None,
            "edit_key_missing",
        )
    if not store.key_matches(found, key):
        raise ApiError(403, _("This is not the tournament's edit key."), None, "edit_key_wrong")
    return found


def _state(standing: store.Standing, status: int = 200) -> tuple[Response, int]:
    return jsonify(tournament_json(standing)), status


@bp.operation("POST /tournaments", "createTournament")
@bp.takes(NewTournament)
@bp.answers(
    201,
    "The new tournament, with its edit key and edit link.",
    CreatedTournament,
    creation_refused(REFUSED),
)
def create_tournament() -> tuple[Response, int, dict[str, str]]:
    """Start a tournament of pairs: its pairs seeded and its first round drawn."""
    given = NewTournament.read(json_body())
    group_id = access.group_to_join(given.group, None)
    try:
        settings = tourney.Settings(
            format=given.format,
            pairs=len(given.pairs),
            best_of=given.best_of,
            rounds=given.rounds,
            groups=given.groups,
            advance=given.advance,
            third_place=given.third_place,
        )
        tourney.check_pairs([pair.players for pair in given.pairs])
        entries = [
            tourney.PairEntry((pair.players[0], pair.players[1]), pair.name) for pair in given.pairs
        ]
    except tourney.TournamentError as error:
        raise creation_refusal(error) from None
    tournament, edit_key = store.create(
        name=given.name,
        settings=settings,
        rules=given.rules.to_engine(),
        pairs=entries,
        draw=given.draw,
        group_id=group_id,
        tv_language=given.tv_language,
    )
    standing = store.standing(tournament)
    return created(
        tournament_json(standing),
        edit_key,
        "tournaments.grant",
        "api.tournaments.get_tournament",
        tournament_id=tournament.id,
    )


@bp.operation("GET /tournaments/<tournament_id>", "getTournament", conditional=True)
@bp.answers(200, "The tournament.", TournamentState, {404: UNKNOWN})
def get_tournament(tournament_id: str) -> Response:
    """A tournament's state: its pairs, rounds, matches and standings.

    Read with the tournament's key in ``X-Edit-Key``, it carries each table's link for the
    evening too (``tables``)."""
    key = request.headers.get(EDIT_KEY_HEADER)
    found = store.GRANTS.get(tournament_id) if key else None
    organizer = found is not None and store.key_matches(found, key)

    def build(standing: store.Standing, _tag: str) -> str:
        state = tournament_json(standing)
        if organizer:
            state["tables"] = tables.links(standing)
        return json.dumps(state, ensure_ascii=False)

    # A follower's poll: 304 from one query while nothing changed; else built once per change
    # of the tournament in this worker, however many follow it (tournaments.shown).
    return shown.kept(
        tournament_id,
        "api organizer" if organizer else "api",
        build,
        mimetype="application/json",
        cache_control="no-store" if organizer else "no-cache",
        missing=_no_tournament,
    )


WRITE_REFUSED = refusals(key=NO_KEY, unknown=UNKNOWN, conflict=STATE_REFUSES)


@bp.operation("POST /tournaments/<tournament_id>/rounds", "drawRound")
@bp.takes(None, security=EDIT_KEY)
@bp.answers(201, "The tournament with its next round drawn.", TournamentState, WRITE_REFUSED)
def draw_round(tournament_id: str) -> tuple[Response, int]:
    """Draw the next Swiss round, once every match of the last one is finished."""
    tournament = _editable(tournament_id)
    return _state(_written(lambda: writes.draw_round(tournament)), 201)


@bp.operation(
    "POST /tournaments/<tournament_id>/rounds/<int:round_number>/matches/<int:table>/walkover",
    "giveWalkover",
)
@bp.takes(Walkover, security=EDIT_KEY)
@bp.answers(200, "The tournament with the walkover.", TournamentState, WRITE_REFUSED)
def walkover(tournament_id: str, round_number: int, table: int) -> tuple[Response, int]:
    """A walkover: the other pair did not come, and this one wins the match."""
    tournament = _editable(tournament_id)
    given = Walkover.read(json_body())
    return _state(_written(lambda: writes.walkover(tournament, round_number, table, given.winner)))


@bp.operation(
    "POST /tournaments/<tournament_id>/rounds/<int:round_number>/matches/<int:table>/result",
    "givePaperResult",
)
@bp.takes(PaperResult, security=EDIT_KEY)
@bp.answers(200, "The tournament with the rubber's result.", TournamentState, WRITE_REFUSED)
def paper_result(tournament_id: str, round_number: int, table: int) -> tuple[Response, int]:
    """The rubber in play at a match, kept on paper by its table: finished with its games."""
    tournament = _editable(tournament_id)
    given = PaperResult.read(json_body())
    return _state(
        _written(
            lambda: writes.paper_result(tournament, round_number, table, given.games),
            {"paper_result": "games"},
        )
    )


@bp.operation("POST /tournaments/<tournament_id>/pairs/<int:pair>/withdraw", "withdrawPair")
@bp.takes(None, security=EDIT_KEY)
@bp.answers(200, "The tournament with the pair withdrawn.", TournamentState, WRITE_REFUSED)
def withdraw(tournament_id: str, pair: int) -> tuple[Response, int]:
    """A pair withdraws: each of its matches still to play becomes a walkover."""
    tournament = _editable(tournament_id)
    return _state(_written(lambda: writes.withdraw(tournament, pair)))


@bp.operation("DELETE /tournaments/<tournament_id>/rounds/<int:round_number>", "undrawRound")
@bp.takes(None, security=EDIT_KEY)
@bp.answers(200, "The tournament with its last round undrawn.", TournamentState, WRITE_REFUSED)
def undraw_round(tournament_id: str, round_number: int) -> tuple[Response, int]:
    """Undraw the last Swiss round while none of its matches has a hand, to correct before it."""
    tournament = _editable(tournament_id)
    return _state(_written(lambda: writes.undraw_round(tournament, round_number)))


@bp.operation(
    "DELETE /tournaments/<tournament_id>/rounds/<int:round_number>/matches/<int:table>/walkover",
    "undoWalkover",
)
@bp.takes(None, security=EDIT_KEY)
@bp.answers(200, "The tournament with the walkover undone.", TournamentState, WRITE_REFUSED)
def undo_walkover(tournament_id: str, round_number: int, table: int) -> tuple[Response, int]:
    """Undo a walkover while no later match depends on it: the match is in play again."""
    tournament = _editable(tournament_id)
    return _state(_written(lambda: writes.undo_walkover(tournament, round_number, table)))


@bp.operation("POST /tournaments/<tournament_id>/pairs/<int:pair>/reinstate", "reinstatePair")
@bp.takes(None, security=EDIT_KEY)
@bp.answers(200, "The tournament with the pair back.", TournamentState, WRITE_REFUSED)
def reinstate(tournament_id: str, pair: int) -> tuple[Response, int]:
    """Undo a withdrawal: the walkovers it made that no later match depends on are undone."""
    tournament = _editable(tournament_id)
    return _state(_written(lambda: writes.reinstate(tournament, pair)))


@bp.operation("POST /tournaments/<tournament_id>/pairs", "addLatePair")
@bp.takes(PairInput, security=EDIT_KEY)
@bp.answers(201, "The tournament with the late pair.", TournamentState, WRITE_REFUSED)
def add_late_pair(tournament_id: str) -> tuple[Response, int]:
    """A pair that came late joins a Swiss before its last round is drawn."""
    tournament = _editable(tournament_id)
    given = PairInput.read(json_body())
    entry = tourney.PairEntry((given.players[0], given.players[1]), given.name)
    return _state(_written(lambda: writes.late_pair(tournament, entry), PAIR_FIELD), 201)


PAIR_FIELD = {code: "players" for code in ("repeated_player", "pair_of_one", "too_many_players")}
"""The field of a late pair's refusals that are its players'."""


def _written(write: writes.Write, fields: dict[str, str] | None = None) -> store.Standing:
    try:
        return write()
    except tourney.TournamentError as error:
        db.session.rollback()
        raise refusal(error, (fields or {}).get(error.code)) from None
    except Conflict as error:
        db.session.rollback()
        raise ApiError(409, error.message or conflict(error.code), None, error.code) from None
    except engine.ScoringError as error:
        db.session.rollback()
        raise ApiError(
            422, engine_error(error), (fields or {}).get(error.code), error.code
        ) from None
    except StaleDataError:
        db.session.rollback()
        raise ApiError(
            409,
            _("Someone else changed the tournament at the same moment: try again."),
            None,
            "stale",
        ) from None
