"""Who may read and change what through the API.

The rubber or group an address names (404 if none), and the edit keys a write needs (403), in
``X-Edit-Key`` and ``X-Group-Key``."""

from __future__ import annotations

from flask import request
from flask_babel import gettext as _

from scorekeeper.api.errors import ApiError
from scorekeeper.api.operations import EDIT_KEY_HEADER, GROUP_KEY_HEADER
from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups import store as group_store
from scorekeeper.groups.models import Group
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.tournaments import store as tournament_store


def no_rubber(field: str | None = None) -> ApiError:
    return ApiError(404, _("There is no rubber with this id."), field, "no_rubber")


def rubber(rubber_id: str, field: str | None = None) -> Rubber:
    """The rubber with this id (any text: one that no id could be names nothing)."""
    found = db.session.get(Rubber, rubber_id) if store.is_token(rubber_id) else None
    if found is None:
        raise no_rubber(field)
    return found


def editable(rubber_id: str) -> Rubber:
    """The rubber, if the request carries its edit key."""
    found = rubber(rubber_id)
    key = request.headers.get(EDIT_KEY_HEADER)
    if not key:
        raise ApiError(
            403,
            _("Changing this rubber needs its edit key in the X-Edit-Key header."),
            None,
            "edit_key_missing",
        )
    if not (store.key_matches(found, key) or _tournament_key(found, key)):
        raise ApiError(403, _("This is not the rubber's edit key."), None, "edit_key_wrong")
    return found


def _tournament_key(found: Rubber, key: str) -> bool:
    """Whether ``key`` is the key of the tournament whose match the rubber is (API.md)."""
    if found.tournament_id is None:
        return False
    tournament = tournament_store.GRANTS.get(found.tournament_id)
    if tournament is None or not tournament_store.key_matches(tournament, key):
        return False
    tournament_store.organizer_key_given(tournament.id)
    return True


def group(group_id: str, field: str | None = None) -> Group:
    found = group_store.get(group_id)
    if found is None:
        raise ApiError(404, _("There is no group with this id."), field, "no_group")
    return found


def check_group_key(found: Group) -> None:
    key = request.headers.get(GROUP_KEY_HEADER)
    if not key:
        raise ApiError(
            403,
            _("Changing this group needs its edit key in the X-Group-Key header."),
            None,
            "group_key_missing",
        )
    if not group_store.key_matches(found, key):
        raise ApiError(403, _("This is not the group's edit key."), None, "group_key_wrong")


def editable_group(group_id: str) -> Group:
    found = group(group_id)
    check_group_key(found)
    return found


def check_names(players: list[str] | None, field: str) -> None:
    """In a group a name sits in one seat: the statistics could not tell two apart."""
    repeated = statistics.repeated_name(players)
    if repeated is not None:
        raise ApiError(
            422,
            _("%(name)s sits in two seats: in a group every player has one seat.", name=repeated),
            field,
            "repeated_player",
        )


def group_to_join(group_id: str | None, players: list[str] | None) -> str | None:
    """The group a new rubber joins (``"group"`` of POST /rubbers), its key checked."""
    if group_id is None:
        return None
    found = group(group_id, "group")
    check_group_key(found)
    check_names(players, "players")
    return found.id
