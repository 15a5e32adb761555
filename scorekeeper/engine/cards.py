"""Suits, ranks and cards of Sueca, and the 40-card deck of a rule set."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from functools import cache

from .rules import Manilha, RuleSet


class CardError(ValueError):
    """A card that cannot be read, or that is not in the deck of the rule set."""

    code = "card"

    def __init__(self, text: str, message: str | None = None) -> None:
        self.text = text
        super().__init__(
            message or f"{text!r} is not a card: write the rank then the suit, like 7H."
        )


class Suit(enum.Enum):
    """The four suits, written by their English initial."""

    CLUBS = "C"
    """Paus."""
    DIAMONDS = "D"
    """Ouros."""
    HEARTS = "H"
    """Copas."""
    SPADES = "S"
    """Espadas."""

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its letter.

        >>> Suit.parse("h")
        <Suit.HEARTS: 'H'>
        """
        try:
            return cls(text.strip().upper())
        except ValueError:
            raise CardError(text, f"{text!r} is not a suit: use C, D, H or S.") from None

    def __str__(self) -> str:
        return self.value


class Rank(enum.Enum):
    """The ranks a Sueca deck can hold (the 10 only under the Azores manilha)."""

    ACE = "A"
    """Ás: the highest card, 11 points."""
    SEVEN = "7"
    """Sete, the manilha or bisca: second highest, 10 points."""
    TEN = "10"
    """Dez: replaces the seven under `manilha: "10"` (Azores)."""
    KING = "K"
    """Rei: 4 points."""
    JACK = "J"
    """Valete: 3 points (2 under queen_over_jack)."""
    QUEEN = "Q"
    """Dama: 2 points (3 under queen_over_jack)."""
    NINE = "9"
    """Not in a 40-card deck: only ever seen as the Azores' turned card."""
    EIGHT = "8"
    """Not in a 40-card deck: only ever seen as the Azores' turned card."""
    SIX = "6"
    """A blank."""
    FIVE = "5"
    """A blank."""
    FOUR = "4"
    """A blank."""
    THREE = "3"
    """A blank."""
    TWO = "2"
    """A blank."""

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank; ``T`` is accepted for the ten.

        >>> Rank.parse("T")
        <Rank.TEN: '10'>
        """
        cleaned = text.strip().upper()
        if cleaned == "T":
            return cls.TEN
        try:
            return cls(cleaned)
        except ValueError:
            raise CardError(text, f"{text!r} is not a rank of a Sueca deck.") from None

    def __str__(self) -> str:
        return self.value


_BLANKS = (Rank.SIX, Rank.FIVE, Rank.FOUR, Rank.THREE, Rank.TWO)
_PARSED: dict[str, Card] = {}
_PARSED_KEPT = 1024
"""Cards already read, by their text: a record of 40 cards is parsed on every check."""


@dataclass(frozen=True, order=False)
class Card:
    """One card: a rank and a suit. ``str()`` and :meth:`parse` round-trip.

    >>> card = Card.parse("7H")
    >>> card.rank, card.suit
    (<Rank.SEVEN: '7'>, <Suit.HEARTS: 'H'>)
    >>> str(card)
    '7H'
    """

    rank: Rank
    suit: Suit
    # Cards are dictionary keys all through the verifier: hash them once, not per lookup.
    _hash: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.rank.value, self.suit.value)))

    def __hash__(self) -> int:
        return self._hash

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card written rank then suit: ``AS``, ``7H``, ``10D`` or ``TD``.

        >>> str(Card.parse("td"))
        '10D'
        >>> Card.parse("1H")
        Traceback (most recent call last):
        ...
        scorekeeper.engine.cards.CardError: '1H' is not a card: write the rank then the suit, like 7H.
        """
        if not isinstance(text, str):
            raise CardError(repr(text))
        card = _PARSED.get(text)
        if card is not None:
            return card
        cleaned = text.strip().upper()
        if len(cleaned) < 2:
            raise CardError(text)
        try:
            card = cls(Rank.parse(cleaned[:-1]), Suit.parse(cleaned[-1]))
        except CardError:
            raise CardError(text) from None
        if len(_PARSED) < _PARSED_KEPT:
            _PARSED[text] = card
        return card

    def __str__(self) -> str:
        return f"{self.rank}{self.suit}"


class SuitLetters(enum.Enum):
    """The suit letters a person types cards with: each interface reads one set, never both."""

    ENGLISH = "en"
    """C clubs, D diamonds, H hearts, S spades: API.md's letters, and the English interface's."""
    PORTUGUESE = "pt"
    """C copas, O ouros, E espadas, P paus: the Portuguese and Brazilian interfaces'."""


SUIT_LETTERS: dict[SuitLetters, dict[str, Suit]] = {
    SuitLetters.ENGLISH: {suit.value: suit for suit in Suit},
    SuitLetters.PORTUGUESE: {
        "C": Suit.HEARTS,
        "O": Suit.DIAMONDS,
        "E": Suit.SPADES,
        "P": Suit.CLUBS,
    },
}
"""Each set's letters, in the order the interface lists them."""
SUIT_SYMBOLS: dict[str, Suit] = {
    "♣": Suit.CLUBS,
    "♦": Suit.DIAMONDS,
    "♥": Suit.HEARTS,
    "♠": Suit.SPADES,
}
"""The printed symbols: the same suit whatever the letters (♡ ♢ ♤ ♧ too, read as these)."""
_OPEN_SYMBOLS = {"♧": "♣", "♢": "♦", "♡": "♥", "♤": "♠"}
RANK_LETTERS: dict[SuitLetters, dict[str, Rank]] = {
    SuitLetters.ENGLISH: {},
    SuitLetters.PORTUGUESE: {"R": Rank.KING, "V": Rank.JACK, "D": Rank.QUEEN},
}
"""The face cards' own letters of each set (R rei, V valete, D dama), read beside K, J, Q.

A rank letter and a suit letter may be the same (D dama, D diamonds): a typed card is read
by position, the last character its suit and the rest its rank (docs/decisions/card-entry.md)."""


