"""An open position of a hand (every card visible), its exact value and its best cards."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from ..cards import Card, CardError, Suit, in_deck, rank_order
from ..rules import RuleSet
from ..tricks import SEATS, TRICKS_PER_HAND, legal_cards, trick_points, trick_winner
from .options import FAST, Options
from .search import Search

SUITS = tuple(Suit)


class AnalysisCode(enum.StrEnum):
    """What makes a position or a record impossible to analyse (:attr:`AnalysisError.code`)."""

    HAND_SIZES = "hand_sizes"
    """Four hands not all of the same size from 1 to 10 cards (``card`` is None)."""
    REPEATED_CARD = "repeated_card"
    """A card in two hands, or twice in one (``card`` is it)."""
    NOT_IN_DECK = "not_in_deck"
    """A card that is not in the rule set's deck (``card`` is it)."""
    UNKNOWN_CARD = "unknown_card"
    """A text that is not a card (``card`` is the text)."""
    LEADER = "leader"
    """A leader who is not a seat from 0 to 3."""
    TRUMP = "trump"
    """A trump that is not a suit's letter (``card`` is the text)."""
    RECORD = "record"
    """A record with a problem, not of 10 tricks, or proving a revoke."""


class AnalysisError(ValueError):
    """Hands or a record the analysis cannot take; ``code`` names the problem."""

    code: ClassVar[str] = "analysis"

    def __init__(self, problem: AnalysisCode, message: str, card: str | None = None) -> None:
        self.problem = problem
        self.card = card
        super().__init__(message)


@dataclass(frozen=True)
class Position:
    """A moment of a hand: the cards each seat still holds, and the trick in play so far.

    The trick is played from ``leader``. Build one from texts with :meth:`from_hands`.
    """

    trump: Suit
    leader: int
    hands: tuple[frozenset[Card], ...]
    rules: RuleSet = field(default_factory=RuleSet)
    trick: tuple[Card, ...] = ()

    @classmethod
    def from_hands(
        cls, trump: object, leader: object, hands: Sequence[Sequence[str]], rules: RuleSet
    ) -> Position:
        """Open hands as the API sends them: four of one size, 1 to 10 cards, no card twice.

        >>> Position.from_hands("H", 0, [["AS"], ["2S"], ["KS"], ["3S", "4S"]], RuleSet())
        Traceback (most recent call last):
        ...
        scorekeeper.engine.analysis.positions.AnalysisError: The four hands must have the same ...
        """
        try:
            suit = trump if isinstance(trump, Suit) else Suit.parse(str(trump))
        except CardError:
            raise AnalysisError(
                AnalysisCode.TRUMP, f"The trump must be C, D, H or S, not {trump!r}.", str(trump)
            ) from None
        if isinstance(leader, bool) or not isinstance(leader, int) or leader not in range(SEATS):
            raise AnalysisError(
                AnalysisCode.LEADER, f"The leader must be a seat from 0 to 3, not {leader!r}."
            )
        sizes = {len(hand) for hand in hands}
        if len(hands) != SEATS or len(sizes) != 1 or not 1 <= sizes.pop() <= TRICKS_PER_HAND:
            raise AnalysisError(
                AnalysisCode.HAND_SIZES,
                "The four hands must have the same number of cards, from 1 to 10.",
            )
        seen: set[Card] = set()
        parsed = []
        for hand in hands:
            cards = []
            for text in hand:
                card = _read(text, rules)
                if card in seen:
                    raise AnalysisError(
                        AnalysisCode.REPEATED_CARD, f"{card} is written twice.", str(card)
                    )
                seen.add(card)
                cards.append(card)
            parsed.append(frozenset(cards))
        return cls(suit, leader, tuple(parsed), rules)

    @property
    def to_play(self) -> int:
        """The seat whose card comes next (a finished trick's winner leads the next)."""
        if len(self.trick) == SEATS:
            return self._next_trick().leader
        return (self.leader + len(self.trick)) % SEATS

    @property
    def over(self) -> bool:
        """Whether every card is played (a finished trick is still "in play" until then)."""
        return not any(self.hands)

    def legal(self) -> frozenset[Card]:
        """The cards the seat to play may play."""
        if len(self.trick) == SEATS:
            return self._next_trick().legal()
        led = self.trick[0].suit if self.trick else None
        return legal_cards(self.hands[self.to_play], led)

    def play(self, card: Card) -> Position:
        """Return the position after ``card`` from the seat to play.

        A finished trick starts the next with its winner to lead.
        """
        if len(self.trick) == SEATS:
            return self._next_trick().play(card)
        seat = self.to_play
        hands = list(self.hands)
        hands[seat] = hands[seat] - {card}
        return Position(self.trump, self.leader, tuple(hands), self.rules, (*self.trick, card))

    def _next_trick(self) -> Position:
        winner = (self.leader + trick_winner(self.trick, self.trump, self.rules)) % SEATS
        return Position(self.trump, winner, self.hands, self.rules)

    def points(self) -> int:
        """The card points still to take: the hands and the trick in play."""
        return trick_points([*self.trick, *(c for hand in self.hands for c in hand)], self.rules)

    def encoded(self) -> tuple[list[int], int, list[int]]:
        """The search's view: hands as bit masks, the leader, the trick as card numbers."""
        number = _numbering(self.rules, self.trump)
        hands = [sum(1 << number[c] for c in hand) for hand in self.hands]
        return hands, self.leader, [number[c] for c in self.trick]

    def search(self, options: Options = FAST) -> Search:
        """A search for this deal (its table may serve any later position of the deal)."""
        return Search(SUITS.index(self.trump), options, max(len(hand) for hand in self.hands))


