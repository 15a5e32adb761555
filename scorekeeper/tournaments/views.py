"""A tournament's pages: where it stands, for everyone; its tables and decisions, for its organizer.

The organizer's phone starts it (the pairs pasted a line each), shows each table's link and QR
code to open that table's rubber on the table's phone, gives a walkover, lets a pair withdraw and
draws the next Swiss round; each of these is said once done and can be undone, and a late pair
joins a Swiss."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from flask import (
    abort,
    current_app,
    flash,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from werkzeug.wrappers import Response

from scorekeeper import engine
from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import db
from scorekeeper.groups import store as group_store
from scorekeeper.groups.display import short_tv_link
from scorekeeper.rubbers import house_rules
from scorekeeper.rubbers.forms import NewRubberForm
from scorekeeper.tournaments import bp, display, shown, store, wording, writes
from scorekeeper.tournaments import tables as table_links
from scorekeeper.tournaments.forms import (
    LatePairForm,
    NewTournamentForm,
    PaperResultForm,
    TvLanguageForm,
)
from scorekeeper.tournaments.keep_link import ask_to_keep_link
from scorekeeper.tournaments.models import Tournament
from scorekeeper.tournaments.wording import fault
from scorekeeper.web import page_cache, security
from scorekeeper.web.columns import utcnow
from scorekeeper.web.device import current_device, ensure_device, held_key, remember_key
from scorekeeper.web.qr import qr_svg
from scorekeeper.web.wording import conflict, engine_error
from scorekeeper.web.writes import Conflict

grant = bp.add_url_rule(
    "/t/<tournament_id>/edit/<key>",
    "grant",
    store.GRANTS.edit_link_view("tournaments.tournament", "tournament_id"),
)

FIELDS = {
    "even_best_of": "best_of",
    "bad_best_of": "best_of",
    "bad_rounds": "rounds",
    "bad_groups": "groups",
    "bad_third_place": "third_place",
    "unknown_format": "format",
}
"""The form's field each refusal of the settings belongs to; the others are the pairs'."""


@bp.route("/t/new", methods=["GET", "POST"])
def new_tournament() -> Any:
    """Start a tournament: its pairs written a line each, its format and its rules.

    From a group's page (``?group=``, for a phone that may change the group), every match's
    rubber joins the group's history, statistics and ratings."""
    form = NewTournamentForm()
    if request.method == "GET":
        form.group.data = request.args.get("group", "")
    group = group_store.get(form.group.data) if form.group.data else None
    if group is not None and not group_store.can_edit(current_device(), group):
        abort(403)
    if form.validate_on_submit():
        rules = form.rule_set()
        try:
            pairs = tourney.parse_pairs(form.pairs.data or "")
            settings = form.settings(len(pairs))
        except tourney.TournamentError as error:
            field = form[FIELDS.get(error.code, "pairs")]
            field.errors = [*field.errors, fault(error)]
        else:
            if rules is not None:
                tournament, key = store.create(
                    name=form.name.data or "",
                    settings=settings,
                    rules=rules,
                    pairs=pairs,
                    draw=form.draw.data,
                    group_id=group.id if group is not None else None,
                    device=ensure_device(),
                    tv_language=form.tv_language.data,
                )
                remember_key(tournament.id, key, store.GRANTS.book)
                ask_to_keep_link(tournament.id)
                return redirect(url_for(".tournament", tournament_id=tournament.id))
    status = 422 if request.method == "POST" else 200
    house_rules.dress_rules(cast(NewRubberForm, form))  # the preset's values, as a rubber's
    return render_template("tournaments/new.html", form=form, group=group), status


PAGES = page_cache.Kept(64)
"""Followers' pages (the TV's, the players' phones), by tournament and its fingerprint: a page
is rendered once per change of the tournament, however many phones follow it."""


