"""Records of tricks: the verifier that replays one, its last trick finished or still in play."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from .cards import Card, CardError, Suit, in_deck
from .rules import Manilha, RuleSet
from .tricks import SEATS, TRICKS_PER_HAND, legal_cards, team_of, trick_points, trick_winner


class RecordError(ValueError):
    """A trick record that cannot be checked at all (a leader who is not a seat)."""

    code: ClassVar[str] = "record"

    def __init__(self, value: object, message: str) -> None:
        self.value = value
        super().__init__(message)


class ProblemCode(enum.StrEnum):
    """What is wrong with a record of tricks (:attr:`RecordProblem.code`)."""

    UNKNOWN_CARD = "unknown_card"
    """A text that is not a card (``card`` is the text)."""
    NOT_IN_DECK = "not_in_deck"
    """A card that is not in the rule set's deck: a 10 outside the Azores, a 7 in them."""
    REPEATED_CARD = "repeated_card"
    """A card played a second time (``trick`` is where it came again)."""
    TRICK_SIZE = "trick_size"
    """A trick of other than 4 cards, but for the trick in play (``card`` is None)."""
    TOO_MANY_TRICKS = "too_many_tricks"
    """An eleventh trick, or one after it (``card`` is None)."""
    TRUMP_CARD_SUIT = "trump_card_suit"
    """A turned card that is not of the trump suit (``trick`` is None)."""
    TRUMP_CARD_IN_DECK = "trump_card_in_deck"
    """In the Azores, a turned card of the deck: it comes from the rejected cards."""
    TRUMP_CARD_SEAT = "trump_card_seat"
    """The dealer's turned card played by another seat (``trick`` is where)."""


@dataclass(frozen=True)
class TrickResult:
    """One verified trick: numbered from 1, its leader's and winner's seats, its points."""

    number: int
    leader: int
    winner: int
    points: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class ProvenRevoke:
    """A revoke the record proves.

    ``seat`` did not follow ``suit`` in ``trick`` and played that suit later, in ``proven_in``."""

    seat: int
    team: int
    trick: int
    suit: Suit
    proven_in: int


@dataclass(frozen=True)
class RecordProblem:
    """Something wrong with the record itself.

    It holds ``code``, which names the kind for translation, the trick and the card it is about
    (None when it is about none), and an English sentence."""

    code: ProblemCode
    trick: int | None
    card: str | None
    error: str
    first_in: int | None = None
    """For a repeated card, the trick it was first played in: ``trick`` itself when a trick
    holds it twice."""

    def __post_init__(self) -> None:
        # A code given as its text is read as the member, so an unknown one cannot slip by.
        object.__setattr__(self, "code", ProblemCode(self.code))


@dataclass(frozen=True)
class UnfinishedTrick:
    """The trick in play: the last of a record, with fewer than 4 cards so far."""

    number: int
    leader: int | None
    """Who led it; None when the record cannot tell (an earlier trick did not resolve)."""
    cards: tuple[Card, ...] | None
    """Its cards in play order; None when one of them is no card of the deck, or came twice."""
    revokes: tuple[ProvenRevoke, ...] = ()
    """Revokes its cards prove: the hand stops when the trick is finished."""

    @property
    def led(self) -> Suit | None:
        """The suit the others must follow; None before the lead, or when the cards are wrong."""
        return self.cards[0].suit if self.cards else None

    @property
    def to_play(self) -> int | None:
        """The seat whose card comes next; None when the leader or the cards are unknown."""
        if self.leader is None or self.cards is None:
            return None
        return (self.leader + len(self.cards)) % SEATS


