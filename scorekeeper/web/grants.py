"""Which phone may change what: the grant an edit link gives, and the lookups every page starts with.

A rubber, a bidding game and a group are each changed only from a device (web.device) that
opened its edit link, or started it: that device holds a grant, one row of the feature's grants
table. :class:`Granted` names that table; its lookups answer 404 for an id that names nothing
and 403 for a device without the grant.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from flask import abort, redirect, url_for
from sqlalchemy.exc import IntegrityError
from werkzeug.wrappers import Response

from scorekeeper.extensions import db
from scorekeeper.web import tokens
from scorekeeper.web.device import current_device, ensure_device, remember_key
from scorekeeper.web.errors import ReadOnly

RowT = TypeVar("RowT")
"""What is granted (a rubber, a game, a group): a row with an ``id``."""


@dataclass(frozen=True)
class Granted(Generic[RowT]):
    """The grants of one feature: ``model`` granted through the ``grants`` table.

    The grants' primary key is the device then the row's id, named ``owner``. With ``dated``, a
    grant keeps the row's ``created_at``: the phone's history lists what it holds by it. The
    row has an ``edit_key_hash`` (web.tokens.hash_key), which its edit link's key matches."""

    model: type[RowT]
    grants: type[Any]
    owner: str
    dated: bool = True
    book: str = "keys"
    """Where the device keeps the edit keys it was given (web.device.remember_key)."""
    read_only: Callable[[], str] | None = None
    """What a phone without the edit link is told (403), when not the rubber's "record hands"."""

    def get(self, row_id: str) -> RowT | None:
        """The row with this id, if the id could be one."""
        return db.session.get(self.model, row_id) if tokens.is_token(row_id) else None

    def or_404(self, row_id: str) -> RowT:
        row = self.get(row_id)
        if row is None:
            abort(404)
        return row

    def editable_or_403(self, row_id: str) -> RowT:
        """The row, if this request's device may change it (404 if none, 403 if not)."""
        row = self.or_404(row_id)
        if not self.can_edit(current_device(), row):
            if self.read_only is not None:
                raise ReadOnly(self.read_only())
            abort(403)
        return row

    def can_edit(self, device: str | None, row: RowT) -> bool:
        found: Any = row
        return bool(device) and db.session.get(self.grants, (device, found.id)) is not None

    def key_matches(self, row: RowT, key: str | None) -> bool:
        """Whether ``key`` is the row's edit key, compared in constant time."""
        found: Any = row
        return tokens.key_matches(found.edit_key_hash, key)

    def open_edit_link(self, row_id: str, key: str) -> RowT:
        """The row an edit link names, granted from now on to this device, which keeps its key.

        404 for a key that is not the row's, as for a row that is none."""
        row = self.or_404(row_id)
        if not self.key_matches(row, key):
            abort(404)
        found: Any = row
        self.grant(ensure_device(), row)
        remember_key(found.id, key, self.book)
        return row

    def edit_link_view(self, page: str, id_name: str) -> Callable[..., Response]:
        """The view of the row's edit link, routed with the row's id as ``id_name`` and ``key``.

        It grants the row to the device that opens it, then goes to the row's ``page``."""

        def edit_link(key: str, **ids: Any) -> Response:
            """The edit link: this device may change the row from now on."""
            self.open_edit_link(ids[id_name], key)
            return redirect(url_for(page, **ids))

        return edit_link

    def _grant_of(self, device: str, row: RowT) -> Any:
        """The grants table's row that lets ``device`` change ``row``."""
        found: Any = row
        dated = {"created_at": found.created_at} if self.dated else {}
        return self.grants(device=device, **{self.owner: found.id}, **dated)

    def create(self, row: RowT, device: str | None, *, commit: bool = True) -> None:
        """Store a new row, granted to the device that started it, if any, in one commit.

        ``commit=False`` leaves it in the caller's transaction (flushed)."""
        db.session.add(row)
        db.session.flush()  # the grant points at the row
        if device:
            db.session.add(self._grant_of(device, row))
        if commit:
            db.session.commit()
        else:
            db.session.flush()

    def grant(self, device: str, row: RowT) -> None:
        """Remember that this device may change the row (it holds the edit link)."""
        found: Any = row
        if db.session.get(self.grants, (device, found.id)) is not None:
            return
        db.session.add(self._grant_of(device, row))
        try:
            db.session.commit()
        except IntegrityError:
            db.session.rollback()  # the same link opened twice at once: granted by the other
