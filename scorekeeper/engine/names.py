"""The names the app takes, and how a table tells them apart.

Every name (a player's, a team's, a pair's, a group's, a tournament's) is read here, at every
door: the forms, the API and the import (docs/decisions/security.md, "Names"). A group's
statistics match its regulars by name, and a bidding table's chips and scores name its players,
so two names that differ only in spaces, case or accents' composition are one name."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from .bidding_faults import BiddingFault, PlayersError

MAX_NAME_LENGTH = 40
"""The longest name a table stores, in characters once read (NFC)."""
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
"""What a name may not hold: control characters, format characters (zero-width spaces and
joiners, the direction marks and overrides that show "exe.png" for "\u202egnp.exe"), lone
surrogates, and line and paragraph separators. None of them is seen as itself on a page."""
HIDDEN_RANGES = (
    (0x0000, 0x001F), (0x007F, 0x009F), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E),
    (0x200B, 0x200F), (0x2028, 0x202E), (0x2060, 0x2064), (0x2066, 0x206F), (0xD800, 0xDFFF),
    (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD), (0x110CD, 0x110CD),
    (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001),
    (0xE0020, 0xE007F),
)  # fmt: skip
"""The code points of :data:`HIDDEN_CATEGORIES` (Unicode 14), for the OpenAPI document's
patterns; :func:`hidden_characters` asks ``unicodedata`` itself."""


class HiddenCharactersError(ValueError):
    """A name that holds a character no one sees as itself: refused, never cleaned.

    ``value`` is the name as given, ``characters`` the code points at fault (``U+200B``)."""

    code = "control_characters"

    def __init__(self, value: str, characters: tuple[str, ...]) -> None:
        self.value = value
        self.characters = characters
        super().__init__(f"{value!r} holds characters that are not seen: {', '.join(characters)}.")


def hidden_characters(name: str) -> tuple[str, ...]:
    """Return the code points of ``name`` that are not seen as themselves, as ``U+200B``.

    >>> hidden_characters("A\u200bna\u202e")
    ('U+200B', 'U+202E')
    >>> hidden_characters("Zé")
    ()
    """
    found = dict.fromkeys(
        f"U+{ord(char):04X}" for char in name if unicodedata.category(char) in HIDDEN_CATEGORIES
    )
    return tuple(found)


def can_read_name(name: str) -> bool:
    """Whether ``name`` is a name :func:`read_name` takes.

    >>> can_read_name("Ana"), can_read_name("\u202eAna")
    (True, False)
    """
    return not hidden_characters(name)


def verify_name(name: str) -> None:
    """Raise :class:`HiddenCharactersError` when ``name`` holds a character no one sees.

    >>> verify_name("Ana\u200d")
    Traceback (most recent call last):
    ...
    scorekeeper.engine.names.HiddenCharactersError: 'Ana\u200d' holds characters that are not seen: U+200D.
    """
    characters = hidden_characters(name)
    if characters:
        raise HiddenCharactersError(name, characters)


def read_name(name: str) -> str:
    """Return ``name`` as it is stored: NFC, without the spaces around it.

    Raise :class:`HiddenCharactersError` first when it holds a character no one sees.

    >>> read_name(" Jose\u0301 ") == "José"
    True
    """
    verify_name(name)
    return unicodedata.normalize("NFC", name).strip()


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


class UnnamedPlayersError(PlayersError):
    """More than one player of a bidding table without a name: they could not be told apart.

    ``value`` is how many have none."""

    code = "unnamed_players"
    fault = BiddingFault.UNNAMED_PLAYERS


def check_names(names: Sequence[str]) -> None:
    """Raise when two players of a bidding table share a name.

    One player may go without a name; two or more raise :class:`UnnamedPlayersError`, a name
    twice :class:`RepeatedPlayerError`.

    >>> check_names(["Ana", "Bruno", "Zé", ""])
    >>> check_names(["Ana", "Bruno", " ANA", "Duarte"])
    Traceback (most recent call last):
    ...
    scorekeeper.engine.names.RepeatedPlayerError: ' ANA' is at the table twice.
    >>> check_names(["", " ", "Zé", "Ana"])
    Traceback (most recent call last):
    ...
    scorekeeper.engine.names.UnnamedPlayersError: 2 players have no name: one at most may go without.
    """
    unnamed = sum(1 for name in names if not player_key(name))
    if unnamed > 1:
        message = f"{unnamed} players have no name: one at most may go without."
        raise UnnamedPlayersError(unnamed, message)
    seen: set[str] = set()
    for name in names:
        key = player_key(name)
        if not key:
            continue
        if key in seen:
            raise RepeatedPlayerError(name, f"{name!r} is at the table twice.")
        seen.add(key)
