"""Geometry of the score drawings: the cross (cruz), the tally (risquinhos) and the table.

Only where things go on the paper is decided here; how many games each team holds, and which
hand earned each, comes from the engine's state.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from scorekeeper import engine

CROSS_SIZE = 200
CENTRE = CROSS_SIZE // 2
"""Whole units: the page writes every place of the cross as a whole number ("88", not "88.0")."""
ARM = 76
DOT_OFFSET = 12
RING_STEP = 15
FIRST_DOT = 64
LABEL_GAP = 10
"""From a dot to its hand number, which sits on the side away from the arm."""
LABEL_HALF_HEIGHT = 7
"""Half the height of a digit of the hand numbers (20 units): to centre one beside a dot."""
# Arms in the order their ends are filled: top, right, bottom, left.
_ARMS = ((0, -1), (1, 0), (0, 1), (-1, 0))


@dataclass(frozen=True)
class Dot:
    x: float
    y: float
    team: int
    hand: int | None
    """The hand that earned this game; None for a dot still to be earned."""
    label: tuple[float, float, str] = (0, 0, "middle")
    """Where the dot's hand number is written (x, y, text-anchor): beside the dot, away from
    its arm, so that no number sits on a stroke."""


@dataclass(frozen=True)
class Cross:
    size: int
    arm_ends: tuple[tuple[float, float], ...]
    dots: tuple[Dot, ...]
    loop: tuple[float, float, float] | None
    """Centre and radius of the pente loop round the winner's dots, when there is one."""
    loop_team: int | None
    beyond: tuple[int, int] = (0, 0)
    """Each team's games past the target, written beside the target's dots (RULES.md)."""


def dot_position(team: int, index: int) -> tuple[float, float]:
    """Return where the team's game number ``index`` (from 0) goes.

    One arm end after another, then inward along the arms; team 0 on the upper-left side of each
    arm, team 1 on the lower-right."""
    dx, dy = _ARMS[index % 4]
    along = FIRST_DOT - (index // 4) * RING_STEP
    side = -DOT_OFFSET if team == 0 else DOT_OFFSET
    # The offset is across the arm: sideways for vertical arms, up/down for horizontal ones.
    x = CENTRE + dx * along + (side if dx == 0 else 0)
    y = CENTRE + dy * along + (side if dy == 0 else 0)
    return (x, y)


def label_position(team: int, index: int) -> tuple[float, float, str]:
    """Return where the hand number of the team's game ``index`` goes, on the side its dot is on.

    Left or right of a dot on an upright arm, above or below one on a level arm."""
    x, y = dot_position(team, index)
    side = -1 if team == 0 else 1
    if _ARMS[index % 4][0] == 0:  # an upright arm: the dots sit beside it
        return (x + side * LABEL_GAP, y + LABEL_HALF_HEIGHT, "end" if team == 0 else "start")
    below = LABEL_GAP + 2 * LABEL_HALF_HEIGHT if team == 1 else -LABEL_GAP
    return (x, y + below, "middle")


def cross(state: engine.RubberState) -> Cross:
    """Return the cross of a rubber: the target's places, a dot in each game held.

    A hand may take a team past the target: the cross stops at the target's dots as on paper,
    and ``beyond`` says how many more (the engine's count)."""
    dots: list[Dot] = []
    for team in (0, 1):
        earned = state.dots(team)
        for index in range(state.rules.games_to_win):
            x, y = dot_position(team, index)
            hand = earned[index] if index < len(earned) else None
            dots.append(Dot(x, y, team, hand, label_position(team, index)))
    loop = None
    if state.pente and state.winner is not None and state.games[state.winner] >= 4:
        # The loop goes round the four arm ends: a pente to a lower target has no loop.
        points = [dot_position(state.winner, i) for i in range(4)]
        cx = sum(p[0] for p in points) / 4
        cy = sum(p[1] for p in points) / 4
        radius = max(math.dist((cx, cy), p) for p in points) + 9
        loop = (round(cx, 1), round(cy, 1), round(radius, 1))
    return Cross(
        size=CROSS_SIZE,
        arm_ends=tuple((CENTRE + dx * ARM, CENTRE + dy * ARM) for dx, dy in _ARMS),
        dots=tuple(dots),
        loop=loop,
        loop_team=state.winner if loop else None,
        beyond=(state.past_target(0), state.past_target(1)),
    )


@dataclass(frozen=True)
class Stroke:
    x1: float
    y1: float
    x2: float
    y2: float


def tally(games: int) -> tuple[Stroke, ...]:
    """Return the risquinhos: four upright strokes and a fifth across them, group after group.

    One stroke for every game the team holds, past the target too (issue 25: a 5-0 showed 4).

    >>> len(tally(5)), tally(5)[4].y1 > tally(5)[4].y2
    (5, True)
    """
    strokes: list[Stroke] = []
    for index in range(max(games, 0)):
        group, place = divmod(index, 5)
        left = 4 + group * 34
        if place < 4:
            x = left + place * 7
            strokes.append(Stroke(x, 4, x, 30))
        else:
            strokes.append(Stroke(left - 3, 26, left + 24, 8))
    return tuple(strokes)


@dataclass(frozen=True)
class SeatView:
    seat: int
    place: str
    """Where the seat is drawn round the table: bottom, right, top or left."""
    team: int
    roles: tuple[str, ...]
    """Codes of what the seat does in the next hand: deals, shuffles, cuts, leads."""


def table(state: engine.RubberState) -> tuple[SeatView, ...]:
    """The four seats round the table for the next hand, drawn in the rules' direction.

    Play goes seat 0, 1, 2, 3: counter-clockwise that is bottom, right, top, left.
    """
    if state.rules.direction is engine.Direction.COUNTERCLOCKWISE:
        places = ("bottom", "right", "top", "left")
    else:
        places = ("bottom", "left", "top", "right")
    roles: dict[int, list[str]] = {seat: [] for seat in range(4)}
    roles[state.dealer].append("deals")
    roles[state.shuffler].append("shuffles")
    roles[state.cutter].append("cuts")
    roles[state.leader].append("leads")
    return tuple(
        SeatView(seat, places[seat], engine.team_of(seat), tuple(roles[seat])) for seat in range(4)
    )
