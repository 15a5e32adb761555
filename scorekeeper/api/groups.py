"""The JSON API of groups (API.md, "Review").

Create one, read it and its statistics, move a rubber into it, import an export file.

A write to a group needs its edit key in ``X-Group-Key``; moving a rubber into a group needs
the rubber's edit key (``X-Edit-Key``) too. The import reads the file the export makes with the
export's models (``schemas/groups.py``): every rubber's hand inputs are read as hand bodies and
scored again by the engine (the figures in the file are ignored), each rubber not in the group
yet is recreated, and nothing at all is stored when one of them is refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import count
from typing import Any

import sqlalchemy as sa
from flask import Response, jsonify, request, url_for
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper import engine
from scorekeeper.api import access
from scorekeeper.api.errors import ApiError
from scorekeeper.api.hand_bodies import Stored, to_engine
from scorekeeper.api.operations import (
    EDIT_KEY_HEADER,
    GROUP_KEY,
    GROUP_KEY_HEADER,
    NO_GROUP,
    NO_GROUP_KEY,
    ApiBlueprint,
    refusals,
)
from scorekeeper.api.schemas.groups import (
    CreatedGroup,
    DealtBy,
    ExportedHand,
    Group,
    GroupExport,
    GroupStats,
    ImportedRubber,
    ImportResult,
    MoveRubber,
    NewGroup,
)
from scorekeeper.api.schemas.reading import json_body
from scorekeeper.api.schemas.rubbers import HandInput, RubberState
from scorekeeper.api.states import created, group_json, rubber_json, stats_json
from scorekeeper.extensions import db
from scorekeeper.groups import backup
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group as GroupRow
from scorekeeper.groups.models import GroupImport
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Hand as HandRow
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import tokens, wording
from scorekeeper.web.columns import without_control
from scorekeeper.web.sqlite import one_writer

bp = ApiBlueprint("groups", __name__)

IMPORT_LIMIT = backup.FILE_LIMIT
MAX_IMPORT_RUBBERS = 500
"""Rubbers in one import: ten years of a weekly table at its usual one rubber a night."""
MAX_IMPORT_HANDS = 20_000
"""Hands in one import, its rubbers together: 40 a rubber at the most rubbers."""
IMPORT_BATCH = 25
"""Rubbers written in one transaction of an import at the most: the other writes get in
between (docs/hardening.md, "Imports")."""
IMPORT_BATCH_HANDS = 200
"""And hands: a batch is written in about a tenth of a second on SQLite."""

MOVE_REFUSED = refusals(
    key="A key is missing or wrong.",
    unknown="No such group or rubber.",
    conflict="The rubber is in another group, or the group was busy.",
)
"""How a move of a rubber into the group can be refused."""
IMPORT_REFUSED = refusals(
    key=NO_GROUP_KEY,
    unknown=NO_GROUP,
    conflict="Another write to the group got there first: try again (the batches written are "
    "kept; an import only adds what is missing).",
    too_large="The body is too large, or holds more rubbers or hands than one import takes.",
)
"""How an import can be refused."""


@bp.operation("POST /groups", "createGroup")
@bp.takes(NewGroup)
@bp.answers(201, "The new group, with its edit key and edit link.", CreatedGroup, refusals())
def create_group() -> tuple[Response, int, dict[str, str]]:
    """Start a group: the regulars of a table."""
    given = NewGroup.read(json_body())
    group, key = group_store.create_group(given.name)
    return created(
        group_json(group), key, "groups.grant", "api.groups.get_group", group_id=group.id
    )


@bp.operation("GET /groups/<group_id>", "getGroup")
@bp.answers(200, "The group.", Group, {404: NO_GROUP})
def get_group(group_id: str) -> Response:
    """A group: its name, links and number of rubbers."""
    group = access.group(group_id)
    data = group_json(group)
    data["rubbers"], data["finished"] = group_store.rubber_counts(group.id)
    return jsonify(data)


@bp.operation("GET /groups/<group_id>/stats", "getGroupStats")
@bp.answers(200, "The statistics.", GroupStats, {404: NO_GROUP})
def stats(group_id: str) -> Response:
    """Statistics per player and per pair over the group's finished rubbers, players ranked
    by rating."""  # noqa: D205  the API's summary, on two lines
    group = access.group(group_id)
    return jsonify(stats_json(group, group_store.stats(group.id)))


@bp.operation("POST /groups/<group_id>/rubbers", "moveRubberIntoGroup")
@bp.takes(MoveRubber, security=[{"groupKey": [], "editKey": []}])
@bp.answers(200, "The rubber, now in the group.", RubberState, MOVE_REFUSED)
def move_rubber(group_id: str) -> Response:
    """Move a rubber in no group into this one: the group's key in X-Group-Key and the
    rubber's in X-Edit-Key."""  # noqa: D205  the API's summary, on two lines
    group = access.editable_group(group_id)
    given = MoveRubber.read(json_body())
    rubber = access.rubber(given.rubber, "rubber")
    if not store.key_matches(rubber, request.headers.get(EDIT_KEY_HEADER)):
        raise ApiError(
            403,
            _("Moving a rubber needs its edit key in the X-Edit-Key header too."),
            None,
            "edit_key_wrong",
        )
    if rubber.group_id is not None and rubber.group_id != group.id:
        raise ApiError(409, _("This rubber is already in another group."), "rubber", "grouped")
    if rubber.group_id is None:
        access.check_names(rubber.players, "rubber")
        try:
            group_store.move(rubber, group)
        except store.Conflict:
            raise ApiError(409, _("The group is busy: try again."), None, "busy") from None
    return jsonify(rubber_json(rubber, rubber.state()))


