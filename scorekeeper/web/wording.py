"""The engine's decisions and refusals in the reader's language.

The engine answers with codes and values; this module is the one place that turns them into
sentences, so the pages, the API and the exports say the same thing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Literal

from flask import has_request_context, request
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup, escape

from scorekeeper import engine
from scorekeeper.engine.analysis import AnalysisCode, AnalysisError


def points_fault(fault: engine.PointsFault, value: object) -> str:
    """Why card points are impossible (an :class:`engine.ImpossiblePointsError`), as a sentence."""
    if fault is engine.PointsFault.ONE and value == engine.scoring.TOTAL_POINTS - 1:
        return _(
            "%(value)s is impossible: the other team would have 1 point, and no set of "
            "cards is worth exactly 1.",
            value=value,
        )
    return POINTS_FAULTS[fault](value)


POINTS_FAULTS: dict[engine.PointsFault, Callable[[Any], str]] = {
    engine.PointsFault.VALUE: lambda _value: _("Card points must be a whole number from 0 to 120."),
    engine.PointsFault.RANGE: lambda value: _(
        "Card points go from 0 to 120, not %(value)s.", value=value
    ),
    engine.PointsFault.ONE: lambda value: _(
        "%(value)s is impossible: no set of cards is worth exactly 1 point.", value=value
    ),
    engine.PointsFault.SUM: lambda pair: _(
        "%(first)s and %(second)s add up to %(total)s, not 120.",
        first=pair[0],
        second=pair[1],
        total=sum(pair),
    ),
    engine.PointsFault.TIE: lambda _pair: _("Only 60-60 is a tie."),
    engine.PointsFault.ALL_TRICKS: lambda _pair: _("All the tricks means all 120 card points."),
}
"""Each fault's sentence, from the error's ``value`` (what it holds is said by the fault)."""


def engine_error(error: ValueError) -> str:
    """A domain error of the engine as a sentence in the request's language.

    The sentence is that of the error's class, or of the nearest class it comes from that has
    one; an error of no such class says its own English sentence."""
    for kind in type(error).__mro__:
        says = ENGINE_ERRORS.get(kind)
        if says is not None:
            return says(error)
    return str(error)


def _hand_not_allowed(error: Any) -> str:
    if error.value is engine.HandKind.SPOILED:
        return _("A deal can only be spoiled (melar) when the melar rule is on.")
    return _("This hand is not allowed by the rubber's rules.")


def _incomplete_record(error: Any) -> str:
    record = error.value
    assert isinstance(record, engine.TrickRecord)
    if record.errors:
        return record_problem(record.errors[0])
    return _(
        "The record has %(count)s tricks: a hand is scored from all 10.",
        count=len(record.tricks),
    )


ENGINE_ERRORS: dict[type[ValueError], Callable[[Any], str]] = {
    engine.ImpossiblePointsError: lambda error: points_fault(error.reason, error.value),
    engine.UnknownTeamError: lambda error: _(
        "There is no team %(team)s: the teams are 0 and 1.", team=error.value
    ),
    engine.RubberFinishedError: lambda _error: _(
        "This rubber is already won: no more hands can be added."
    ),
    engine.TooManyHandsError: lambda _error: _(
        "A rubber holds at most %(count)s hands.", count=engine.scoring.MAX_HANDS
    ),
    engine.HandNotAllowedError: _hand_not_allowed,
    engine.PaperResultError: lambda error: _(
        "A rubber kept on paper ends with one team on %(target)s games or more and the other on "
        "fewer.",
        target=error.target,
    ),
    engine.IncompleteRecordError: _incomplete_record,
    engine.RulesError: lambda error: _(
        "The setting %(key)s has a value it does not take.", key=error.key
    ),
    engine.CardError: lambda error: _(
        "%(card)s is not a card of this deck.", card=card_said(error.text)
    ),
}
"""The sentence of each class of the engine's errors, from the error."""


