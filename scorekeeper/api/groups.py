"""The JSON API of groups (API.md, "Review"): create one, its statistics, export and import.

Errors have the shape of the rest of the API (``api/errors.py``). A write to a group needs its
edit key in the ``X-Group-Key`` header; moving a rubber into a group needs the rubber's edit
key (``X-Edit-Key``) too.

The import takes the file the export makes: every rubber's hand inputs are read and scored
again by the engine (the figures in the file are ignored), each rubber not in the group yet is
recreated, and nothing at all is stored when one of them is refused.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from flask import Blueprint, Response, jsonify, request, stream_with_context, url_for
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import selectinload
from sqlalchemy.orm.exc import StaleDataError
from werkzeug.exceptions import RequestEntityTooLarge

from scorekeeper import engine
from scorekeeper.api.errors import ApiError
from scorekeeper.api.rubbers import (
    EDIT_KEY_HEADER,
    SEATS,
    HandInput,
    _body,
    _list,
    _name,
    _only,
    _rules,
    _seat,
    _text,
    rubber_json,
)
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Hand as HandRow
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import wording

bp = Blueprint("groups", __name__)

GROUP_KEY_HEADER = "X-Group-Key"
GROUP_FIELDS = frozenset({"name"})
MOVE_FIELDS = frozenset({"rubber"})
IMPORT_LIMIT = 16 * 1024 * 1024
"""An export file may be larger than other requests: about 2,000 rubbers fit in one; a larger
group is imported in parts (the import only adds what is missing)."""
EXPORT_BATCH = 200
EXPORT_FORMAT = "sueca-group"
HAND_KINDS = tuple(kind.value for kind in engine.HandKind)

# Looking a group up ------------------------------------------------------------------------


def _group(group_id: str) -> Group:
    group = group_store.get(group_id)
    if group is None:
        raise ApiError(404, _("There is no group with this id."), None, "no_group")
    return group


def _check_group_key(group: Group) -> None:
    key = request.headers.get(GROUP_KEY_HEADER)
    if not key:
        raise ApiError(
            403,
            _("Changing this group needs its edit key in the X-Group-Key header."),
            None,
            "group_key_missing",
        )
    if not group_store.key_matches(group, key):
        raise ApiError(403, _("This is not the group's edit key."), None, "group_key_wrong")


def _editable_group(group_id: str) -> Group:
    group = _group(group_id)
    _check_group_key(group)
    return group


def _check_names(players: list[str] | None, field: str) -> None:
    repeated = statistics.repeated_name(players)
    if repeated is not None:
        raise ApiError(
            422,
            _("%(name)s sits in two seats: in a group every player has one seat.", name=repeated),
            field,
            "repeated_player",
        )


def group_to_join(value: object, players: list[str] | None) -> str | None:
    """The group a new rubber joins (``"group"`` of POST /rubbers), its key checked."""
    if value is None:
        return None
    group_id = _text(value, "group")
    group = group_store.get(group_id)
    if group is None:
        raise ApiError(404, _("There is no group with this id."), "group", "no_group")
    _check_group_key(group)
    _check_names(players, "players")
    return group.id


def group_json(group: Group) -> dict[str, Any]:
    return {
        "id": group.id,
        "url": url_for("groups.group", group_id=group.id, _external=True),
        "name": group.name,
        "stats_url": url_for("api.groups.stats", group_id=group.id, _external=True),
        "export_url": url_for("api.groups.export_json", group_id=group.id, _external=True),
    }


# Endpoints ------------------------------------------------------------------------------------


@bp.post("/groups")
def create_group() -> tuple[Response, int, dict[str, str]]:
    body = _body()
    _only(body, GROUP_FIELDS)
    if "name" not in body:
        raise ApiError(400, _("%(field)s is missing.", field="name"), "name", "missing")
    name = _name(body["name"], "name", blank=False)
    group, key = group_store.create_group(name)
    data = group_json(group)
    data["edit_key"] = key
    data["edit_url"] = url_for("groups.grant", group_id=group.id, key=key, _external=True)
    location = url_for("api.groups.get_group", group_id=group.id, _external=True)
    return jsonify(data), 201, {"Location": location}


@bp.get("/groups/<group_id>")
def get_group(group_id: str) -> Response:
    group = _group(group_id)
    data = group_json(group)
    data["rubbers"], data["finished"] = group_store.rubber_counts(group.id)
    return jsonify(data)


def _rounded(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def stats_json(group: Group, stats: statistics.GroupStats) -> dict[str, Any]:
    """The statistics of API.md, with a few fields more."""
    players = []
    for player in stats.ranking():
        partner = stats.best_partner(player.key)
        partner_key = None
        if partner is not None:
            partner_key = partner.keys[1] if partner.keys[0] == player.key else partner.keys[0]
        players.append(
            {
                "name": player.name,
                "rubbers": player.rubbers,
                "won": player.won,
                "lost": player.lost,
                "games_won": player.games_won,
                "games_lost": player.games_lost,
                "pentes": player.pentes,
                "pentes_taken": player.pentes_taken,
                "chapeus": player.chapeus,
                "chapeus_taken": player.chapeus_taken,
                "arrepios": player.arrepios,
                "arrepios_taken": player.arrepios_taken,
                "bandeiras": player.bandeiras,
                "card_points_per_hand": _rounded(player.average_points, 2),
                "rating": round(player.rating.ordinal, 3),
                "rating_mu": round(player.rating.mu, 3),
                "rating_sigma": round(player.rating.sigma, 3),
                "rated_rubbers": player.rated,
                "best_partner": stats.name(partner_key) if partner_key is not None else None,
                "toughest_opponents": [
                    stats.name(versus.opponent) for versus in stats.toughest_opponents(player.key)
                ],
            }
        )
    return {
        "id": group.id,
        "name": group.name,
        "rubbers": stats.rubbers,
        "players": players,
        "pairs": [
            {
                "players": [stats.name(pair.keys[0]), stats.name(pair.keys[1])],
                "rubbers": pair.rubbers,
                "won": pair.won,
                "games_won": pair.games_won,
                "games_lost": pair.games_lost,
            }
            for pair in stats.pairs()
        ],
        "outcomes": {
            name: stats.outcomes.get(name, 0)
            for name in ("shutout", *(outcome.value for outcome in engine.Outcome))
        },
        "rating": {
            "library": "openskill",
            "model": "PlackettLuce",
            "rating": "mu - 3 * sigma",
        },
    }


@bp.get("/groups/<group_id>/stats")
def stats(group_id: str) -> Response:
    group = _group(group_id)
    return jsonify(stats_json(group, group_store.stats(group.id)))


# Export -----------------------------------------------------------------------------------------


def exported_rubber(rubber: Rubber) -> dict[str, Any]:
    """A rubber state of the export: the API's state, with when it started and its origin."""
    data = rubber_json(rubber, rubber.state())
    data["created_at"] = rubber.created_at.isoformat() + "Z"
    data["origin"] = rubber.origin_id or rubber.id
    return data


