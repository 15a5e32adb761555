"""What the page "Analisar a mão" shows of a done analysis, in the players' words.

The engine says every value, cost, best card and best line (``engine/analysis/``); this only
words them: the value in games, the card that changed the games first, each trick's cards with
their cost, and the best line from the card chosen (``?from=N``, N from 1 to 40 in play order).
The routes are ``analysis_page.py``'s.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_babel import ngettext

from scorekeeper import engine
from scorekeeper.background import work
from scorekeeper.background.models import Analysis
from scorekeeper.engine import analysis as solver
from scorekeeper.engine.analysis import CardAnalysis, costliest, games_of, turning_card
from scorekeeper.web import wording

RECORD_CARDS = work.RECORD_CARDS


@dataclass(frozen=True)
class CardView:
    player: str
    card: str
    suit: str
    cost: int
    cost_words: str
    """Its cost and to whom, "−2 pontos para Nós", when it cost something."""
    against: str
    """What the cost is measured against, with the team's value before and after the card."""
    best: str
    """The best cards instead, in a sentence, when this one cost something."""
    step: int | None
    """Its place in the hand, 1 to 40, where its best line is known (the page's ``?from=``)."""


@dataclass(frozen=True)
class CostlyView:
    """One of the costliest cards, in the summary: who played it where, and what it cost."""

    card: str
    cost_words: str
    step: int | None


@dataclass(frozen=True)
class LineCard:
    player: str
    card: str
    suit: str
    on_table: bool
    """Played before the position the line starts from."""
    here: bool
    """The line's first card: the card chosen, or the best card instead of it."""


@dataclass(frozen=True)
class LineTrickView:
    number: int
    cards: list[LineCard]
    won: str
    taken: tuple[int, int]


@dataclass(frozen=True)
class LineView:
    step: int
    heading: str
    intro: str
    tricks: list[LineTrickView]
    end: str
    previous: int | None
    next: int | None


def games_words(points: tuple[int, int], rules: engine.RuleSet, teams: tuple[str, str]) -> str:
    """The games card points are worth, as the table says it: "2 jogos para Nós"."""
    winner, games = games_of(points, rules)
    if winner is None:
        return _("a tie (empate)")
    return ngettext(
        "%(num)d game to %(team)s", "%(num)d games to %(team)s", games, team=teams[winner]
    )


def _faces(cards: tuple[engine.Card, ...]) -> str:
    return ", ".join(wording.card_face(card) for card in cards)


def facts(
    row: Analysis, teams: tuple[str, str], players: list[str], chosen: int | None
) -> dict[str, Any]:
    """The template's values for a done record analysis; ``chosen`` the card whose line to show."""
    assert row.result is not None
    rules = engine.RuleSet.from_dict(row.request["rules"])
    analysis = work.record_from_json(row.result)
    lines = work.lines_from_json(row.result)
    offset = RECORD_CARDS - len(analysis.cards)
    steps = [None if line is None else offset + i + 1 for i, line in enumerate(lines)]
    turning = turning_card(analysis, rules)
    tricks: dict[int, list[CardView]] = {}
    for card, step in zip(analysis.cards, steps, strict=True):
        best = (
            ngettext(
                "the best card was %(cards)s",
                "the best cards were %(cards)s",
                len(card.best_cards),
                cards=_faces(card.best_cards),
            )
            if card.cost
            else ""
        )
        face = wording.card_face(card.card)
        cost_words, against = _cost_words(card, teams) if card.cost else ("", "")
        view = CardView(
            players[card.seat],
            face,
            card.card.suit.value,
            card.cost,
            cost_words,
            against,
            best,
            step,
        )
        tricks.setdefault(card.trick, []).append(view)
    step_of = {id(card): step for card, step in zip(analysis.cards, steps, strict=True)}
    costly = [
        CostlyView(
            _card_in_trick(card, players),
            _cost_words(card, teams)[0],
            step_of[id(card)],
        )
        for card in costliest(analysis)
    ]
    line = None
    if chosen is not None and chosen in steps:
        line = _line(row, analysis, lines, chosen, (teams, players))
    return {
        "played": analysis.played,
        "value": analysis.value,
        "played_games": games_words(analysis.played, rules, teams),
        "value_games": games_words(analysis.value, rules, teams) if analysis.value else None,
        "turning": _turning_words(turning, rules, teams) if turning is not None else None,
        "turning_card": _card_in_trick(turning, players) if turning is not None else None,
        "costliest": costly,
        "tricks": sorted(tricks.items()),
        "incomplete": None
        if analysis.complete
        else wording.analysis_out_of_time(len(analysis.cards)),
        "line": line,
        "older": "lines" not in row.result,
    }


