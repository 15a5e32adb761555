"""What is stored of an analysis: one row per content analysed, its status and its result."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model
from scorekeeper.web.columns import utcnow

KEY_LENGTH = 64
"""An analysis' id: the SHA-256 of what it analyses, in hex (``work.content_key``)."""


class Status:
    """Where an analysis is; only ``QUEUED`` and ``RUNNING`` take a place in the queue."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    WAITING = (QUEUED, RUNNING)


class Analysis(Model):
    """One analysis of a record or of open hands, keyed by its content."""

    __tablename__ = "analyses"
    __table_args__ = (Index("ix_analyses_status_client", "status", "client"),)

    id: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    request: Mapped[dict[str, Any]] = mapped_column(JSON)
    """What is analysed, as the consumer reads it: trump, leader, tricks or hands, rules."""
    status: Mapped[str] = mapped_column(String(10), default=Status.QUEUED)
    client: Mapped[str] = mapped_column(String(KEY_LENGTH))
    """A hash of the address that asked for it, for the bound per client."""
    turn: Mapped[int] = mapped_column(default=0, server_default="0")
    """Its place in the queue's turns: the consumer runs the lowest first (queue.next_in_turn)."""
    done: Mapped[int] = mapped_column(default=0)
    total: Mapped[int] = mapped_column(default=1)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    error: Mapped[str | None] = mapped_column(String(40))
    """A failed analysis' code: ``out_of_time`` (open hands past the budget) or ``crashed``."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    """The last sign of life: its creation, its start, each card analysed."""
