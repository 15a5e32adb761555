"""The house rules a rubber is played under: every setting of RULES.md and its presets."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any


class RulesError(ValueError):
    """A rules object with an unknown key or a value the setting does not take."""

    code = "rules"

    def __init__(self, key: str, message: str) -> None:
        self.key = key
        super().__init__(message)


class Tie(enum.Enum):
    """What a 60-60 hand does."""

    CARRY = "carry"
    """Nobody scores; the next decided hand is worth one extra game per tie."""
    VOID = "void"
    """Nobody scores and nothing carries."""
    DOUBLE = "double"
    """Nobody scores; the next decided hand is worth double per tie."""


class Bandeira(enum.Enum):
    """What makes a bandeira (4 games)."""

    TRICKS = "tricks"
    """All 10 tricks (Portugal)."""
    POINTS = "points"
    """All 120 card points (Brazil, online tables)."""


class Revoke(enum.Enum):
    """The penalty for a revoke (renúncia)."""

    OPPONENTS_TWO = "opponents_two"
    """The other team marks 2 games."""
    OFFENDER_MINUS_TWO = "offender_minus_two"
    """The offending team loses 2 of its marked games, never below 0."""
    LOSE_RUBBER = "lose_rubber"
    """The other team wins the rubber at once."""


class Manilha(enum.Enum):
    """The second-highest rank of every suit."""

    SEVEN = "7"
    """The seven (everywhere but the Azores)."""
    TEN = "10"
    """The ten replaces the seven (Azores)."""


class Direction(enum.Enum):
    """How the table turns; play order is always seat n, n+1, ..."""

    COUNTERCLOCKWISE = "counterclockwise"
    """Portugal: the deal passes to the right."""
    CLOCKWISE = "clockwise"
    """Brazil: the deal passes to the left."""


MIN_GAMES_TO_WIN = 1
MAX_GAMES_TO_WIN = 20
GAMES_TO_WIN_OFFERED = (1, 2, 4, 6)
"""The targets offered when a rubber is set up; any from 1 to 20 is accepted."""


@dataclass(frozen=True)
class RuleSet:
    """Every setting of a rubber. The defaults are the ``portugal`` preset.

    >>> RuleSet().games_to_win, RuleSet().tie
    (4, <Tie.CARRY: 'carry'>)
    """

    preset: str = "portugal"
    games_to_win: int = 4
    tie: Tie = Tie.CARRY
    bandeira: Bandeira = Bandeira.TRICKS
    bandeira_wins_rubber: bool = True
    revoke: Revoke = Revoke.OPPONENTS_TWO
    manilha: Manilha = Manilha.SEVEN
    queen_over_jack: bool = False
    direction: Direction = Direction.COUNTERCLOCKWISE
    melar: bool = False

    def __hash__(self) -> int:
        # Rule sets key the caches of decks and rank tables: hash the fields once.
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __post_init__(self) -> None:
        value: object = self.games_to_win
        # bool is an int subclass, and a str would make the range check raise TypeError.
        if (
            isinstance(value, bool)
            or not isinstance(value, int)
            or not MIN_GAMES_TO_WIN <= value <= MAX_GAMES_TO_WIN
        ):
            raise RulesError(
                "games_to_win",
                f"games_to_win must be a whole number from {MIN_GAMES_TO_WIN} to "
                f"{MAX_GAMES_TO_WIN}, not {self.games_to_win!r}.",
            )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> RuleSet:
        """Build a rule set from the API's rules object: the preset, then any overrides.

        >>> RuleSet.from_dict({"preset": "brasil", "melar": False}).bandeira
        <Bandeira.POINTS: 'points'>
        >>> RuleSet.from_dict({"tie": "sometimes"})
        Traceback (most recent call last):
        ...
        scorekeeper.engine.rules.RulesError: tie must be one of carry, void, double, not 'sometimes'.
        """
        data = dict(data or {})
        unknown = sorted(set(data) - _FIELD_NAMES)
        if unknown:
            raise RulesError(unknown[0], f"{unknown[0]!r} is not a rule setting.")
        preset_name = data.pop("preset", "portugal")
        if not isinstance(preset_name, str) or preset_name not in PRESETS:
            raise RulesError(
                "preset", f"preset must be one of {', '.join(PRESETS)}, not {preset_name!r}."
            )
        changes: dict[str, Any] = {}
        for name, value in data.items():
            changes[name] = _parse_setting(name, value)
        return replace(PRESETS[preset_name], **changes)

    def changed(self) -> tuple[str, ...]:
        """The settings that differ from the rule set's own preset, in the order of the fields.

        >>> RuleSet.from_dict({"preset": "brasil", "melar": False, "games_to_win": 6}).changed()
        ('games_to_win', 'melar')
        >>> PRESETS["online"].changed()
        ()
        """
        preset = PRESETS.get(self.preset, PRESETS["portugal"])
        return tuple(
            f.name
            for f in fields(self)
            if f.name != "preset" and getattr(self, f.name) != getattr(preset, f.name)
        )

    def to_dict(self) -> dict[str, Any]:
        """The API's rules object, every field present.

        >>> RuleSet().to_dict()["manilha"]
        '7'
        """
        return {
            f.name: value.value if isinstance(value, enum.Enum) else value
            for f in fields(self)
            for value in [getattr(self, f.name)]
        }


_FIELD_NAMES = frozenset(f.name for f in fields(RuleSet))
_ENUMS: dict[str, type[enum.Enum]] = {
    "tie": Tie,
    "bandeira": Bandeira,
    "revoke": Revoke,
    "manilha": Manilha,
    "direction": Direction,
}
_BOOLS = frozenset({"bandeira_wins_rubber", "queen_over_jack", "melar"})


def _parse_setting(name: str, value: Any) -> Any:
    if name in _ENUMS:
        kind = _ENUMS[name]
        choices = [member.value for member in kind]
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)  # manilha: 7 and "7" mean the same
        if value not in choices:
            raise RulesError(name, f"{name} must be one of {', '.join(choices)}, not {value!r}.")
        return kind(value)
    if name in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(name, f"{name} must be true or false, not {value!r}.")
        return value
    if name == "games_to_win":
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(name, f"games_to_win must be a whole number, not {value!r}.")
        return value
    raise RulesError(name, f"{name!r} is not a rule setting.")  # pragma: no cover


PRESETS: dict[str, RuleSet] = {
    "portugal": RuleSet(),
    "brasil": RuleSet(
        preset="brasil",
        bandeira=Bandeira.POINTS,
        direction=Direction.CLOCKWISE,
        melar=True,
    ),
    "acores": RuleSet(preset="acores", manilha=Manilha.TEN),
    "online": RuleSet(preset="online", tie=Tie.VOID, bandeira=Bandeira.POINTS),
}
"""The four presets of RULES.md, by name."""