# Import -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """One rubber of an import file, read and scored by the engine, not stored yet."""

    origin: str | None
    created_at: datetime | None
    teams: tuple[str, str]
    players: list[str] | None
    first_dealer: int
    rules: engine.RuleSet
    state: engine.RubberState
    hands: list[tuple[engine.Hand, str | None, Stored]]
    paper_games: list[int] | None = None
    """A rubber its table kept on paper: its games, with no hand (``Rubber.paper_games``)."""
    place: int | None = None
    """Its place among the file's rubbers without an origin (which no other import can tell
    apart): an import sent again under its key passes those it made already."""


@dataclass(frozen=True)
class Copy:
    """A rubber an import created: read before its batch is committed (and its rows expired)."""

    id: str
    origin: str | None
    key: str


@dataclass(frozen=True)
class Run:
    """One import as sent: the group, and its idempotency key with the group's key given."""

    group: GroupRow
    key: str | None
    group_key: str

    def edit_key(self, rubber_id: str) -> str:
        """Return a new rubber's edit key: random, or derived again from the group's under a key."""
        if self.key is None:
            return store.new_token()
        return tokens.derived_key(self.group_key, "import", self.group.id, self.key, rubber_id)


def _normalised(item: object) -> object:
    """The rubber with the control characters of its names replaced (web.columns).

    The file holds what the app stored, which must come back in."""
    if not isinstance(item, dict):
        return item
    copy = dict(item)
    for field in ("teams", "players"):
        names = copy.get(field)
        if isinstance(names, list):
            copy[field] = [
                without_control(name) if isinstance(name, str) else name for name in names
            ]
    return copy