def conflict(code: str) -> str:
    """Why a write was refused because of the rubber's state."""
    return write_conflict(code) or {
        "ends_early": _(
            "That change would end the rubber before the hands that follow it: undo those first."
        ),
        "cards_shift": _(
            "That change would move the deal of a later hand recorded card by card: "
            "undo that hand first."
        ),
        "busy": _("The rubber is busy: try again."),
        "match_decided": _(
            "This rubber's match is decided: only the tournament's organizer can correct it."
        ),
        "result_used": _(
            "A later match already depends on this result: it can no longer be corrected."
        ),
        "finished": _("This rubber is already won: no more hands can be added."),
    }.get(code, _("The rubber changed: reload it."))


def hand_summary(result: engine.HandResult, teams: tuple[str, str]) -> str:
    """What a hand earned and why, the way the table says it: "91 → 2 jogos + 1 do empate"."""
    words = " ".join(
        hand_reason(reason, result, teams)
        for reason in result.reasons
        if reason not in SAID_ELSEWHERE
    )
    if result.winner is None:  # a tie, a revoke, a spoiled deal: its words name no winner
        return words
    if _head(result) == engine.scoring.TOTAL_POINTS and not result.bandeira:
        words = _("%(summary)s — no bandeira without all the tricks", summary=words)
    # The team it went to: "75 → 1 jogo" twice could be either side's.
    return _("%(team)s: %(summary)s", team=teams[result.winner], summary=words)


SAID_ELSEWHERE = frozenset(
    {
        engine.HandReason.TIE,
        engine.HandReason.BANDEIRA_WINS_RUBBER,
        engine.HandReason.RUBBER_WON,
    }
)
"""Reasons a hand's summary leaves out: a tie is said by what it leaves (carry, double, void),
and a won rubber by the page that shows the rubber."""


def hand_reason(
    reason: engine.HandReason, result: engine.HandResult, teams: tuple[str, str]
) -> str:
    """One reason of what a hand added (``result.reasons``), as the table says it."""
    return HAND_REASONS[reason](result, teams)


def _head(result: engine.HandResult) -> int:
    assert result.hand.points is not None and result.winner is not None
    return result.hand.points[result.winner]


def _offender(result: engine.HandResult, teams: tuple[str, str]) -> tuple[str, str]:
    assert result.hand.team is not None
    return teams[result.hand.team], teams[1 - result.hand.team]


def _revoke_penalty(result: engine.HandResult, teams: tuple[str, str]) -> str:
    offender, other = _offender(result, teams)
    return _("Revoke (renúncia) by %(team)s: %(other)s mark 2 games", team=offender, other=other)


def _revoke_minus_two(result: engine.HandResult, teams: tuple[str, str]) -> str:
    offender, _other = _offender(result, teams)
    assert result.hand.team is not None
    lost = -result.games[result.hand.team]
    if not lost:
        return _("Revoke (renúncia) by %(team)s: they had no game to lose", team=offender)
    return ngettext(
        "Revoke (renúncia) by %(team)s: they lose %(num)s game",
        "Revoke (renúncia) by %(team)s: they lose %(num)s games",
        lost,
        team=offender,
    )


def _revoke_loses_rubber(result: engine.HandResult, teams: tuple[str, str]) -> str:
    offender, other = _offender(result, teams)
    return _("Revoke (renúncia) by %(team)s: %(other)s win the rubber", team=offender, other=other)


def _rubber_won(result: engine.HandResult, teams: tuple[str, str]) -> str:
    assert result.rubber_winner is not None
    return _("%(team)s won", team=teams[result.rubber_winner])


