"""A tournament's TV and its bracket as a picture.

The TV (/t/<id>/tv) shows the round in play, each table's rubber with its games and its cross,
and the standings with their tie-breaks, or the bracket once there is a knockout; read from across
the room, with no controls. It follows the tournament as a group's TV does (app.js, "Following
live" in docs/decisions/offline-and-live.md): it asks its own address every 5 s with its ETag,
answered 304 while nothing changed. The bracket (/t/<id>/bracket.svg) is the same drawing as a
file, for the tournament's page to show."""

from __future__ import annotations

from dataclasses import dataclass

from flask import Response, abort, render_template
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import db
from scorekeeper.rubbers import drawings
from scorekeeper.rubbers.models import Rubber
from scorekeeper.tournaments import bp, shown, store
from scorekeeper.tournaments.models import Tournament


@dataclass(frozen=True)
class TableView:
    """A match on the TV: its pairs' wins, and its rubber being played (or last played)."""

    match: tourney.Match
    rubber: Rubber | None
    state: engine.RubberState | None
    cross: drawings.Cross | None


DRAWN_BY_ITSELF = frozenset({"knockout", "third_place"})
"""The stages whose next match is played as soon as its pairs are known, round or not."""


def round_in_play(fold: tourney.Tournament) -> tourney.Round | None:
    """The current round (the first with a match undecided); the last one once every match is."""
    for drawn in fold.rounds:
        if drawn.number == fold.current_round:
            return drawn
    return fold.rounds[-1] if fold.rounds else None


def tables(standing: store.Standing, current: tourney.Round | None) -> list[TableView]:
    """The round's matches, byes left out, then a knockout's later match already in play.

    A round robin's later rounds wait for theirs to be current, though their rubbers are made
    at the start: a table whose match is decided sees nothing more until the round moves on
    (docs/decisions/tournaments.md, "The tables of the current round")."""
    if current is None:
        return []
    shown_matches = [match for match in current.matches if not match.is_bye] + [
        match
        for drawn in standing.fold.rounds
        if drawn.number > current.number
        for match in drawn.matches
        if match.needs_rubber and match.stage in DRAWN_BY_ITSELF
    ]
    views = []
    for match in shown_matches:
        rows = standing.rubbers.get((match.round, match.table), [])
        rubber = rows[-1] if rows and not match.walkover else None
        state = rubber.state() if rubber is not None else None
        views.append(
            TableView(match, rubber, state, drawings.cross(state) if state is not None else None)
        )
    return views


def numbered_in_its_sitting(rubber: Rubber) -> bool:
    """Whether a rubber's page numbers it among its table's rubbers: not in a match of one.

    A best-of-1 match is one rubber: "Rubber 1 of the sitting" would count what is not there."""
    if rubber.tournament_id is None:
        return True
    found = db.session.get(Tournament, rubber.tournament_id)
    return found is None or found.best_of > 1


def bracket_title(standing: store.Standing) -> str:
    return _("Bracket of %(name)s", name=standing.tournament.name)


@bp.get("/t/<tournament_id>/bracket.svg")
def bracket_svg(tournament_id: str) -> Response:
    """The knockout's bracket as an SVG file; 404 for a tournament without a knockout."""

    def build(standing: store.Standing, _tag: str) -> str:
        drawing = shown.drawing(standing)
        if drawing is None:
            abort(404)
        return render_template(
            "tournaments/bracket.svg", bracket=drawing, title=bracket_title(standing)
        )

    return shown.kept(tournament_id, "bracket.svg", build, mimetype="image/svg+xml")


@bp.get("/t/<tournament_id>/tv")
def tv(tournament_id: str) -> Response:
    """The tournament's TV, for the room: the round in play, the standings or the bracket.

    In the language the organizer chose for it, whatever the TV's browser speaks."""

    def build(standing: store.Standing, tag: str) -> str:
        current = round_in_play(standing.fold)
        drawing = shown.drawing(standing)
        knockout_begun = drawing is not None and any(box.drawn for box in drawing.boxes)
        views = tables(standing, current)
        return render_template(
            "tournaments/tv.html",
            standing=standing,
            current=current,
            rounds=sorted({view.match.round for view in views}),
            tables=views,
            byes=resting(current, views),
            bracket=drawing if knockout_begun else None,
            bracket_title=bracket_title(standing),
            follow_tag=tag,
        )

    return shown.kept(tournament_id, "tv", build, mimetype="text/html", tv=True)


def resting(current: tourney.Round | None, views: list[TableView]) -> list[int]:
    """The pairs the round in play gave a bye that play no match on the screen now.

    A knockout's round-1 bye plays its next match while round 1 finishes: it is not resting."""
    if current is None:
        return []
    playing = {pair for view in views for pair in view.match.pairs if pair is not None}
    return [
        match.pairs[0]
        for match in current.matches
        if match.is_bye and match.pairs[0] is not None and match.pairs[0] not in playing
    ]