@dataclass(frozen=True)
class TrickRecord:
    """What the verifier found in a record of tricks."""

    trump: Suit
    first_leader: int
    tricks: tuple[TrickResult, ...]
    points: tuple[int, int]
    tricks_won: tuple[int, int]
    complete: bool
    revokes: tuple[ProvenRevoke, ...]
    """The revokes the finished tricks prove (those the trick in play proves are its own)."""
    errors: tuple[RecordProblem, ...]
    next_leader: int | None = field(default=None)
    """Who leads the first trick not finished (the one in play, if any); None after 10 tricks
    or when the record cannot tell."""
    unfinished: UnfinishedTrick | None = field(default=None)
    """The trick in play, when the record was verified with ``unfinished`` and ends in one."""

    @property
    def first_revoke(self) -> ProvenRevoke | None:
        """The revoke committed first in play order, the one that stops the hand."""
        if not self.revokes:
            return None
        return min(
            self.revokes,
            key=lambda r: (r.trick, (r.seat - self.tricks[r.trick - 1].leader) % SEATS),
        )

    @property
    def all_tricks(self) -> int | None:
        """The team that took all 10 tricks of a complete record, else None."""
        if not self.complete:
            return None
        for team in (0, 1):
            if self.tricks_won[team] == TRICKS_PER_HAND:
                return team
        return None

    @property
    def to_play(self) -> int | None:
        """Return the seat whose card comes next.

        It is None when the record cannot tell, or when the hand is over: all 10 tricks are in, or
        the finished tricks prove a revoke (a trick in play is played out first).

        >>> verify_record("H", 1, [["AS", "2S"]], RuleSet(), unfinished=True).to_play
        3
        """
        if self.unfinished is not None:
            return self.unfinished.to_play
        if self.first_revoke is not None:
            return None
        return self.next_leader

    def legal_cards(self, hand: Iterable[Card]) -> frozenset[Card]:
        """Return the cards of ``hand`` that it may play now.

        ``hand`` is what the seat to play was dealt, or holds. The cards are those nobody has played
        yet, of the led suit if it has one; none if it is nobody's turn.

        >>> record = verify_record("H", 1, [["AS", "2S"]], RuleSet(), unfinished=True)
        >>> sorted(str(c) for c in record.legal_cards(Card.parse(c) for c in ("2S", "KS", "AD")))
        ['KS']
        """
        if self.to_play is None:
            return frozenset()
        played = {card for trick in self.tricks for card in trick.cards}
        led = None
        if self.unfinished is not None and self.unfinished.cards is not None:
            played.update(self.unfinished.cards)
            led = self.unfinished.led
        return legal_cards((card for card in hand if card not in played), led)

    @property
    def scorable(self) -> bool:
        """Return whether the record scores a hand (``Hand.from_record``).

        It does with nothing wrong, no trick in play, and all 10 tricks or a proven revoke."""
        return (
            not self.errors
            and self.unfinished is None
            and (self.complete or self.first_revoke is not None)
        )

    def card_texts(self) -> list[list[str]]:
        """The finished tricks, each card as the engine writes it (``th`` is ``10H``).

        >>> verify_record("h", 1, [["as", "2s", "7s", "js"]], RuleSet()).card_texts()
        [['AS', '2S', '7S', 'JS']]
        """
        return [[str(card) for card in trick.cards] for trick in self.tricks]