def _scored(item: object, where: str) -> Imported:
    """A rubber of the file, its hands read as hand bodies and played by the engine.

    Its names as stored before control characters were refused at every door are normalised."""
    value = ImportedRubber.read(_normalised(item), where)
    access.check_names(value.players, f"{where}.players")
    if value.paper_games is not None and value.hands:  # the paper is instead of the hands
        message = _("A rubber kept on paper has no hands: give its games or its hands.")
        raise ApiError(422, message, f"{where}.paper_games", "paper_result")
    first_dealer = value.first_dealer
    if first_dealer is None:
        first = value.hands[0] if value.hands else None
        first_dealer = 0
        if isinstance(first, dict) and first.get("dealer") is not None:
            first_dealer = DealtBy.read(first, f"{where}.hands[0]").dealer
    rules = value.rules.to_engine() if value.rules is not None else engine.RuleSet()
    state = engine.new_rubber(rules, first_dealer)
    folded = []
    for number, item in enumerate(value.hands):
        hand_where = f"{where}.hands[{number}]"
        exported = ExportedHand.read(item, hand_where)
        given = HandInput.read(exported.hand_body(), hand_where)
        try:
            hand, tricks = to_engine(given, rules, state.leader)
            state = engine.play_hand(state, hand)
        except ApiError as error:
            raise error.placed(hand_where) from None
        except engine.ScoringError as error:
            raise ApiError(422, wording.engine_error(error), hand_where, error.code) from None
        folded.append((hand, given.trump, tricks))
    paper_games = None
    if value.paper_games is not None:
        try:
            state = engine.paper_result(rules, value.paper_games, first_dealer)
        except engine.ScoringError as error:
            message = wording.engine_error(error)
            raise ApiError(422, message, f"{where}.paper_games", error.code) from None
        paper_games = list(state.games)
    teams = (value.teams[0], value.teams[1])
    origin = value.origin if value.origin is not None else value.id
    return Imported(
        origin,
        value.created_at,
        teams,
        value.players,
        first_dealer,
        rules,
        state,
        folded,
        paper_games,
    )


def _placed(items: list[Imported]) -> list[Imported]:
    """Number the rubbers without an origin in the order of the file."""
    places = count()
    return [
        item if item.origin is not None else replace(item, place=next(places)) for item in items
    ]


def _new_rubber(run: Run, item: Imported) -> tuple[Rubber, str]:
    """Return the rubber of ``item`` and its edit key; not in the session yet.

    Its hands are inserted with those of its whole batch (:func:`_hand_rows`)."""
    rubber_id = store.new_token()
    key = run.edit_key(rubber_id)
    rubber = Rubber(
        id=rubber_id,
        edit_key_hash=store.hash_key(key),
        team0=item.teams[0],
        team1=item.teams[1],
        players=item.players,
        first_dealer=item.first_dealer,
        rules=item.rules.to_dict(),
        origin_id=item.origin,
        paper_games=item.paper_games,
    )
    if item.created_at is not None:
        rubber.created_at = item.created_at
    store.refresh(rubber, item.state)
    return rubber, key


def _hand_rows(rubber_id: str, item: Imported) -> list[dict[str, Any]]:
    """Return the rows of a new rubber's hands, for one insert of its batch's.

    The ORM's unit of work would spend more than the database does on 20,000 hands, each with
    an id to read back (docs/hardening.md, "issue 24, item 5")."""
    return [
        {"rubber_id": rubber_id, "number": number, **HandRow.input_values(hand, trump, tricks)}
        for number, (hand, trump, tricks) in enumerate(item.hands, start=1)
    ]


def _check_size(body: object) -> None:
    """Refuse at once (413) a file of more rubbers or hands than one import takes.

    They are counted before anything in it is read or scored; a file of another shape is the
    reading's to refuse."""
    if not isinstance(body, dict) or not isinstance(body.get("rubbers"), list):
        return
    rubbers = body["rubbers"]
    hands = sum(
        len(rubber["hands"])
        for rubber in rubbers
        if isinstance(rubber, dict) and isinstance(rubber.get("hands"), list)
    )
    if len(rubbers) <= MAX_IMPORT_RUBBERS and hands <= MAX_IMPORT_HANDS:
        return
    raise ApiError(
        413,
        _(
            "One import takes at most %(rubbers)s rubbers and %(hands)s hands; this file has "
            "%(given_rubbers)s rubbers and %(given_hands)s hands. Split it and import each part: "
            "the import only adds what is missing.",
            rubbers=MAX_IMPORT_RUBBERS,
            hands=MAX_IMPORT_HANDS,
            given_rubbers=len(rubbers),
            given_hands=hands,
        ),
        "rubbers",
        "import_too_large",
    )


