"""Conformance: a request the OpenAPI document calls valid is taken, or refused for cause.

The cause is one the document cannot state.

Schemathesis draws schema-valid requests only (its positive mode) for every operation of the
document the app serves, aimed at real rubbers, games, groups and tournaments as the fuzz test
aims them (``test_fuzz.aim``). A refusal must be one of :data:`BEYOND_THE_SCHEMA`: a state the
request meets (an unknown id, a finished rubber, a match already played), a rule across fields
or across requests (points that do not add up to 120, a card repeated across hands), a key. Any
other 4xx is a bound the server holds and the document does not say (issue 41, item 5).
``FUZZ_EXAMPLES`` sets the cases per operation, half as many as the fuzz test tries (they go
through the same paths, valid ones only).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest
import schemathesis
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given, seed, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.core import NotSet

from scorekeeper.engine.tournaments import MAX_PAIRS
from tests.support import fuzzing
from tests.support.fuzzing import detach
from tests.system.test_fuzz import OPERATIONS, PREFIX, Rubbers, aim, summary

BEYOND_THE_SCHEMA = {
    # What is not there, or not this client's: the id is only known to exist at run time.
    "no_rubber": "an id of the right shape that names no rubber",
    "no_group": "an id of the right shape that names no group",
    "no_game": "an id of the right shape that names no bidding game",
    "no_tournament": "an id of the right shape that names no tournament",
    "no_analysis": "an analysis id that names none",
    "no_hand": "a hand number past the rubber's or game's last hand",
    "no_hands": "an undo of a rubber or game that has no hand",
    "no_such_match": "a round or table the tournament has not drawn",
    "edit_key_missing": "a write sent without its key",
    "edit_key_wrong": "a key that is not this rubber's, game's or tournament's",
    "group_key_missing": "a write to a group sent without its key",
    "group_key_wrong": "a key that is not this group's",
    # The state the request meets: a conflict (409).
    "rubber_finished": "a hand added to a finished rubber",
    "game_finished": "a hand added to a finished bidding game",
    "stale": "a version the rubber or game has moved past",
    "key_reused": "an idempotency key sent again with another body",
    "too_many_hands": "a rubber or game at its most hands",
    "ends_early": "a hand replaced so that the rubber or game would end before later hands",
    "hand_not_allowed": "a hand the rubber's rules or history do not allow there (a spoiled "
    "deal without melar, a hand replaced that would end the rubber before later ones)",
    "cannot_spoil": "a deal spoiled when the rules do not let it be",
    "grouped": "a rubber already in a group",
    "round_unfinished": "a Swiss round drawn while a match of the last is unfinished",
    "all_rounds_drawn": "a round drawn when every round is drawn",
    "rounds_draw_themselves": "a round drawn in a format whose rounds draw themselves",
    "match_played": "a walkover on a match a rubber of which is finished",
    "bye_match": "a walkover on a bye",
    "withdrawn": "a pair that has withdrawn already",
    "not_last_round": "a round undrawn that is not the last drawn",
    "round_played": "a round undrawn that has a hand or a walkover",
    "no_walkover": "a walkover undone where none was given",
    "not_withdrawn": "a pair reinstated that has not withdrawn",
    "result_used": "a correction a later match depends on",
    "match_decided": "a table's write to a rubber whose match is decided",
    "rubber_played": "a result on paper for a rubber that has hands",
    "not_in_play": "a write to a match's rubber that no longer counts (its round undrawn)",
    "no_late_pairs": "a late pair for a tournament that is no Swiss, or past its last round",
    "busy": "the analyses' queue is full",
    "too_many_analyses": "this address has analyses waiting already",
    # A rule across fields or requests, which JSON Schema cannot state.
    "paper_result": "games on paper that no rubber ends with",
    "impossible_points": "points that do not add up to what a hand can make",
    "unknown_team": "a revoke's team beyond 0 and 1 under the hand's rules",
    "cards_disagree": "points given beside cards that score otherwise",
    "incomplete": "a record of fewer than 10 tricks where a hand needs them all",
    "card": "a called card not in the bidding game's deck",
    "record": "a card repeated across tricks, a revoke, a trick of the wrong size for its place",
    "not_in_deck": "a card not in the deck the rules play with (the 10 only under the Azores "
    "manilha)",
    "hand_sizes": "four open hands of different sizes",
    "repeated_player": "one player named twice, or in two pairs",
    "unnamed_players": "more than one player of a bidding table left without a name",
    "pair_of_one": "a pair whose two names are one",
    "not_a_pair": "a pair number the tournament does not have, or that is not in the match",
    "players": "a seat at a table of another size",
    "seat": "a seat beyond this table's players",
    "bid": "a bid the game's history does not allow",
    "outcome": "points and made that disagree",
    "pile": "a called card not in the game's deck",
    "bad_rounds": "Swiss rounds beyond the pairs less one",
    "bad_groups": "groups that do not fit the pairs",
    "bad_third_place": "a third-place match the format does not have",
    "even_best_of": "an even best-of: no majority",
    "bad_best_of": "a best-of the pairs cannot play",
    "import_too_large": "an import past the group's rubbers",
    "origin": "an origin that is not an exported rubber's",
}
"""The refusals of a schema-valid request that are allowed, by their ``code``, with why the
document cannot say them."""
WITHIN_BOUNDS = {"not_a_pair": ("winner", "pair")}
"""Refusals allowed only for a value within the document's bounds: a pair number up to 128 the
tournament does not have, not pair 0 or 14741."""
HANDS_OF_A_FILE = re.compile(r"^rubbers\[\d+\]\.hands\[\d+\]")
"""An import reads each hand of its file as the body its kind would be posted as: the export's
document states the shape the file has, not which fields each kind of hand needs."""


def conformance(test: Any) -> Any:
    """Decorate a ``@given`` test as the fuzz tests are (fuzzing.fuzzed), with half the cases."""
    examples = max(1, fuzzing.FUZZ_EXAMPLES // 2)
    test = settings(fuzzing.FUZZ_SETTINGS, max_examples=examples)(test)
    return test if fuzzing.FUZZ_SEED is None else seed(fuzzing.FUZZ_SEED)(test)


class Tournaments:
    """Two real tournaments, a knockout and a Swiss, that the tournaments' cases are aimed at."""

    BODIES = (
        {"format": "knockout", "pairs": 8},
        {"format": "swiss", "pairs": 6, "rounds": 3},
    )

    def __init__(self, client: FlaskClient) -> None:
        self.client = client
        self.made = [self._new(dict(body)) for body in self.BODIES]

    def _new(self, body: dict[str, Any]) -> dict[str, Any]:
        count = body.pop("pairs")
        pairs = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, count + 1)]
        created = self.client.post(
            f"{PREFIX}/tournaments", json={"name": "Torneio", "pairs": pairs, **body}
        )
        assert created.status_code == 201, created.get_json()
        return {**created.get_json(), "body": {**body, "pairs": count}}

    def aim(self, case: Any, data: st.DataObject) -> dict[str, str]:
        """Point the case at a tournament, one of its matches, and give its key."""
        slot = data.draw(st.integers(0, len(self.made) - 1), label="tournament")
        table = data.draw(st.integers(1, 4), label="table")
        aimed = data.draw(st.integers(0, 9), label="aimed tournament") < 9
        path = case.path_parameters or {}
        if not aimed or "tournament_id" not in path:
            return {}
        tournament = self.made[slot]
        state = self.client.get(f"{PREFIX}/tournaments/{tournament['id']}").get_json()
        if state["finished"] or any(p.get("withdrawn") for p in state["pairs"]):
            tournament = self.made[slot] = self._new(dict(tournament["body"]))
        path["tournament_id"] = tournament["id"]
        if "round_number" in path:
            path["round_number"] = 1
        if "table" in path:
            path["table"] = table
        headers = {"X-Edit-Key": tournament["edit_key"]}
        if case.headers is None:
            case.headers = {}
        case.headers.update(headers)
        return headers


