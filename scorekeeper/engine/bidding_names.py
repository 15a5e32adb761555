"""Who sits at a bidding table: each player by a name of their own.

The chips and the scores name the players, so two of one name could not be told apart."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .bidding import PlayersError


class RepeatedPlayerError(PlayersError):
    """Two players of one table with one name: their chips could not be told apart.

    ``value`` is the name as typed the second time."""

    code = "repeated_player"


def check_names(names: Sequence[str]) -> None:
    """Raise :class:`RepeatedPlayerError` when two players share a name.

    Names are matched as a table reads them: the spaces around, the case and the accents'
    composition do not tell two players apart.

    >>> check_names(["Ana", "Bruno", "Zé", "Duarte"])
    >>> check_names(["Ana", "Bruno", " ANA", "Duarte"])
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bidding_names.RepeatedPlayerError: ' ANA' is at the table twice.
    """
    seen: set[str] = set()
    for name in names:
        key = unicodedata.normalize("NFC", name.strip().casefold())
        if key in seen:
            raise RepeatedPlayerError(name, f"{name!r} is at the table twice.")
        seen.add(key)