@bp.get("/t/<tournament_id>")
def tournament(tournament_id: str) -> Any:
    """The tournament: its rounds, each table's rubber, and the standings.

    A follower's page is rendered once per change of the tournament and answered from one query
    while it holds (304 to its ETag); the organizer's carries the forms of its session."""
    seen = store.fingerprint(tournament_id, current_device())
    if seen is None:
        abort(404)
    locale = str(get_locale())
    build = current_app.extensions["build_id"]
    kind = "organizer" if seen.organizer else "follower"
    etag = f"{build}.{tournament_id}.{seen.etag}.{locale}.{kind}"
    if "HTTP_IF_NONE_MATCH" in request.environ and request.if_none_match.contains_weak(etag):
        return Response(status=304, headers=_validators(etag, seen.organizer))
    if seen.organizer or session.get("_flashes"):
        return _render(store.GRANTS.or_404(tournament_id), seen.organizer, etag)
    key = (tournament_id, seen.state, locale, request.full_path, request.host)
    answer: page_cache.Answer | None = PAGES.get(key)
    if answer is None:
        page = _render(store.GRANTS.or_404(tournament_id), False, etag)
        answer = page_cache.Answer(page.encode(), seen.state[0], etag, _validators(etag))
        PAGES.put(key, answer)
    # accept_encodings is typed as a list of (value, quality) pairs, but `in` takes a value.
    return answer.response(gzip_ok="gzip" in request.accept_encodings)  # type: ignore[comparison-overlap]


def _validators(etag: str, holds_edit_key: bool = False) -> list[tuple[str, str]]:
    return page_cache.validators(etag, utcnow(), holds_edit_key)


def _render(found: Tournament, organizer: bool, etag: str) -> str:
    """The page: the round in play with each table's cross, the rounds, standings, bracket.

    ``etag`` is the page's own, which it follows the tournament with (app.js, every 5 s)."""
    standing = store.standing(found)
    current = display.round_in_play(standing.fold)
    in_play = display.tables(standing, current)
    tables: dict[str, dict[str, Any]] = {}
    if organizer:  # each table in play now: its link and QR code for the table's phone
        for view in in_play:
            rubber = view.rubber
            if rubber is None or rubber.finished or view.match.decided:
                continue
            # The table's one link for the evening (tournaments/tables.py), not the rubber's:
            # the table's phone keeps it across the rubbers of the match and the rounds.
            link = table_links.table_link(found.id, view.match.table)
            tables[rubber.id] = {"link": link, "qr": qr_svg(link, rubber.team0)}
    key = held_key(found.id, store.GRANTS.book) if organizer else None
    own_link = None
    if key is not None and store.key_matches(found, key):
        security.holds_edit_key()  # the page shows the organizer's own link
        own_link = url_for(".grant", tournament_id=found.id, key=key, _external=True)
    return render_template(
        "tournaments/show.html",
        standing=standing,
        organizer=organizer,
        tables=tables,
        in_play=in_play,
        bracket=shown.drawing(standing),
        bracket_title=display.bracket_title(standing),
        follow_tag=etag,
        own_link=own_link,
        tv=short_tv_link(found.tv_code),
        corrections=_corrections(standing) if organizer else None,
    )


def _corrections(standing: store.Standing) -> dict[str, Any]:
    """What the organizer may correct now: the walkovers given, the round to undraw, a late pair."""
    undraw = writes.undrawable_round(standing)
    return {
        "walkovers": {(entry[0], entry[1]) for entry in standing.tournament.walkovers},
        # Round 1 has no result before it to correct: its undraw is the API's alone.
        "undraw": undraw if undraw is not None and undraw > 1 else None,
        "late_pair": LatePairForm() if writes.can_add_late_pair(standing) else None,
        "tv_language": _tv_language_form(standing.tournament),
        "paper_result": PaperResultForm(),
        "paper_max": engine.PAPER_MAX_GAMES,
    }