def refused_beyond_the_schema(case: Any, response: Any) -> None:
    """Fail for a 4xx whose code says a bound the document could have stated."""
    if not 400 <= response.status_code < 500:
        return
    body = response.json()
    code = body.get("code") if isinstance(body, dict) else None
    if case.operation.label.endswith("/import") and HANDS_OF_A_FILE.match(body.get("field") or ""):
        return
    for name in WITHIN_BOUNDS.get(code, ()):
        given = {
            **(case.path_parameters or {}),
            **(case.body if isinstance(case.body, dict) else {}),
        }
        if name in given:
            assert 1 <= given[name] <= MAX_PAIRS, (body, case.as_curl_command())
    assert code in BEYOND_THE_SCHEMA, (
        f"a schema-valid request refused {response.status_code} {code}: {body}",
        case.as_curl_command(),
    )


@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[" ".join(op) for op in OPERATIONS])
def test_a_schema_valid_request_is_taken(
    app: Flask, client: FlaskClient, method: str, path: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schema = schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)
    operation = schema[path][method]
    strategy = operation.as_strategy(generation_mode=GenerationMode.POSITIVE)
    rubbers = Rubbers(client)
    tournaments = Tournaments(client)
    statuses: Counter[int] = Counter()

    @conformance
    @given(case=strategy, data=st.data())
    def conform(case: Any, data: st.DataObject) -> None:
        detach(case)
        headers: dict[str, str] = {}
        if case.path_parameters or not isinstance(case.body, NotSet):
            headers = aim(case, rubbers, data) | tournaments.aim(case, data)
        response = case.call(headers={**headers, "Accept-Encoding": "identity"})
        statuses[response.status_code] += 1
        assert response.status_code < 500, (case.as_curl_command(), response.text[:500])
        refused_beyond_the_schema(case, response)

    conform()
    assert sum(statuses.values()) > 0
    summary(
        capsys,
        f"conformance {method} {path}: {sum(statuses.values())} cases "
        f"{dict(sorted(statuses.items()))}",
    )
