"""The computation the consumer runs: the engine's solver under a time budget, as JSON.

What is analysed travels as a plain mapping (``request``): the trump's letter, the first
leader, the tricks of a complete record or the four open hands, and the full rules. Its hash is
the analysis' id, so the same content is never analysed twice.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from typing import Any

from scorekeeper import engine
from scorekeeper.engine import analysis as solver

VERSION = 2
"""Part of every key: raise it when the solver's answers change, and old results are left.

2: a record's result has ``lines``, the best line from before each card (1 had none)."""
RECORD_CARDS = 40
OUT_OF_TIME = "out_of_time"


def record_request(
    trump: str, leader: int, tricks: list[list[str]], rules: engine.RuleSet
) -> dict[str, Any]:
    """What a record's analysis reads; the tricks as the verifier printed them."""
    return {"trump": trump, "leader": leader, "tricks": tricks, "rules": rules.to_dict()}


def hands_request(
    trump: str, leader: int, hands: list[list[str]], rules: engine.RuleSet
) -> dict[str, Any]:
    """What open hands' analysis reads; each hand in one order, so the key ignores the order."""
    return {
        "trump": trump,
        "leader": leader,
        "hands": [sorted(hand) for hand in hands],
        "rules": rules.to_dict(),
    }


def content_key(request: dict[str, Any], version: int = VERSION) -> str:
    """The analysis' id: the SHA-256 of its content and of :data:`VERSION` (or an older one).

    >>> len(content_key({"trump": "H"}))
    64
    """
    text = json.dumps({"version": version, **request}, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def total(request: dict[str, Any]) -> int:
    """The steps of its progress: the 40 cards of a record, or the one position of open hands."""
    return RECORD_CARDS if "tricks" in request else 1


Progress = Callable[[int, int], None]


def run(request: dict[str, Any], budget: float, progress: Progress) -> dict[str, Any]:
    """Analyse ``request`` within ``budget`` seconds and return the result's JSON.

    A record past its budget answers the cards analysed (the last ones) with ``complete``
    false, and the best lines found in the time left (``None`` for the others); open hands
    past it raise :class:`engine.analysis.OutOfTime`.
    """
    rules = engine.RuleSet.from_dict(request["rules"])
    deadline = time.monotonic() + budget
    if "tricks" in request:
        record = engine.verify_record(
            engine.Suit(request["trump"]), request["leader"], request["tricks"], rules
        )
        search = solver.record_search(record)
        analysis = solver.analyse_record(
            record, rules, deadline=deadline, progress=progress, search=search
        )
        return record_json(analysis, solver.record_lines(record, rules, analysis, search, deadline))
    position = solver.Position.from_hands(
        request["trump"], request["leader"], request["hands"], rules
    )
    search = position.search()
    value = solver.solve(position, search, deadline)
    _, kept = solver.best_cards(position, search, value)
    progress(1, 1)
    return {
        "value": [value, position.points() - value],
        "best_cards": [str(card) for card in kept],
        "complete": True,
    }


def record_json(
    analysis: solver.RecordAnalysis, lines: tuple[solver.Line | None, ...]
) -> dict[str, Any]:
    """A record's analysis as API.md's result, with ``complete`` (false past the budget).

    And one field more: ``lines``, beside ``cards``, the best line from before each card.
    """
    return {
        "value": list(analysis.value) if analysis.value is not None else None,
        "played": list(analysis.played),
        "complete": analysis.complete,
        "cards": [
            {
                "trick": card.trick,
                "seat": card.seat,
                "card": str(card.card),
                "value": list(card.value),
                "best": list(card.best),
                "cost": card.cost,
                "best_cards": [str(best) for best in card.best_cards],
            }
            for card in analysis.cards
        ],
        "lines": [None if line is None else [str(card) for card in line] for line in lines],
    }


def record_from_json(result: dict[str, Any]) -> solver.RecordAnalysis:
    """A stored record's result back as the engine's analysis (for its verdict)."""
    cards = tuple(
        solver.CardAnalysis(
            item["trick"],
            item["seat"],
            engine.Card.parse(item["card"]),
            (item["value"][0], item["value"][1]),
            (item["best"][0], item["best"][1]),
            item["cost"],
            tuple(engine.Card.parse(text) for text in item["best_cards"]),
        )
        for item in result["cards"]
    )
    value = result["value"]
    played = result["played"]
    return solver.RecordAnalysis(
        (value[0], value[1]) if value is not None else None, (played[0], played[1]), cards
    )


def lines_from_json(result: dict[str, Any]) -> tuple[solver.Line | None, ...]:
    """A stored record's best lines, one per card (None where there is none).

    A result stored before the lines (:data:`VERSION` 1) has none.
    """
    cards = result["cards"]
    lines = result.get("lines")
    if not isinstance(lines, list) or len(lines) != len(cards):
        return (None,) * len(cards)
    return tuple(
        None if line is None else tuple(engine.Card.parse(text) for text in line) for line in lines
    )
