"""The statistics of a group's bidding Sueca games, pure and on their own.

Games played and won, bids made and failed, the average bid. Never mixed into the rubbers'
statistics or ratings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from scorekeeper.engine.names import player_key


@dataclass
class BiddingPlayer:
    """One regular's record over the group's finished bidding games."""

    name: str
    games: int = 0
    won: int = 0
    made: int = 0
    failed: int = 0
    bid_points: int = 0
    """The bids added up, for the average."""

    @property
    def bids(self) -> int:
        return self.made + self.failed

    @property
    def average_bid(self) -> float | None:
        return self.bid_points / self.bids if self.bids else None


@dataclass(frozen=True)
class Bids:
    """A bidder's bids of one game made (or failed): how many, and their sum."""

    bidder: int
    made: bool
    hands: int
    points: int


@dataclass(frozen=True)
class FinishedGame:
    """What the statistics read of one finished game.

    Its players by seat, its winner, and its bids by bidder and outcome."""

    players: Sequence[str]
    winner: int
    bids: Sequence[Bids] = ()


@dataclass
class BiddingStats:
    """A group's bidding games: how many were finished and are in play, and each player."""

    games: int = 0
    in_play: int = 0
    players: dict[str, BiddingPlayer] = field(default_factory=dict)

    def ranking(self) -> list[BiddingPlayer]:
        """The players by games won, then by share won, then by name."""
        return sorted(
            self.players.values(),
            key=lambda p: (-p.won, -(p.won / p.games if p.games else 0), p.name.casefold()),
        )


def count(games: Iterable[FinishedGame], in_play: int = 0) -> BiddingStats:
    """Return the statistics of these finished games.

    A seat left unnamed is nobody's record, and names match as the group's do (case, accents and
    spaces aside).

    >>> stats = count([
    ...     FinishedGame(["Ana", "Rui", "Zé", "Eva"], 2, [Bids(0, True, 1, 80), Bids(2, False, 1, 100)]),
    ...     FinishedGame(["ana", "Rui", "Zé", ""], 0, [Bids(0, True, 1, 61), Bids(3, True, 2, 200)]),
    ... ])
    >>> ana = stats.players["ana"]
    >>> stats.games, ana.name, ana.games, ana.won, ana.made, ana.failed, ana.average_bid
    (2, 'ana', 2, 1, 2, 0, 70.5)
    >>> [p.name for p in stats.ranking()]
    ['ana', 'Zé', 'Eva', 'Rui']
    """
    stats = BiddingStats(in_play=in_play)
    for game in games:
        stats.games += 1
        seated: list[BiddingPlayer | None] = []
        for name in game.players:
            key = player_key(name)
            if not key:
                seated.append(None)
                continue
            player = stats.players.setdefault(key, BiddingPlayer(name.strip()))
            player.name = name.strip()  # the latest spelling, games being counted in order
            seated.append(player)
        for seat, sitting in enumerate(seated):
            if sitting is not None:
                sitting.games += 1
                sitting.won += seat == game.winner
        for bids in game.bids:
            bidder = seated[bids.bidder] if 0 <= bids.bidder < len(seated) else None
            if bidder is None:
                continue
            bidder.bid_points += bids.points
            if bids.made:
                bidder.made += bids.hands
            else:
                bidder.failed += bids.hands
    return stats