def verify_record(  # noqa: PLR0913  the record's facts as its rows and requests hold them
    trump: Suit | str,
    leader: int,
    tricks: Sequence[Sequence[str]],
    rules: RuleSet,
    trump_card: str | None = None,
    *,
    unfinished: bool = False,
) -> TrickRecord:
    """Replay a record of tricks, each in play order from its leader.

    Problems with the record (an unknown card, a card twice, a trick of the wrong size) come
    back in ``errors``; scoring stops at the first trick that cannot be resolved (an unreadable
    card, a card not in the deck or played before, a trick of the wrong size).

    With ``unfinished``, a last trick of fewer than 4 cards is the trick in play
    (:attr:`TrickRecord.unfinished`): its cards are checked as they come (a revoke one of them
    proves is in its ``revokes``), and the record says whose turn it is.

    >>> record = verify_record("H", 1, [["AS", "2S", "7S", "JS"]], RuleSet())
    >>> [(t.leader, t.winner, t.points) for t in record.tricks], record.points
    ([(1, 1, 24)], (0, 24))
    >>> verify_record("H", 1, [["AS", "2S", "7S", "JS"], ["KS"]], RuleSet(), unfinished=True).to_play
    2
    """
    trump_suit = trump if isinstance(trump, Suit) else Suit.parse(trump)
    if isinstance(leader, bool) or leader not in range(SEATS):
        raise RecordError(leader, f"The leader must be a seat from 0 to 3, not {leader!r}.")
    replay = _Replay(trump_suit, rules, leader)
    for number, trick in enumerate(tricks, start=1):
        playing = unfinished and number == len(tricks) and len(trick) < SEATS
        if not replay.trick(number, trick, playing=playing):
            break
    complete = len(replay.results) == TRICKS_PER_HAND and not replay.errors
    if trump_card is not None:
        replay.errors.extend(
            _check_trump_card(trump_card, trump_suit, leader, replay.played, rules)
        )
        complete = complete and not replay.errors
    return TrickRecord(
        trump=trump_suit,
        first_leader=leader,
        tricks=tuple(replay.results),
        points=(replay.points[0], replay.points[1]),
        tricks_won=(replay.won[0], replay.won[1]),
        complete=complete,
        revokes=_in_order(replay.revokes.values()),
        errors=tuple(replay.errors),
        next_leader=replay.current if len(replay.results) < TRICKS_PER_HAND else None,
        unfinished=replay.in_play,
    )


@dataclass
class _Replay:
    """What :func:`verify_record` knows so far, trick by trick."""

    trump: Suit
    rules: RuleSet
    current: int | None
    """Who leads the next trick; None once a trick could not be resolved."""
    errors: list[RecordProblem] = field(default_factory=list)
    results: list[TrickResult] = field(default_factory=list)
    seen: dict[Card, int] = field(default_factory=dict)
    """Each card played so far, and the trick it was played in."""
    played: dict[int, list[tuple[int, Card]]] = field(
        default_factory=lambda: {seat: [] for seat in range(SEATS)}
    )
    failed: dict[tuple[int, Suit], int] = field(default_factory=dict)
    """The first trick in which a seat did not follow a suit."""
    revokes: dict[tuple[int, Suit], ProvenRevoke] = field(default_factory=dict)
    points: list[int] = field(default_factory=lambda: [0, 0])
    won: list[int] = field(default_factory=lambda: [0, 0])
    in_play: UnfinishedTrick | None = None

    def trick(self, number: int, trick: Sequence[str], *, playing: bool) -> bool:
        """Replay one trick (the trick in play if ``playing``); False when the record stops."""
        if number > TRICKS_PER_HAND:
            self._problem(ProblemCode.TOO_MANY_TRICKS, number, None, "A hand has only 10 tricks.")
            self.current = None
            if playing:
                self.in_play = UnfinishedTrick(number, None, None)
            return True
        cards, readable = self._read(number, trick)
        if len(trick) != SEATS and not playing:
            self._problem(
                ProblemCode.TRICK_SIZE,
                number,
                None,
                f"Trick {number} has {len(trick)} cards, not 4.",
            )
            readable = False
        leader = self.current
        if playing and (not readable or leader is None or not cards):
            self.in_play = UnfinishedTrick(number, leader, tuple(cards) if readable else None)
            return False
        if not readable or leader is None:
            self.current = None
            return True
        proven = self._follow(number, leader, cards)
        if playing:
            self.in_play = UnfinishedTrick(number, leader, tuple(cards), _in_order(proven.values()))
            return False
        self.revokes.update(proven)
        self._take(number, leader, cards)
        return True

    def _read(self, number: int, trick: Sequence[str]) -> tuple[list[Card], bool]:
        """The trick's cards that are cards of the deck, and whether all were, each once."""
        cards: list[Card] = []
        readable = True
        for text in trick:
            card = self._card(number, text)
            if card is None:
                readable = False
                continue
            if card in self.seen:
                first = self.seen[card]
                where = "this trick" if first == number else f"trick {first}"
                self.errors.append(
                    RecordProblem(
                        ProblemCode.REPEATED_CARD,
                        number,
                        str(card),
                        f"{card} was already played in {where} (trick {number}).",
                        first,
                    )
                )
                readable = False
            else:
                self.seen[card] = number
            cards.append(card)
        return cards, readable

    def _card(self, number: int, text: str) -> Card | None:
        """The card ``text`` names, or None (and the problem) when it names none of the deck."""
        try:
            card = Card.parse(text)
        except CardError:
            self._problem(ProblemCode.UNKNOWN_CARD, number, str(text), f"{text!r} is not a card.")
            return None
        if not in_deck(card, self.rules):
            self._problem(
                ProblemCode.NOT_IN_DECK, number, str(card), f"{card} is not in this deck."
            )
            return None
        return card

    def _follow(
        self, number: int, leader: int, cards: list[Card]
    ) -> dict[tuple[int, Suit], ProvenRevoke]:
        """Note who did not follow the led suit; return the revokes these cards prove."""
        led = cards[0].suit
        proven: dict[tuple[int, Suit], ProvenRevoke] = {}
        for position, card in enumerate(cards):
            seat = (leader + position) % SEATS
            trick_failed = self.failed.get((seat, card.suit))
            if trick_failed is not None and (seat, card.suit) not in self.revokes:
                proven[(seat, card.suit)] = ProvenRevoke(
                    seat, team_of(seat), trick_failed, card.suit, number
                )
            if card.suit != led:
                self.failed.setdefault((seat, led), number)
            self.played[seat].append((number, card))
        return proven

    def _take(self, number: int, leader: int, cards: list[Card]) -> None:
        """Score a finished trick to its winner's team, who leads the next."""
        winner = (leader + trick_winner(cards, self.trump, self.rules)) % SEATS
        value = trick_points(cards, self.rules)
        self.results.append(TrickResult(number, leader, winner, value, tuple(cards)))
        self.points[team_of(winner)] += value
        self.won[team_of(winner)] += 1
        self.current = winner

    def _problem(self, code: ProblemCode, number: int, card: str | None, error: str) -> None:
        self.errors.append(RecordProblem(code, number, card, error))


