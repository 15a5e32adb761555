"""A tournament's settings (RULES.md, "Tournaments"), and the error every refusal raises."""

from __future__ import annotations

from dataclasses import dataclass

FORMATS = ("knockout", "round_robin", "swiss")
MIN_PAIRS, MAX_PAIRS = 3, 128
BEST_OF = (1, 3, 5)

ERROR_CODES = (
    "too_few_pairs",
    "too_many_pairs",
    "even_best_of",
    "bad_best_of",
    "unknown_format",
    "bad_rounds",
    "bad_groups",
    "bad_third_place",
    "round_unfinished",
    "all_rounds_drawn",
    "rounds_draw_themselves",
    "match_played",
    "not_a_pair",
    "bye_match",
    "no_such_match",
    "repeated_player",
    "pair_of_one",
    "withdrawn",
    "too_many_players",
    "control_characters",
    "long_name",
    "not_last_round",
    "round_played",
    "no_walkover",
    "not_withdrawn",
    "result_used",
    "not_in_play",
    "no_late_pairs",
    "match_decided",
    "rubber_played",
    "no_paper_result",
)
"""Every ``code`` a :class:`TournamentError` may carry."""


class TournamentError(ValueError):
    """A refusal: ``code`` says which (one of ERROR_CODES), ``value`` what was wrong.

    ``line`` is the 1-based line of a pasted list of pairs, ``pair`` the 1-based index of a
    pair in a list, when the error is about one. ``limit`` is the most a number may be, when it
    is refused for being out of its range (Swiss ``rounds``); ``twice`` the player named twice
    in one pair, when a ``repeated_player`` is that rather than a player in two pairs.

    >>> error = TournamentError("too_few_pairs", 2, "A tournament needs at least 3 pairs.")
    >>> error.code, error.value, str(error)
    ('too_few_pairs', 2, 'A tournament needs at least 3 pairs.')
    """

    code: str

    def __init__(  # noqa: PLR0913  what a refusal is about, each keyword-only and optional
        self,
        code: str,
        value: object,
        message: str,
        *,
        line: int | None = None,
        pair: int | None = None,
        limit: int | None = None,
        twice: str | None = None,
    ) -> None:
        self.code = code
        self.value = value
        self.line = line
        self.pair = pair
        self.limit = limit
        self.twice = twice
        super().__init__(message)


def bracket_size(pairs: int) -> int:
    """Return S, the places of a knockout bracket: the power of two at or above ``pairs``.

    >>> bracket_size(5), bracket_size(8), bracket_size(2)
    (8, 8, 2)
    """
    return 1 << max(pairs - 1, 0).bit_length()


def default_rounds(pairs: int) -> int:
    """Return a Swiss tournament's rounds when none are given: ceil(log2 n).

    >>> default_rounds(8), default_rounds(9), default_rounds(3)
    (3, 4, 2)
    """
    return (pairs - 1).bit_length()


def snake_groups(pairs: int, groups: int) -> tuple[tuple[int, ...], ...]:
    """Return each group's pairs, seeds drawn in snake order (1 to A, 2 to B, ..., then back).

    >>> snake_groups(10, 3)
    ((1, 6, 7), (2, 5, 8), (3, 4, 9, 10))
    """
    members: list[list[int]] = [[] for _ in range(groups)]
    for index in range(pairs):
        row, column = divmod(index, groups)
        members[column if row % 2 == 0 else groups - 1 - column].append(index + 1)
    return tuple(tuple(group) for group in members)


def group_name(index: int) -> str:
    """Return the name of the group at ``index`` (0-based): A to Z, then AA, AB, ...

    >>> group_name(0), group_name(25), group_name(26), group_name(63)
    ('A', 'Z', 'AA', 'BL')
    """
    name = ""
    index += 1
    while index:
        index, letter = divmod(index - 1, 26)
        name = chr(ord("A") + letter) + name
    return name


def round_robin_rounds(size: int) -> int:
    """Return the rounds of a round robin of ``size`` pairs: n - 1, or n when one rests each round.

    >>> round_robin_rounds(4), round_robin_rounds(5)
    (3, 5)
    """
    return size - 1 if size % 2 == 0 else size


