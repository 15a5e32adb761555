"""The solver against its golden file: 100 seeded full deals and their values (bench/golden.py).

Every run checks the deals the search finds quickest (``GOLDEN_DEALS``, 6); ``make fuzz``
checks all 100 (``GOLDEN_DEALS=100``), some four minutes of processor time.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from bench.analysis import deal
from bench.golden import GOLDEN
from scorekeeper.engine import RuleSet, trick_winner
from scorekeeper.engine.analysis import FAST, PLAIN, Position, solve
from scorekeeper.engine.tricks import SEATS, trick_points

DEALS: list[dict[str, Any]] = json.loads(GOLDEN.read_text())["deals"]
CHECKED = int(os.environ.get("GOLDEN_DEALS", "6"))
RULES = RuleSet()
ENDGAME = 6
"""Tricks left when the plain search takes over."""
QUICKEST = sorted(DEALS, key=lambda golden: golden["nodes"])[:CHECKED]


def position(golden: dict[str, Any]) -> Position:
    return Position.from_hands(golden["trump"], golden["leader"], golden["hands"], RULES)


def test_the_golden_file_holds_the_benchmarks_seeded_deals() -> None:
    """The same 100 deals as bench/analysis.py measures, card for card."""
    assert [golden["seed"] for golden in DEALS] == list(range(100))
    for golden in DEALS:
        assert position(golden) == deal(golden["seed"])
    assert len({golden["value"] for golden in DEALS}) > 30  # values, not one number copied


@pytest.mark.parametrize("golden", QUICKEST, ids=lambda golden: f"seed {golden['seed']}")
def test_a_seeded_deal_has_its_golden_value(golden: dict[str, Any]) -> None:
    assert solve(position(golden), position(golden).search(FAST)) == golden["value"]


def test_the_plain_search_agrees_where_it_can_finish() -> None:
    """The plain search (every speed-up off) gives the golden value on a deal's last tricks.

    The quickest deal is played with best cards to its last 6 tricks; their plain value, with
    the points taken before, is the golden value."""
    golden = QUICKEST[0]
    current = position(golden)
    search = current.search(FAST)
    taken = 0
    while len(current.hands[0]) > ENDGAME or current.trick:
        values = {card: solve(current.play(card), search) for card in current.legal()}
        choose = max if current.to_play % 2 == 0 else min
        current = current.play(choose(sorted(values, key=str), key=values.__getitem__))
        if len(current.trick) == SEATS:
            winner = (current.leader + trick_winner(current.trick, current.trump, RULES)) % SEATS
            taken += trick_points(current.trick, RULES) if winner % 2 == 0 else 0
            current = Position(current.trump, winner, current.hands, RULES)
    assert solve(current, current.search(PLAIN)) + taken == golden["value"]


def test_a_table_kept_for_the_next_search_starts_empty() -> None:
    """The compiled core keeps a full deal's table for the next search (`spare` in _search.c).

    The same hands under each trump suit have the same keys in the table: after the searches
    of the other trumps, each gives the value it gave before them."""
    golden = QUICKEST[0]

    def values(trumps: str) -> dict[str, int]:
        found = {}
        for trump in trumps:
            current = Position.from_hands(trump, golden["leader"], golden["hands"], RULES)
            found[trump] = solve(current, current.search(FAST))
        return found

    first = values("CDHS")
    assert values("SHDC") == first
    assert first[golden["trump"]] == golden["value"]
    assert len(set(first.values())) > 1  # the trump changes the value: a stale entry would show
