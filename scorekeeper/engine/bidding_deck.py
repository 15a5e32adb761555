"""The deck of a bidding Sueca table: the 40 cards, or 48 with the 9s and 8s for six players."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from .cards import Card, CardError, Rank, Suit

SIX_PLAYERS = 6
"""A table of six plays with the 48-card pack."""
_CARD_POINTS = {Rank.ACE: 11, Rank.SEVEN: 10, Rank.KING: 4, Rank.JACK: 3, Rank.QUEEN: 2}
_RANKS_40 = (
    Rank.ACE,
    Rank.SEVEN,
    Rank.KING,
    Rank.JACK,
    Rank.QUEEN,
    Rank.SIX,
    Rank.FIVE,
    Rank.FOUR,
    Rank.THREE,
    Rank.TWO,
)


@cache
def rank_order(players: int) -> tuple[Rank, ...]:
    """Return the ranks of the table's deck, highest first.

    The 9 and the 8 come just below the queen for six players.

    >>> [str(rank) for rank in rank_order(6)]
    ['A', '7', 'K', 'J', 'Q', '9', '8', '6', '5', '4', '3', '2']
    """
    if players < SIX_PLAYERS:
        return _RANKS_40
    return (*_RANKS_40[:5], Rank.NINE, Rank.EIGHT, *_RANKS_40[5:])


@cache
def deck(players: int) -> tuple[Card, ...]:
    """The cards dealt at a table of ``players``, suit by suit, highest rank first.

    >>> len(deck(5)), len(deck(6)), sum(card_points(card) for card in deck(6))
    (40, 48, 120)
    """
    return tuple(Card(rank, suit) for suit in Suit for rank in rank_order(players))


def card_points(card: Card) -> int:
    """A card's points: A 11, 7 10, K 4, J 3, Q 2, the rest (the 9s and 8s too) 0.

    >>> card_points(Card.parse("9H")), card_points(Card.parse("AH"))
    (0, 11)
    """
    return _CARD_POINTS.get(card.rank, 0)


def in_deck(card: Card, players: int) -> bool:
    """Whether the card is dealt at a table of ``players``.

    >>> in_deck(Card.parse("8S"), 5), in_deck(Card.parse("8S"), 6)
    (False, True)
    """
    return card.rank in rank_order(players)


def read_card(text: str, players: int) -> Card:
    """The card ``text`` names, if it is in the table's deck (raises the engine's CardError).

    >>> str(read_card("9c", 6))
    '9C'
    >>> read_card("9C", 4)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.cards.CardError: 9C is not in the deck of a table of 4.
    """
    card = Card.parse(text)
    if not in_deck(card, players):
        raise CardError(text, f"{card} is not in the deck of a table of {players}.")
    return card


def pile_points(cards: Iterable[Card], players: int) -> int:
    """Return the card points of a pile of the table's cards.

    Raise CardError for a card not in the deck or counted twice.

    >>> pile_points([Card.parse(text) for text in ("AH", "7H", "9H", "8D")], 6)
    21
    """
    seen: set[Card] = set()
    total = 0
    for card in cards:
        if not in_deck(card, players):
            raise CardError(str(card), f"{card} is not in the deck of a table of {players}.")
        if card in seen:
            raise CardError(str(card), f"{card} is counted twice.")
        seen.add(card)
        total += card_points(card)
    return total


class PileError(ValueError):
    """A pile no deal makes.

    Each trick is one card from each player, so a pile holds a multiple of the table's size, up to
    the deck. ``value`` is the count of cards, ``players`` the table's."""

    code = "pile"

    def __init__(self, count: int, players: int) -> None:
        self.value = count
        self.players = players
        super().__init__(
            f"A pile of {count} cards: at a table of {players} a pile holds {players} cards for"
            " each trick it won."
        )


def won_pile_points(cards: Sequence[Card], players: int) -> int:
    """Return the card points of a pile of won tricks, once its size is one a deal can make.

    Raise :class:`PileError` for any other size, and CardError as :func:`pile_points`.

    >>> hearts = [Card.parse(text) for text in ("AH", "7H", "KH", "JH", "QH")]
    >>> won_pile_points(hearts, 5)
    30
    >>> won_pile_points(hearts[:4], 5)
    Traceback (most recent call last):
    ...
    scorekeeper.engine.bidding_deck.PileError: A pile of 4 cards: at a table of 5 a pile holds 5 ...
    """
    if len(cards) % players or len(cards) > len(deck(players)):
        raise PileError(len(cards), players)
    return pile_points(cards, players)
