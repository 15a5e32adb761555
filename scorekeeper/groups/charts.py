"""Geometry of the small server-drawn charts: the games over a rubber, a player's rating.

Only where lines go is decided here; the values come from the engine's state or the ratings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorekeeper import engine

WIDTH = 320
HEIGHT = 140
LEFT = 30
RIGHT = 10
TOP = 10
BOTTOM = 22
MOST_DRAWN = 70
"""Points a line is drawn through at most: about one per 4 pixels of the plot, as many as the
eye can tell apart on a phone; more would be bytes downloaded for nothing."""


@dataclass(frozen=True)
class Series:
    css: str
    """The class the line is drawn with (``team0``, ``team1``, ``rating``)."""
    path: str
    """An SVG path: ``M x y H x V y ...``."""


@dataclass(frozen=True)
class Guide:
    y: float
    label: str
    css: str = ""


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    series: tuple[Series, ...]
    guides: tuple[Guide, ...]
    x_labels: tuple[tuple[float, str], ...]
    band: str | None = None
    """The polygon of the uncertainty band, when there is one."""


def _scale(value: float, low: float, high: float, top: float, bottom: float) -> float:
    if high == low:
        return (top + bottom) / 2
    return round(bottom - (value - low) / (high - low) * (bottom - top), 1)


def _x(index: int, count: int) -> float:
    span = WIDTH - LEFT - RIGHT
    return round(LEFT + (index / max(count, 1)) * span, 1)


def games_chart(state: engine.RubberState) -> Chart:
    """Each team's games after every hand, as steps, with the target as a dashed guide.

    >>> chart = games_chart(engine.replay(engine.RuleSet(), [engine.Hand.played(95)]))
    >>> chart.series[0].path, chart.series[1].path
    ('M 30.0 118.0 H 310.0 V 64.0', 'M 30.0 118.0 H 310.0 V 118.0')
    """
    target = state.rules.games_to_win
    totals = [result.games_after for result in state.hands]
    top_value = max([target, *(max(games) for games in totals)])
    count = len(totals)
    bottom = HEIGHT - BOTTOM
    series = []
    for team in (0, 1):
        y = _scale(0, 0, top_value, TOP, bottom)
        parts = [f"M {_x(0, count)} {y}"]
        for index, games in enumerate(totals, start=1):
            y = _scale(games[team], 0, top_value, TOP, bottom)
            parts.append(f"H {_x(index, count)} V {y}")
        series.append(Series(f"team{team}", " ".join(parts)))
    guides = (
        Guide(_scale(0, 0, top_value, TOP, bottom), "0"),
        Guide(_scale(target, 0, top_value, TOP, bottom), str(target), "target"),
    )
    step = max(1, count // 8)
    labels = tuple((_x(i, count), str(i)) for i in range(0, count + 1, step) if i)
    return Chart(WIDTH, HEIGHT, tuple(series), guides, labels)


def rating_chart(points: Sequence[tuple[float, float]]) -> Chart:
    """A rating (mu) after each rubber, with the band mu ± sigma around it.

    >>> chart = rating_chart([(25.0, 8.3), (27.0, 8.0)])
    >>> chart.series[0].path.startswith("M 30.0"), chart.band is not None
    (True, True)
    """
    count = max(len(points) - 1, 1)
    lows = [mu - sigma for mu, sigma in points]
    highs = [mu + sigma for mu, sigma in points]
    low, high = (min(lows), max(highs)) if points else (0.0, 1.0)
    bottom = HEIGHT - BOTTOM
    line: list[str] = []
    upper = []
    lower = []
    reached = _extremes([mu for mu, _ in points]) | _extremes(lows) | _extremes(highs)
    for index in sorted(set(_drawn(len(points))) | reached):
        mu, sigma = points[index]
        x = _x(index, count)
        line.append(f"{'L' if line else 'M'} {x} {_scale(mu, low, high, TOP, bottom)}")
        upper.append(f"{x},{_scale(mu + sigma, low, high, TOP, bottom)}")
        lower.append(f"{x},{_scale(mu - sigma, low, high, TOP, bottom)}")
    band = " ".join(upper + list(reversed(lower))) if points else None
    guides = (
        Guide(_scale(high, low, high, TOP, bottom), f"{high:.0f}"),
        Guide(_scale(low, low, high, TOP, bottom), f"{low:.0f}"),
    )
    step = max(1, len(points) // 6)
    labels = tuple(
        (_x(i, count), str(i + 1)) for i in range(0, len(points), step) if len(points) > 1
    )
    return Chart(WIDTH, HEIGHT, (Series("rating", " ".join(line)),), guides, labels, band)


def _drawn(count: int) -> list[int]:
    """Return which of ``count`` points a line goes through.

    All of them, or MOST_DRAWN evenly spread from the first to the last (the chart adds the highest
    and lowest, so the line reaches the range of its axis).

    >>> _drawn(3), len(_drawn(200)), _drawn(200)[:3], _drawn(200)[-1]
    ([0, 1, 2], 70, [0, 3, 6], 199)
    """
    if count <= MOST_DRAWN:
        return list(range(count))
    return sorted({round(i * (count - 1) / (MOST_DRAWN - 1)) for i in range(MOST_DRAWN)})


def _extremes(values: Sequence[float]) -> set[int]:
    """Where the lowest and the highest of ``values`` are: a thinned line still reaches them."""
    return {values.index(min(values)), values.index(max(values))} if values else set()