@bp.get("/groups/<group_id>/export.json")
def export_json(group_id: str) -> Response:
    group = _group(group_id)
    head = {
        "format": EXPORT_FORMAT,
        "version": 1,
        "group": {"id": group.id, "name": group.name},
        "exported_at": datetime.now(UTC).replace(tzinfo=None).isoformat() + "Z",
    }
    query = (
        sa.select(Rubber)
        .where(Rubber.group_id == group.id)
        .order_by(Rubber.created_at, Rubber.group_seq)
        .options(selectinload(Rubber.hands))
        .execution_options(yield_per=EXPORT_BATCH)
    )

    def chunks() -> Iterator[str]:
        # Streamed in batches: a group of thousands of rubbers is never held whole in memory.
        yield json.dumps(head, ensure_ascii=False)[:-1] + ', "rubbers": ['
        for index, rubber in enumerate(db.session.execute(query).scalars()):
            yield ("," if index else "") + json.dumps(exported_rubber(rubber), ensure_ascii=False)
        yield "]}"

    return Response(
        stream_with_context(chunks()),
        mimetype="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="sueca-group-{group.id}.json"',
        },
    )


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
    hands: list[tuple[engine.Hand, str | None, list[list[str]] | None]]


def _hand_body(value: object, where: str) -> dict[str, Any]:
    """The hand input of API.md behind a hand of an exported state."""
    if not isinstance(value, dict):
        raise ApiError(400, _("%(field)s must be an object.", field=where), where, "type")
    kind = value.get("kind")
    if kind not in HAND_KINDS:
        raise ApiError(
            422,
            _("%(field)s must be one of played, tie, revoke, spoiled.", field=f"{where}.kind"),
            f"{where}.kind",
            "kind",
        )
    body: dict[str, Any] = {}
    if value.get("tricks") is not None:
        body["tricks"] = value["tricks"]
    elif kind in ("played", "tie"):
        body["points"] = value.get("points")
        body["all_tricks"] = value.get("all_tricks", False)
    elif kind == "revoke":
        body["revoke"] = value.get("team")
    else:
        body["spoiled"] = True
    if value.get("trump") is not None:
        body["trump"] = value["trump"]
    return body


