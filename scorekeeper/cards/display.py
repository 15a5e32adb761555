"""What the card-entry pages show: the deck as a grid, and a record examined by the engine.

The record's tricks are shown seat by seat with the engine's word beside each card."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.web import card_grid, wording

SEATS = engine.tricks.SEATS
TRICKS = engine.tricks.TRICKS_PER_HAND
TYPED_AT_ONCE = 40
"""Cards typed in one go: a whole hand read out from a sheet, at most."""


# The grid of the rubber's deck -----------------------------------------------------------


def grid(rules: engine.RuleSet) -> list[card_grid.SuitRow]:
    """The rubber's 40 cards by suit, each suit in the rule set's rank order."""
    return card_grid.grid(engine.deck(rules), lambda card: engine.card_points(card, rules))


def turned_card_choices(rules: engine.RuleSet) -> list[tuple[str, list[tuple[str, str]]]]:
    """Return the cards the dealer may have turned, by suit.

    They are the deck's own, or in the Azores (where trump is cut from the rejected cards) the ranks
    left out of the deck."""
    if rules.manilha is engine.Manilha.TEN:
        ranks = [rank for rank in engine.Rank if rank not in engine.rank_order(rules)]
    else:
        ranks = list(engine.rank_order(rules))
    choices = []
    for suit in card_grid.DISPLAY_SUITS:
        cards = [engine.Card(rank, suit) for rank in ranks]
        choices.append(
            (wording.suit_name(suit), [(str(card), wording.card_face(card)) for card in cards])
        )
    return choices


def template_globals() -> dict[str, Any]:
    """What the templates call to show cards as printed: a face (A♠), a name, a suit's symbol."""
    return {
        "card_face": wording.card_face,
        "card_name": wording.card_name,
        "suit_symbols": wording.SUIT_SYMBOLS,
    }


def suit_letters() -> engine.SuitLetters:
    """Return the letters cards are typed with in the reader's language (``wording``'s)."""
    return wording.suit_letters()


def letters_hint() -> str:
    """The typed suit letters with their names and symbols: "C copas ♥, O ouros ♦, ..."."""
    return ", ".join(
        f"{letter} {wording.suit_name(suit)} {wording.SUIT_SYMBOLS[suit.value]}"
        for letter, suit in engine.SUIT_LETTERS[suit_letters()].items()
    )


def ranks_hint() -> str:
    """The face cards' typed letters with their names: "R rei, V valete, D dama"."""
    faces = (engine.Rank.KING, engine.Rank.JACK, engine.Rank.QUEEN)
    return ", ".join(
        f"{engine.rank_letter(rank, suit_letters())} {wording.rank_name(rank).lower()}"
        for rank in faces
    )


def typed_example() -> str:
    """A trick of spades typed with the reader's letters: ``AS 2S 7S JS`` or ``AE 2E 7E JE``."""
    letter = next(
        key
        for key, suit in engine.SUIT_LETTERS[suit_letters()].items()
        if suit is engine.Suit.SPADES
    )
    return " ".join(f"{rank}{letter}" for rank in ("A", "2", "7", "J"))


def typed_card(text: str) -> str:
    """Return a typed card as the engine writes it, read with the reader's suit letters.

    A text that is no card is left as typed, for the verifier to say why. A letter of the other
    set of letters raises ``engine.SuitLetterError``: it is never guessed."""
    try:
        return str(engine.read_typed(text, suit_letters()))
    except engine.SuitLetterError:
        raise
    except engine.CardError:
        return text


def suit_letter_error(error: engine.SuitLetterError) -> str:
    """Why a typed card's suit letter was refused, with the letters to use."""
    return _(
        "%(card)s: %(letter)s is not a suit letter here. Type the suit as %(letters)s.",
        card=error.text,
        letter=error.letter,
        letters=letters_hint(),
    )


def problem_text(problem: engine.RecordProblem) -> str:
    """Say what is wrong with a record typed or tapped on these pages.

    An unreadable card's example is written with the reader's suit letters and its symbol."""
    if problem.code is engine.ProblemCode.UNKNOWN_CARD:
        return wording.unknown_card(problem.card or "")
    return wording.record_problem(problem)


def normal(text: str) -> str:
    """A card as the engine writes it (``th`` → ``10H``), or the text itself if it is none."""
    try:
        return str(engine.Card.parse(text))
    except engine.CardError:
        return text


# What the engine says about a record in progress -----------------------------------------


