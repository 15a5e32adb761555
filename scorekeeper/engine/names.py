"""The players' names: how a table tells them apart.

A group's statistics match its regulars by name, and a bidding table's chips and scores name its
players, so two names that differ only in spaces, case or accents' composition are one name."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .bidding_faults import BiddingFault, PlayersError


def player_key(name: str | None) -> str:
    """How names are matched: surrounding spaces dropped, case folded, accents composed.

    >>> player_key("  Zé ") == player_key("ZÉ") == "zé"
    True
    """
    text = unicodedata.normalize("NFC", name or "").strip()
    return unicodedata.normalize("NFC", text.casefold())


class RepeatedPlayerError(PlayersError):
    """Two players of one bidding table with one name: their chips could not be told apart.

    ``value`` is the name as typed the second time."""

    code = "repeated_player"
    fault = BiddingFault.REPEATED_PLAYER


def check_names(names: Sequence[str]) -> None:
    """Raise :class:`RepeatedPlayerError` when two players of a bidding table share a name.

    >>> check_names(["Ana", "Bruno", "Zé", "Duarte"])
    >>> check_names(["Ana", "Bruno", " ANA", "Duarte"])
    Traceback (most recent call last):
    ...
    scorekeeper.engine.names.RepeatedPlayerError: ' ANA' is at the table twice.
    """
    seen: set[str] = set()
    for name in names:
        key = player_key(name)
        if key in seen:
            raise RepeatedPlayerError(name, f"{name!r} is at the table twice.")
        seen.add(key)
