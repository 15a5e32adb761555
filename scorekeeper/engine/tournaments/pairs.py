"""A tournament's entrants: the organizer's list of pairs, checked, and the draw of their seeds."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..names import MAX_NAME_LENGTH, can_read_name, hidden_characters, player_key, read_name
from .settings import TournamentError

# "Ana e Bruno", "Ana & Bruno", "Ana / Bruno", "Ana, Bruno", "Ana - Bruno", "Ana and Bruno".
_SEPARATOR = re.compile(r"\s*[,/&;+]\s*|\s+(?:e|and|-|–|—)\s+", re.IGNORECASE)


@dataclass(frozen=True)
class PairEntry:
    """One pair as entered: its two players, and its name if it has one."""

    players: tuple[str, str]
    name: str | None = None


def check_pairs(pairs: Sequence[Sequence[str]]) -> None:
    """Raise :class:`TournamentError` for a pair not of two names, or a player in two pairs.

    Names are compared as groups compare them (:func:`~scorekeeper.engine.names.player_key`);
    the error's ``pair`` is the 1-based index of the pair at fault, ``value`` the name.

    >>> check_pairs([["Ana", "Bruno"], ["Carla", "Duarte"], ["Eva", "Filipe"]])
    >>> check_pairs([["Ana", "Bruno"], ["Carla", " ANA"]])
    Traceback (most recent call last):
    ...
    scorekeeper.engine.tournaments.settings.TournamentError: ' ANA' (pair 2) is in two pairs.
    """
    seen: set[str] = set()
    for index, players in enumerate(pairs, start=1):
        if len(players) > 2:
            raise TournamentError(
                "too_many_players",
                ", ".join(players),
                f"Pair {index} has more than two players.",
                pair=index,
            )
        named = [name for name in players if player_key(name)]
        if len(named) < 2:
            raise TournamentError(
                "pair_of_one",
                named[0] if named else "",
                f"Pair {index} needs two players.",
                pair=index,
            )
        repeated = _repeated(named, seen)
        if repeated is not None:
            name, twice = repeated
            where = "twice in one pair" if twice else "in two pairs"
            raise TournamentError(
                "repeated_player",
                name,
                f"{name!r} (pair {index}) is {where}.",
                pair=index,
                twice=name if twice else None,
            )


def _repeated(players: Sequence[str], seen: set[str]) -> tuple[str, bool] | None:
    """Return a player of a pair named before, and whether in this same pair; else note them.

    None when every one is new: then they are added to ``seen``.
    """
    own: dict[str, str] = {}
    for name in players:
        key = player_key(name)
        if key in own:
            return own[key], True  # as first written
        if key in seen:
            return name, False
        own[key] = name
    seen.update(own)
    return None


def parse_pairs(text: str) -> list[PairEntry]:
    """Return the pairs of a pasted list, one a line; blank lines are skipped.

    A line is two names split by "e", "and", "&", "/", ",", ";", "+" or a spaced dash, after an
    optional pair name and a colon; each name is read as every name is
    (:func:`~scorekeeper.engine.names.read_name`). A line that is not two names, or holds a name
    the app does not take, raises :class:`TournamentError` with ``line`` (1-based) and
    ``value`` (the line's text, or the characters at fault).

    >>> parse_pairs("Ana e Bruno\\n\\nOs Primos: Eva, Filipe\\nCarla / Duarte")  # doctest: +NORMALIZE_WHITESPACE
    [PairEntry(players=('Ana', 'Bruno'), name=None),
     PairEntry(players=('Eva', 'Filipe'), name='Os Primos'),
     PairEntry(players=('Carla', 'Duarte'), name=None)]
    >>> parse_pairs("Ana & Bruno\\nBruno - Carla")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.tournaments.settings.TournamentError: Line 2: 'Bruno' is in two pairs.
    """
    entries: list[PairEntry] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        if not can_read_name(raw):
            characters = ", ".join(hidden_characters(raw))
            raise TournamentError(
                "control_characters",
                characters,
                f"Line {number} holds characters that are not seen: {characters}.",
                line=number,
            )
        line = read_name(raw)
        if not line:
            continue
        entry = _parse_line(line, number)
        repeated = _repeated(entry.players, seen)
        if repeated is not None:
            name, twice = repeated
            where = "twice in one pair" if twice else "in two pairs"
            raise TournamentError(
                "repeated_player",
                line,
                f"Line {number}: {name!r} is {where}.",
                line=number,
                twice=name if twice else None,
            )
        entries.append(entry)
    return entries


def _parse_line(line: str, number: int) -> PairEntry:
    name: str | None = None
    players_text = line
    if ":" in line:
        before, players_text = line.split(":", 1)
        name = before.strip() or None
    parts = [part.strip() for part in _SEPARATOR.split(players_text.strip())]
    named = [part for part in parts if part]
    if len(parts) > 2:
        raise TournamentError(
            "too_many_players", line, f"Line {number} is not a pair of two names.", line=number
        )
    if len(named) < 2:
        raise TournamentError(
            "pair_of_one", line, f"Line {number} has one player, not two.", line=number
        )
    for given in (name, *named):
        if given is not None and len(given) > MAX_NAME_LENGTH:
            raise TournamentError(
                "long_name",
                given,
                f"Line {number}: a name has at most {MAX_NAME_LENGTH} characters.",
                line=number,
            )
    return PairEntry((named[0], named[1]), name)


def random_draw(n: int, seed: int) -> tuple[int, ...]:
    """Return the seeds of a random draw: ``result[i]`` is the seed of the pair entered (i+1)th.

    The same ``n`` and ``seed`` always give the same draw (the app stores the result anyway).
    Seeds are the pairs' numbers, 1 to n.

    >>> draw = random_draw(6, 2026)
    >>> sorted(draw) == [1, 2, 3, 4, 5, 6], draw == random_draw(6, 2026)
    (True, True)
    """
    seeds = list(range(1, n + 1))
    random.Random(seed).shuffle(seeds)
    return tuple(seeds)