@dataclass
class Examined:
    """A record in progress as the engine sees it.

    The finished tricks are verified, and the unfinished last trick checked card by card as far as
    it goes."""

    tricks: list[list[str]]
    record: engine.TrickRecord

    @property
    def problems(self) -> list[engine.RecordProblem]:
        return list(self.record.errors)

    @property
    def flagged(self) -> list[engine.ProvenRevoke]:
        """Revokes proven by a card of the unfinished trick, flagged as soon as it is played."""
        unfinished = self.record.unfinished
        return list(unfinished.revokes) if unfinished is not None else []

    @property
    def partial(self) -> bool:
        return self.record.unfinished is not None

    @property
    def revoke(self) -> engine.ProvenRevoke | None:
        """The revoke that stops the hand (proven by the finished tricks)."""
        return self.record.first_revoke

    @property
    def stopped(self) -> bool:
        """No more cards: the hand stopped at a revoke, or all its tricks are in."""
        return not self.partial and (self.revoke is not None or len(self.tricks) >= TRICKS)

    @property
    def finished(self) -> bool:
        """Ready to record: a full clean record, or one that proves a revoke."""
        return self.record.scorable

    @property
    def trick_number(self) -> int:
        """The number of the trick being entered."""
        return len(self.tricks) if self.partial else len(self.tricks) + 1

    @property
    def current_leader(self) -> int | None:
        """Who leads the trick being entered (None when the record cannot tell)."""
        return self.record.next_leader

    @property
    def to_play(self) -> int | None:
        """The seat whose card comes next."""
        return self.record.to_play

    def hand(self) -> engine.Hand:
        """The hand the finished record scores: the revoke, or the points and all tricks."""
        return engine.Hand.from_record(self.record)

    def stored_tricks(self) -> list[list[str]]:
        return self.record.card_texts()


def examine(
    trump: str,
    leader: int,
    tricks: list[list[str]],
    rules: engine.RuleSet,
    trump_card: str | None = None,
) -> Examined:
    """Verify the finished tricks, and check the cards of the unfinished one at once."""
    record = engine.verify_record(trump, leader, tricks, rules, trump_card or None, unfinished=True)
    return Examined([list(trick) for trick in tricks], record)


def problem_keys(examined: Examined) -> set[tuple[str, int | None, str | None]]:
    return {(p.code, p.trick, p.card) for p in examined.problems}


# How the page shows a record -------------------------------------------------------------


@dataclass
class Slot:
    """One card of the record on the page, with what the engine says about it."""

    text: str
    face: str
    suit: str
    seat: int | None
    position: int
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    flag: str = ""
    """``proves`` (this card proves a revoke), ``revoked`` (the revoke itself), or empty."""


@dataclass
class TrickView:
    number: int
    slots: list[Slot]
    leader: int | None
    result: engine.TrickResult | None
    problems: list[str] = field(default_factory=list)
    next_leader: int | None = None


def face_of(text: str) -> tuple[str, str]:
    try:
        card = engine.Card.parse(text)
    except engine.CardError:
        return text, ""
    return wording.card_face(card), card.suit.value


def trick_views(examined: Examined, players: list[str]) -> tuple[list[TrickView], list[str]]:
    """Return the record trick by trick with each problem and revoke beside its card.

    Also return the problems that belong to no trick (the turned card)."""
    results = {trick.number: trick for trick in examined.record.tricks}
    general: list[str] = []
    by_card: dict[tuple[int, str], list[str]] = {}
    by_trick: dict[int, list[str]] = {}
    for problem in examined.problems:
        text = problem_text(problem)
        if problem.trick is None:
            general.append(text)
        elif problem.card is None:
            by_trick.setdefault(problem.trick, []).append(text)
        else:
            by_card.setdefault((problem.trick, normal(problem.card)), []).append(text)
    views: list[TrickView] = []
    for number, trick in enumerate(examined.tricks, start=1):
        result = results.get(number)
        if result is not None:
            leader: int | None = result.leader
        elif number == len(examined.tricks) and examined.partial:
            leader = examined.current_leader
        else:
            leader = None
        slots = []
        for position, text in enumerate(trick):
            face, suit = face_of(text)
            seat = None if leader is None else (leader + position) % SEATS
            slots.append(
                Slot(text, face, suit, seat, position + 1, by_card.get((number, normal(text)), []))
            )
        next_leader = result.winner if result is not None and number < TRICKS else None
        views.append(
            TrickView(number, slots, leader, result, by_trick.get(number, []), next_leader)
        )
    for revoke in (*examined.record.revokes, *examined.flagged):
        _mark_revoke(views, revoke, players)
    return views, general


def _mark_revoke(views: list[TrickView], revoke: engine.ProvenRevoke, players: list[str]) -> None:
    player = players[revoke.seat]
    suit = wording.suit_name(revoke.suit)
    for slot in views[revoke.trick - 1].slots:
        if slot.seat == revoke.seat:
            slot.flag = slot.flag or "revoked"
            slot.notes.append(
                _(
                    "%(player)s did not follow %(suit)s here: a revoke (renúncia), "
                    "proven in trick %(proven)s.",
                    player=player,
                    suit=suit,
                    proven=revoke.proven_in,
                )
            )
    for slot in views[revoke.proven_in - 1].slots:
        if slot.seat == revoke.seat and slot.suit == revoke.suit.value:
            slot.flag = "proves"
            slot.notes.append(
                _(
                    "%(player)s may not hold %(suit)s: they did not follow it in trick "
                    "%(trick)s. This card proves a revoke (renúncia).",
                    player=player,
                    suit=suit,
                    trick=revoke.trick,
                )
            )
