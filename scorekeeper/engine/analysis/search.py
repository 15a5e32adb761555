"""The exact search: alpha-beta over a deal's cards as bits, every speed-up switchable.

Values are the card points team 0 takes from the position to the end (team 1 takes the rest):
team 0 maximises, team 1 minimises. The cards' numbering is in ``options.py``; the compiled
core (``_search.c``) runs the same search when it was built.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from .options import (
    APART,
    BLANKS,
    CHECK_CLOCK_EVERY,
    COMPILED,
    FACES,
    FAST,
    PACK,
    PLACES,
    POINTS,
    SUIT_MASK,
    SWITCHES,
    Options,
    OutOfTime,
)
from .ordering import beats, cards_of, follow_order, lead_order, third_hand_order

TABLE_LIMIT = 250_000
"""Positions the Python table keeps (some 150 MiB of tuples and lists): then it starts over."""


class Search:
    """One deal's search: its trump suit, the options, the table (kept between calls)."""

    def __init__(self, trump: int, options: Options = FAST, cards: int = 10) -> None:
        self.trump = trump
        self.options = options
        self.table: dict[tuple[int, ...], list[int]] = {}
        """Per key, the bounds on the points still to come, the best lead's slot and the faces
        in play (as _search.c's entries): [lower, upper, slot, faces]."""
        self.hands = [0, 0, 0, 0]
        self._nodes = 0
        self.deadline: float | None = None
        self._clock = time.monotonic
        self._core: Any = None
        if options.compiled and COMPILED is not None:
            flags = sum(bit for name, bit in SWITCHES.items() if getattr(options, name))
            # 2**21 entries of 32 bytes for a full deal: 64 MiB, touched only where used.
            self._core = COMPILED.Search(trump, flags, min(21, 8 + 2 * max(cards, 1)))

    @property
    def nodes(self) -> int:
        """Trick boundaries searched so far."""
        return int(self._core.nodes) if self._core is not None else self._nodes

    def _forget(self) -> None:
        if self._core is not None:
            self._core.clear()
        self.table = {}

    # ---- the public face: a position's value, and a card's ----

    def value(  # noqa: PLR0913  a position (hands, leader, trick), and how to search it
        self,
        hands: Sequence[int],
        leader: int,
        trick: Sequence[int] = (),
        deadline: float | None = None,
        known: tuple[int, int | None] = (0, None),
        first: int | None = None,
    ) -> int:
        """Return the points team 0 takes from here to the end, best play by all.

        The trick in play is included. ``hands`` are the four seats' cards not yet played;
        ``trick`` the cards of the trick in play, from ``leader``. ``known`` are bounds the
        caller is sure of (None: all the points), ``first`` the first value to test (a likely
        one).
        """
        if not self.options.reuse:
            self._forget()
        self.deadline = deadline
        most = sum(POINTS[c] for hand in hands for c in cards_of(hand)) + sum(
            POINTS[c] for c in trick
        )
        lower, upper = known[0], most if known[1] is None else known[1]
        if not self.options.zero_window:
            return self._root(hands, leader, trick, lower - 1, upper + 1)
        while lower < upper:
            gamma = (lower + upper + 1) // 2
            if first is not None and lower < first <= upper:
                gamma, first = first, None
            found = self._root(hands, leader, trick, gamma - 1, gamma)
            if found >= gamma:
                lower = found
            else:
                upper = found
        return lower

    def at_least(self, hands: Sequence[int], leader: int, trick: Sequence[int], gamma: int) -> bool:
        """Whether team 0 takes at least ``gamma`` points from here: one zero-window search."""
        if not self.options.reuse:
            self._forget()
        return self._root(hands, leader, trick, gamma - 1, gamma) >= gamma

    def _root(
        self, hands: Sequence[int], leader: int, trick: Sequence[int], alpha: int, beta: int
    ) -> int:
        if self._core is not None:
            found: int | None = self._core.root(
                tuple(hands), leader, list(trick), alpha, beta, self.deadline or 0.0
            )
            if found is None:
                raise OutOfTime
            return found
        self.hands = list(hands)
        left = sum(POINTS[c] for hand in hands for c in cards_of(hand))
        if not trick:
            return self._lead(leader, left, alpha, beta)
        win = 0
        for position in range(1, len(trick)):
            if beats(trick[position], trick[win], self.trump):
                win = position
        mask = 0
        for card in trick:
            mask |= 1 << card
        pile = sum(POINTS[c] for c in trick)
        if len(trick) == 4:
            winner = (leader + win) % 4
            gain = pile if winner % 2 == 0 else 0
            return gain + self._lead(winner, left, alpha - gain, beta - gain)
        return self._follow(
            len(trick),
            leader,
            trick[0] // PLACES,
            (leader + win) % 4,
            trick[win],
            pile,
            mask,
            left,
            alpha,
            beta,
        )

    # ---- the search ----

    def _key(self, leader: int) -> tuple[tuple[int, ...], int]:
        """The position's key in the table, and the faces in play under rank classes (else 0).

        Under rank classes each hand's cards of a suit become their places among the suit's
        cards in play (the key of the position's class), as _search.c's key_of.
        """
        h0, h1, h2, h3 = self.hands
        if not self.options.blank_classes and not self.options.rank_classes:
            return (h0, h1, h2, h3, leader), 0
        remaining = h0 | h1 | h2 | h3
        key = [leader]
        faces = 0
        if self.options.rank_classes:
            for suit in range(4):
                faces |= (remaining >> PLACES * suit & BLANKS) << FACES * suit
        for hand in (h0, h1, h2, h3):
            packed = 0
            for suit in range(4):
                shift = PLACES * suit + FACES
                row = PACK[remaining >> shift & BLANKS]
                blanks = row[hand >> shift & BLANKS]
                if self.options.rank_classes:
                    top = remaining >> (shift - FACES) & BLANKS
                    places = PACK[top][hand >> (shift - FACES) & BLANKS]
                    packed |= (places | blanks << top.bit_count()) << (shift - FACES)
                else:
                    packed |= (hand & (BLANKS << (shift - FACES))) | blanks << shift
            key.append(packed)
        return tuple(key), faces

    def _sure(self) -> tuple[int, int]:
        """Return the points each team is sure of from its run of top trumps.

        Each of the top trumps one team holds wins its trick when it is played, whatever
        happens.
        """
        hands = self.hands
        trumps = (hands[0] | hands[1] | hands[2] | hands[3]) & SUIT_MASK[self.trump]
        sure = [0, 0]
        team = -1
        while trumps:
            low = trumps & -trumps
            holder = 0 if hands[0] & low else 1 if hands[1] & low else 2 if hands[2] & low else 3
            if team < 0:
                team = holder & 1
            elif holder & 1 != team:
                break
            sure[team] += POINTS[low.bit_length() - 1]
            trumps ^= low
        return sure[0], sure[1]

    def _quick(self, leader: int) -> int:
        """Return the leader's quick points in the side suits.

        In each side suit, the run of top cards it holds, as many as each opponent holding a
        trump can follow (one without trumps can never take them).
        """
        hands = self.hands
        remaining = hands[0] | hands[1] | hands[2] | hands[3]
        trumps = SUIT_MASK[self.trump]
        total = 0
        for suit in range(4):
            if suit == self.trump:
                continue
            ours = cards_of(hands[leader] & SUIT_MASK[suit])
            run = 0
            for card in cards_of(remaining & SUIT_MASK[suit]):
                if run == len(ours) or card != ours[run]:
                    break
                run += 1
            for step in (1, 3):
                other = hands[(leader + step) % 4]
                if other & trumps:
                    run = min(run, (other & SUIT_MASK[suit]).bit_count())
            total += sum(POINTS[card] for card in ours[:run])
        return total

    def _lead(self, leader: int, left: int, alpha: int, beta: int) -> int:
        """A trick boundary: ``leader`` to lead; ``left`` the points still in the hands."""
        mine = self.hands[leader]
        if not mine:
            return 0
        if mine & (mine - 1) == 0:
            return self._last_trick(leader, left)
        deadline = self.deadline
        if deadline is not None:
            self._count_node(deadline)
        lower, upper = 0, left
        if self.options.bounds:
            lower, upper = self._bounds(leader, left)
            if lower >= beta or upper <= alpha:
                return lower if lower >= beta else upper
        if not self.options.table:
            return self._best_lead(leader, left, alpha, beta, -1)[0]
        return self._lead_with_table(leader, left, alpha, beta, (lower, upper))

    def _lead_with_table(
        self, leader: int, left: int, alpha: int, beta: int, bounds: tuple[int, int]
    ) -> int:
        """_lead's search once the bounds did not decide it: the table first, then the leads."""
        lower, upper = bounds
        key, faces = self._key(leader)
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            above, below = _apart(faces, entry[3])
            decided = _decided(entry[0] - below, entry[1] + above, lower, upper, alpha, beta)
            if decided is not None:
                return decided
            hint = _card_in(in_play, entry[2])
            if entry[3] != faces:
                entry = None  # a class mate's: this position takes its place
        best, best_card = self._best_lead(leader, left, alpha, beta, hint)
        if entry is None:
            entry = self._new_entry(key, faces, left)
        _store(entry, best, _slot_of(in_play, best_card), alpha, beta)
        return best

    def _new_entry(self, key: tuple[int, ...], faces: int, left: int) -> list[int]:
        """A position's entry in the table: its bounds (none yet), its best lead, its faces."""
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()  # a cache: emptied, never grown past the memory budget
        entry = [0, left, -1, faces]
        self.table[key] = entry
        return entry

    def _count_node(self, deadline: float) -> None:
        """Count a trick boundary searched; now and then, stop if past ``deadline``."""
        self._nodes += 1
        if self._nodes % CHECK_CLOCK_EVERY == 0 and self._clock() > deadline:
            raise OutOfTime

    def _bounds(self, leader: int, left: int) -> tuple[int, int]:
        """The least and most points team 0 can take: each team's sure points are the other's loss."""
        sure0, sure1 = self._sure()
        if leader % 2:
            sure1 += self._quick(leader)
        else:
            sure0 += self._quick(leader)
        return sure0, left - sure1

    def _best_lead(
        self, leader: int, left: int, alpha: int, beta: int, hint: int
    ) -> tuple[int, int]:
        """The best of ``leader``'s leads in the window, and the card (``hint`` tried first)."""
        hands = self.hands
        mine = hands[leader]
        maximising = leader % 2 == 0
        best = -1 if maximising else left + 1
        best_card = -1
        a, b = alpha, beta
        for card in self._leads(leader, mine, hint):
            bit = 1 << card
            hands[leader] = mine ^ bit
            points = POINTS[card]
            value = self._follow(
                1, leader, card // PLACES, leader, card, points, bit, left - points, a, b
            )
            if maximising:
                if value > best:
                    best, best_card = value, card
                    if value > a:
                        a = value
            elif value < best:
                best, best_card = value, card
                if value < b:
                    b = value
            if a >= b:
                break
        hands[leader] = mine
        return best, best_card

    def _last_trick(self, leader: int, left: int) -> int:
        hands = self.hands
        win_card = hands[leader].bit_length() - 1
        winner = leader
        for step in (1, 2, 3):
            seat = (leader + step) % 4
            card = hands[seat].bit_length() - 1
            if beats(card, win_card, self.trump):
                win_card, winner = card, seat
        return left if winner % 2 == 0 else 0

    def _leads(self, leader: int, mine: int, hint: int) -> list[int]:
        options = self.options
        in_play = self.hands[0] | self.hands[1] | self.hands[2] | self.hands[3]
        cards = self._distinct(mine, in_play) if options.equivalent_cards else cards_of(mine)
        if not options.ordering:
            return cards
        # Unruffable side suits, trumps, ruffable ones; the most points first (as _search.c).
        ranked = sorted(cards, key=lead_order(self.hands, leader, self.trump))
        if hint in ranked:
            ranked.remove(hint)
            ranked.insert(0, hint)
        return ranked

    def _distinct(self, legal: int, in_play: int) -> list[int]:
        """The legal cards, one of each run of equivalent cards."""
        cards: list[int] = []
        previous = -PLACES
        while legal:
            low = legal & -legal
            card = low.bit_length() - 1
            legal ^= low
            if (
                card // PLACES == previous // PLACES
                and POINTS[card] == POINTS[previous]
                and in_play & (low - (2 << previous)) == 0
            ):
                previous = card
                continue
            previous = card
            cards.append(card)
        return cards

    def _lookahead(  # noqa: PLR0913  the trick so far, as _follow holds it, as _search.c's
        self,
        cards: list[int],
        seat: int,
        win_seat: int,
        win_card: int,
        pile: int,
        alpha: int,
        beta: int,
        known: dict[int, tuple[int, int]],
    ) -> int | None:
        """The value of the trick's last card if the table's next positions decide its window.

        None when none does (enhanced transposition cutoffs). ``known`` gets the bounds read on
        each card's next position, as they are now.
        """
        hands = self.hands
        mine = hands[seat]
        decided = None
        for card in cards:
            hands[seat] = mine ^ (1 << card)
            winner = seat if beats(card, win_card, self.trump) else win_seat
            key, faces = self._key(winner)
            entry = self.table.get(key)
            if entry is None:
                continue
            above, below = _apart(faces, entry[3])
            lower, upper = max(entry[0] - below, 0), entry[1] + above
            known[card] = (lower, upper)
            gain = pile + POINTS[card] if winner % 2 == 0 else 0
            if seat % 2 == 0 and gain + lower >= beta:
                decided = gain + lower
            elif seat % 2 == 1 and gain + upper <= alpha:
                decided = gain + upper
            if decided is not None:
                break
        hands[seat] = mine
        return decided

    # noqa below: one function per card of a trick, as _search.c's; split (its cards' order in a
    # method of their own), the pure-Python search was some 5% slower (bench: 7-card endgames
    # 3.23 s against 3.02-3.11 s, 6-card plain 0.92-1.12 s against 0.88-1.00 s, min of 3 each).
    def _follow(  # noqa: C901, PLR0912, PLR0913, PLR0915
        self,
        n: int,
        leader: int,
        led: int,
        win_seat: int,
        win_card: int,
        pile: int,
        trick: int,
        left: int,
        alpha: int,
        beta: int,
    ) -> int:
        """The ``n``-th card of the trick (1..3), the trick led in suit ``led``."""
        hands = self.hands
        seat = (leader + n) % 4
        mine = hands[seat]
        legal = mine & SUIT_MASK[led] or mine
        options = self.options
        trump = self.trump
        if options.equivalent_cards:
            cards = self._distinct(legal, hands[0] | hands[1] | hands[2] | hands[3] | trick)
        else:
            cards = cards_of(legal)
        if options.ordering and len(cards) > 1:
            if n == 2:
                fourth = hands[(seat + 1) % 4]
                cards.sort(key=third_hand_order(win_seat ^ seat, win_card, trump, led, fourth))
            else:
                cards.sort(key=follow_order(win_seat ^ seat, win_card, trump, n == 3, led))
        maximising = seat % 2 == 0
        known: dict[int, tuple[int, int]] = {}
        if n == 3 and options.table and options.lookahead and mine.bit_count() >= 3:
            decided = self._lookahead(cards, seat, win_seat, win_card, pile, alpha, beta, known)
            if decided is not None:
                return decided
            if not options.lookahead_values:
                known.clear()
        best = -1 if maximising else 200
        a, b = alpha, beta
        for card in cards:
            bit = 1 << card
            hands[seat] = mine ^ bit
            points = POINTS[card]
            if beats(card, win_card, trump):
                new_seat, new_card = seat, card
            else:
                new_seat, new_card = win_seat, win_card
            if n == 3:
                total = pile + points
                gain = total if new_seat % 2 == 0 else 0
                value = _known_value(known.get(card), gain, maximising, a, b)
                if value is None:
                    value = gain + self._lead(new_seat, left - points, a - gain, b - gain)
            else:
                value = self._follow(
                    n + 1,
                    leader,
                    led,
                    new_seat,
                    new_card,
                    pile + points,
                    trick | bit,
                    left - points,
                    a,
                    b,
                )
            if maximising:
                if value > best:
                    best = value
                    if value > a:
                        a = value
            elif value < best:
                best = value
                if value < b:
                    b = value
            if a >= b:
                break
        hands[seat] = mine
        return best


