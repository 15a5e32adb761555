"""Readable in sunlight: the stylesheet's colours meet WCAG AA contrast, light and dark.

The colours are read from static/app.css itself (its custom properties, light and dark), so a
change there is checked here: 4.5:1 for text, 3:1 for the edges that outline a control.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text(encoding="utf-8")
DARK = re.compile(r"@media \(prefers-color-scheme: dark\) \{(.*?)\}\s*\}", re.S)

TEXT = [
    ("ink", "paper"),
    ("ink", "field"),
    ("ink", "note"),
    ("muted", "paper"),
    ("muted", "field"),
    ("team0", "paper"),
    ("team0", "field"),
    ("team1", "paper"),
    ("team1", "field"),
    ("accent", "paper"),
    ("danger", "paper"),
    ("danger", "field"),
    ("danger", "note"),
    ("accent-ink", "accent"),
    ("red-suit", "paper"),
    ("red-suit", "field"),
    ("red-suit", "note"),
]
"""Text colour on background, as the stylesheet uses them (a hint on the paper, a revoke
button's team colour on a field, the primary button's ink on the felt green, ...)."""
EDGES = [("edge", "paper"), ("edge", "field")]
"""The border that shows where a button or a box is (WCAG 1.4.11: 3:1)."""


def properties(block: str) -> dict[str, str]:
    return dict(re.findall(r"--([a-z0-9-]+):\s*(#[0-9a-fA-F]{3,6})\b", block))


def palette(scheme: str) -> dict[str, str]:
    light_root = re.search(r":root \{(.*?)\}", CSS, re.S)
    assert light_root
    colours = properties(light_root.group(1))
    if scheme == "dark":
        colours.update(properties("".join(DARK.findall(CSS))))
    return colours


def luminance(colour: str) -> float:
    """WCAG 2 relative luminance of an sRGB colour written #rgb or #rrggbb."""
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(2 * digit for digit in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """Return the contrast ratio of two colours, from 1 (the same) to 21 (black on white).

    >>> round(contrast("#000", "#fff"), 1)
    21.0
    >>> contrast("#777", "#777")
    1.0
    """
    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_and_edges_meet_wcag_aa(scheme: str) -> None:
    colours = palette(scheme)
    problems = []
    ratios = []
    for pairs, needed in ((TEXT, 4.5), (EDGES, 3.0)):
        for foreground, background in pairs:
            ratio = contrast(colours[foreground], colours[background])
            ratios.append((round(ratio, 2), foreground, background))
            if ratio < needed:
                problems.append(f"{foreground} on {background}: {ratio:.2f} < {needed}")
    assert not problems, f"{scheme}: " + "; ".join(problems)
    lowest_text = min(r for r in ratios if (r[1], r[2]) in TEXT)
    print(f"\n{scheme}: lowest text contrast {lowest_text}")


def test_the_dark_scheme_changes_every_colour() -> None:
    light, dark = palette("light"), palette("dark")
    assert "var(--red-suit)" in CSS.split(".suit-H, .suit-D", 1)[1].split("}", 1)[0]
    assert set(light) == set(dark)
    assert all(light[name] != dark[name] for name in light)
