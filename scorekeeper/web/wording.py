"""The engine's decisions and refusals in the reader's language.

The engine answers with codes and values; this module is the one place that turns them into
sentences, so the pages, the API and the exports say the same thing.
"""

from __future__ import annotations

from flask_babel import get_locale, ngettext
from flask_babel import gettext as _
from markupsafe import Markup

from scorekeeper import engine


def engine_error(error: ValueError) -> str:
    """A domain error of the engine as a sentence in the request's language."""
    value = getattr(error, "value", None)
    if isinstance(error, engine.ImpossiblePointsError):
        reason = error.reason
        if reason == "range":
            return _("Card points go from 0 to 120, not %(value)s.", value=value)
        if reason == "one" and value == engine.scoring.TOTAL_POINTS - 1:
            return _(
                "%(value)s is impossible: the other team would have 1 point, and no set of "
                "cards is worth exactly 1.",
                value=value,
            )
        if reason == "one":
            return _(
                "%(value)s is impossible: no set of cards is worth exactly 1 point.", value=value
            )
        if reason == "sum" and isinstance(value, tuple):
            return _(
                "%(first)s and %(second)s add up to %(total)s, not 120.",
                first=value[0],
                second=value[1],
                total=sum(value),
            )
        if reason == "tie":
            return _("Only 60-60 is a tie.")
        if reason == "all_tricks":
            return _("All the tricks means all 120 card points.")
        return _("Card points must be a whole number from 0 to 120.")
    if isinstance(error, engine.UnknownTeamError):
        return _("There is no team %(team)s: the teams are 0 and 1.", team=value)
    if isinstance(error, engine.RubberFinishedError):
        return _("This rubber is already won: no more hands can be added.")
    if isinstance(error, engine.TooManyHandsError):
        return _("A rubber holds at most %(count)s hands.", count=engine.scoring.MAX_HANDS)
    if isinstance(error, engine.HandNotAllowedError):
        if value is engine.HandKind.SPOILED:
            return _("A deal can only be spoiled (melar) when the melar rule is on.")
        return _("This hand is not allowed by the rubber's rules.")
    if isinstance(error, engine.RulesError):
        return _("The setting %(key)s has a value it does not take.", key=error.key)
    if isinstance(error, engine.CardError):
        return _("%(card)s is not a card of this deck.", card=error.text)
    return str(error)


def conflict(code: str) -> str:
    """Why a write was refused because of the rubber's state."""
    return {
        "stale": _("Someone else recorded a hand: here is the new score."),
        "key_reused": _(
            "This page had already sent a different hand: check the score, then record again."
        ),
        "ends_early": _(
            "That change would end the rubber before the hands that follow it: undo those first."
        ),
        "no_hands": _("There is no hand to undo."),
        "cards_shift": _(
            "That change would move the deal of a later hand recorded card by card: "
            "undo that hand first."
        ),
        "busy": _("The rubber is busy: try again."),
        "finished": _("This rubber is already won: no more hands can be added."),
    }.get(code, _("The rubber changed: reload it."))