HandWords = Callable[[engine.HandResult, tuple[str, str]], str]
HAND_REASONS: dict[engine.HandReason, HandWords] = {
    engine.HandReason.ONE_GAME: lambda result, _teams: ngettext(
        "%(points)s → %(num)s game",
        "%(points)s → %(num)s games",
        result.base_games,
        points=_head(result),
    ),
    engine.HandReason.CAPOTE: lambda result, _teams: _(
        "%(points)s → 2 games (capote)", points=_head(result)
    ),
    engine.HandReason.BANDEIRA: lambda result, _teams: _(
        "%(points)s → bandeira, 4 games", points=_head(result)
    ),
    engine.HandReason.TIE: lambda _result, _teams: _("A 60-60 tie"),
    engine.HandReason.TIE_CARRY: lambda _result, _teams: _(
        "60-60: a tie, the next hand is worth one more game"
    ),
    engine.HandReason.TIE_DOUBLE: lambda _result, _teams: _(
        "60-60: a tie, the next hand is worth double"
    ),
    engine.HandReason.TIE_VOID: lambda _result, _teams: _("60-60: a tie, nobody scores"),
    engine.HandReason.TIE_CARRIED: lambda result, _teams: ngettext(
        "+ %(num)s from the tie", "+ %(num)s from the ties", result.carried_extra
    ),
    engine.HandReason.TIE_DOUBLED: lambda result, _teams: _(
        "× %(multiplier)s (60-60)", multiplier=result.multiplier
    ),
    engine.HandReason.REVOKE_PENALTY: _revoke_penalty,
    engine.HandReason.REVOKE_MINUS_TWO: _revoke_minus_two,
    engine.HandReason.REVOKE_LOSES_RUBBER: _revoke_loses_rubber,
    engine.HandReason.SPOILED: lambda _result, _teams: _(
        "Spoiled deal (melar): the same dealer deals again"
    ),
    engine.HandReason.BANDEIRA_WINS_RUBBER: lambda _result, _teams: _("A bandeira wins the rubber"),
    engine.HandReason.RUBBER_WON: _rubber_won,
}
"""Each reason's words, from the hand's result and the teams' names."""


def hand_note(result: engine.HandResult, teams: tuple[str, str]) -> Markup:
    """:func:`hand_summary` for a page: each team's name in its colour (the names escaped)."""
    marked = tuple(
        Markup('<span class="team{}">{}</span>').format(team, name)
        for team, name in enumerate(teams)
    )
    return Markup(hand_summary(result, (marked[0], marked[1])))


def hand_outcome(result: engine.HandResult, teams: tuple[str, str]) -> str:
    """Return what a hand would do, to confirm it: "Renúncia — Nós: 2 jogos para Eles — fica 0-2".

    Its :func:`hand_summary`, then the games after it, and whether the rubber ends there."""
    summary = hand_summary(result, teams)
    games = result.games_after
    if result.rubber_winner is not None:
        return _(
            "%(hand)s — the rubber ends %(games0)s-%(games1)s",
            hand=summary,
            games0=games[0],
            games1=games[1],
        )
    return _(
        "%(hand)s — the score becomes %(games0)s-%(games1)s",
        hand=summary,
        games0=games[0],
        games1=games[1],
    )


def recorded_note(result: engine.HandResult, teams: tuple[str, str]) -> Markup:
    """Return the note after a hand is recorded: its :func:`hand_note`, but for a pending tie.

    A tie leaving games pending is just the tie (the page says what it carries, right under the
    score)."""
    if {engine.HandReason.TIE_CARRY, engine.HandReason.TIE_DOUBLE} & set(result.reasons):
        return Markup.escape(_("60-60: a tie."))
    return hand_note(result, teams)


SAID_ONLY_IN = {"chapeu": ("pt_BR",), "arrepio": ("pt_BR",)}
"""The outcome names that only some interfaces' players say (RULES.md, named outcomes): chapéu
and arrepio are Brazilian; a pt-PT or English page shows the score instead. Every other name
is said everywhere (pente is gato in Brazil: the catalogue's word)."""


def outcome_said(outcome: engine.Outcome | str | None) -> bool:
    """Whether the reader's interface has a name for this outcome."""
    code = outcome.value if isinstance(outcome, engine.Outcome) else outcome
    said_in = SAID_ONLY_IN.get(code or "")
    return said_in is None or str(get_locale()) in said_in


def outcome_name(outcome: engine.Outcome | str | None) -> str:
    """Return the name of a finished rubber's outcome in the reader's interface, or "".

    It is "" where its players have none (pente is gato in Brazil; chapéu and arrepio are said
    only there)."""
    code = outcome.value if isinstance(outcome, engine.Outcome) else outcome
    if not outcome_said(code):
        return ""
    return {
        "pente": _("pente"),
        "chapeu": _("chapéu"),
        "arrepio": _("arrepio"),
        "bandeira": _("bandeira"),
        "revoke": _("won by a revoke"),
    }.get(code or "", "")