@dataclass(frozen=True)
class Settings:
    """What the organizer chose; every value is checked here (docs/decisions/tournaments.md).

    >>> Settings("swiss", 9).total_rounds
    4
    >>> Settings("round_robin", 10, groups=2, advance=2).total_rounds  # 5 in the groups, 2 after
    7
    >>> Settings("knockout", 9, best_of=2)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.tournaments.settings.TournamentError: A match is best of 1, 3 or 5 rubbers, not 2.
    """

    format: str
    pairs: int
    best_of: int = 1
    rounds: int | None = None
    groups: int | None = None
    advance: int | None = None
    third_place: bool = False

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            raise TournamentError(
                "unknown_format", self.format, f"There is no tournament format {self.format!r}."
            )
        if self.pairs < MIN_PAIRS:
            raise TournamentError(
                "too_few_pairs", self.pairs, f"A tournament needs at least {MIN_PAIRS} pairs."
            )
        if self.pairs > MAX_PAIRS:
            raise TournamentError(
                "too_many_pairs", self.pairs, f"A tournament takes at most {MAX_PAIRS} pairs."
            )
        if self.best_of not in BEST_OF:
            code = "even_best_of" if self.best_of % 2 == 0 else "bad_best_of"
            raise TournamentError(
                code, self.best_of, f"A match is best of 1, 3 or 5 rubbers, not {self.best_of}."
            )
        self._check_rounds()
        self._check_groups()
        self._check_third_place()

    def _check_rounds(self) -> None:
        if self.rounds is None:
            return
        if self.format != "swiss":
            raise TournamentError(
                "bad_rounds", self.rounds, "Only a Swiss tournament is given its number of rounds."
            )
        if not 1 <= self.rounds <= self.pairs - 1:
            raise TournamentError(
                "bad_rounds",
                self.rounds,
                f"A Swiss tournament of {self.pairs} pairs has 1 to {self.pairs - 1} rounds.",
                limit=self.pairs - 1,
            )

    def _check_groups(self) -> None:
        if self.groups is None and self.advance is None:
            return
        if self.format != "round_robin" or self.groups is None or self.advance is None:
            raise TournamentError(
                "bad_groups",
                self.groups,
                "Groups are a round robin's, and need both the groups and the pairs that advance.",
            )
        if self.groups < 2 or self.pairs // self.groups < 2:
            raise TournamentError(
                "bad_groups",
                self.groups,
                f"{self.pairs} pairs make 2 to {self.pairs // 2} groups of at least 2 pairs.",
            )
        smallest = self.pairs // self.groups
        if not 1 <= self.advance < smallest:
            raise TournamentError(
                "bad_groups",
                self.advance,
                f"From groups of {smallest} pairs, 1 to {smallest - 1} of each may advance.",
            )

    def _check_third_place(self) -> None:
        if not self.third_place:
            return
        if self.knockout_pairs is None:
            raise TournamentError(
                "bad_third_place", True, "Only a knockout has a match for third place."
            )
        if self.knockout_pairs < 4:
            raise TournamentError(
                "bad_third_place",
                self.knockout_pairs,
                "A match for third place needs at least 4 pairs in the knockout.",
            )

    @property
    def has_groups(self) -> bool:
        """Return whether a round robin in groups comes before a knockout."""
        return self.groups is not None

    @property
    def knockout_pairs(self) -> int | None:
        """Return the pairs of the knockout (all, or those the groups send), None without one."""
        if self.format == "knockout":
            return self.pairs
        if self.groups is not None and self.advance is not None:
            return self.groups * self.advance
        return None

    @property
    def swiss_rounds(self) -> int:
        """Return a Swiss tournament's rounds, given or by default."""
        return self.rounds if self.rounds is not None else default_rounds(self.pairs)

    @property
    def group_rounds(self) -> int:
        """Return the rounds of the groups' stage (0 without groups): its biggest group's."""
        if self.groups is None:
            return 0
        return max(
            round_robin_rounds(len(group)) for group in snake_groups(self.pairs, self.groups)
        )

    @property
    def knockout_rounds(self) -> int:
        """Return the rounds of the knockout (0 without one): log2 S."""
        knockout = self.knockout_pairs
        return 0 if knockout is None else bracket_size(knockout).bit_length() - 1

    @property
    def wins_needed(self) -> int:
        """Return the rubbers a pair must win to win a match: a majority of ``best_of``."""
        return self.best_of // 2 + 1

    @property
    def total_rounds(self) -> int:
        """Return the rounds the tournament will have in all.

        >>> Settings("knockout", 5, third_place=True).total_rounds
        3
        >>> Settings("round_robin", 7).total_rounds
        7
        """
        if self.format == "swiss":
            return self.swiss_rounds
        if self.format == "knockout":
            return self.knockout_rounds
        if self.groups is not None:
            return self.group_rounds + self.knockout_rounds
        return round_robin_rounds(self.pairs)
