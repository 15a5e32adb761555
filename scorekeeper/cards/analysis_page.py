"""The page "Analisar a mão": the exact analysis of a hand recorded card by card, or replayed.

Asked for with a POST (it queues the analysis, ``scorekeeper/background/``), then followed on its
page: the progress while it waits or runs (followed with ``static/analysis.js``, which reads
``/analysis/<id>/progress``; without a script the page reloads itself), then what
``analysis_view.py`` words: the value with best play beside the points played, in games too,
the card that changed the games first, each trick's cards with their cost and the best card
instead, and the best line from any card (``?from=N``). A recorded hand's page is
``/r/<id>/hands/<n>/analysis``; the replay's confirmation page (``entry.py``) queues the
record it shows, not yet a hand, and its page is ``/r/<id>/replay/analysis`` with the record
in the address, as the confirmation page carries it.
"""

from __future__ import annotations

import enum
from typing import Any
from urllib.parse import urlencode

from flask import abort, flash, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from scorekeeper import engine
from scorekeeper.background import queue, work
from scorekeeper.background.models import KEY_LENGTH, Analysis, Status
from scorekeeper.cards import bp
from scorekeeper.cards.analysis_view import facts
from scorekeeper.cards.display import examine
from scorekeeper.cards.forms import ReplayForm, record_text
from scorekeeper.engine.analysis import analysable
from scorekeeper.rubbers.access import editable_or_403, player_names, rubber_or_404
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording
from scorekeeper.web.forms import is_version

OLDER = 1
"""The result version before the best lines (work.VERSION): such an analysis is still shown."""


def _content(rubber: Rubber, number: int) -> dict[str, Any]:
    """What the hand's analysis reads; 404 unless it is a complete record without a revoke."""
    content = _hand_request(rubber, number, rubber.state())
    if content is None:
        abort(404)
    return content


def _hand_request(rubber: Rubber, number: int, state: engine.RubberState) -> dict[str, Any] | None:
    """The analysis request of the hand's record, or None unless it can be analysed."""
    if not 1 <= number <= len(state.hands):
        return None
    row = rubber.hands[number - 1]
    if not row.tricks or row.trump is None:
        return None
    rules = rubber.rule_set()
    leader = state.hands[number - 1].leader
    record = engine.verify_record(row.trump, leader, row.tricks, rules)
    if not analysable(record):
        return None
    tricks = [[str(card) for card in trick.cards] for trick in record.tricks]
    return work.record_request(row.trump, leader, tricks, rules)


class Offer(enum.Enum):
    """What a recorded hand's page offers for its analysis."""

    START = "start"
    """"Analisar a mão": none is queued, running or done (or the last one failed)."""
    OPEN = "open"
    """"Ver a análise": one is queued, running or done."""


def offer(rubber: Rubber, number: int, state: engine.RubberState) -> Offer | None:
    """What the hand's page offers; None when its record cannot be analysed."""
    content = _hand_request(rubber, number, state)
    if content is None:
        return None
    row = stored(content)
    return Offer.OPEN if row is not None and row.status != Status.FAILED else Offer.START


def stored(content: dict[str, Any]) -> Analysis | None:
    """The analysis of ``content``, or one done before the best lines were kept."""
    row = queue.lookup(work.content_key(content))
    if row is None:
        older = queue.lookup(work.content_key(content, version=OLDER))
        if older is not None and older.status == Status.DONE:
            return older
    return row


@bp.post("/r/<rubber_id>/hands/<int:number>/analysis")
def start_analysis(rubber_id: str, number: int) -> Response:
    rubber = rubber_or_404(rubber_id)
    content = _content(rubber, number)
    try:
        queue.submit(content, queue.client_key(request.remote_addr))
    except queue.Unqueued as refused:
        flash(refused.message, "error")
    return redirect(url_for(".analysis", rubber_id=rubber_id, number=number))


@bp.get("/r/<rubber_id>/hands/<int:number>/analysis")
def analysis(rubber_id: str, number: int) -> str:
    rubber = rubber_or_404(rubber_id)
    row = stored(_content(rubber, number))
    return _page(
        rubber,
        row,
        number=number,
        again=url_for(".start_analysis", rubber_id=rubber.id, number=number),
        back=url_for(".hand", rubber_id=rubber.id, number=number),
    )


