"""The cards of the search as bits: which card takes a trick, and the order cards are tried in.

The numbering is ``options.py``'s: a lower place within a suit is a higher card.
"""

from __future__ import annotations

from collections.abc import Callable

from .options import PLACES, POINTS, SUIT_MASK


def lead_order(hands: list[int], leader: int, trump: int) -> Callable[[int], int]:
    """Return the sort key of a lead (after the table's best one).

    The side suits no opponent can ruff, then trumps, then the side suits an opponent can ruff;
    a suit the partner can ruff before the others, and the most points first.
    """
    trumps = SUIT_MASK[trump]
    partner = hands[(leader + 2) % 4]
    opponents = (hands[(leader + 1) % 4], hands[(leader + 3) % 4])

    def key(c: int) -> int:
        suit = c // PLACES
        if suit == trump:
            return 50 - POINTS[c]
        in_suit = SUIT_MASK[suit]
        if any(not hand & in_suit and hand & trumps for hand in opponents):
            return 100 - POINTS[c]
        if not partner & in_suit and partner & trumps:
            return -30 - POINTS[c]
        return -POINTS[c]

    return key


def follow_order(
    partner: int, win_card: int, trump: int, last: bool, led: int
) -> Callable[[int], int]:
    """Return the sort key of a following card.

    With the partner winning, points on it; against the opponents, a winning card first (when
    last to play, the most points following suit, the lowest trump ruffing), else the
    cheapest.
    """
    if partner % 2 == 0:
        return lambda c: (100 if beats(c, win_card, trump) else 0) - POINTS[c]
    if last:

        def key(c: int) -> int:
            if not beats(c, win_card, trump):
                return 100 + POINTS[c]
            return -(c % PLACES) if c // PLACES != led else -POINTS[c]

        return key
    return lambda c: c % PLACES if beats(c, win_card, trump) else 100 + POINTS[c]


def third_hand_order(
    partner: int, win_card: int, trump: int, led: int, fourth: int
) -> Callable[[int], int]:
    """Return the third hand's sort key.

    The fourth hand (an opponent) may still take the trick, so points go on the partner's card
    only when it cannot; else a win it cannot take first.
    """
    if partner % 2 == 0 and not can_beat(fourth, led, win_card, trump):
        return lambda c: -POINTS[c]

    def key(c: int) -> int:
        if not beats(c, win_card, trump):
            return 100 + POINTS[c]
        return c % PLACES if can_beat(fourth, led, c, trump) else -200 - POINTS[c]

    return key


def can_beat(hand: int, led: int, win_card: int, trump: int) -> bool:
    """Whether a seat holding ``hand`` can take a trick led in ``led`` that ``win_card`` wins."""
    follow = hand & SUIT_MASK[led]
    higher = (1 << win_card) - 1
    if follow:
        return win_card // PLACES == led and follow & higher != 0
    trumps = hand & SUIT_MASK[trump]
    if not trumps:
        return False
    return win_card // PLACES != trump or trumps & higher != 0


def beats(card: int, win_card: int, trump: int) -> bool:
    """Whether ``card`` takes the trick from ``win_card`` (which is of the led suit or trump)."""
    suit = card // PLACES
    win_suit = win_card // PLACES
    if suit == win_suit:
        return card < win_card
    return suit == trump


def cards_of(mask: int) -> list[int]:
    cards = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return cards