def _batches(items: list[Imported]) -> Iterator[list[Imported]]:
    """Yield the rubbers in order, in batches.

    A batch holds IMPORT_BATCH rubbers or IMPORT_BATCH_HANDS hands at the most (a rubber of
    more hands alone)."""
    batch: list[Imported] = []
    hands = 0
    for item in items:
        if batch and (len(batch) == IMPORT_BATCH or hands + len(item.hands) > IMPORT_BATCH_HANDS):
            yield batch
            batch, hands = [], 0
        batch.append(item)
        hands += len(item.hands)
    if batch:
        yield batch


def _store_batch(run: Run, items: list[Imported]) -> tuple[list[Copy], int]:
    """Write a batch of an import in one transaction under the group's lock, rated, and commit it.

    Another write to the group, or a hand at another table, gets in before the next batch. What the
    group holds is read again each time (another import may have added some)."""
    with one_writer(db.session.connection()):  # in the queue of a hand's writers, on SQLite
        return _write_batch(run, items)


def _present(group_id: str, items: list[Imported]) -> set[str]:
    """Return the origins of ``items`` the group holds already, as a rubber or as an origin."""
    origins = [item.origin for item in items if item.origin is not None]
    present: set[str] = set()
    if origins:
        for rubber_id, origin_id in db.session.execute(
            sa.select(Rubber.id, Rubber.origin_id).where(
                Rubber.group_id == group_id,
                sa.or_(Rubber.id.in_(origins), Rubber.origin_id.in_(origins)),
            )
        ):
            present.add(rubber_id)
            if origin_id:
                present.add(origin_id)
    return present


def _write_batch(run: Run, items: list[Imported]) -> tuple[list[Copy], int]:
    group_id = run.group.id
    group_store.lock(group_id)
    present = _present(group_id, items)
    record = db.session.get(GroupImport, (group_id, run.key)) if run.key is not None else None
    made_plain = sum(1 for _, origin in record.rubbers if origin is None) if record else 0
    created: list[Copy] = []
    stored: list[tuple[Rubber, engine.RubberState]] = []
    hands: list[dict[str, Any]] = []
    skipped = 0
    for item in items:
        if item.origin is not None and item.origin in present:
            skipped += 1
            continue
        if item.place is not None and item.place < made_plain:
            skipped += 1  # made by this key's earlier request
            continue
        if item.origin is not None:
            present.add(item.origin)
        rubber, key = _new_rubber(run, item)
        stored.append((rubber, item.state))
        hands += _hand_rows(rubber.id, item)
        created.append(Copy(rubber.id, rubber.origin_id, key))
    if stored:
        group_store.add_rubbers(group_id, stored)
        if hands:
            db.session.execute(sa.insert(HandRow), hands)
        first = min((rubber for rubber, _ in stored), key=lambda r: (r.created_at, r.group_seq))
        assert first.created_at is not None and first.group_seq is not None
        group_store.rerate_from(group_id, first.created_at, first.group_seq)
    if record is not None and created:
        record.rubbers = [*record.rubbers, *([copy.id, copy.origin] for copy in created)]
    db.session.commit()
    return created, skipped


