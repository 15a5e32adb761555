"""What is stored: rubbers and the inputs of their hands. Totals are the engine's fold."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from typing import Any

from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import JSON, Engine, ForeignKey, Index, String, UniqueConstraint, event
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from . import engine


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
migrate = Migrate()

NAME_LENGTH = 40
SQLITE_BUSY_TIMEOUT_MS = 10_000


@event.listens_for(Engine, "connect")
def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL lets the score be read while a hand is written; the busy timeout waits for a lock."""
    if isinstance(dbapi_connection, sqlite3.Connection):
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=FULL")
        cursor.close()


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Rubber(db.Model):
    """A rubber (partida): its table, its rules, and a cache of its fold."""

    __tablename__ = "rubbers"

    id: Mapped[str] = mapped_column(String(43), primary_key=True)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    team0: Mapped[str] = mapped_column(String(NAME_LENGTH))
    team1: Mapped[str] = mapped_column(String(NAME_LENGTH))
    players: Mapped[list[str] | None] = mapped_column(JSON)
    first_dealer: Mapped[int]
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    previous_id: Mapped[str | None] = mapped_column(ForeignKey("rubbers.id"), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    version: Mapped[int] = mapped_column(nullable=False)
    # The cache of the engine's fold, rewritten by every write (see store.refresh).
    games0: Mapped[int] = mapped_column(default=0)
    games1: Mapped[int] = mapped_column(default=0)
    hand_count: Mapped[int] = mapped_column(default=0)
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[int | None]
    outcome: Mapped[str | None] = mapped_column(String(16))

    # SQLAlchemy bumps the version on every write and refuses one based on a stale read.
    __mapper_args__ = {"version_id_col": version}

    hands: Mapped[list[Hand]] = relationship(
        back_populates="rubber",
        order_by="Hand.number",
        cascade="all, delete-orphan",
    )

    @property
    def teams(self) -> tuple[str, str]:
        return (self.team0, self.team1)

    def rule_set(self) -> engine.RuleSet:
        return engine.RuleSet.from_dict(self.rules)

    def state(self) -> engine.RubberState:
        """The engine's fold of the stored hands."""
        return engine.replay(
            self.rule_set(), [hand.to_engine() for hand in self.hands], self.first_dealer
        )


class Hand(db.Model):
    """One hand as it was recorded: the input of the fold, never its result."""

    __tablename__ = "hands"
    __table_args__ = (UniqueConstraint("rubber_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))
    points0: Mapped[int | None]
    points1: Mapped[int | None]
    all_tricks: Mapped[bool] = mapped_column(default=False)
    team: Mapped[int | None]
    trump: Mapped[str | None] = mapped_column(String(1))
    tricks: Mapped[list[list[str]] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    rubber: Mapped[Rubber] = relationship(back_populates="hands")

    def to_engine(self) -> engine.Hand:
        points = None
        if self.points0 is not None and self.points1 is not None:
            points = (self.points0, self.points1)
        return engine.Hand(engine.HandKind(self.kind), points, self.all_tricks, self.team)

    def set_input(
        self, hand: engine.Hand, trump: str | None, tricks: list[list[str]] | None
    ) -> None:
        self.kind = hand.kind.value
        self.points0, self.points1 = hand.points if hand.points else (None, None)
        self.all_tricks = hand.all_tricks
        self.team = hand.team
        self.trump = trump
        self.tricks = tricks


class WriteKey(db.Model):
    """An idempotency key: the same write sent twice is answered with its first answer."""

    __tablename__ = "write_keys"

    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(100), primary_key=True)
    body_hash: Mapped[str] = mapped_column(String(64))
    status: Mapped[int]
    response: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DeviceRubber(db.Model):
    """A rubber this device created or opened with its edit link: its history and its grants."""

    __tablename__ = "device_rubbers"
    __table_args__ = (Index("ix_device_rubbers_device_added", "device", "added_at"),)

    device: Mapped[str] = mapped_column(String(64), primary_key=True)
    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)
    added_at: Mapped[datetime] = mapped_column(default=utcnow)

    rubber: Mapped[Rubber] = relationship()
