"""Histories read one page at a time from an index.

"Older" and "Newer" links carry the id of the row the page starts after, so a page costs the same at
the top of a long history as deep in it, and nothing is counted."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import sqlalchemy as sa
from flask import current_app, request

from scorekeeper.extensions import db
from scorekeeper.web import tokens

Row = TypeVar("Row")


@dataclass(frozen=True)
class Page(Generic[Row]):
    """The rows of one page, newest first, and the ids the links to its neighbours start from.

    An id is None when there is nothing that way."""

    items: list[Row]
    newer: str | None
    older: str | None


def _place(
    query: sa.Select[Any], order: tuple[Any, Any], ident: Any, row_id: str
) -> tuple[Any, Any] | None:
    """Where the row ``row_id`` sits in ``query``'s order; None if it is none of its rows."""
    if not tokens.is_token(row_id):
        return None
    found = db.session.execute(
        query.with_only_columns(*order, maintain_column_froms=True).where(ident == row_id).limit(1)
    ).first()
    return None if found is None else (found[0], found[1])


def _after(
    order: tuple[Any, Any], cursor: tuple[Any, Any], *, older: bool
) -> sa.ColumnElement[bool]:
    """Return rows strictly older (or newer) than the cursor in the order of two columns.

    The first comparison alone bounds an index range; the second settles rows of the same time."""
    first, second = order
    if older:
        return sa.and_(first <= cursor[0], sa.or_(first < cursor[0], second < cursor[1]))
    return sa.and_(first >= cursor[0], sa.or_(first > cursor[0], second > cursor[1]))


def page(
    query: sa.Select[Any], order: tuple[Any, Any], ident: Any, *, links: str = ""
) -> Page[Any]:
    """Return the page of ``query`` the address asks for, in the descending ``order``.

    The page holds the newest rows, or those older than the row ``before`` names, or those newer
    than the row ``after`` names: ids (``ident``, the rows' id column) of rows of ``query``, read
    from the address behind ``links`` (a page with two histories tells their links apart). A page
    newer than ``after`` that reaches the newest row is the first page."""
    size = current_app.config["HISTORY_PAGE_SIZE"]
    before = _place(query, order, ident, request.args.get(f"{links}before", ""))
    after = _place(query, order, ident, request.args.get(f"{links}after", ""))
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
            return Page(items, items[0].id, items[-1].id)
        before = None  # back at the top
    if before is not None:
        query = query.where(_after(order, before, older=True))
    rows = list(db.session.execute(query.order_by(*newest).limit(size + 1)).scalars())
    items = rows[:size]
    newer = items[0].id if before is not None and items else None
    older = items[-1].id if len(rows) > size else None
    return Page(items, newer, older)
