"""Tricks: who wins one, what a player may play, and what a hand of cards is worth."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from .cards import Card, CardError, Suit, card_points, deck, in_deck, rank_strength
from .rules import RuleSet

SEATS = 4
TRICKS_PER_HAND = 10
MELAR_BELOW = 10


class IllegalCardError(ValueError):
    """A card a player may not play: they hold the led suit and played another."""

    code: ClassVar[str] = "illegal_card"

    def __init__(self, card: Card, led: Suit) -> None:
        self.card = card
        self.led = led
        super().__init__(f"{card} may not be played: the player holds {led} and must follow suit.")


def team_of(seat: int) -> int:
    """The team of a seat: partners sit opposite.

    >>> [team_of(seat) for seat in range(4)]
    [0, 1, 0, 1]
    """
    return seat % 2


def trick_winner(cards: Sequence[Card], trump: Suit, rules: RuleSet) -> int:
    """The position (0 = the leader) of the card that wins the trick.

    The highest trump wins; with no trump, the highest card of the led suit.

    >>> trick_winner([Card.parse(c) for c in ("KS", "AS", "2H", "7S")], Suit.CLUBS, RuleSet())
    1
    >>> trick_winner([Card.parse(c) for c in ("KS", "AS", "2H", "7S")], Suit.HEARTS, RuleSet())
    2
    """
    led = cards[0].suit
    best = 0
    for position, card in enumerate(cards[1:], start=1):
        top = cards[best]
        if card.suit == top.suit:
            if rank_strength(card, rules) > rank_strength(top, rules):
                best = position
        elif card.suit == trump or (top.suit not in (trump, led) and card.suit == led):
            best = position
    return best


def trick_points(cards: Iterable[Card], rules: RuleSet) -> int:
    """The card points in a trick (or any pile of cards).

    >>> trick_points([Card.parse(c) for c in ("AS", "7S", "KS", "JS")], RuleSet())
    28
    """
    return sum(card_points(card, rules) for card in cards)


def legal_cards(hand: Iterable[Card], led: Suit | None) -> frozenset[Card]:
    """The cards of a hand that may be played to a trick led in ``led`` (None: leading).

    >>> sorted(str(c) for c in legal_cards([Card.parse("AS"), Card.parse("2H")], Suit.HEARTS))
    ['2H']
    """
    cards = frozenset(hand)
    following = frozenset(card for card in cards if card.suit == led)
    return following or cards


def can_play(card: Card, hand: Iterable[Card], led: Suit | None) -> bool:
    """Whether ``card`` may be played from ``hand`` to a trick led in ``led``.

    >>> can_play(Card.parse("AS"), [Card.parse("AS"), Card.parse("2H")], Suit.HEARTS)
    False
    """
    return card in legal_cards(hand, led)


def verify_play(card: Card, hand: Iterable[Card], led: Suit | None) -> None:
    """Raise :class:`IllegalCardError` unless ``card`` may be played.

    >>> verify_play(Card.parse("2H"), [Card.parse("AS"), Card.parse("2H")], Suit.HEARTS)
    """
    if not can_play(card, hand, led):
        assert led is not None
        raise IllegalCardError(card, led)


def hand_points(cards: Iterable[str | Card], rules: RuleSet) -> int:
    """The card points in a player's hand, for the melar check.

    >>> hand_points(["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"], RuleSet())
    6
    """
    parsed = [card if isinstance(card, Card) else Card.parse(card) for card in cards]
    return trick_points(parsed, rules)


def verify_melar_hand(cards: Sequence[str], rules: RuleSet) -> int:
    """Check a 10-card hand and return its points; raise :class:`CardError` if it is not one.

    >>> verify_melar_hand(["AS", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "5H", "6H"], RuleSet())
    11
    """
    parsed = [Card.parse(text) for text in cards]
    for text, card in zip(cards, parsed, strict=True):
        if not in_deck(card, rules):
            raise CardError(text, f"{card} is not in this deck.")
    if len(set(parsed)) != len(parsed):
        raise CardError(",".join(cards), "A card is written twice in this hand.")
    if len(parsed) != TRICKS_PER_HAND:
        raise CardError(",".join(cards), f"A hand has 10 cards, not {len(parsed)}.")
    return hand_points(parsed, rules)


def can_spoil(cards: Sequence[str], rules: RuleSet) -> bool:
    """Whether a leader holding these 10 cards may spoil the deal (melar): fewer than 10 points.

    >>> can_spoil(["AS", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "5H", "6H"], RuleSet())
    False
    """
    return verify_melar_hand(cards, rules) < MELAR_BELOW


class PileError(ValueError):
    """A pile of won cards that no number of tricks makes: ``value`` is its number of cards."""

    code: ClassVar[str] = "pile"

    def __init__(self, count: int) -> None:
        self.value = count
        super().__init__(
            f"A pile of {count} cards: a team's pile holds 4 cards for each trick it won."
        )


def pile_points(cards: Sequence[Card], rules: RuleSet) -> int:
    """Return the card points of one team's pile of won cards.

    A pile holds 4 cards a trick (0 to 40); raise :class:`PileError` for one no trick count
    makes.

    >>> pile_points([Card.parse(c) for c in ("AS", "7S", "KS", "JS")], RuleSet())
    28
    >>> pile_points([Card.parse(c) for c in ("AS", "7S", "KS")], RuleSet())
    Traceback (most recent call last):
    ...
    scorekeeper.engine.tricks.PileError: A pile of 3 cards: a team's pile holds 4 cards for each trick it won.
    """
    if len(cards) % SEATS or len(cards) > SEATS * TRICKS_PER_HAND:
        raise PileError(len(cards))
    return trick_points(cards, rules)


def other_pile_points(points: int, rules: RuleSet) -> int:
    """Return the card points of the other team's pile, when one pile holds ``points``.

    >>> other_pile_points(28, RuleSet())
    92
    """
    return full_deck_points(rules) - points


def full_deck_points(rules: RuleSet) -> int:
    """All the card points of the rule set's deck: always 120.

    >>> full_deck_points(RuleSet())
    120
    """
    return trick_points(deck(rules), rules)
