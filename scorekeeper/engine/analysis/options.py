"""The search's options, its numbering of cards, and the compiled core when it was built.

Cards are numbers 0..39: ``10 * suit + place``, place 0 the suit's highest rank under the rule
set (ace, manilha, king, then the two faces, then the five blanks), so one search serves every
rule variant. A hand is an int with one bit per card.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType


def _load_core() -> ModuleType | None:
    try:
        return importlib.import_module("._search", __package__)
    except ImportError:  # pragma: no cover - built without a C compiler
        return None


COMPILED = _load_core()

# The numbering and the points are the compiled core's own when it was built (it exports
# them), so the two searches cannot count differently; these are for the pure-Python search
# alone, where no compiler was.
PLACES: int = COMPILED.PLACES if COMPILED else 10
PLACE_POINTS: tuple[int, ...] = (
    COMPILED.PLACE_POINTS if COMPILED else (11, 10, 4, 3, 2, 0, 0, 0, 0, 0)
)
POINTS = tuple(PLACE_POINTS[i % PLACES] for i in range(4 * PLACES))
SUIT_MASK = tuple(((1 << PLACES) - 1) << (PLACES * suit) for suit in range(4))
FACES: int = COMPILED.FACES if COMPILED else 5
"""Places 0..4 hold points, each a different number; places 5..9 are the blanks."""
BLANKS = (1 << (PLACES - FACES)) - 1
CHECK_CLOCK_EVERY: int = COMPILED.CHECK_CLOCK_EVERY if COMPILED else 2048
"""Trick boundaries searched between two looks at the clock, when there is a deadline."""
SWITCHES: dict[str, int] = dict(COMPILED.SWITCHES) if COMPILED else {}
"""The compiled core's switches, by the names of :class:`Options`' fields, and their bits."""


def _packed(remaining: int, held: int) -> int:
    """Return ``held`` with the gaps of played blanks closed.

    ``held`` is a subset of ``remaining``, both 5-bit blank masks; the answer keeps the blanks'
    order among the cards still in play, not their ranks.
    """
    packed, place = 0, 0
    for bit in range(PLACES - FACES):
        if remaining >> bit & 1:
            if held >> bit & 1:
                packed |= 1 << place
            place += 1
    return packed


PACK = tuple(tuple(_packed(r, h & r) for h in range(32)) for r in range(32))


def _apart(mine: int, its: int) -> tuple[int, int]:
    """How much more and less the faces ``mine`` are worth than ``its``, slot by slot.

    Both are 5-bit sets of one suit's faces in play, in two positions of one rank class: the
    i-th card in play of the suit in one stands where the other's i-th does (past the faces,
    blanks, worth nothing).
    """
    more = less = 0
    while mine or its:
        a = PLACE_POINTS[(mine & -mine).bit_length() - 1] if mine else 0
        b = PLACE_POINTS[(its & -its).bit_length() - 1] if its else 0
        more, less = more + max(a - b, 0), less + max(b - a, 0)
        mine &= mine - 1
        its &= its - 1
    return more, less


APART = tuple(tuple(_apart(mine, its) for its in range(32)) for mine in range(32))


@dataclass(frozen=True)
class Options:
    """The speed-ups of the search; each may be switched off and the values stay the same."""

    table: bool = True
    """A transposition table at trick boundaries: bounds on the points still to come."""
    blank_classes: bool = True
    """The table's key closes the gaps of played blanks (their order is all that matters)."""
    zero_window: bool = True
    """Zero-window searches bisected to the value (MTD-style) instead of one full window."""
    equivalent_cards: bool = True
    """Of cards of one hand with the same points and no card in play between them, try one."""
    ordering: bool = True
    """Likely best cards first: the table's best lead, winning cheaply, points on a partner."""
    bounds: bool = True
    """Stop when the points still winnable cannot reach the window (a top trump run is sure)."""
    lookahead: bool = True
    """Before the fourth card of a trick is searched, the table's bounds on the next trick's
    positions: one that decides the window decides it (enhanced transposition cutoffs)."""
    lookahead_values: bool = True
    """The lookahead's bounds also stand for the value of each fourth card whose next position
    they decide on its own (an exact value, or a bound on the side of the window the card cannot
    change): that position is not searched again."""
    rank_classes: bool = True
    """The table's key is each card's place among its suit's cards in play, whatever was played:
    a position takes the bounds of another of its class, widened by the points their cards
    differ by, slot by slot (the same line of play puts each card where the other's was)."""
    reuse: bool = True
    """Keep the table across the 40 positions of a record (they share their endgames)."""
    compiled: bool = True
    """The C core (_search.c) when it was built: the same search, about 100 times faster."""


PLAIN = Options(
    table=False,
    blank_classes=False,
    zero_window=False,
    equivalent_cards=False,
    ordering=False,
    bounds=False,
    lookahead=False,
    lookahead_values=False,
    rank_classes=False,
    reuse=False,
    compiled=False,
)
"""Every speed-up off: alpha-beta alone, in Python."""


def compiled_core() -> bool:
    """Whether the C core was built (``pip install`` builds it where a compiler is)."""
    return COMPILED is not None


FAST = Options()
"""Every speed-up on."""


class OutOfTime(Exception):
    """The search passed its deadline."""