def _read(text: str, rules: RuleSet) -> Card:
    try:
        card = Card.parse(text)
    except CardError:
        raise AnalysisError(
            AnalysisCode.UNKNOWN_CARD, f"{text!r} is not a card.", str(text)
        ) from None
    if not in_deck(card, rules):
        raise AnalysisError(AnalysisCode.NOT_IN_DECK, f"{card} is not in this deck.", str(card))
    return card


def _numbering(rules: RuleSet, trump: Suit) -> dict[Card, int]:
    order = rank_order(rules)
    return {
        Card(rank, suit): 10 * SUITS.index(suit) + place
        for suit in SUITS
        for place, rank in enumerate(order)
    }


def solve(
    position: Position,
    search: Search | None = None,
    deadline: float | None = None,
    after: int | None = None,
) -> int:
    """Return the card points team 0 takes from ``position`` to the end, best play by all.

    The trick in play is included, every card visible. ``after``, when known, is the value
    after one legal card of the seat to play: the value is at least that for team 0's seat,
    at most for team 1's, and likely that.

    >>> hands = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]
    >>> solve(Position.from_hands("C", 0, hands, RuleSet()))  # the 7S on the ace, then the AH
    28
    """
    search = search or position.search()
    hands, leader, trick = position.encoded()
    if after is None:
        return search.value(hands, leader, trick, deadline)
    if position.to_play % 2 == 0:
        return search.value(hands, leader, trick, deadline, (after, None), after + 1)
    return search.value(hands, leader, trick, deadline, (0, after), after)


def best_cards(
    position: Position,
    search: Search | None = None,
    value: int | None = None,
    known: frozenset[Card] = frozenset(),
) -> tuple[int, tuple[Card, ...]]:
    """Return the position's value (as :func:`solve`) and the cards that keep it.

    The cards are the seat to play's, in the engine's deck order; ``known`` are cards already
    known to keep it.

    >>> hands = [["AS", "2H"], ["KS", "3H"], ["7S", "4H"], ["JS", "AH"]]
    >>> value, cards = best_cards(Position.from_hands("C", 0, hands, RuleSet()))
    >>> value, [str(c) for c in cards]
    (28, ['2H', 'AS'])
    """
    search = search or position.search()
    if value is None:
        value = solve(position, search)
    maximising = position.to_play % 2 == 0
    kept = []
    for card in in_deck_order(position.legal(), position.rules):
        if card in known:
            kept.append(card)
            continue
        hands, leader, trick = position.play(card).encoded()
        if maximising:
            keeps = search.at_least(hands, leader, trick, value)
        else:
            keeps = not search.at_least(hands, leader, trick, value + 1)
        if keeps:
            kept.append(card)
    return value, tuple(kept)


def in_deck_order(cards: Iterable[Card], rules: RuleSet) -> list[Card]:
    order = rank_order(rules)
    return sorted(cards, key=lambda c: (SUITS.index(c.suit), order.index(c.rank)))