def rank_letter(rank: Rank, letters: SuitLetters) -> str:
    """Return how a rank is written with a set of letters: the king is R in Portuguese.

    >>> rank_letter(Rank.KING, SuitLetters.PORTUGUESE), rank_letter(Rank.KING, SuitLetters.ENGLISH)
    ('R', 'K')
    >>> rank_letter(Rank.TEN, SuitLetters.PORTUGUESE)
    '10'
    """
    for letter, named in RANK_LETTERS[letters].items():
        if named is rank:
            return letter
    return rank.value


class SuitLetterError(CardError):
    """A typed card whose suit letter belongs to the other set of letters.

    ``7H`` in a Portuguese interface, ``7E`` in the English one: refused, never guessed."""

    code = "suit_letter"

    def __init__(self, text: str, letter: str, letters: SuitLetters) -> None:
        self.letter = letter
        self.letters = letters
        super().__init__(
            text,
            f"{text!r}: {letter} is not one of the suit letters "
            f"{', '.join(SUIT_LETTERS[letters])} used here.",
        )


def read_typed(text: str, letters: SuitLetters) -> Card:
    """Read a card as a person typed it: rank then suit, with the interface's ``letters``.

    The face cards are read in the set's own letters as well as in K, J, Q (``RE``, the rei de
    espadas), and a suit symbol is read too. A letter only the other set has is a :class:`SuitLetterError`:
    in a Portuguese interface ``7C`` is the sete de copas, and ``7H`` is not guessed to be one.

    >>> str(read_typed("7c", SuitLetters.PORTUGUESE)), str(read_typed("ae", SuitLetters.PORTUGUESE))
    ('7H', 'AS')
    >>> str(read_typed("RE", SuitLetters.PORTUGUESE)), str(read_typed("DO", SuitLetters.PORTUGUESE))
    ('KS', 'QD')
    >>> str(read_typed("10♥", SuitLetters.ENGLISH)), str(read_typed("7C", SuitLetters.ENGLISH))
    ('10H', '7C')
    >>> read_typed("7H", SuitLetters.PORTUGUESE)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.cards.SuitLetterError: '7H': H is not one of the suit letters C, O, E, P used here.
    """
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise CardError(text)
    mark = _OPEN_SYMBOLS.get(cleaned[-1], cleaned[-1])
    suit = SUIT_SYMBOLS.get(mark) or SUIT_LETTERS[letters].get(mark)
    if suit is None:
        other = [kind for kind in SuitLetters if kind is not letters and mark in SUIT_LETTERS[kind]]
        if other:
            raise SuitLetterError(text, mark, letters)
        raise CardError(text)
    written = cleaned[:-1]
    rank = RANK_LETTERS[letters].get(written)
    try:
        return Card(rank or Rank.parse(written), suit)
    except CardError:
        raise CardError(text) from None


@cache
def rank_order(rules: RuleSet) -> tuple[Rank, ...]:
    """The ranks of the rule set's deck, highest first.

    >>> [str(r) for r in rank_order(RuleSet())]
    ['A', '7', 'K', 'J', 'Q', '6', '5', '4', '3', '2']
    >>> [str(r) for r in rank_order(RuleSet(queen_over_jack=True, manilha=Manilha.TEN))]
    ['A', '10', 'K', 'Q', 'J', '6', '5', '4', '3', '2']
    """
    manilha = Rank.TEN if rules.manilha is Manilha.TEN else Rank.SEVEN
    faces = (Rank.QUEEN, Rank.JACK) if rules.queen_over_jack else (Rank.JACK, Rank.QUEEN)
    return (Rank.ACE, manilha, Rank.KING, *faces, *_BLANKS)


_POINTS_BY_POSITION = (11, 10, 4, 3, 2, 0, 0, 0, 0, 0)


@cache
def _rank_points(rules: RuleSet) -> dict[Rank, int]:
    return dict(zip(rank_order(rules), _POINTS_BY_POSITION, strict=True))


@cache
def _rank_strength(rules: RuleSet) -> dict[Rank, int]:
    order = rank_order(rules)
    return {rank: len(order) - i for i, rank in enumerate(order)}


def card_points(card: Card, rules: RuleSet) -> int:
    """The card points of a card under the rule set.

    >>> card_points(Card.parse("AS"), RuleSet())
    11
    >>> card_points(Card.parse("QS"), RuleSet(queen_over_jack=True))
    3
    """
    return _rank_points(rules).get(card.rank, 0)


def rank_strength(card: Card, rules: RuleSet) -> int:
    """A number that orders cards of one suit: higher beats lower.

    >>> rank_strength(Card.parse("7C"), RuleSet()) > rank_strength(Card.parse("KC"), RuleSet())
    True
    """
    return _rank_strength(rules)[card.rank]


@cache
def deck(rules: RuleSet) -> tuple[Card, ...]:
    """The 40 cards of the rule set's deck, suit by suit, highest rank first.

    >>> cards = deck(RuleSet())
    >>> len(cards), str(cards[0]), sum(card_points(c, RuleSet()) for c in cards)
    (40, 'AC', 120)
    """
    return tuple(Card(rank, suit) for suit in Suit for rank in rank_order(rules))


def in_deck(card: Card, rules: RuleSet) -> bool:
    """Whether the card belongs to the rule set's deck (no 7 in the Azores, no 10 elsewhere).

    >>> in_deck(Card.parse("10H"), RuleSet())
    False
    """
    return card.rank in _rank_points(rules)