def hand_summary(result: engine.HandResult, teams: tuple[str, str]) -> str:
    """What a hand earned and why, the way the table says it: "91 → 2 jogos + 1 do empate"."""
    hand = result.hand
    if hand.kind is engine.HandKind.TIE:
        if "tie_carry" in result.reasons:
            return _("60-60: a tie, the next hand is worth one more game")
        if "tie_double" in result.reasons:
            return _("60-60: a tie, the next hand is worth double")
        return _("60-60: a tie, nobody scores")
    if hand.kind is engine.HandKind.SPOILED:
        return _("Spoiled deal (melar): the same dealer deals again")
    if hand.kind is engine.HandKind.REVOKE:
        assert hand.team is not None
        offender = teams[hand.team]
        if "revoke_penalty" in result.reasons:
            return _(
                "Revoke (renúncia) by %(team)s: %(other)s marks 2 games",
                team=offender,
                other=teams[1 - hand.team],
            )
        if "revoke_minus_two" in result.reasons:
            lost = -result.games[hand.team]
            if not lost:
                return _("Revoke (renúncia) by %(team)s: it had no game to lose", team=offender)
            return ngettext(
                "Revoke (renúncia) by %(team)s: it loses %(num)s game",
                "Revoke (renúncia) by %(team)s: it loses %(num)s games",
                lost,
                team=offender,
            )
        return _(
            "Revoke (renúncia) by %(team)s: %(other)s wins the rubber",
            team=offender,
            other=teams[1 - hand.team],
        )
    assert hand.points is not None and result.winner is not None
    points = hand.points[result.winner]
    if result.bandeira:
        head = _("%(points)s → bandeira, 4 games", points=points)
    elif "capote" in result.reasons:
        head = _("%(points)s → 2 games (capote)", points=points)
    else:
        head = ngettext(
            "%(points)s → %(num)s game",
            "%(points)s → %(num)s games",
            result.base_games,
            points=points,
        )
    if result.carried_extra:
        head += " " + ngettext(
            "+ %(num)s from the tie", "+ %(num)s from the ties", result.carried_extra
        )
    if result.multiplier > 1:
        head += " " + _("× %(multiplier)s (60-60)", multiplier=result.multiplier)
    if points == engine.scoring.TOTAL_POINTS and not result.bandeira:
        head += " " + _("(no bandeira without all the tricks)")
    # The team it went to: "75 → 1 jogo" twice could be either side's.
    return _("%(team)s: %(summary)s", team=teams[result.winner], summary=head)


def hand_note(result: engine.HandResult, teams: tuple[str, str]) -> Markup:
    """:func:`hand_summary` for a page: each team's name in its colour (the names escaped)."""
    marked = tuple(
        Markup('<span class="team{}">{}</span>').format(team, name)
        for team, name in enumerate(teams)
    )
    return Markup(hand_summary(result, (marked[0], marked[1])))


def recorded_note(result: engine.HandResult, teams: tuple[str, str]) -> Markup:
    """The note after a hand is recorded: its :func:`hand_note`, except that a tie leaving games
    pending is just the tie (the page says what it carries, right under the score)."""
    if "tie_carry" in result.reasons or "tie_double" in result.reasons:
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
    """The name of a finished rubber's outcome in the reader's interface, or "" where its
    players have none (pente is gato in Brazil; chapéu and arrepio are said only there)."""
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


def record_problem(problem: engine.RecordProblem) -> str:
    """What is wrong with a record of tricks (the verifier's ``errors``), as a sentence."""
    card = problem.card or ""
    trick = problem.trick
    if problem.code == "unknown_card":
        return _("%(card)s is not a card: write the rank then the suit, like 7H.", card=card)
    if problem.code == "not_in_deck":
        return _("%(card)s is not in this deck.", card=card)
    if problem.code == "repeated_card":
        return _("%(card)s was already played in an earlier trick.", card=card)
    if problem.code == "trick_size":
        return _("Trick %(trick)s does not have 4 cards.", trick=trick)
    if problem.code == "too_many_tricks":
        return _("A hand has only 10 tricks.")
    if problem.code == "trump_card_suit":
        return _("The turned card %(card)s is not of the trump suit.", card=card)
    if problem.code == "trump_card_in_deck":
        return _(
            "In the Azores the turned card comes from the rejected cards, not %(card)s.", card=card
        )
    if problem.code == "trump_card_seat":
        return _(
            "The turned card %(card)s belongs to the dealer, but another seat played it.", card=card
        )
    return problem.error


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


def card_face(card: engine.Card) -> str:
    """A card the way its corner shows it: ``A♠``, ``10♥``."""
    return f"{card.rank}{SUIT_SYMBOLS[card.suit.value]}"


def card_name(card: engine.Card) -> str:
    """A card in words, for screen readers and tooltips: "Ace of spades"."""
    rank = {
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
    }[card.rank]
    return _("%(rank)s of %(suit)s", rank=rank, suit=suit_name(card.suit))


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