def _card_in_trick(card: CardAnalysis, players: list[str]) -> str:
    """Who played a card, and where: "Lugar 4: 2♥ na 3.ª vaza"."""
    return _(
        "%(player)s: %(card)s in trick %(trick)s",
        player=players[card.seat],
        card=wording.card_face(card.card),
        trick=card.trick,
    )


def _cost_words(card: CardAnalysis, teams: tuple[str, str]) -> tuple[str, str]:
    """A costly card's cost for its team, then what it is measured against, in the line's terms.

    The engine's values: the team's points with best play by all from before the card (what
    the line from it says the team "would have made") and from after it."""
    team = engine.team_of(card.seat)
    return (
        ngettext(
            "−%(num)s point for %(team)s",
            "−%(num)s points for %(team)s",
            card.cost,
            team=teams[team],
        ),
        _(
            "against best play by all from here on: %(team)s would have made %(before)s "
            "before this card, %(after)s after it",
            team=teams[team],
            before=card.best[team],
            after=card.value[team],
        ),
    )


def _line(
    row: Analysis,
    analysis: solver.RecordAnalysis,
    lines: tuple[solver.Line | None, ...],
    step: int,
    names: tuple[tuple[str, str], list[str]],
) -> LineView | None:
    """The best line from before card ``step``, trick by trick, as the engine plays it out."""
    teams, players = names
    offset = RECORD_CARDS - len(analysis.cards)
    request = row.request
    rules = engine.RuleSet.from_dict(request["rules"])
    item = analysis.cards[step - 1 - offset]
    line = lines[step - 1 - offset]
    assert line is not None
    try:
        record = engine.verify_record(
            engine.Suit(request["trump"]), request["leader"], request["tricks"], rules
        )
        shown = solver.record_line(record, rules, step - 1, line)
    except (ValueError, IndexError):  # a stored line that does not fit its record: none shown
        return None
    views = []
    for trick in shown:
        cards = [
            LineCard(
                players[(trick.leader + place) % 4],
                wording.card_face(card),
                card.suit.value,
                place < trick.before,
                trick is shown[0] and place == trick.before,
            )
            for place, card in enumerate(trick.cards)
        ]
        won = _(
            "won by %(player)s, %(points)s points",
            player=players[trick.winner],
            points=trick.points,
        )
        views.append(LineTrickView(trick.number, cards, won, trick.taken))
    team = engine.team_of(item.seat)
    if item.cost:
        intro = _(
            "Instead of %(played)s, %(best)s: %(team)s would have made %(points)s.",
            played=wording.card_with_article(item.card, "of the"),
            best=wording.card_with_article(line[0], "the"),
            team=teams[team],
            points=item.best[team],
        )
    else:
        intro = _(
            "%(played)s was one of the best cards: from here on, best play by all four.",
            played=wording.card_with_article(item.card, "The"),
        )
    end = shown[-1].taken
    known = {offset + i + 1 for i, found in enumerate(lines) if found is not None}
    return LineView(
        step,
        _(
            "The best line from %(player)s's card in trick %(trick)s",
            player=players[item.seat],
            trick=item.trick,
        ),
        intro,
        views,
        _(
            "At the end: %(team0)s %(points0)s – %(points1)s %(team1)s: %(games)s",
            team0=teams[0],
            points0=end[0],
            points1=end[1],
            team1=teams[1],
            games=games_words(end, rules, teams),
        ),
        step - 1 if step - 1 in known else None,
        step + 1 if step + 1 in known else None,
    )


def _turning_words(card: CardAnalysis, rules: engine.RuleSet, teams: tuple[str, str]) -> str:
    team = engine.team_of(card.seat)
    return _(
        "With %(card)s in trick %(trick)s, %(team)s would have made %(points)s: %(games)s.",
        card=wording.card_with_article(card.best_cards[0], "the"),
        trick=card.trick,
        team=teams[team],
        points=card.best[team],
        games=games_words(card.best, rules, teams),
    )