def replay_address(rubber_id: str, form: ReplayForm) -> str:
    """The replay's analysis page of the record ``form`` carries (the confirmation page's)."""
    version = str(form.version.data or "")
    return url_for(
        "cards.replay_analysis",
        rubber_id=rubber_id,
        trump=form.chosen_trump() or "",
        record=record_text(form.tricks()),
        trump_card=form.trump_card.data or "",
        version=version if is_version(version) else "",
    )


@bp.get("/r/<rubber_id>/replay/analysis")
def replay_analysis(rubber_id: str) -> str:
    """The analysis of the record in the address; 404 unless it is one that can be analysed."""
    rubber = editable_or_403(rubber_id)
    form = ReplayForm(formdata=request.args)
    trump = form.chosen_trump()
    if trump is None:
        abort(404)
    state = rubber.state()
    rules = rubber.rule_set()
    examined = examine(trump, state.leader, form.tricks(), rules, form.trump_card.data or None)
    if not analysable(examined.record):
        abort(404)
    tricks = [[str(card) for card in trick.cards] for trick in examined.record.tricks]
    row = stored(work.record_request(trump, state.leader, tricks, rules))
    version = str(form.version.data or "")
    fields = {
        "trump": trump,
        "record": record_text(tricks),
        "trump_card": form.trump_card.data or "",
        "version": version if is_version(version) else "",
    }
    return _page(
        rubber,
        row,
        number=None,
        again=url_for("cards.analyse", rubber_id=rubber.id),
        back=url_for("cards.confirm", rubber_id=rubber.id),
        fields=fields,
    )


def _page(  # noqa: PLR0913  a recorded hand's number, or a replayed record's fields, and links
    rubber: Rubber,
    row: Analysis | None,
    number: int | None,
    again: str,
    back: str,
    fields: dict[str, str] | None = None,
) -> str:
    """The page; ``fields`` the replayed record its forms carry (None for a recorded hand)."""
    shown: dict[str, Any] = {}
    waiting = row is not None and row.status in Status.WAITING
    chosen = request.args.get("from", type=int)
    if row is not None and row.status == Status.DONE and row.result is not None:
        shown = facts(row, rubber.teams, player_names(rubber), chosen)
    return render_template(
        "cards/analysis.html",
        step_url=_step_url,
        rubber=rubber,
        number=number,
        row=row,
        again=again,
        back=back,
        fields=fields,
        waiting=waiting,
        progress=_progress_text(row) if row is not None and waiting else "",
        consumer=queue.consumer_running() if waiting else True,
        failed=wording.analysis_failed(row.error)
        if row is not None and row.status == Status.FAILED
        else None,
        **shown,
    )


@bp.get("/analysis/<analysis_id>/progress")
def analysis_progress(analysis_id: str) -> Response:
    """Where the analysis is, as the waiting page shows it, for its script: JSON, no page.

    ``consumer`` is false when no consumer has said it is running (queue.consumer_running):
    then the page says that nothing is analysing."""
    row = queue.lookup(analysis_id) if len(analysis_id) == KEY_LENGTH else None
    if row is None:
        abort(404)
    response = jsonify(
        status=row.status,
        done=row.done,
        total=row.total,
        text=_progress_text(row),
        consumer=queue.consumer_running(),
    )
    response.headers["Cache-Control"] = "no-store"
    return response


def _progress_text(row: Analysis) -> str:
    if row.status == Status.QUEUED:
        return _("Waiting for its turn…")
    return _("Analysing: %(done)s of %(total)s cards.", done=row.done, total=row.total)


def _step_url(step: int | None, anchor: str = "line") -> str:
    """This page's address with ``?from=step`` (none: without), the rest of its query kept."""
    query = [(name, value) for name, value in request.args.items(multi=True) if name != "from"]
    if step is not None:
        query.append(("from", str(step)))
    return f"?{urlencode(query)}#{anchor}"
