"""Benchmarks of the two things the app does on every request: verify a hand, replay a rubber.

The normal run passes --benchmark-disable, so each runs once as a plain test; measure with
``pytest tests/engine/test_benchmark.py --benchmark-enable``.
"""

from __future__ import annotations

from pytest_benchmark.fixture import BenchmarkFixture

from scorekeeper.engine import Hand, RubberState, RuleSet, TrickRecord, replay, verify_record
from tests.support.records import FULL_RECORD

# 30 hands that do not finish a rubber to 20: each round of three gives Nós 1 (2 with the
# carried tie from the round before), Eles 1, then a tie.
THIRTY_HANDS = [Hand.played(70, 50), Hand.played(50, 70), Hand.tie()] * 10


def test_benchmark_verify_record(benchmark: BenchmarkFixture) -> None:
    rules = RuleSet()
    record: TrickRecord = benchmark(verify_record, "H", 1, FULL_RECORD, rules, "6H")
    assert record.complete is True
    assert record.errors == ()
    assert record.revokes == ()
    assert record.points == (48, 72)
    assert record.tricks_won == (4, 6)
    assert [t.winner for t in record.tricks] == [1, 1, 3, 3, 3, 0, 2, 2, 3, 2]


def test_benchmark_replay_30_hands(benchmark: BenchmarkFixture) -> None:
    rules = RuleSet(games_to_win=20)
    state: RubberState = benchmark(replay, rules, THIRTY_HANDS, 2)
    assert len(state.hands) == 30
    assert state.games == (19, 10)
    assert state.finished is False
    assert state.pending_extra == 1
    assert state.dealer == (2 + 30) % 4
    assert state.dots(0)[:3] == (1, 4, 4)