def _known_value(
    bounds: tuple[int, int] | None, gain: int, maximising: bool, alpha: int, beta: int
) -> int | None:
    """The fourth card's value from the lookahead's bounds on its next position, if they decide it.

    An exact value, or a bound on the wrong side of the window: the card cannot change it.
    """
    if bounds is None:
        return None
    lower, upper = gain + bounds[0], gain + bounds[1]
    if lower == upper:
        return lower
    if maximising and upper <= alpha:
        return upper
    if not maximising and lower >= beta:
        return lower
    return None


def _decided(  # noqa: PLR0913  the table's bounds, the node's own, and the window
    known_lower: int, known_upper: int, lower: int, upper: int, alpha: int, beta: int
) -> int | None:
    """The value the table's bounds on a position decide within the window, if they do."""
    if known_lower >= beta:
        return known_lower
    if known_upper <= alpha:
        return known_upper
    lower = max(lower, known_lower)
    upper = min(upper, known_upper)
    return lower if lower >= upper else None


def _apart(mine: int, its: int) -> tuple[int, int]:
    """How far above and below a class mate's value a position's can lie (faces in play).

    Two positions of one rank class hold their cards in the same order, one card for another:
    the same line of play puts each card of one where the other's is, so the values differ by
    at most what the cards are worth more, and less, slot by slot.
    """
    above = below = 0
    while mine or its:
        more, less = APART[mine & BLANKS][its & BLANKS]
        above, below = above + more, below + less
        mine >>= FACES
        its >>= FACES
    return above, below


def _slot_of(in_play: int, card: int) -> int:
    """A card as its suit and its slot among its suit's cards in play (-1: none)."""
    if card < 0:
        return -1
    suit, place = divmod(card, PLACES)
    return PLACES * suit + (in_play >> PLACES * suit & ((1 << place) - 1)).bit_count()


def _card_in(in_play: int, slot: int) -> int:
    """The card in a suit's slot among the cards in play (-1: none), as _slot_of's inverse."""
    if slot < 0:
        return -1
    suit, rank = divmod(slot, PLACES)
    cards = in_play >> PLACES * suit & ((1 << PLACES) - 1)
    for _ in range(rank):
        cards &= cards - 1
    return PLACES * suit + (cards & -cards).bit_length() - 1 if cards else -1


def _store(entry: list[int], best: int, best_slot: int, alpha: int, beta: int) -> None:
    """Keep in a position's table entry what a search in the window found: a bound, or the value."""
    if best <= alpha:
        entry[1] = min(entry[1], best)
    elif best >= beta:
        entry[0] = max(entry[0], best)
    else:
        entry[0] = entry[1] = best
    entry[2] = best_slot
