"""The pages people use at the table."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("pages", __name__)


@bp.get("/r/<rubber_id>")
def rubber(rubber_id: str) -> str:
    return rubber_id


@bp.get("/r/<rubber_id>/edit/<key>")
def grant(rubber_id: str, key: str) -> str:
    return rubber_id
