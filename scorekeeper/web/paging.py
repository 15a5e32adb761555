"""Histories read one page at a time from an index.

"Older" and "Newer" links carry the id of the row the page starts after, so a page costs the same at
the top of a long history as deep in it, and nothing is counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import sqlalchemy as sa

from scorekeeper.extensions import db

Row = TypeVar("Row")


@dataclass(frozen=True)
class Page(Generic[Row]):
    """The rows of one page, newest first, and the ids the links to its neighbours start from.

    An id is None when there is nothing that way."""

    items: list[Row]
    newer: str | None
    older: str | None


def _after(
    order: tuple[Any, Any], cursor: tuple[Any, Any], *, older: bool
) -> sa.ColumnElement[bool]:
    """Return rows strictly older (or newer) than the cursor in the order of two columns.

    The first comparison alone bounds an index range; the second settles rows of the same time."""
    first, second = order
    if older:
        return sa.and_(first <= cursor[0], sa.or_(first < cursor[0], second < cursor[1]))
    return sa.and_(first >= cursor[0], sa.or_(first > cursor[0], second > cursor[1]))


def page(  # noqa: PLR0913  a history's query, its index and page size, the address's cursors
    query: sa.Select[Any],
    order: tuple[Any, Any],
    size: int,
    key: Any,
    *,
    before: tuple[Any, Any] | None = None,
    after: tuple[Any, Any] | None = None,
) -> Page[Any]:
    """Return one page of ``query`` in the descending ``order``.

    The page holds the newest rows, those older than ``before`` or those newer than ``after`` (a
    sort key each); ``key(row)`` is a row's id for the links. A page newer than ``after`` that
    reaches the newest row is the first page."""
    newest = (order[0].desc(), order[1].desc())
    if after is not None:
        rows = list(
            db.session.execute(
                query.where(_after(order, after, older=False))
                .order_by(order[0], order[1])
                .limit(size + 1)
            ).scalars()
        )
        if len(rows) > size:
            items = rows[:size][::-1]
            return Page(items, key(items[0]), key(items[-1]))
        before = None  # back at the top
    if before is not None:
        query = query.where(_after(order, before, older=True))
    rows = list(db.session.execute(query.order_by(*newest).limit(size + 1)).scalars())
    items = rows[:size]
    newer = key(items[0]) if before is not None and items else None
    older = key(items[-1]) if len(rows) > size else None
    return Page(items, newer, older)