def outcome_names(names: Iterable[engine.Outcome | str]) -> str:
    """Every name of a finished rubber (``engine.rubber_names``): "bandeira · gato"."""
    return " · ".join(said for said in map(outcome_name, names) if said)


def record_problem(problem: engine.RecordProblem) -> str:
    """What is wrong with a record of tricks (the verifier's ``errors``), as a sentence.

    A card is named by its face in the reader's letters (``R♠``), as the pages show it; a text
    that is no card, as it was written."""
    return RECORD_PROBLEMS[problem.code](problem)


def _repeated(problem: engine.RecordProblem) -> str:
    card = card_said(problem.card or "")
    if problem.first_in is not None and problem.first_in == problem.trick:
        return _("%(card)s was already played in this trick.", card=card)
    if problem.first_in is None:
        return _("%(card)s was already played in an earlier trick.", card=card)
    return _("%(card)s was already played in trick %(trick)s.", card=card, trick=problem.first_in)


ProblemWords = Callable[[engine.RecordProblem], str]
RECORD_PROBLEMS: dict[engine.ProblemCode, ProblemWords] = {
    engine.ProblemCode.UNKNOWN_CARD: lambda problem: _(
        "%(card)s is not a card: write the rank then the suit, like 7H.", card=problem.card
    ),
    engine.ProblemCode.NOT_IN_DECK: lambda problem: _(
        "%(card)s is not in this deck.", card=card_said(problem.card or "")
    ),
    engine.ProblemCode.REPEATED_CARD: _repeated,
    engine.ProblemCode.TRICK_SIZE: lambda problem: _(
        "Trick %(trick)s does not have 4 cards.", trick=problem.trick
    ),
    engine.ProblemCode.TOO_MANY_TRICKS: lambda _problem: _("A hand has only 10 tricks."),
    engine.ProblemCode.TRUMP_CARD_SUIT: lambda problem: _(
        "The turned card %(card)s is not of the trump suit.", card=card_said(problem.card or "")
    ),
    engine.ProblemCode.TRUMP_CARD_IN_DECK: lambda problem: _(
        "In the Azores the turned card comes from the rejected cards, not %(card)s.",
        card=card_said(problem.card or ""),
    ),
    engine.ProblemCode.TRUMP_CARD_SEAT: lambda problem: _(
        "The turned card %(card)s belongs to the dealer, but another seat played it.",
        card=card_said(problem.card or ""),
    ),
}
"""Each problem's sentence, from the card and the trick it is about. An unreadable card's
example is API.md's (``7H``): the API says it so; the card pages give the reader's instead
(``scorekeeper.cards.display.problem_text``)."""


SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
"""The suits as printed on the cards: the interface shows these beside the words."""


def suit_name(suit: engine.Suit) -> str:
    """A suit's Portuguese name in the reader's language (espadas, copas, paus, ouros)."""
    return {
        engine.Suit.CLUBS: _("clubs"),
        engine.Suit.DIAMONDS: _("diamonds"),
        engine.Suit.HEARTS: _("hearts"),
        engine.Suit.SPADES: _("spades"),
    }[suit]


def suit_words(suit: engine.Suit) -> str:
    """A suit as the interface names it on its own, the trunfo for one: "♥ copas"."""
    return f"{SUIT_SYMBOLS[suit.value]} {suit_name(suit)}"


def suit_letters() -> engine.SuitLetters:
    """Return the letters cards are typed and shown with in the reader's language.

    Portuguese ones in the pt-PT and pt-BR interfaces (C copas, O ouros, E espadas, P paus; R
    rei, V valete, D dama), English ones in English. The API keeps API.md's letters whatever
    the language."""
    return (
        engine.SuitLetters.ENGLISH if str(get_locale()) == "en" else engine.SuitLetters.PORTUGUESE
    )