def _created_at(value: object, where: str) -> datetime | None:
    if value is None:
        return None
    text = _text(value, where)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ApiError(
            422, _("%(field)s must be a date and time.", field=where), where, "date"
        ) from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment


def _read_rubber(value: object, where: str) -> Imported:
    if not isinstance(value, dict):
        raise ApiError(400, _("%(field)s must be an object.", field=where), where, "type")
    for label in ("id", "origin"):
        if label in value and not (isinstance(value[label], str) and store.is_token(value[label])):
            raise ApiError(
                422,
                _("%(field)s is not a rubber id.", field=f"{where}.{label}"),
                f"{where}.{label}",
                "origin",
            )
    origin = value.get("origin", value.get("id"))
    if origin is not None:
        origin = _text(origin, f"{where}.origin")
        if not store.is_token(origin):
            raise ApiError(
                422,
                _("%(field)s is not a rubber id.", field=f"{where}.origin"),
                f"{where}.origin",
                "origin",
            )
    teams: tuple[str, str] = ("Nós", "Eles")
    if "teams" in value:
        first, second = (
            _name(name, f"{where}.teams", blank=False)
            for name in _list(value["teams"], f"{where}.teams", 2, 2)
        )
        teams = (first, second)
    players = None
    if value.get("players") is not None:
        names = [
            _name(name, f"{where}.players", blank=True)
            for name in _list(value["players"], f"{where}.players", SEATS, SEATS)
        ]
        players = names if any(names) else None
    _check_names(players, f"{where}.players")
    hands = _list(value.get("hands", []), f"{where}.hands", 0, engine.scoring.MAX_HANDS)
    first_dealer = 0
    if value.get("first_dealer") is not None:
        first_dealer = _seat(value["first_dealer"], f"{where}.first_dealer")
    elif hands and isinstance(hands[0], dict) and hands[0].get("dealer") is not None:
        first_dealer = _seat(hands[0]["dealer"], f"{where}.hands[0].dealer")
    rules = engine.RuleSet()
    if value.get("rules") is not None:
        try:
            rules = _rules(value["rules"])
        except ApiError as error:
            raise error.placed(where) from None
    state = engine.new_rubber(rules, first_dealer)
    folded = []
    for number, hand_value in enumerate(hands):
        hand_where = f"{where}.hands[{number}]"
        body = _hand_body(hand_value, hand_where)  # its refusals name their place already
        try:
            given = HandInput.parse(body)
            hand, tricks = given.to_engine(rules, state.leader)
            state = engine.play_hand(state, hand)
        except ApiError as error:
            raise error.placed(hand_where) from None
        except engine.ScoringError as error:
            raise ApiError(422, wording.engine_error(error), hand_where, error.code) from None
        trump = given.trump.value if given.trump is not None else None
        folded.append((hand, trump, tricks))
    return Imported(
        origin=origin,
        created_at=_created_at(value.get("created_at"), f"{where}.created_at"),
        teams=teams,
        players=players,
        first_dealer=first_dealer,
        rules=rules,
        state=state,
        hands=folded,
    )


def _store_imported(group: Group, item: Imported) -> tuple[Rubber, str]:
    key = store.new_token()
    rubber = Rubber(
        id=store.new_token(),
        edit_key_hash=store.hash_key(key),
        team0=item.teams[0],
        team1=item.teams[1],
        players=item.players,
        first_dealer=item.first_dealer,
        rules=item.rules.to_dict(),
        origin_id=item.origin,
    )
    if item.created_at is not None:
        rubber.created_at = item.created_at
    for number, (hand, trump, tricks) in enumerate(item.hands, start=1):
        row = HandRow(number=number)
        row.set_input(hand, trump, tricks)
        rubber.hands.append(row)
    store.refresh(rubber, item.state)
    rubber.group_id = group.id
    group_store.refresh_seats(rubber, item.state, rerate=False)
    return rubber, key


