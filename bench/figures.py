"""A figure of the benchmark, its budget, the table and the verdict (no measuring here)."""

from __future__ import annotations

import math
from typing import Any

Figure = dict[str, Any]
"""{"figure", "value", "budget", "comparison" ("<=" or ">="), "unit", "ok", "detail"}"""


def figure(
    name: str, value: float, budget: float, comparison: str, unit: str, detail: str
) -> Figure:
    """A measured figure, judged against its budget; a value that is not a number misses.

    >>> figure("page ÷ hello", 0.62, 0.5, ">=", "ratio", "")["ok"]
    True
    >>> figure("bytes", 15_000, 14_600, "<=", "bytes", "")["ok"]
    False
    """
    if comparison not in ("<=", ">="):
        raise ValueError(f"a budget is met with <= or >=, not {comparison!r}")
    ok = not math.isnan(value) and (value <= budget if comparison == "<=" else value >= budget)
    return {
        "figure": name,
        "value": value,
        "budget": budget,
        "comparison": comparison,
        "unit": unit,
        "ok": ok,
        "detail": detail,
    }


def not_measured(name: str, budget: float, comparison: str, unit: str, why: str) -> Figure:
    """A figure the run could not measure: it counts as missed."""
    return figure(name, math.nan, budget, comparison, unit, f"not measured: {why}")


def exit_status(figures: list[Figure]) -> int:
    """0 when every figure met its budget, else 1 (a figure without a verdict misses too)."""
    return 0 if figures and all(item.get("ok") is True for item in figures) else 1


def _number(value: float) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "not measured"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"


def table(figures: list[Figure]) -> str:
    """The figures as a Markdown table, the way docs/performance.md shows them."""
    rows = [
        "| figure | value | budget | met | detail |",
        "|---|---|---|---|---|",
    ]
    for item in figures:
        unit = f" {item['unit']}" if item["unit"] else ""
        rows.append(
            f"| {item['figure']} | {_number(item['value'])}{unit} "
            f"| {item['comparison']} {_number(item['budget'])}{unit} "
            f"| {'yes' if item['ok'] else 'NO'} | {item['detail']} |"
        )
    return "\n".join(rows)


def for_json(figures: list[Figure]) -> list[Figure]:
    """The figures with a missing value written as null (JSON has no NaN)."""
    return [
        {
            **item,
            "value": None
            if isinstance(item["value"], float) and math.isnan(item["value"])
            else item["value"],
        }
        for item in figures
    ]