def card_face(card: engine.Card) -> str:
    """A card the way its corner shows it, in the reader's letters: ``A♠``, ``10♥``, ``R♣``."""
    return f"{engine.rank_letter(card.rank, suit_letters())}{SUIT_SYMBOLS[card.suit.value]}"


FEMININE_RANKS = frozenset({engine.Rank.QUEEN})
"""The ranks whose Portuguese name is feminine: a dama (the rainha of some Brazilian tables).

Valete, rei, ás, sete (manilha's card is still "o sete") and the blanks are masculine."""

ARTICLES: dict[str, tuple[str, str]] = {
    "the": ("o", "a"),
    "of the": ("do", "da"),
    "The": ("O", "A"),
}
"""The Portuguese article before a card, masculine then feminine: "o 2♥", "da D♣", "A D♦"."""


def card_with_article(card: engine.Card, article: Literal["the", "of the", "The"]) -> str:
    """A card named in a Portuguese sentence with its article, by its rank's gender.

    "o 4♣", "a D♣", "do 2♥", "da D♣" ("The": opening a sentence, "A D♦"); both Portuguese
    interfaces say the same articles. English puts none: the card's face alone. The Portuguese
    sentences that take one leave the article out of their own words ("Em vez %(played)s")."""
    face = card_face(card)
    if str(get_locale()) == "en":
        return face
    masculine, feminine = ARTICLES[article]
    return f"{feminine if card.rank in FEMININE_RANKS else masculine} {face}"


def unknown_card(text: str) -> str:
    """Why a typed or tapped text is no card, with an example in the reader's letters: 7C (7♥)."""
    example = engine.Card(engine.Rank.SEVEN, engine.Suit.HEARTS)
    letter = next(
        key for key, suit in engine.SUIT_LETTERS[suit_letters()].items() if suit is example.suit
    )
    return _(
        "%(card)s is not a card: type the rank then the suit, like %(example)s (%(face)s).",
        card=text,
        example=f"{example.rank}{letter}",
        face=card_face(example),
    )


def card_said(text: str) -> str:
    """A card named in a sentence: its :func:`card_face`, or the text if it is no card.

    A page's reader sees the card as the pages show it (``R♠``); the API's sentences name it by
    API.md's code (``KS``), the letters its client writes (docs/decisions/card-entry.md)."""
    try:
        card = engine.Card.parse(text)
    except engine.CardError:
        return text
    if has_request_context() and request.path.startswith("/api/"):
        return str(card)
    return card_face(card)


def card_name(card: engine.Card) -> str:
    """A card in words, for screen readers and tooltips: "Ace of spades"."""
    return _("%(rank)s of %(suit)s", rank=rank_name(card.rank), suit=suit_name(card.suit))


def rank_name(rank: engine.Rank) -> str:
    """A rank in words, as it opens a card's name: "King", "Rei"."""
    return {
        engine.Rank.ACE: _("Ace"),
        engine.Rank.SEVEN: _("Seven"),
        engine.Rank.TEN: _("Ten"),
        engine.Rank.KING: _("King"),
        engine.Rank.JACK: _("Jack"),
        engine.Rank.QUEEN: _("Queen"),
        engine.Rank.NINE: _("Nine"),
        engine.Rank.EIGHT: _("Eight"),
        engine.Rank.SIX: _("Six"),
        engine.Rank.FIVE: _("Five"),
        engine.Rank.FOUR: _("Four"),
        engine.Rank.THREE: _("Three"),
        engine.Rank.TWO: _("Two"),
    }[rank]


def revoke_proof(revoke: engine.ProvenRevoke, players: list[str], teams: tuple[str, str]) -> str:
    """A revoke the cards prove, with the trick where it happened and the one that proves it."""
    return _(
        "Revoke (renúncia) by %(team)s: %(player)s did not follow %(suit)s in trick %(trick)s, "
        "and played %(suit)s in trick %(proven)s.",
        team=teams[revoke.team],
        player=players[revoke.seat],
        suit=suit_name(revoke.suit),
        trick=revoke.trick,
        proven=revoke.proven_in,
    )


# The exact analysis (engine/analysis/, RULES.md "Exact analysis") ------------------------------

