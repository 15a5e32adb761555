"""Properties that hold for every deal and every rubber, checked on random ones."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.engine import (
    PRESETS,
    Bandeira,
    Card,
    Hand,
    HandKind,
    Manilha,
    Outcome,
    ProvenRevoke,
    Revoke,
    RubberState,
    RuleSet,
    Suit,
    Tally,
    Tie,
    card_points,
    deck,
    legal_cards,
    new_rubber,
    next_hand,
    play_hand,
    replay,
    team_of,
    trick_winner,
    verify_record,
)

PROPERTY = settings(max_examples=200, deadline=None)

DECK_RULES = [
    PRESETS["portugal"],
    PRESETS["brasil"],
    PRESETS["acores"],
    RuleSet(queen_over_jack=True),
    RuleSet(manilha=Manilha.TEN, queen_over_jack=True),
]


@dataclass(frozen=True)
class Deal:
    """A hand played out by the simulator below: what the verifier should find in it."""

    rules: RuleSet
    trump: Suit
    leader: int
    trump_card: Card | None
    tricks: list[list[str]]
    leaders: list[int]
    winners: list[int]
    points: list[int]
    revoke: ProvenRevoke | None


def play_out(
    rules: RuleSet,
    order: list[Card],
    leader: int,
    rnd: random.Random,
    revoke_from: int | None = None,
) -> Deal:
    """Deal ``order`` 10 cards a seat and play it out, every card a random legal one.

    With ``revoke_from``, the first player at or after that trick who holds the led suit and
    another suit plays the other suit instead, once; everybody plays legally otherwise.
    """
    holdings = [set(order[10 * seat : 10 * seat + 10]) for seat in range(4)]
    dealer = (leader - 1) % 4
    # The turned card: the dealer's last card (no player holds it in the Azores).
    turned = order[10 * dealer + 9]
    trump_card = None if rules.manilha is Manilha.TEN else turned
    trump = turned.suit
    tricks: list[list[str]] = []
    leaders: list[int] = []
    winners: list[int] = []
    points: list[int] = []
    revoked: tuple[int, int, Suit] | None = None
    proven_in: int | None = None
    current = leader
    for number in range(1, 11):
        played: list[Card] = []
        led: Suit | None = None
        for position in range(4):
            seat = (current + position) % 4
            held = holdings[seat]
            choices = sorted(legal_cards(held, led), key=str)
            if (
                revoke_from is not None
                and revoked is None
                and number >= revoke_from
                and led is not None
                and any(card.suit is led for card in held)
                and any(card.suit is not led for card in held)
            ):
                choices = sorted((card for card in held if card.suit is not led), key=str)
                revoked = (seat, number, led)
            card = rnd.choice(choices)
            if revoked and proven_in is None and seat == revoked[0] and card.suit is revoked[2]:
                proven_in = number
            held.remove(card)
            played.append(card)
            if led is None:
                led = card.suit
        winner = (current + trick_winner(played, trump, rules)) % 4
        tricks.append([str(card) for card in played])
        leaders.append(current)
        winners.append(winner)
        points.append(sum(card_points(card, rules) for card in played))
        current = winner
    revoke = None
    if revoked is not None:
        assert proven_in is not None  # the revoker still held the suit, and plays every card
        seat, number, suit = revoked
        revoke = ProvenRevoke(seat, team_of(seat), number, suit, proven_in)
    return Deal(rules, trump, leader, trump_card, tricks, leaders, winners, points, revoke)


@st.composite
def deals(draw: st.DrawFn, revoke: bool = False) -> Deal:
    rules = draw(st.sampled_from(DECK_RULES))
    order = draw(st.permutations(deck(rules)))
    leader = draw(st.integers(0, 3))
    rnd = draw(st.randoms(use_true_random=False))
    revoke_from = draw(st.integers(1, 9)) if revoke else None
    return play_out(rules, order, leader, rnd, revoke_from)


# Cards and deals


@PROPERTY
@given(
    st.sampled_from(DECK_RULES).flatmap(
        lambda rules: st.tuples(st.just(rules), st.permutations(deck(rules)))
    )
)
def test_the_points_of_any_full_deal_add_up_to_120(case: tuple[RuleSet, list[Card]]) -> None:
    rules, order = case
    hands = [order[10 * seat : 10 * seat + 10] for seat in range(4)]
    assert sum(sum(card_points(card, rules) for card in hand) for hand in hands) == 120
    tricks = [order[4 * i : 4 * i + 4] for i in range(10)]
    assert sum(sum(card_points(card, rules) for card in trick) for trick in tricks) == 120


@PROPERTY
@given(st.sampled_from(DECK_RULES), st.data())
def test_every_card_round_trips(rules: RuleSet, data: st.DataObject) -> None:
    card = data.draw(st.sampled_from(deck(rules)))
    assert Card.parse(str(card)) == card
    assert Card.parse(str(card).lower()) == card


# The verifier on random legal deals


@PROPERTY
@given(deals())
def test_the_verifier_finds_nothing_wrong_in_a_legal_deal(deal: Deal) -> None:
    trump_card = None if deal.trump_card is None else str(deal.trump_card)
    record = verify_record(deal.trump, deal.leader, deal.tricks, deal.rules, trump_card=trump_card)
    assert record.errors == ()
    assert record.revokes == ()
    assert record.first_revoke is None
    assert record.complete is True
    assert [t.number for t in record.tricks] == list(range(1, 11))
    assert [t.leader for t in record.tricks] == deal.leaders
    assert [t.winner for t in record.tricks] == deal.winners
    assert [t.points for t in record.tricks] == deal.points
    for team in (0, 1):
        assert record.points[team] == sum(
            t.points for t in record.tricks if team_of(t.winner) == team
        )
        assert record.tricks_won[team] == sum(1 for t in record.tricks if team_of(t.winner) == team)
    assert sum(record.points) == 120
    assert sum(record.tricks_won) == 10
    assert record.next_leader is None
    if 10 in record.tricks_won:
        assert record.all_tricks == record.tricks_won.index(10)
        assert 120 in record.points
    else:
        assert record.all_tricks is None


@PROPERTY
@given(deals(), st.integers(1, 9))
def test_a_prefix_of_a_legal_deal_is_checked_as_far_as_it_goes(deal: Deal, length: int) -> None:
    record = verify_record(deal.trump, deal.leader, deal.tricks[:length], deal.rules)
    assert record.errors == ()
    assert record.complete is False
    assert [t.winner for t in record.tricks] == deal.winners[:length]
    assert record.next_leader == deal.winners[length - 1]
    full = verify_record(deal.trump, deal.leader, deal.tricks, deal.rules)
    assert record.tricks == full.tricks[:length]


@PROPERTY
@given(deals(revoke=True))
def test_an_injected_revoke_is_found_where_it_was_made(deal: Deal) -> None:
    assume(deal.revoke is not None)
    record = verify_record(deal.trump, deal.leader, deal.tricks, deal.rules)
    assert record.errors == ()
    assert record.complete is True
    assert record.revokes == (deal.revoke,)
    assert record.first_revoke == deal.revoke
    assert deal.revoke is not None and deal.revoke.proven_in > deal.revoke.trick
    assert [t.winner for t in record.tricks] == deal.winners
    assert sum(record.points) == 120


@PROPERTY
@given(deals(), st.integers(0, 9), st.integers(0, 3))
def test_a_repeated_or_missing_card_is_reported_not_raised(
    deal: Deal, trick: int, position: int
) -> None:
    tricks = [list(cards) for cards in deal.tricks]
    original = tricks[trick][position]
    other = tricks[(trick + 1) % 10][position]
    tricks[trick][position] = other
    record = verify_record(deal.trump, deal.leader, tricks, deal.rules)
    assert record.complete is False
    assert [e.code for e in record.errors] == ["repeated_card"]
    assert record.errors[0].card == other
    del tricks[trick][position]
    short = verify_record(deal.trump, deal.leader, tricks, deal.rules)
    assert short.complete is False
    assert ("trick_size", trick + 1) in [(e.code, e.trick) for e in short.errors]
    assert len(short.tricks) == trick
    assert original not in {str(card) for t in short.tricks for card in t.cards}


# The fold of a rubber

RUBBER_RULES = st.builds(
    RuleSet,
    games_to_win=st.integers(1, 20),
    tie=st.sampled_from(Tie),
    bandeira=st.sampled_from(Bandeira),
    bandeira_wins_rubber=st.booleans(),
    revoke=st.sampled_from(Revoke),
    melar=st.booleans(),
)
POINTS = st.sampled_from([p for p in range(121) if p not in (1, 119)])
DECIDED = st.sampled_from([p for p in range(121) if p not in (1, 60, 119)])


def hands_for(rules: RuleSet) -> st.SearchStrategy[list[Hand]]:
    options = [
        POINTS.map(Hand.played),
        st.sampled_from([0, 120]).map(lambda p: Hand.played(p, all_tricks=True)),
        st.just(Hand.tie()),
        st.sampled_from([0, 1]).map(Hand.revoke),
    ]
    if rules.melar:
        options.append(st.just(Hand.spoiled()))
    return st.lists(st.one_of(options), max_size=30)


@st.composite
def rubbers(draw: st.DrawFn) -> tuple[RuleSet, list[Hand], int]:
    """Rules, hands up to the one that finishes the rubber, and a first dealer."""
    rules = draw(RUBBER_RULES)
    hands = draw(hands_for(rules))
    state = new_rubber(rules)
    kept: list[Hand] = []
    for hand in hands:
        if state.finished:
            break
        state = play_hand(state, hand)
        kept.append(hand)
    return rules, kept, draw(st.integers(0, 3))


@PROPERTY
@given(rubbers())
def test_the_fold_is_deterministic(rubber: tuple[RuleSet, list[Hand], int]) -> None:
    rules, hands, dealer = rubber
    assert replay(rules, hands, dealer) == replay(rules, list(hands), dealer)
    assert replay(rules, hands, dealer) == replay(rules, tuple(hands), dealer)
    assert replay(rules, hands, dealer) == replay(rules, iter(hands), dealer)


@PROPERTY
@given(rubbers())
def test_the_fold_adds_up(rubber: tuple[RuleSet, list[Hand], int]) -> None:
    rules, hands, dealer = rubber
    state = replay(rules, hands, dealer)
    totals = [0, 0]
    for result in state.hands:
        totals = [totals[0] + result.games[0], totals[1] + result.games[1]]
        assert result.games_after == tuple(totals)
        assert min(result.games_after) >= 0
    assert state.games == tuple(totals)
    assert len(state.dots(0)) == state.games[0]
    assert len(state.dots(1)) == state.games[1]
    if state.finished:
        assert state.winner in (0, 1)
        assert not any(
            r.games_after[0] >= rules.games_to_win or r.games_after[1] >= rules.games_to_win
            for r in state.hands[:-1]
        )
    else:
        assert state.winner is None and state.outcome is None
        assert max(state.games) < rules.games_to_win
    # Every hand but a spoiled one passes the deal on.
    expected = (dealer + sum(1 for h in hands if h.kind is not HandKind.SPOILED)) % 4
    assert state.dealer == expected


def test_the_fold_is_sensitive_to_order() -> None:
    carry = RuleSet()
    one = [Hand.tie(), Hand.played(70), Hand.played(50)]
    other = [Hand.played(70), Hand.tie(), Hand.played(50)]
    assert replay(carry, one).games == (2, 1)
    assert replay(carry, other).games == (1, 2)
    assert replay(carry, one) != replay(carry, other)
    minus = RuleSet(revoke=Revoke.OFFENDER_MINUS_TWO)
    assert replay(minus, [Hand.played(70), Hand.revoke(0)]).games == (0, 0)
    assert replay(minus, [Hand.revoke(0), Hand.played(70)]).games == (1, 0)


@PROPERTY
@given(
    st.sampled_from([Tie.CARRY, Tie.DOUBLE]),
    st.lists(DECIDED.map(Hand.played), max_size=4),
    st.sampled_from([p for p in range(61, 121) if p != 119]),
    st.sampled_from([p for p in range(60) if p != 1]),
)
def test_moving_a_tie_moves_what_it_carries(
    tie: Tie, prefix: list[Hand], nos: int, eles: int
) -> None:
    # A tie just before a hand won by Nós gives Nós its extra (carry) or its doubling (double);
    # moved to just before a hand won by Eles, it gives them to Eles.
    rules = RuleSet(tie=tie, games_to_win=20)
    nos_wins, eles_wins = Hand.played(nos), Hand.played(eles)
    first = replay(rules, [*prefix, Hand.tie(), nos_wins, eles_wins])
    second = replay(rules, [*prefix, nos_wins, Hand.tie(), eles_wins])
    assert first.games[0] > second.games[0]
    assert first.games[1] < second.games[1]
    assert first != second


def mirror_state(state: RubberState) -> tuple[object, ...]:
    return (
        (state.games[1], state.games[0]),
        state.finished,
        None if state.winner is None else 1 - state.winner,
        state.outcome,
        state.pending_extra,
        state.pending_multiplier,
        state.dealer,
        [(r.games[1], r.games[0]) for r in state.hands],
        [None if r.winner is None else 1 - r.winner for r in state.hands],
        [r.reasons for r in state.hands],
        (state.dots(1), state.dots(0)),
    )


def plain_state(state: RubberState) -> tuple[object, ...]:
    return (
        state.games,
        state.finished,
        state.winner,
        state.outcome,
        state.pending_extra,
        state.pending_multiplier,
        state.dealer,
        [r.games for r in state.hands],
        [r.winner for r in state.hands],
        [r.reasons for r in state.hands],
        (state.dots(0), state.dots(1)),
    )


@PROPERTY
@given(rubbers())
def test_swapping_the_teams_mirrors_the_rubber(rubber: tuple[RuleSet, list[Hand], int]) -> None:
    rules, hands, dealer = rubber
    state = replay(rules, hands, dealer)
    mirrored = replay(rules, [hand.mirrored() for hand in hands], dealer)
    assert plain_state(mirrored) == mirror_state(state)
    assert [hand.mirrored().mirrored() for hand in hands] == hands


@PROPERTY
@given(POINTS, st.sampled_from([RuleSet(), PRESETS["online"]]))
def test_a_played_hand_goes_to_the_team_above_60(points: int, rules: RuleSet) -> None:
    state = replay(rules, [Hand.played(points)])
    if points == 60:
        assert state.games == (0, 0)
        return
    winner = 0 if points > 60 else 1
    top = max(points, 120 - points)
    games = 4 if top == 120 and rules.bandeira is Bandeira.POINTS else 2 if top >= 91 else 1
    assert state.games[winner] == games
    assert state.games[1 - winner] == 0
    assert state.hands[0].winner == winner


@PROPERTY
@given(rubbers(), st.data())
def test_a_tally_kept_apart_from_its_hands_goes_on_as_the_fold(
    rubber: tuple[RuleSet, list[Hand], int], data: st.DataObject
) -> None:
    """What a store keeps of a rubber scores the next hands as folding every hand again does.

    It keeps its tally, field by field; the hand's result and the totals after it are the same."""
    rules, hands, dealer = rubber
    cut = data.draw(st.integers(0, len(hands)))
    kept = replay(rules, hands[:cut], dealer).tally
    tally = Tally(**asdict(kept) | {"rules": rules})  # as read back from its columns
    for number, hand in enumerate(hands[cut:], start=cut):
        tally, result = next_hand(tally, hand)
        folded = replay(rules, hands[: number + 1], dealer)
        assert result == folded.hands[-1]
        assert tally == folded.tally
    assert tally == replay(rules, hands, dealer).tally


@PROPERTY
@given(rubbers())
def test_an_arrepio_is_a_win_over_a_team_that_stood_one_short_against_none(
    rubber: tuple[RuleSet, list[Hand], int],
) -> None:
    """The arrepio, told from the running totals, is what reading back every hand says."""
    rules, hands, dealer = rubber
    state = replay(rules, hands, dealer)
    if state.winner is None or state.outcome in (Outcome.BANDEIRA, Outcome.REVOKE):
        assert state.outcome is not Outcome.ARREPIO
        return
    winner, loser, target = state.winner, 1 - state.winner, rules.games_to_win
    scanned = (
        state.games[loser] == target - 1
        and target >= 2
        and not state.pente
        and not (state.games[loser] == 1 and target >= 3)
        and any(
            r.games_after[winner] == 0 and r.games_after[loser] == target - 1 for r in state.hands
        )
    )
    assert (state.outcome is Outcome.ARREPIO) == scanned
