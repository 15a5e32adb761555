"""What is stored of a tournament of pairs: its settings, its pairs, and what the organizer decided.

Its rounds, matches and standings are the engine's fold (engine.tournaments.fold) of these and of
its matches' rubbers, which are ordinary rubbers: a match's results are never stored twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper import engine
from scorekeeper.engine import tournaments as tourney
from scorekeeper.extensions import Model
from scorekeeper.groups.models import TV_CODE_LENGTH
from scorekeeper.web.columns import NAME_LENGTH, TOKEN_LENGTH, GrantColumns, utcnow


class Tournament(Model):
    """A tournament: its settings, the Swiss rounds drawn, walkovers and withdrawals."""

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(TOKEN_LENGTH), primary_key=True)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    format: Mapped[str] = mapped_column(String(16))
    best_of: Mapped[int]
    rounds: Mapped[int | None]
    groups: Mapped[int | None]
    advance: Mapped[int | None]
    third_place: Mapped[bool]
    draw: Mapped[str] = mapped_column(String(8))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    swiss_rounds: Mapped[list[list[list[int | None]]]] = mapped_column(JSON)
    """The Swiss rounds drawn so far, each a list of [pair, pair or null]: drawn once, kept."""
    walkovers: Mapped[list[list[int]]] = mapped_column(JSON)
    """[round, table, winner] of each walkover the organizer entered."""
    withdrawn: Mapped[list[int]] = mapped_column(JSON)
    group_id: Mapped[str | None] = mapped_column(ForeignKey("groups.id"))
    tv_code: Mapped[str] = mapped_column(String(TV_CODE_LENGTH), index=True, unique=True)
    """The short code of its TV's address, /tv/<code>, as a group's TV has."""
    tv_language: Mapped[str | None] = mapped_column(String(8))
    """The language its TV shows (a locale: pt_PT, pt_BR, en), as the organizer chose; None
    for the app's default."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    version: Mapped[int] = mapped_column(nullable=False)

    # SQLAlchemy bumps the version on every write and refuses one based on a stale read.
    __mapper_args__ = {"version_id_col": version}

    pairs: Mapped[list[Pair]] = relationship(
        back_populates="tournament", order_by="Pair.number", cascade="all, delete-orphan"
    )

    def settings(self) -> tourney.Settings:
        return tourney.Settings(
            format=self.format,
            pairs=len(self.pairs),
            best_of=self.best_of,
            rounds=self.rounds,
            groups=self.groups,
            advance=self.advance,
            third_place=self.third_place,
        )

    def rule_set(self) -> engine.RuleSet:
        return engine.RuleSet.from_dict(self.rules)


class Pair(Model):
    """A pair (dupla): its seed, its two players and its name, if it has one."""

    __tablename__ = "tournament_pairs"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
    number: Mapped[int] = mapped_column(primary_key=True)
    """Its seed, 1 to n: the order entered, or the random draw's."""
    entry: Mapped[int]
    """Its place in the list as entered, from 1."""
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH))
    player0: Mapped[str] = mapped_column(String(NAME_LENGTH))
    player1: Mapped[str] = mapped_column(String(NAME_LENGTH))

    tournament: Mapped[Tournament] = relationship(back_populates="pairs")

    @property
    def players(self) -> tuple[str, str]:
        return (self.player0, self.player1)

    @property
    def label(self) -> str:
        """How the pair is named at a table: its name, else its two players."""
        return self.name or f"{self.player0} & {self.player1}"


class MatchRubber(Model):
    """A rubber of a match: which round and table, and its place in the match."""

    __tablename__ = "tournament_rubbers"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "table", "seq"),)

    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)
    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int]
    table: Mapped[int]
    seq: Mapped[int]
    """1 for the match's first rubber, 2 for the next..."""
    pair0: Mapped[int]
    pair1: Mapped[int]
    """The pairs it was started for, its team 0 and team 1: it counts for the match while they
    are the match's (a corrected result may give a later match other pairs)."""


class DeviceTournament(GrantColumns, Model):
    """A tournament this device created or opened with its edit link: the organizer's phone."""

    __tablename__ = "device_tournaments"

    tournament_id: Mapped[str] = mapped_column(ForeignKey("tournaments.id"), primary_key=True)