def _claim(run: Run, digest: str) -> None:
    """Record the import's key with its file, or check the file against the one it came with.

    409 ``key_reused`` for a key sent before with another file."""
    assert run.key is not None
    for _attempt in range(2):
        found = db.session.get(GroupImport, (run.group.id, run.key))
        if found is not None:
            if found.body_hash != digest:
                raise ApiError(
                    409,
                    _("This key was sent before with another file: send that file, or a new key."),
                    "key",
                    "key_reused",
                )
            return
        db.session.add(GroupImport(group_id=run.group.id, key=run.key, body_hash=digest))
        try:
            db.session.commit()
            return
        except IntegrityError:
            db.session.rollback()  # the same key sent twice at once: recorded by the other
    raise ApiError(409, _("The group is busy: try again."), None, "busy")


def _made_under_key(run: Run) -> list[Copy]:
    """Return every rubber the import's key made, in every request sent with it."""
    assert run.key is not None
    record = db.session.get(GroupImport, (run.group.id, run.key))
    assert record is not None
    return [
        Copy(rubber_id, origin, run.edit_key(rubber_id)) for rubber_id, origin in record.rubbers
    ]


def _run_batches(run: Run, items: list[Imported]) -> tuple[list[Copy], int]:
    created: list[Copy] = []
    skipped = 0
    for batch in _batches(items):
        try:
            made, passed = _store_batch(run, batch)
        except (OperationalError, IntegrityError, StaleDataError):
            db.session.rollback()
            raise ApiError(
                409,
                _(
                    "The group is busy: try again. The rubbers already imported are kept, "
                    "and the import only adds what is missing."
                ),
                None,
                "busy",
            ) from None
        except Exception:
            db.session.rollback()
            raise
        created += made
        skipped += passed
    return created, skipped


def _copy_json(copy: Copy) -> dict[str, Any]:
    return {
        "id": copy.id,
        "origin": copy.origin,
        "url": url_for("rubbers.rubber", rubber_id=copy.id, _external=True),
        "edit_key": copy.key,
        "edit_url": url_for("rubbers.grant", rubber_id=copy.id, key=copy.key, _external=True),
    }


def _import(group: GroupRow, body: object, group_key: str) -> tuple[list[Copy], int]:
    """Import the file ``body`` into the group: the rubbers created, and how many it passed.

    Raise :class:`ApiError` for a file refused, having stored nothing of it (but for the
    batches of a busy group already written, which a second import does not add again)."""
    _check_size(body)
    file = GroupExport.read(body)
    items = [_scored(value, f"rubbers[{index}]") for index, value in enumerate(file.rubbers)]
    run = Run(group, file.key, group_key)
    if run.key is not None:
        _claim(run, tokens.body_hash(body))
    created, skipped = _run_batches(run, _placed(items))
    if run.key is not None:
        created = _made_under_key(run)
        skipped = len(items) - len(created)
    return created, skipped


def restore(group: GroupRow, body: object, group_key: str) -> backup.Restored:
    """Import a backup restored from the group's page (groups/backup.py), as the API would.

    A refusal is its sentence, in the language of the page."""
    try:
        created, skipped = _import(group, body, group_key)
    except ApiError as error:
        raise backup.Refused(error.message, error.field) from None
    return backup.Restored(len(created), skipped)


@bp.operation("POST /groups/<group_id>/import", "importGroup")
@bp.takes(GroupExport, security=GROUP_KEY)
@bp.answers(200, "What was created and what was there already.", ImportResult, IMPORT_REFUSED)
def import_group(group_id: str) -> tuple[Response, int]:
    """Take an export file back: recreate every rubber not in the group yet.

    With a ``key``, the same file sent again answers every rubber made under that key."""
    group = access.editable_group(group_id)
    request.max_content_length = IMPORT_LIMIT
    try:
        body = json_body()
    except RequestEntityTooLarge:
        raise ApiError(413, _("The request is too large.")) from None
    created, skipped = _import(group, body, request.headers.get(GROUP_KEY_HEADER, ""))
    answer = {
        "created": len(created),
        "skipped": skipped,
        "rubbers": [_copy_json(copy) for copy in created],
        "stats_url": url_for("api.groups.stats", group_id=group.id, _external=True),
    }
    return jsonify(answer), 200