ANALYSIS_PROBLEMS: dict[AnalysisCode, Callable[[str], str]] = {
    AnalysisCode.HAND_SIZES: lambda _card: _(
        "The four hands must have the same number of cards, from 1 to 10."
    ),
    AnalysisCode.REPEATED_CARD: lambda card: _("%(card)s is written twice.", card=card_said(card)),
    AnalysisCode.NOT_IN_DECK: lambda card: _("%(card)s is not in this deck.", card=card_said(card)),
    AnalysisCode.UNKNOWN_CARD: lambda card: _(
        "%(card)s is not a card: write the rank then the suit, like 7H.", card=card
    ),
    AnalysisCode.LEADER: lambda _card: _("The leader must be a seat from 0 to 3."),
    AnalysisCode.TRUMP: lambda _card: _("The trump must be one of C, D, H or S."),
    AnalysisCode.RECORD: lambda _card: _(
        "Only a complete record of 10 tricks without a revoke can be analysed."
    ),
}
"""Each reason the analysis refuses hands or a record, from the card it is about."""


def analysis_error(error: AnalysisError) -> str:
    """Why the analysis cannot take these hands or this record, as a sentence."""
    return ANALYSIS_PROBLEMS[error.problem](error.card or "")


def analysis_revoke(seat: int, trick: int, proven_in: int) -> str:
    return _(
        "Seat %(seat)s revoked in trick %(trick)s (proven in trick %(proven)s): a revoke ends "
        "the hand, so there is no best play to compare with.",
        seat=seat,
        trick=trick,
        proven=proven_in,
    )


def analysis_incomplete(count: int) -> str:
    return _(
        "The record has %(count)s tricks: only a complete hand of 10 tricks can be analysed.",
        count=count,
    )


def analysis_queue_full(mine: bool, limit: int) -> str:
    """Why no analysis can be queued now: this client's share, or the whole queue, is full."""
    if mine:
        return ngettext(
            "You already have %(num)d analysis waiting: wait for it to finish.",
            "You already have %(num)d analyses waiting: wait for one to finish.",
            limit,
        )
    return _("The analyses are all busy right now: try again in a few minutes.")


def analysis_queue_down() -> str:
    """Why no analysis can be queued now: the queue's storage cannot be reached."""
    return _("The analyses cannot be queued right now: nothing was kept, try again in a minute.")


def analysis_out_of_time(analysed: int) -> str:
    return ngettext(
        "The time for this analysis ran out: only the last %(num)d card was analysed.",
        "The time for this analysis ran out: only the last %(num)d cards were analysed.",
        analysed,
    )


def analysis_failed(code: str | None) -> str:
    if code == "out_of_time":
        return _("The time for this analysis ran out before its value was found.")
    return _("The analysis failed on the server: ask for it again.")


def write_conflict(code: str) -> str | None:
    """Why a write was refused, where a rubber and a bidding game say it alike (web.writes)."""
    return {
        "stale": _("Someone else recorded a hand: here is the new score."),
        "key_reused": _(
            "This page had already sent a different hand: check the score, then record again."
        ),
        "no_hands": _("There is no hand to undo."),
    }.get(code)


_SCORE = re.compile(r"(?:(?<!\S)\S{1,12} )?\d+ – \d+(?: \S{1,12}(?!\S))?")
"""A score, with the word on either side of it when it is short: "Nós 4 – 1 Eles"."""


def whole_scores(text: str) -> Markup:
    """Return ``text`` (escaped unless it is markup) with every score in one unbroken block.

    A line breaks between words, never inside "4 – 1" nor between a score and a short name
    beside it (docs/decisions/rubber-page.md, "At a real table"). A non-breaking space would
    not do: a line may still break after the dash.

    >>> whole_scores("ganhas Nós 4 – 1 Eles")
    Markup('ganhas <span class="whole">Nós 4 – 1 Eles</span>')
    >>> whole_scores("A & B 2 – 3 Supercalifragilistic")
    Markup('A &amp; <span class="whole">B 2 – 3</span> Supercalifragilistic')
    """
    return Markup(_SCORE.sub(r'<span class="whole">\g<0></span>', str(escape(text))))
