"""What the scorer's phone shows of bidding hands not yet sent: the engine's rules as data.

Offline, a bidding page keeps the hands typed on it until the network returns (static/bidding.js).
Meanwhile it shows the score, the hand's number, the dealer and the first bidder as those hands
will make them, without scoring anything itself: the page carries this outlook of its game.

- ``shares``: for every bidder, partner and outcome, each seat's share of the bid, read off
  :func:`~.bidding.changes` (a hand adds the bid times its share to each seat);
- ``deals``: the dealer and first bidder of each of the next hands, read off
  :func:`~.bidding.play_hand`;
- ``made_from``: for each bid, the fewest card points that make it, read off
  :class:`~.bidding.BidHand` (a hand given by its points is made from there up).

The server scores every hand again as it arrives, and refuses one the game cannot take.

>>> from .bidding import BidHand, new_game, play_hand
>>> view = outlook(new_game(4, first_dealer=3))
>>> view["shares"]["0 2 made"], view["shares"]["1 1 failed"]
([1, 0, 1, 0], [1, -1, 1, 1])
>>> view["deals"][:3], view["hand"], view["scores"]
([[3, 0], [0, 1], [1, 2]], 1, [0, 0, 0, 0])
>>> view = outlook(play_hand(new_game(4), BidHand.played(bidder=1, bid=80, partner=3, made=True)))
>>> view["hand"], view["scores"], view["deals"][0]
(2, [0, 80, 0, 80], [1, 2])
>>> view["made_from"]["61"], view["made_from"]["119"], len(view["made_from"])
(61, 120, 60)
"""

from __future__ import annotations

import functools
from typing import Any

from .bidding import (
    IMPOSSIBLE_POINTS,
    MAX_BID,
    MIN_BID,
    TOTAL_POINTS,
    BiddingState,
    BidHand,
    can_add_hand,
    changes,
    play_hand,
)

AHEAD = 30
"""Hands waiting on a phone the outlook follows: more than a table plays between two networks."""


@functools.cache
def made_from() -> dict[str, int]:
    """For each bid (as a JSON key), the fewest card points that make it."""
    possible = [points for points in range(TOTAL_POINTS + 1) if points not in IMPOSSIBLE_POINTS]
    return {
        str(bid): next(p for p in possible if BidHand.played(0, bid, 0, points=p).made)
        for bid in range(MIN_BID, MAX_BID + 1)
    }


def outlook(state: BiddingState) -> dict[str, Any]:
    """The game as the page shows it, and what the next hands would do to it (JSON-ready)."""
    players = state.players
    shares: dict[str, list[int]] = {}
    for bidder in range(players):
        for partner in range(players):
            for made in (True, False):
                hand = BidHand.played(bidder, MIN_BID, partner, made=made)
                added = changes(players, hand)
                shares[f"{bidder} {partner} {'made' if made else 'failed'}"] = [
                    change // MIN_BID for change in added
                ]
    deals = []
    following = state
    for _ in range(AHEAD):
        deals.append([following.dealer, following.opener])
        if following.finished or not can_add_hand(following, BidHand.passed()):
            break
        following = play_hand(following, BidHand.passed())
    return {
        "players": players,
        "scores": list(state.scores),
        "hand": len(state.hands) + 1,
        "shares": shares,
        "deals": deals,
        "made_from": made_from(),
    }
