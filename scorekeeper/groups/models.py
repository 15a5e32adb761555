"""What is stored of a group of regulars, and the per-seat cache its statistics are counted from."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, String
from sqlalchemy.orm import Mapped, mapped_column

from scorekeeper.extensions import Model
from scorekeeper.web.columns import NAME_LENGTH, WRITE_KEY_LENGTH, GrantColumns, utcnow

TV_CODE_LENGTH = 10
"""The letters of a group's TV code (docs/decisions/groups.md, "The TV's short address")."""
KEY_LENGTH = 3 * NAME_LENGTH
"""A player's matching key (stripped, casefolded): casefolding can triple a name's length."""


class Group(Model):
    """The regulars of a table ("Tasca do Zé, sextas"): a name and its rubbers."""

    __tablename__ = "groups"

    id: Mapped[str] = mapped_column(String(43), primary_key=True)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    """Rewritten by every write to one of its rubbers: the write holds the group's lock."""
    tv_code: Mapped[str] = mapped_column(String(TV_CODE_LENGTH), index=True, unique=True)
    """The short code of its TV's address, /tv/<code> (groups.store.new_tv_code)."""


class GroupImport(Model):
    """An import sent with an idempotency key: the file it came with, and the rubbers it made.

    The same key with the same file answers the rubbers made under it, their edit keys derived
    again from the group's key (docs/decisions/limits.md, "Imports")."""

    __tablename__ = "group_imports"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)
    key: Mapped[str] = mapped_column(String(WRITE_KEY_LENGTH), primary_key=True)
    body_hash: Mapped[str] = mapped_column(String(64))
    rubbers: Mapped[list[Any]] = mapped_column(JSON, default=list)
    """``[id, origin]`` of each rubber made under the key, in the order they were made."""
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class DeviceGroup(GrantColumns, Model):
    """A group this device created or opened with its edit link."""

    __tablename__ = "device_groups"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)


class GroupSeat(Model):
    """One named seat of a rubber in a group: what the rubber gave that player.

    It is cached from the engine's fold on every write of the rubber (see groups.seats)."""

    __tablename__ = "group_seats"
    __table_args__ = (
        Index(
            "ix_group_seats_player_order",
            "group_id",
            "player_key",
            "rated",
            "created_at",
            "group_seq",
        ),
        Index("ix_group_seats_order", "group_id", "created_at", "group_seq"),
    )

    rubber_id: Mapped[str] = mapped_column(ForeignKey("rubbers.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"))
    created_at: Mapped[datetime]
    group_seq: Mapped[int]
    """The rubber's place in the group's order (it never changes), copied here so that a
    player's last rated rubbers are read from an index."""
    player_key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    partner_key: Mapped[str | None] = mapped_column(String(KEY_LENGTH))
    opponent_a: Mapped[str | None] = mapped_column(String(KEY_LENGTH))
    opponent_b: Mapped[str | None] = mapped_column(String(KEY_LENGTH))
    """The keys of the named opponents (seat+1 and seat+3): counted without a join."""
    team: Mapped[int]
    finished: Mapped[bool]
    won: Mapped[bool]
    games_won: Mapped[int]
    games_lost: Mapped[int]
    pente_given: Mapped[bool]
    pente_taken: Mapped[bool]
    outcome: Mapped[str | None] = mapped_column(String(16))
    bandeiras: Mapped[int]
    card_points: Mapped[int]
    point_hands: Mapped[int]
    rated: Mapped[bool] = mapped_column(default=False)
    mu: Mapped[float | None]
    sigma: Mapped[float | None]
    """The player's rating after this rubber, when it was rated."""


def _total() -> Mapped[int]:
    return mapped_column(default=0, server_default="0")


class GroupPlayer(Model):
    """A player of a group: the latest spelling of the name, the current rating and the totals.

    The totals are over the group's finished rubbers, kept by every write that changes them, so the
    ranking and the statistics are read without scanning the seats."""

    __tablename__ = "group_players"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)
    player_key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    mu: Mapped[float | None]
    sigma: Mapped[float | None]
    rated: Mapped[int] = mapped_column(default=0)
    """Rubbers that moved the rating."""
    # The sums of the player's finished seat rows (see statistics.PlayerStats).
    rubbers: Mapped[int] = _total()
    won: Mapped[int] = _total()
    games_won: Mapped[int] = _total()
    games_lost: Mapped[int] = _total()
    pentes: Mapped[int] = _total()
    pentes_taken: Mapped[int] = _total()
    chapeus: Mapped[int] = _total()
    chapeus_taken: Mapped[int] = _total()
    arrepios: Mapped[int] = _total()
    arrepios_taken: Mapped[int] = _total()
    bandeiras: Mapped[int] = _total()
    card_points: Mapped[int] = _total()
    point_hands: Mapped[int] = _total()


class GroupPartner(Model):
    """Two partners of a group over its finished rubbers, once from each partner's side."""

    __tablename__ = "group_partners"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)
    player_key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    partner_key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    rubbers: Mapped[int] = _total()
    won: Mapped[int] = _total()
    games_won: Mapped[int] = _total()
    games_lost: Mapped[int] = _total()


class GroupOpponent(Model):
    """A player of a group against one opponent over its finished rubbers."""

    __tablename__ = "group_opponents"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)
    player_key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    opponent_key: Mapped[str] = mapped_column(String(KEY_LENGTH), primary_key=True)
    rubbers: Mapped[int] = _total()
    won: Mapped[int] = _total()


class GroupOutcome(Model):
    """A group's finished rubbers by outcome.

    ``finished`` counts them all, ``shutout`` those won with the other team on 0 games, and each
    engine outcome name its own."""

    __tablename__ = "group_outcomes"

    group_id: Mapped[str] = mapped_column(ForeignKey("groups.id"), primary_key=True)
    outcome: Mapped[str] = mapped_column(String(16), primary_key=True)
    rubbers: Mapped[int] = _total()
