"""Geometry of a tournament's bracket: a column per knockout round, a box per match, the lines.

Only where things go is decided here, as plain numbers and strings for the SVG template
(templates/tournaments/_bracket.html); who plays, who won and which places are byes come from
the engine's fold. A place whose pair is not known yet (a match still to be played before it,
or a knockout after groups not yet over) is drawn empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

from scorekeeper.engine import tournaments as tourney
from scorekeeper.engine.tournaments.draws import bracket_order, first_round_tables

BOX_WIDTH = 260
ROW_HEIGHT = 34
BOX_HEIGHT = 2 * ROW_HEIGHT
GAP = 22
"""Between two boxes of the first column."""
COLUMN_GAP = 40
MARGIN = 12
TITLE_HEIGHT = 40
"""Above the boxes: each column's name."""
WINS_WIDTH = 44
"""The right-hand end of a box, where a side's wins are written."""
LABEL_WIDTH = BOX_WIDTH - WINS_WIDTH - 16
THIRD_GAP = 56
"""Between the final and the match for third place below it (its title between them)."""


@dataclass(frozen=True)
class Side:
    """One place of a match: its pair (None while unknown), its wins, whether it won."""

    pair: int | None
    label: str | None
    wins: int | None
    """None for a bye or a match not yet drawn."""
    winner: bool
    bye: bool = False
    """The empty place of a bye."""


@dataclass(frozen=True)
class Box:
    x: int
    y: int
    round: int
    table: int
    stage: str
    sides: tuple[Side, Side]
    walkover: bool
    drawn: bool
    """Whether the engine lists the match yet (both its pairs known)."""

    @property
    def centre(self) -> int:
        return self.y + BOX_HEIGHT // 2

    @property
    def winner(self) -> int | None:
        for side in self.sides:
            if side.winner:
                return side.pair
        return None


@dataclass(frozen=True)
class Column:
    x: int
    """Its middle, where its name is written."""
    round: int
    from_end: int
    """0 for the final's column, 1 for the semi-finals', ..."""


@dataclass(frozen=True)
class Bracket:
    width: int
    height: int
    columns: tuple[Column, ...]
    boxes: tuple[Box, ...]
    lines: tuple[str, ...]
    """SVG paths joining each match to the next."""
    third_title: tuple[int, int] | None
    """Where the match for third place's title goes, when there is one."""
    box_width: ClassVar[int] = BOX_WIDTH
    row_height: ClassVar[int] = ROW_HEIGHT
    wins_x: ClassVar[int] = BOX_WIDTH - 10
    """From a box's left edge to the right end of its wins."""
    label_width: ClassVar[int] = LABEL_WIDTH


def _side(match: tourney.Match, index: int, label: Callable[[int], str]) -> Side:
    pair = match.pairs[index]
    if pair is None:
        return Side(None, None, None, False, bye=True)
    return Side(
        pair, label(pair), None if match.is_bye else match.wins[index], match.winner == pair
    )


def _unknown(pair: int | None, label: Callable[[int], str], bye: bool = False) -> Side:
    return Side(pair, label(pair) if pair is not None else None, None, False, bye=bye)


def _third_place(fold: tourney.Tournament, final: Box, label: Callable[[int], str]) -> Box:
    """The match for third place's box, below the final's."""
    y = final.y + BOX_HEIGHT + THIRD_GAP
    for played in fold.rounds:
        for match in played.matches:
            if match.stage == "third_place":
                sides = (_side(match, 0, label), _side(match, 1, label))
                return Box(final.x, y, final.round, 2, "third_place", sides, match.walkover, True)
    sides = (_unknown(None, label), _unknown(None, label))
    return Box(final.x, y, final.round, 2, "third_place", sides, False, False)


def build(fold: tourney.Tournament, label: Callable[[int], str]) -> Bracket | None:
    """Return the bracket of the tournament's knockout, None for a format without one.

    ``label`` names a pair by its number."""
    settings = fold.settings
    if settings.knockout_pairs is None:
        return None
    size = tourney.bracket_size(settings.knockout_pairs)
    depth = settings.knockout_rounds
    offset = settings.group_rounds
    drawn = {
        (match.round, match.table): match
        for played in fold.rounds
        for match in played.matches
        if match.stage == "knockout"
    }
    order = bracket_order(size)
    first_tables = first_round_tables(settings.knockout_pairs)
    boxes: list[list[Box]] = []
    lines: list[str] = []
    for column in range(depth):
        x = MARGIN + column * (BOX_WIDTH + COLUMN_GAP)
        number = offset + column + 1
        row: list[Box] = []
        for place in range(size >> (column + 1)):
            table = first_tables[place] if column == 0 else place + 1
            match = drawn.get((number, table))
            if column == 0:
                y = MARGIN + TITLE_HEIGHT + place * (BOX_HEIGHT + GAP)
            else:
                upper, lower = boxes[-1][2 * place], boxes[-1][2 * place + 1]
                y = (upper.centre + lower.centre) // 2 - BOX_HEIGHT // 2
            if match is not None:
                sides = (_side(match, 0, label), _side(match, 1, label))
                box = Box(x, y, number, table, "knockout", sides, match.walkover, True)
            elif column == 0:  # the knockout after groups, before they are over
                bye = order[2 * place + 1] > settings.knockout_pairs
                sides = (_unknown(None, label), _unknown(None, label, bye=bye))
                box = Box(x, y, number, table, "knockout", sides, False, False)
            else:
                sides = (_unknown(upper.winner, label), _unknown(lower.winner, label))
                box = Box(x, y, number, place + 1, "knockout", sides, False, False)
            if column > 0:
                for child in (upper, lower):
                    middle = child.x + BOX_WIDTH + COLUMN_GAP // 2
                    lines.append(
                        f"M{child.x + BOX_WIDTH} {child.centre}H{middle}V{box.centre}H{box.x}"
                    )
            row.append(box)
        boxes.append(row)
    width = 2 * MARGIN + depth * BOX_WIDTH + (depth - 1) * COLUMN_GAP
    height = MARGIN + TITLE_HEIGHT + (size // 2) * (BOX_HEIGHT + GAP) - GAP + MARGIN
    every = [box for row in boxes for box in row]
    third_title = None
    if settings.third_place:
        third = _third_place(fold, boxes[-1][0], label)
        every.append(third)
        third_title = (third.x + BOX_WIDTH // 2, third.y - 14)
        height = max(height, third.y + BOX_HEIGHT + MARGIN)
    columns = tuple(
        Column(
            MARGIN + c * (BOX_WIDTH + COLUMN_GAP) + BOX_WIDTH // 2, offset + c + 1, depth - 1 - c
        )
        for c in range(depth)
    )
    return Bracket(width, height, columns, tuple(every), tuple(lines), third_title)
