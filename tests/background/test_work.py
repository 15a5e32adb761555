"""What the consumer stores of a record's analysis: its cards, and the best line from each."""

from __future__ import annotations

from typing import Any

from scorekeeper.background import work
from scorekeeper.engine import RuleSet, verify_record
from scorekeeper.engine.analysis import analyse_record, record_line
from tests.support.records import FULL_RECORD

RULES = RuleSet()
REQUEST = work.record_request("H", 1, FULL_RECORD, RULES)


def _run(budget: float = 120.0) -> dict[str, Any]:
    steps: list[tuple[int, int]] = []
    result = work.run(REQUEST, budget, lambda done, total: steps.append((done, total)))
    assert steps[-1] == (40, 40) or budget < 1
    return result


def test_a_record_s_result_keeps_the_best_line_from_each_card() -> None:
    result = _run()
    record = verify_record("H", 1, FULL_RECORD, RULES)
    expected = analyse_record(record, RULES)
    assert [card["best"] for card in result["cards"]] == [list(c.best) for c in expected.cards]
    lines = work.lines_from_json(result)
    assert len(lines) == len(result["lines"]) == 40
    for index, (item, line) in enumerate(zip(expected.cards, lines, strict=True)):
        assert line is not None
        assert result["lines"][index] == [str(card) for card in line]
        assert record_line(record, RULES, index, line)[-1].taken == item.best


def test_an_older_result_without_lines_is_still_read() -> None:
    """Results stored before the lines were: their cards as before, no line for any."""
    result = _run()
    older = {key: value for key, value in result.items() if key != "lines"}
    analysis = work.record_from_json(older)
    assert len(analysis.cards) == 40 and analysis.value == (52, 68)
    assert work.lines_from_json(older) == (None,) * 40
    assert work.content_key(REQUEST) != work.content_key(REQUEST, version=1)


def test_past_the_budget_the_lines_known_are_kept() -> None:
    result = work.run(REQUEST, 0.05, lambda done, total: None)
    assert len(result["lines"]) == len(result["cards"])
    known = [line is not None for line in result["lines"]]
    assert known == sorted(known)


def test_a_stored_line_that_does_not_fit_its_cards_is_left_out() -> None:
    result = _run()
    broken = {**result, "lines": result["lines"][1:]}
    assert work.lines_from_json(broken) == (None,) * 40