def _tv_language_form(found: Tournament) -> TvLanguageForm:
    """The TV's language as chosen; the organizer's own for a TV that speaks its browser's."""
    if found.tv_language is None:
        return TvLanguageForm()
    return TvLanguageForm(tv_language=found.tv_language)


Said = Callable[[store.Standing], str]
"""What the page says once an organizer's write is done, from where the tournament then stands."""


def _organizer_write(
    tournament_id: str, write: Callable[[Tournament], store.Standing], said: Said | None = None
) -> Response:
    """Run one of the organizer's writes and say what it did; a refusal is said, nothing stored."""
    found = store.GRANTS.editable_or_403(tournament_id)
    try:
        standing = write(found)
    except tourney.TournamentError as error:
        db.session.rollback()
        flash(fault(error), "conflict")
    except engine.ScoringError as error:  # a rubber's games that no rubber ends with
        db.session.rollback()
        flash(engine_error(error), "conflict")
    except Conflict as error:  # the rubber changed under the write (a hand, another phone)
        db.session.rollback()
        flash(error.message or conflict(error.code), "conflict")
    else:
        if said is not None:
            flash(said(standing), "done")
    return redirect(url_for(".tournament", tournament_id=found.id))


def _ask(
    found: Tournament,
    check: Callable[[tourney.Tournament], None],
    question: Callable[[store.Standing], wording.Question],
    fields: dict[str, str] | None = None,
) -> Any:
    """Answer the page that asks to confirm a final write, or say why it would be refused.

    Nothing is written here; the page's button posts the same form again with ``confirm``
    as a revoke is (docs/decisions/rubber-page.md, "Revoke and bandeira are confirmed")."""
    standing = store.standing(found)
    try:
        check(standing.fold)
    except tourney.TournamentError as error:
        flash(fault(error), "conflict")
        return redirect(url_for(".tournament", tournament_id=found.id))
    return render_template(
        "tournaments/confirm.html",
        tournament=found,
        asked=question(standing),
        action=request.path,
        fields=fields or {},
    )


@bp.post("/t/<tournament_id>/rounds")
def draw_round(tournament_id: str) -> Response:
    """Draw the next Swiss round."""
    return _organizer_write(tournament_id, writes.draw_round)


@bp.post("/t/<tournament_id>/rounds/<int:round_number>/undraw")
def undraw_round(tournament_id: str, round_number: int) -> Response:
    """Take back the last Swiss round while none of its matches has a hand."""
    return _organizer_write(
        tournament_id,
        lambda found: writes.undraw_round(found, round_number),
        lambda standing: wording.undrawn(round_number),
    )


@bp.post("/t/<tournament_id>/rounds/<int:round_number>/tables/<int:table>/walkover")
def walkover(tournament_id: str, round_number: int, table: int) -> Any:
    """A walkover: the pair named came, the other did not; asked first, then given."""
    winner = request.form.get("winner", type=int)
    found = store.GRANTS.editable_or_403(tournament_id)
    if winner is None:
        return redirect(url_for(".tournament", tournament_id=found.id))
    if request.form.get("confirm") != "walkover":
        return _ask(
            found,
            lambda fold: fold.check_walkover(round_number, table, winner),
            lambda standing: wording.walkover_question(
                standing.fold.match(round_number, table), standing.labels(), winner
            ),
            {"winner": str(winner)},
        )
    return _organizer_write(
        tournament_id,
        lambda found: writes.walkover(found, round_number, table, winner),
        lambda standing: wording.walkover_given(round_number, table, standing.pair(winner).label),
    )


@bp.post("/t/<tournament_id>/rounds/<int:round_number>/tables/<int:table>/walkover/undo")
def undo_walkover(tournament_id: str, round_number: int, table: int) -> Response:
    """Take back a walkover while no later match depends on it."""
    return _organizer_write(
        tournament_id,
        lambda found: writes.undo_walkover(found, round_number, table),
        lambda standing: wording.walkover_undone(round_number, table),
    )


