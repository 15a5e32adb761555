"""The reference of the exact analysis: a plain minimax, no speed-up at all.

It plays by the engine's own rules of play (``legal_cards``, ``trick_winner``,
``card_points``).
"""

from __future__ import annotations

from scorekeeper.engine import Card, RuleSet, Suit, card_points, legal_cards, trick_winner


def minimax(
    hands: tuple[frozenset[Card], ...],
    leader: int,
    trick: tuple[Card, ...],
    trump: Suit,
    rules: RuleSet,
) -> int:
    """The points team 0 takes from here to the end (the trick in play included)."""
    if len(trick) == 4:
        winner = (leader + trick_winner(trick, trump, rules)) % 4
        points = sum(card_points(card, rules) for card in trick)
        rest = minimax(hands, winner, (), trump, rules)
        return rest + (points if winner % 2 == 0 else 0)
    seat = (leader + len(trick)) % 4
    if not hands[seat]:
        return 0
    led = trick[0].suit if trick else None
    values = []
    for card in legal_cards(hands[seat], led):
        after = tuple(hand - {card} if i == seat else hand for i, hand in enumerate(hands))
        values.append(minimax(after, leader, (*trick, card), trump, rules))
    return max(values) if seat % 2 == 0 else min(values)


def best(
    hands: tuple[frozenset[Card], ...],
    leader: int,
    trick: tuple[Card, ...],
    trump: Suit,
    rules: RuleSet,
) -> tuple[int, frozenset[Card]]:
    """The value and the cards of the seat to play that keep it (trick not yet finished)."""
    seat = (leader + len(trick)) % 4
    led = trick[0].suit if trick else None
    values = {}
    for card in legal_cards(hands[seat], led):
        after = tuple(hand - {card} if i == seat else hand for i, hand in enumerate(hands))
        values[card] = minimax(after, leader, (*trick, card), trump, rules)
    value = max(values.values()) if seat % 2 == 0 else min(values.values())
    return value, frozenset(card for card, v in values.items() if v == value)
