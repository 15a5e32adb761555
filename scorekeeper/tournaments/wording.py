"""A tournament in the reader's language: its refusals, and what the organizer's writes ask and say.

The engine's refusals take a sentence per code; a final write (a withdrawal, a walkover) is asked
before it is done, and every write of the organizer's says what it did."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import cast

from flask_babel import gettext as _

from scorekeeper.engine import tournaments as tourney
from scorekeeper.engine.names import MAX_NAME_LENGTH

Sentence = Callable[[tourney.TournamentError], str]

FAULTS: dict[str, Sentence] = {
    "too_few_pairs": lambda error: _(
        "A tournament needs at least %(low)s pairs.", low=tourney.MIN_PAIRS
    ),
    "too_many_pairs": lambda error: _(
        "A tournament takes at most %(high)s pairs.", high=tourney.MAX_PAIRS
    ),
    "even_best_of": lambda error: _(
        "A match is played to the best of 1, 3 or 5 rubbers, so that one pair wins it."
    ),
    "bad_best_of": lambda error: _(
        "A match is played to the best of 1, 3 or 5 rubbers, so that one pair wins it."
    ),
    "unknown_format": lambda error: _(
        "%(value)s is not a format: knockout, round_robin or swiss.", value=error.value
    ),
    "bad_rounds": lambda error: (
        _("Only a Swiss tournament is given a number of rounds; the other formats have their own.")
        if error.limit is None
        else _(
            "A Swiss tournament of %(pairs)s pairs has at most %(high)s rounds (a pair meets "
            "each other pair once at most), and at least 1.",
            pairs=error.limit + 1,
            high=error.limit,
        )
    ),
    "bad_groups": lambda error: _(
        "These groups do not fit the pairs: each group needs at least two pairs, and fewer "
        "go on than it holds."
    ),
    "bad_third_place": lambda error: _(
        "A match for third place needs a knockout of at least 4 pairs."
    ),
    "round_unfinished": lambda error: _(
        "The next round is drawn once every match of the last one is finished."
    ),
    "all_rounds_drawn": lambda error: _("Every round of this tournament is drawn already."),
    "rounds_draw_themselves": lambda error: _(
        "This tournament's rounds are drawn by themselves; only a Swiss round is drawn by hand."
    ),
    "match_played": lambda error: _(
        "A rubber of this match is finished: it was played, so it is not a walkover."
    ),
    "not_a_pair": lambda error: _("Pair %(value)s does not play this match.", value=error.value),
    "bye_match": lambda error: _("This pair rests this round: there is no match to give."),
    "no_such_match": lambda error: _("There is no such match in this tournament."),
    "repeated_player": lambda error: (
        _("%(value)s is in two pairs: a player plays in one pair only.", value=error.value)
        if error.twice is None
        else _(
            "%(name)s is named twice in the same pair: a pair is two different players.",
            name=error.twice,
        )
    ),
    "pair_of_one": lambda error: (
        _("Pair %(pair)s needs two players.", pair=error.pair)
        if error.pair is not None
        else _("A pair is two players: %(value)s is not.", value=error.value)
    ),
    "withdrawn": lambda error: _("Pair %(value)s has withdrawn.", value=error.value),
    "not_last_round": lambda error: _(
        "Only the last round drawn, round %(value)s, can be undrawn.", value=error.value
    ),
    "round_played": lambda error: _(
        "Round %(value)s has a match with a hand already: it can no longer be undrawn.",
        value=error.value,
    ),
    "no_walkover": lambda error: _("There is no walkover at this match to undo."),
    "not_withdrawn": lambda error: _("Pair %(value)s has not withdrawn.", value=error.value),
    "result_used": lambda error: result_used(cast(tourney.Match | tourney.Round, error.value)),
    "not_in_play": lambda error: not_in_play(),
    "no_late_pairs": lambda error: _(
        "Only a Swiss tournament takes a late pair, before its last round is drawn."
    ),
    "match_decided": lambda error: _("This match is decided already."),
    "no_paper_result": lambda error: _("No rubber of this match was kept on paper."),
    "rubber_played": lambda error: _(
        "The rubber in play at this match has hands already: its result is in them, not on paper."
    ),
    "too_many_players": lambda error: _(
        "A pair is two players, not more: %(value)s.", value=error.value
    ),
    "control_characters": lambda error: _(
        "A name must not contain control or invisible characters (%(characters)s).",
        characters=error.value,
    ),
    "long_name": lambda error: _(
        "A name has at most %(count)s characters: %(value)s is longer.",
        count=MAX_NAME_LENGTH,
        value=error.value,
    ),
}


def fault(error: tourney.TournamentError) -> str:
    """The sentence of an engine's refusal, naming the line it is on when it has one."""
    sentence = FAULTS[error.code](error)
    line = getattr(error, "line", None)
    if line is not None:
        return _("Line %(line)s: %(sentence)s", line=line, sentence=sentence)
    return sentence


