"""What is stored of a bidding Sueca game: its table, the inputs of its hands, its write keys.

It also keeps the phones that may change it. Scores are the engine's fold, cached in the game's
row."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, ForeignKey, Index, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from scorekeeper.engine import bidding as rules
from scorekeeper.extensions import Model
from scorekeeper.web.columns import TOKEN_LENGTH, GrantColumns, WriteKeyColumns, utcnow


class BiddingGame(Model):
    """A game of bidding Sueca: its players by seat, its target, and a cache of its fold."""

    __tablename__ = "bidding_games"
    __table_args__ = (Index("ix_bidding_games_group_order", "group_id", "created_at", "id"),)

    id: Mapped[str] = mapped_column(String(TOKEN_LENGTH), primary_key=True)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    players: Mapped[list[str]] = mapped_column(JSON)
    """The names by seat, in play order ("" for a seat left unnamed)."""
    target: Mapped[int]
    first_dealer: Mapped[int]
    previous_id: Mapped[str | None] = mapped_column(
        ForeignKey("bidding_games.id"), index=True, unique=True
    )
    """The game of the same table this one followed, if any: one next game per game."""
    group_id: Mapped[str | None] = mapped_column(ForeignKey("groups.id"))
    created_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)
    version: Mapped[int] = mapped_column(nullable=False)
    # The cache of the engine's fold, rewritten by every write (store.refresh).
    hand_count: Mapped[int] = mapped_column(default=0)
    scores: Mapped[list[int]] = mapped_column(JSON)
    dealer: Mapped[int]
    finished: Mapped[bool] = mapped_column(default=False)
    winner: Mapped[int | None]

    # SQLAlchemy bumps the version on every write and refuses one based on a stale read.
    __mapper_args__ = {"version_id_col": version}

    hands: Mapped[list[BiddingHand]] = relationship(
        back_populates="game", order_by="BiddingHand.number", cascade="all, delete-orphan"
    )

    def table(self) -> rules.Table:
        return rules.Table(len(self.players), self.target, self.first_dealer)

    def state(self) -> rules.BiddingState:
        """The engine's fold of the stored hands."""
        return rules.replay(self.table(), [hand.to_engine() for hand in self.hands])


class BiddingHand(Model):
    """One hand as it was recorded: the input of the fold, never its result."""

    __tablename__ = "bidding_hands"
    __table_args__ = (UniqueConstraint("game_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("bidding_games.id"))
    number: Mapped[int]
    kind: Mapped[str] = mapped_column(String(10))
    bidder: Mapped[int | None]
    bid: Mapped[int | None]
    partner: Mapped[int | None]
    points: Mapped[int | None]
    made: Mapped[bool | None]
    trump: Mapped[str | None] = mapped_column(String(1))
    called: Mapped[str | None] = mapped_column(String(3))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    edited_at: Mapped[datetime | None]
    """When the hand was last replaced with other values; None as recorded (as a rubber's)."""

    game: Mapped[BiddingGame] = relationship(back_populates="hands")

    def to_engine(self) -> rules.BidHand:
        if self.kind == rules.HandKind.PASSED.value:
            return rules.BidHand.passed()
        # made is stored as given: with the points it is what they make of the bid.
        return rules.BidHand(
            rules.HandKind.BID, self.bidder, self.bid, self.partner, self.points, self.made
        )

    def set_input(self, hand: rules.BidHand, trump: str | None, called: str | None) -> None:
        self.kind = hand.kind.value
        self.bidder, self.bid, self.partner = hand.bidder, hand.bid, hand.partner
        self.points, self.made = hand.points, hand.made
        self.trump, self.called = trump, called


class BiddingWriteKey(WriteKeyColumns, Model):
    """An idempotency key: the same write sent twice is answered with its first answer."""

    __tablename__ = "bidding_write_keys"

    game_id: Mapped[str] = mapped_column(ForeignKey("bidding_games.id"), primary_key=True)


class DeviceBidding(GrantColumns, Model):
    """A game this device started or opened with its edit link: its history and its grants."""

    __tablename__ = "device_bidding_games"
    __table_args__ = (Index("ix_device_bidding_history", "device", "created_at", "game_id"),)

    game_id: Mapped[str] = mapped_column(ForeignKey("bidding_games.id"), primary_key=True)
    created_at: Mapped[datetime]
    """When the game was started, copied here: a phone's history is read from an index."""

    game: Mapped[BiddingGame] = relationship()