@bp.post("/groups/<group_id>/import")
def import_group(group_id: str) -> tuple[Response, int]:
    group = _editable_group(group_id)
    request.max_content_length = IMPORT_LIMIT
    try:
        body = _body()
    except RequestEntityTooLarge:
        raise ApiError(413, _("The request is too large.")) from None
    if "rubbers" not in body:
        raise ApiError(400, _("%(field)s is missing.", field="rubbers"), "rubbers", "missing")
    # The file's own labels are not used, but a file whose labels are of the wrong kind is not
    # an export file: refuse it as the schema does.
    if "format" in body and not isinstance(body["format"], str):
        raise ApiError(400, _("%(field)s must be text.", field="format"), "format", "type")
    version = body.get("version", 1)
    if isinstance(version, bool) or not isinstance(version, int):
        raise ApiError(
            400, _("%(field)s must be a whole number.", field="version"), "version", "type"
        )
    if "group" in body and not isinstance(body["group"], dict):
        raise ApiError(400, _("%(field)s must be an object.", field="group"), "group", "type")
    values = body["rubbers"]
    if not isinstance(values, list):
        raise ApiError(400, _("%(field)s must be a list.", field="rubbers"), "rubbers", "type")
    items = [_read_rubber(value, f"rubbers[{index}]") for index, value in enumerate(values)]
    created: list[tuple[Rubber, str]] = []
    try:
        group_store.lock(group.id)
        present = set()
        for rubber_id, origin_id in db.session.execute(
            sa.select(Rubber.id, Rubber.origin_id).where(Rubber.group_id == group.id)
        ):
            present.add(rubber_id)
            if origin_id:
                present.add(origin_id)
        skipped = 0
        for item in items:
            if item.origin is not None and item.origin in present:
                skipped += 1
                continue
            if item.origin is not None:
                present.add(item.origin)
            created.append(_store_imported(group, item))
        if created:
            first = min(created, key=lambda pair: (pair[0].created_at, pair[0].group_seq))[0]
            assert first.created_at is not None and first.group_seq is not None
            group_store.rerate_from(group.id, first.created_at, first.group_seq)
        db.session.commit()
    except (OperationalError, IntegrityError, StaleDataError):
        db.session.rollback()
        raise ApiError(409, _("The group is busy: try again."), None, "busy") from None
    except Exception:
        db.session.rollback()
        raise
    return jsonify(
        {
            "created": len(created),
            "skipped": skipped,
            "rubbers": [
                {
                    "id": rubber.id,
                    "origin": rubber.origin_id,
                    "url": url_for("rubbers.rubber", rubber_id=rubber.id, _external=True),
                    "edit_key": key,
                    "edit_url": url_for(
                        "rubbers.grant", rubber_id=rubber.id, key=key, _external=True
                    ),
                }
                for rubber, key in created
            ],
            "stats_url": url_for("api.groups.stats", group_id=group.id, _external=True),
        }
    ), 200


# Moving a rubber into a group ------------------------------------------------------------------


@bp.post("/groups/<group_id>/rubbers")
def move_rubber(group_id: str) -> Response:
    group = _editable_group(group_id)
    body = _body()
    _only(body, MOVE_FIELDS)
    if "rubber" not in body:
        raise ApiError(400, _("%(field)s is missing.", field="rubber"), "rubber", "missing")
    rubber_id = _text(body["rubber"], "rubber")
    rubber = db.session.get(Rubber, rubber_id) if store.is_token(rubber_id) else None
    if rubber is None:
        raise ApiError(404, _("There is no rubber with this id."), "rubber", "no_rubber")
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
        _check_names(rubber.players, "rubber")
        try:
            group_store.move(rubber, group)
        except store.Conflict:
            raise ApiError(409, _("The group is busy: try again."), None, "busy") from None
    return jsonify(rubber_json(rubber, rubber.state()))