def result_used(later: tourney.Match | tourney.Round) -> str:
    """Why the organizer cannot correct a result: what depends on it, named."""
    if isinstance(later, tourney.Round):
        return _(
            "Round %(round)d was drawn on this result: undraw it (while none of its matches "
            "has a hand) to correct this one.",
            round=later.number,
        )
    return _(
        "The match at table %(table)d of round %(round)d is already being played on this "
        "result: it can no longer be corrected.",
        table=later.table,
        round=later.round,
    )


def not_in_play() -> str:
    """Why a match's rubber takes no more hands: it no longer counts in the tournament."""
    return _(
        "This rubber is no longer played in the tournament: its round was undrawn, or its "
        "match now has other pairs."
    )


@dataclass(frozen=True)
class Question:
    """A final write asked before it is done: what it is, what follows, and its button."""

    heading: str
    sentence: str
    button: str
    confirm: str
    """The write's name, posted back as ``confirm``."""


def withdrawal_question(pair: str) -> Question:
    """Ask whether ``pair`` withdraws, saying what becomes of its matches."""
    return Question(
        _("%(pair)s withdraw?", pair=pair),
        _(
            "The matches they still have to play are won by the other pair, as walkovers. "
            "It can be undone while no later match depends on them."
        ),
        _("Yes, they withdraw"),
        "withdraw",
    )


def walkover_question(match: tourney.Match, labels: dict[int, str], winner: int) -> Question:
    """Ask whether the other pair of ``match`` did not come, so that ``winner`` wins it."""
    absent = match.pairs[1] if winner == match.pairs[0] else match.pairs[0]
    return Question(
        _(
            "Round %(round)s · Table %(table)s: %(pair)s did not come?",
            round=match.round,
            table=match.table,
            pair=labels[absent] if absent is not None else "",
        ),
        _(
            "%(pair)s win the match by walkover. It can be undone while no later match depends "
            "on it.",
            pair=labels[winner],
        ),
        _("Yes, give the walkover"),
        "walkover",
    )


def withdrawn(pair: str) -> str:
    """Say that ``pair`` withdrew, and what became of its matches."""
    return _(
        "%(pair)s withdraw: the matches they still had to play are won by the other pair.",
        pair=pair,
    )


def reinstated(pair: str) -> str:
    """Say that ``pair``'s withdrawal was undone."""
    return _("Withdrawal undone: %(pair)s play on.", pair=pair)


def walkover_given(round_number: int, table: int, winner: str) -> str:
    """Say which walkover was given, to whom."""
    return _(
        "Walkover at table %(table)s of round %(round)s: %(pair)s win.",
        table=table,
        round=round_number,
        pair=winner,
    )


def walkover_undone(round_number: int, table: int) -> str:
    """Say that a walkover was undone: its match is in play again."""
    return _(
        "Walkover undone: the match at table %(table)s of round %(round)s is in play again.",
        table=table,
        round=round_number,
    )


def undrawn(round_number: int) -> str:
    """Say that a Swiss round was undrawn, and what for."""
    return _(
        "Round %(round)s undrawn: correct what you need, then draw it again.",
        round=round_number,
    )


def paper_result_given(round_number: int, table: int, score: str) -> str:
    """Say which rubber kept on paper was given, with its score."""
    return _(
        "Round %(round)s · Table %(table)s: the rubber kept on paper counts, %(score)s.",
        round=round_number,
        table=table,
        score=score,
    )


def paper_result_undone(round_number: int, table: int) -> str:
    """Say that a rubber kept on paper was taken back: its match is in play again."""
    return _(
        "Round %(round)s · Table %(table)s: the result kept on paper is taken back, the rubber is "
        "in play again.",
        round=round_number,
        table=table,
    )


def late_pair_joined(pair: str) -> str:
    """Say that a late pair joined, and from when it plays."""
    return _("%(pair)s join the tournament: they are drawn from the next round.", pair=pair)


LANGUAGE_NAMES: dict[str, Callable[[], str]] = {
    "pt_PT": lambda: _("European Portuguese"),
    "pt_BR": lambda: _("Brazilian Portuguese"),
    "en": lambda: _("English"),
}
"""The TV's languages (web.i18n.LOCALES) named in the reader's language, for a sentence."""


def tv_language_set(locale: str) -> str:
    """Say in which language the TV shows the tournament from its next look."""
    return _("The TV now shows the tournament in %(language)s.", language=LANGUAGE_NAMES[locale]())
