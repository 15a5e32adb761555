"""The exact analysis of API.md: ``POST /analysis`` queues it, ``GET /analysis/<id>`` follows it.

A record is verified here (cheap) and refused with its problem; the analysis itself runs in
the consumer (``scorekeeper/background/``), never in the web worker, which never waits for it:
200 with the result when it is stored done, else 202 at once (docs/decisions/analysis.md).
"""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify, request, url_for
from flask_babel import gettext as _

from scorekeeper import engine
from scorekeeper.api.errors import ApiError
from scorekeeper.api.hand_bodies import problem_json
from scorekeeper.api.operations import ApiBlueprint, refusals
from scorekeeper.api.schemas.analysis import (
    AnalysisInput,
    AnalysisQueued,
    AnalysisResult,
    AnalysisStatus,
    HandsToAnalyse,
    RecordToAnalyse,
)
from scorekeeper.api.schemas.reading import json_body
from scorekeeper.background import queue, work
from scorekeeper.background.models import KEY_LENGTH, Analysis, Status
from scorekeeper.engine.analysis import AnalysisError, Position
from scorekeeper.web import wording

bp = ApiBlueprint("analysis", __name__)


QUEUED = {202: ("Queued: follow status_url.", AnalysisQueued)}
NOT_ANALYSABLE = "A record that does not verify (revoke, repeated card, wrong sizes), or bad hands."
ANALYSIS_REFUSED = {
    **refusals(refused=NOT_ANALYSABLE),
    429: "Too many analyses: this client already has as many waiting as it may "
    "(too_many_analyses), or has asked too often (rate_limited, with Retry-After).",
    503: "The queue is full (queue_full), or cannot be reached now (queue_unavailable): "
    "nothing was stored, ask again later.",
}
"""How an analysis can be refused."""


@bp.operation("POST /analysis", "analyse")
@bp.takes(AnalysisInput)
@bp.answers(200, "The result, already done.", AnalysisResult, QUEUED, ANALYSIS_REFUSED)
def analyse() -> tuple[Response, int] | tuple[Response, int, dict[str, str]]:
    """The exact (double-dummy) value of a record or of open hands, best play by all."""
    given = AnalysisInput.read(json_body())
    content = _content(given)
    try:
        row = queue.submit(content, queue.client_key(request.remote_addr))
    except queue.Unqueued as refused:
        raise ApiError(refused.status, refused.message, None, refused.code) from None
    location = url_for("api.analysis.analysis_status", analysis_id=row.id, _external=True)
    if row.status == Status.DONE and row.result is not None:
        return jsonify({**row.result, "status_url": location}), 200
    headers = {"Location": location, "Retry-After": "2"}
    return jsonify({"status_url": location, **_progress(row)}), 202, headers


def _content(given: Any) -> dict[str, Any]:
    """What the consumer analyses, or the 422 of a record or hands it cannot take."""
    rules = given.rules.to_engine()
    if isinstance(given, RecordToAnalyse):
        record = engine.verify_record(engine.Suit(given.trump), given.leader, given.tricks, rules)
        if record.errors:
            problems = [problem_json(problem) for problem in record.errors]
            raise ApiError(422, problems[0]["error"], "tricks", "record", errors=problems)
        if record.revokes:
            revoke = record.revokes[0]
            message = wording.analysis_revoke(revoke.seat, revoke.trick, revoke.proven_in)
            raise ApiError(422, message, "tricks", "revoke")
        if not record.complete:
            message = wording.analysis_incomplete(len(record.tricks))
            raise ApiError(422, message, "tricks", "incomplete")
        tricks = [[str(card) for card in trick.cards] for trick in record.tricks]
        return work.record_request(given.trump, given.leader, tricks, rules)
    assert isinstance(given, HandsToAnalyse)
    try:
        Position.from_hands(given.trump, given.leader, given.hands, rules)
    except AnalysisError as error:
        raise ApiError(422, wording.analysis_error(error), "hands", error.problem.value) from None
    return work.hands_request(given.trump, given.leader, given.hands, rules)


def _progress(row: Analysis) -> dict[str, Any]:
    return {"status": row.status, "progress": [row.done, row.total]}


@bp.operation("GET /analysis/<analysis_id>", "analysisStatus")
@bp.answers(200, "The analysis.", AnalysisStatus, {404: "No such analysis."})
def analysis_status(analysis_id: str) -> Response:
    """An analysis: queued, running (with its progress), done (with its result) or failed."""
    row = queue.lookup(analysis_id) if len(analysis_id) <= KEY_LENGTH else None
    if row is None:
        raise ApiError(404, _("There is no such analysis."), None, "no_analysis")
    location = url_for("api.analysis.analysis_status", analysis_id=row.id, _external=True)
    body: dict[str, Any] = {**_progress(row), "status_url": location}
    if row.status == Status.DONE and row.result is not None:
        body["result"] = row.result
        if not row.result.get("complete", True):
            body["message"] = wording.analysis_out_of_time(len(row.result.get("cards", ())))
    elif row.status == Status.FAILED:
        body["message"] = wording.analysis_failed(row.error)
    return jsonify(body)