@bp.post("/t/<tournament_id>/rounds/<int:round_number>/tables/<int:table>/result")
def paper_result(tournament_id: str, round_number: int, table: int) -> Response:
    """The games of the rubber in play at a match, kept on paper by its table."""
    found = store.GRANTS.editable_or_403(tournament_id)
    form = PaperResultForm()
    if not form.validate():
        for error in (*form.games0.errors, *form.games1.errors)[:1]:
            flash(str(error), "conflict")
        return redirect(url_for(".tournament", tournament_id=found.id))
    games = form.games()

    def said(standing: store.Standing) -> str:
        match = standing.fold.match(round_number, table)
        labels = standing.labels()
        first, second = (labels[pair] if pair is not None else "" for pair in match.pairs)
        return wording.paper_result_given(
            round_number, table, f"{first} {games[0]} – {games[1]} {second}"
        )

    return _organizer_write(
        tournament_id,
        lambda found: writes.paper_result(found, round_number, table, games),
        said,
    )


@bp.post("/t/<tournament_id>/rounds/<int:round_number>/tables/<int:table>/result/undo")
def undo_paper_result(tournament_id: str, round_number: int, table: int) -> Response:
    """Take back a result kept on paper while nothing depends on it."""
    return _organizer_write(
        tournament_id,
        lambda found: writes.undo_paper_result(found, round_number, table),
        lambda standing: wording.paper_result_undone(round_number, table),
    )


@bp.post("/t/<tournament_id>/pairs/<int:pair>/withdraw")
def withdraw(tournament_id: str, pair: int) -> Any:
    """A pair withdraws: its matches still to play are walkovers; asked first, then done."""
    found = store.GRANTS.editable_or_403(tournament_id)
    if request.form.get("confirm") != "withdraw":
        return _ask(
            found,
            lambda fold: fold.check_withdrawal(pair),
            lambda standing: wording.withdrawal_question(standing.pair(pair).label),
        )
    return _organizer_write(
        tournament_id,
        lambda found: writes.withdraw(found, pair),
        lambda standing: wording.withdrawn(standing.pair(pair).label),
    )


@bp.post("/t/<tournament_id>/pairs/<int:pair>/reinstate")
def reinstate(tournament_id: str, pair: int) -> Response:
    """Take back a withdrawal while no later match depends on the walkovers it gave."""
    return _organizer_write(
        tournament_id,
        lambda found: writes.reinstate(found, pair),
        lambda standing: wording.reinstated(standing.pair(pair).label),
    )


@bp.post("/t/<tournament_id>/pairs")
def late_pair(tournament_id: str) -> Response:
    """A pair that came late joins a Swiss before its last round is drawn."""
    found = store.GRANTS.editable_or_403(tournament_id)
    form = LatePairForm()
    if not form.validate():
        for field in form:
            for error in field.errors[:1]:
                flash(str(error), "conflict")
        return redirect(url_for(".tournament", tournament_id=found.id))
    entry = form.entry()
    return _organizer_write(
        tournament_id,
        lambda found: writes.late_pair(found, entry),
        lambda standing: wording.late_pair_joined(standing.tournament.pairs[-1].label),
    )


@bp.post("/t/<tournament_id>/tv-language")
def tv_language(tournament_id: str) -> Response:
    """The organizer picks another language for the tournament's TV; it speaks it at its next look."""
    found = store.GRANTS.editable_or_403(tournament_id)
    form = TvLanguageForm()
    if not form.validate():
        for error in form.tv_language.errors[:1]:
            flash(str(error), "conflict")
        return redirect(url_for(".tournament", tournament_id=found.id))
    locale = form.tv_language.data
    return _organizer_write(
        tournament_id,
        lambda found: writes.tv_language(found, locale),
        lambda standing: wording.tv_language_set(locale),
    )
