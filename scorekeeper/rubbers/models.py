"""What is stored of a rubber: its table, its rules and the inputs of its hands.

Totals are the engine's fold, cached in the rubber's row.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint, false, inspect, select
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper import engine
from scorekeeper.extensions import Model, db
from scorekeeper.web.columns import NAME_LENGTH, GrantColumns, WriteKeyColumns, utcnow


class Rubber(Model):
    """A rubber (partida): its table, its rules, and a cache of its fold."""

    __tablename__ = "rubbers"
    __table_args__ = (Index("ix_rubbers_group_order", "group_id", "created_at", "group_seq"),)

    id: Mapped[str] = mapped_column(String(43), primary_key=True)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    team0: Mapped[str] = mapped_column(String(NAME_LENGTH))
    team1: Mapped[str] = mapped_column(String(NAME_LENGTH))
    players: Mapped[list[str] | None] = mapped_column(JSON)
    first_dealer: Mapped[int]
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    previous_id: Mapped[str | None] = mapped_column(
        ForeignKey("rubbers.id"), index=True, unique=True
    )
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
    # The rest of the engine's Tally: with it the next hand is scored without reading the
    # others (rubbers.recording). A rubber stored before these columns has no dealer until
    # its next write.
    dealer: Mapped[int | None]
    pending_extra: Mapped[int] = mapped_column(default=0, server_default="0")
    pending_multiplier: Mapped[int] = mapped_column(default=1, server_default="1")
    brink0: Mapped[bool] = mapped_column(default=False, server_default=false())
    brink1: Mapped[bool] = mapped_column(default=False, server_default=false())
    # The group (regulars of a table) the rubber belongs to, and its place in the group's order.
    group_id: Mapped[str | None] = mapped_column(ForeignKey("groups.id"))
    group_seq: Mapped[int | None]
    origin_id: Mapped[str | None] = mapped_column(String(43))
    """The id of the rubber this one was imported from (the first one of a chain of copies)."""
    paper_games: Mapped[list[int] | None] = mapped_column(JSON)
    """The games of a rubber its table kept on paper, [team 0, team 1], given instead of its
    hands (a tournament's match, ``tournaments.writes.paper_result``); None for every other."""
    tournament_id: Mapped[str | None] = mapped_column(ForeignKey("tournaments.id"))
    """The tournament whose match this rubber is, if any (scorekeeper.tournaments); every write
    of such a rubber sends ``store.tournament_rubber_written``."""

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

    @property
    def names(self) -> tuple[engine.Outcome, ...]:
        """Every name the finished rubber goes by, from its cached result."""
        return engine.rubber_names(self.outcome, (self.games0, self.games1), self.winner)

    def rule_set(self) -> engine.RuleSet:
        return engine.RuleSet.from_dict(self.rules)

    def state(self) -> engine.RubberState:
        """The engine's fold of the stored hands, or the result its table kept on paper."""
        if self.paper_games is not None:
            return engine.paper_result(self.rule_set(), self.paper_games, self.first_dealer)
        stored = inspect(self)
        if stored.persistent and "hands" in stored.unloaded:
            # Only the columns the fold reads, without making a Hand object of each row.
            rows = db.session.execute(
                select(Hand.kind, Hand.points0, Hand.points1, Hand.all_tricks, Hand.team)
                .where(Hand.rubber_id == self.id)
                .order_by(Hand.number)
            )
            inputs = [Hand.engine_input(*row) for row in rows]
        else:
            inputs = [hand.to_engine() for hand in self.hands]
        return engine.replay(self.rule_set(), inputs, self.first_dealer)

    def edited_times(self) -> dict[int, datetime]:
        """Return when each hand changed since it was recorded was last changed, by number."""
        rows = db.session.execute(
            select(Hand.number, Hand.edited_at).where(
                Hand.rubber_id == self.id, Hand.edited_at.is_not(None)
            )
        )
        return {number: edited_at for number, edited_at in rows if edited_at is not None}


class Hand(Model):
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
    typed_team: Mapped[int | None]
    """The team whose card points were typed in the hand form (0 or 1), which its edit form
    opens on; None for a hand given otherwise (both teams' points, the cards, a revoke) or
    stored before it was kept (migration 3c1d5e7a9b20): it opens from its winner's side."""
    edited_at: Mapped[datetime | None]
    """When the hand was last replaced with other values (its edit page, the API's PUT); None
    for a hand as it was recorded. An undo is no edit (docs/decisions/rubber-page.md)."""

    rubber: Mapped[Rubber] = relationship(back_populates="hands")

    def to_engine(self) -> engine.Hand:
        return Hand.engine_input(self.kind, self.points0, self.points1, self.all_tricks, self.team)

    @staticmethod
    def engine_input(
        kind: str, points0: int | None, points1: int | None, all_tricks: bool, team: int | None
    ) -> engine.Hand:
        points = None
        if points0 is not None and points1 is not None:
            points = (points0, points1)
        return engine.Hand(engine.HandKind(kind), points, all_tricks, team)

    def set_input(
        self,
        hand: engine.Hand,
        trump: str | None,
        tricks: list[list[str]] | None,
        typed_team: int | None = None,
    ) -> None:
        for name, value in Hand.input_values(hand, trump, tricks, typed_team).items():
            setattr(self, name, value)

    @staticmethod
    def input_values(
        hand: engine.Hand,
        trump: str | None,
        tricks: list[list[str]] | None,
        typed_team: int | None = None,
    ) -> dict[str, Any]:
        """Return the columns that keep a hand's input, by name (for an insert of many rows)."""
        points0, points1 = hand.points if hand.points else (None, None)
        return {
            "kind": hand.kind.value,
            "points0": points0,
            "points1": points1,
            "all_tricks": hand.all_tricks,
            "team": hand.team,
            "trump": trump,
            "tricks": tricks,
            "typed_team": typed_team if hand.points else None,
        }


class WriteKey(WriteKeyColumns, Model):
    """An idempotency key: the same write sent twice is answered with its first answer."""

    __tablename__ = "write_keys"

    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)


class DeviceRubber(GrantColumns, Model):
    """A rubber this device created or opened with its edit link: its history and its grants."""

    __tablename__ = "device_rubbers"
    __table_args__ = (
        Index("ix_device_rubbers_device_added", "device", "added_at"),
        Index("ix_device_rubbers_history", "device", "created_at", "rubber_id"),
    )

    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)
    created_at: Mapped[datetime]
    """When the rubber was started (it never changes), copied here so that a phone's history
    is read newest first from an index, one page at a time, however long it is."""

    rubber: Mapped[Rubber] = relationship()
