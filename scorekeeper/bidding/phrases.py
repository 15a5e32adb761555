"""The engine's answers about a bidding game in the reader's language.

Refusals, conflicts and what each hand did, the same words for the pages and the API."""

from __future__ import annotations

from collections.abc import Callable

from babel.lists import format_list
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from scorekeeper.engine import CardError
from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import PileError
from scorekeeper.web import wording as words


def seat_names(players: list[str]) -> list[str]:
    """The players' names by seat, an unnamed seat called by its number."""
    return [name or _("Player %(number)s", number=seat + 1) for seat, name in enumerate(players)]


def tie_note(state: rules.BiddingState, names: list[str]) -> str | None:
    """Why a game whose top score is past the target goes on: who is tied, on what."""
    if not state.tied_at_target:
        return None
    return _(
        "%(players)s are tied on %(points)s, the target of %(target)s reached: the game goes on "
        "until one player is ahead alone.",
        players=format_list([names[seat] for seat in state.leaders], locale=str(get_locale())),
        points=max(state.scores),
        target=state.table.target,
    )


def _points_one(error: rules.BiddingError) -> str:
    if error.value == rules.TOTAL_POINTS - 1:
        return _(
            "%(value)s is impossible: the others would have 1 point, and no set of cards "
            "is worth exactly 1.",
            value=error.value,
        )
    return _(
        "%(value)s is impossible: no set of cards is worth exactly 1 point.", value=error.value
    )


Fault = rules.BiddingFault
FAULTS: dict[rules.BiddingFault, Callable[[rules.BiddingError], str]] = {
    Fault.PLAYERS: lambda error: _("Bidding Sueca is played by 4 to 6 players."),
    Fault.REPEATED_PLAYER: lambda error: _(
        "%(name)s is at the table twice: each player needs a name of their own.",
        name=str(error.value).strip(),
    ),
    Fault.UNNAMED_PLAYERS: lambda error: _(
        "%(count)s players have no name: at most one player may be left without a name.",
        count=error.value,
    ),
    Fault.TARGET: lambda error: _("The target is a whole number of points from 50 to 2000."),
    Fault.BIDDER_SEAT: lambda error: _("The bidder must be one of the players at this table."),
    Fault.PARTNER_SEAT: lambda error: _("The partner must be one of the players at this table."),
    Fault.FIRST_DEALER_SEAT: lambda error: _(
        "The first dealer must be one of the players at this table."
    ),
    Fault.BID: lambda error: _("A bid is a whole number of card points from 61 to 120."),
    Fault.POINTS_VALUE: lambda error: _("Card points must be a whole number from 0 to 120."),
    Fault.POINTS_RANGE: lambda error: _(
        "Card points go from 0 to 120, not %(value)s.", value=error.value
    ),
    Fault.POINTS_ONE: _points_one,
    Fault.OUTCOME_MISSING: lambda error: _(
        "Say the card points of the bidder's side, or whether the bid was made."
    ),
    Fault.OUTCOME_DISAGREES: lambda error: _(
        "The card points and whether the bid was made disagree."
    ),
    Fault.OUTCOME_PASSED: lambda error: _("A hand everyone passed has no bid."),
    Fault.GAME_FINISHED: lambda error: conflict("finished"),
    Fault.TOO_MANY_HANDS: lambda error: _(
        "A game holds at most %(count)s hands.", count=rules.MAX_HANDS
    ),
}
"""Each fault of the bidding engine, worded in the request's language."""


def engine_error(error: ValueError) -> str:
    """A refusal of the bidding engine as a sentence in the request's language."""
    if isinstance(error, rules.BiddingError):
        return FAULTS[error.fault](error)
    if isinstance(error, PileError):
        return ngettext(
            "%(num)s card: at a table of %(players)s, a pile holds %(players)s cards for each"
            " trick it won.",
            "%(num)s cards: at a table of %(players)s, a pile holds %(players)s cards for each"
            " trick it won.",
            error.value,
            players=error.players,
        )
    if isinstance(error, CardError):
        if not error.text.strip():
            return _("Write the called card as its rank then its suit, like AH.")
        return _("%(card)s is not a card of this deck.", card=error.text.strip())
    return str(error)


def conflict(code: str) -> str:
    """Why a write was refused because of the game's state."""
    return words.write_conflict(code) or {
        "ends_early": _(
            "That change would end the game before the hands that follow it: undo those first."
        ),
        "busy": _("The game is busy: try again."),
        "finished": _("This game is already won: no more hands can be added."),
    }.get(code, _("The game changed: reload it."))


def hand_summary(result: rules.BidResult, names: list[str]) -> str:
    """What a hand was and did, the way the table says it: "Ana licitou 75 com Eva: fez (80)"."""
    hand = result.hand
    if hand.kind is rules.HandKind.PASSED:
        return _("Everyone passed: no score")
    assert hand.bidder is not None and hand.partner is not None
    bidder = names[hand.bidder]
    if hand.alone:
        head = _("%(bidder)s bid %(bid)s alone", bidder=bidder, bid=hand.bid)
    else:
        head = _(
            "%(bidder)s bid %(bid)s with %(partner)s",
            bidder=bidder,
            bid=hand.bid,
            partner=names[hand.partner],
        )
    if hand.points is not None:
        outcome = (
            _("made it (%(points)s)", points=hand.points)
            if result.made
            else _("failed (%(points)s)", points=hand.points)
        )
    else:
        outcome = _("made it") if result.made else _("failed")
    return f"{head}: {outcome}"


def signed(change: int) -> str:
    """A change of score as the page shows it: +75, −90, 0."""
    if change > 0:
        return f"+{change}"
    return f"−{-change}" if change < 0 else "0"