def _in_order(revokes: Iterable[ProvenRevoke]) -> tuple[ProvenRevoke, ...]:
    return tuple(sorted(revokes, key=lambda r: (r.trick, r.proven_in, r.seat)))


def _check_trump_card(
    text: str,
    trump: Suit,
    leader: int,
    played: dict[int, list[tuple[int, Card]]],
    rules: RuleSet,
) -> list[RecordProblem]:
    try:
        card = Card.parse(text)
    except CardError:
        return [
            RecordProblem(ProblemCode.UNKNOWN_CARD, None, str(text), f"{text!r} is not a card.")
        ]
    if card.suit != trump:
        return [
            RecordProblem(
                ProblemCode.TRUMP_CARD_SUIT,
                None,
                str(card),
                f"The turned card {card} is not a {trump} card.",
            )
        ]
    if rules.manilha is Manilha.TEN:
        # Azores: trump is cut from the rejected cards, so no player holds the turned card.
        if in_deck(card, rules):
            return [
                RecordProblem(
                    ProblemCode.TRUMP_CARD_IN_DECK,
                    None,
                    str(card),
                    f"In the Azores the turned card comes from the rejected cards, not {card}.",
                )
            ]
        return []
    if not in_deck(card, rules):
        return [
            RecordProblem(ProblemCode.NOT_IN_DECK, None, str(card), f"{card} is not in this deck.")
        ]
    return _check_dealer_played(card, (leader - 1) % SEATS, played)


def _check_dealer_played(
    card: Card, dealer: int, played: dict[int, list[tuple[int, Card]]]
) -> list[RecordProblem]:
    """The turned card is the dealer's: any other seat playing it shows the record is wrong."""
    for seat, cards in played.items():
        for number, played_card in cards:
            if played_card == card and seat != dealer:
                return [
                    RecordProblem(
                        ProblemCode.TRUMP_CARD_SEAT,
                        number,
                        str(card),
                        f"The turned card {card} belongs to the dealer (seat {dealer}), "
                        f"but seat {seat} played it.",
                    )
                ]
    return []
