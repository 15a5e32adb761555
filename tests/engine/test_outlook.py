"""The outlook a phone walks offline: the engine's own scores, sent ahead."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine import PRESETS, Hand, HandKind, RuleSet, ScoringError, Tally, next_hand
from scorekeeper.engine import replay as fold
from scorekeeper.engine.outlook import DEPTH, MAX_NODES, UNKNOWN, Outlook, hand_class, outlook
from tests.engine.test_properties import POINTS, PROPERTY, RUBBER_RULES, rubbers

# An outlook takes a twentieth of a second to a quarter for rules no rubber has used yet.
FEW = settings(max_examples=40, deadline=None)


def class_of(view: Outlook, hand: Hand) -> int:
    """What outlook.js does with a kept hand's body.

    The body is ``{"points": [a, b], "all_tricks": ..}`` (a tie too), ``{"revoke": t}`` or
    ``{"spoiled": true}``."""
    if hand.kind is HandKind.SPOILED:
        return view.spoiled
    if hand.kind is HandKind.REVOKE:
        assert hand.team is not None
        return view.revoke[hand.team]
    assert hand.points is not None
    return view.played[int(hand.all_tricks)][hand.points[0]]


@FEW
@given(rubbers(), st.data())
def test_walking_the_outlook_gives_the_score_of_the_fold(
    rubber: tuple[RuleSet, list[Hand], int], data: st.DataObject
) -> None:
    rules, hands, dealer = rubber
    split = data.draw(st.integers(0, len(hands)))
    before = fold(rules, hands[:split], dealer)
    view = outlook(before.tally)
    node, moved = view.nodes[0], 0
    for ahead, hand in enumerate(hands[split : split + DEPTH], start=1):
        kind = class_of(view, hand)
        assert kind != UNKNOWN
        if node.next[kind] == UNKNOWN:
            # Only where the graph grew to its bound (a long target, ties doubled): the phone
            # shows the score up to there.
            assert len(view.nodes) == MAX_NODES
            return
        node, moved = view.nodes[node.next[kind]], moved + view.deal_steps[kind]
        after = fold(rules, hands[: split + ahead], dealer)
        assert (node.games, node.pending_extra, node.pending_multiplier) == (
            after.games,
            after.pending_extra,
            after.pending_multiplier,
        )
        assert (node.finished, node.winner) == (after.finished, after.winner)
        seat = (before.dealer + moved) % 4
        assert seat == after.dealer
        assert view.roles[seat] == (after.shuffler, after.cutter, after.leader)


PLAYED = st.one_of(
    POINTS.map(Hand.played),
    st.sampled_from([0, 120]).map(lambda p: Hand.played(p, all_tricks=True)),
)


@PROPERTY
@given(rubbers(), PLAYED, PLAYED)
def test_two_hands_of_one_class_change_every_tally_alike(
    rubber: tuple[RuleSet, list[Hand], int], one: Hand, other: Hand
) -> None:
    rules, hands, dealer = rubber
    tally = fold(rules, hands, dealer).tally
    if hand_class(one, rules) != hand_class(other, rules):
        return
    try:
        expected = next_hand(tally, one)[0]
    except ScoringError:
        expected = None
    try:
        found = next_hand(tally, other)[0]
    except ScoringError:
        found = None
    assert found == expected


def test_a_refused_hand_is_not_followed() -> None:
    view = outlook(Tally(PRESETS["portugal"]))  # no melar in Portugal
    assert view.nodes[0].next[view.spoiled] == UNKNOWN
    finished = outlook(fold(RuleSet(), [Hand.played(120, all_tricks=True)]).tally)
    assert finished.nodes[0].finished and set(finished.nodes[0].next) == {UNKNOWN}


def test_a_points_total_no_cards_make_has_no_class() -> None:
    view = outlook(Tally(RuleSet()))
    assert view.played[0][119] == UNKNOWN and view.played[0][1] == UNKNOWN
    assert view.played[1][75] == UNKNOWN  # all the tricks, but not all the points
    assert view.played[0][60] == view.tie
    assert view.played[1][60] == UNKNOWN  # "all the tricks" with 60: the server refuses it


@FEW
@given(RUBBER_RULES, st.integers(0, 3), st.integers(0, 150))
def test_rubbers_at_the_same_score_share_one_outlook(
    rules: RuleSet, dealer: int, count: int
) -> None:
    tally = Tally(rules, hand_count=count, games=(1, 2), dealer=dealer)
    assert outlook(tally) is outlook(Tally(rules, games=(1, 2)))


def test_the_graph_stays_small() -> None:
    for rules in PRESETS.values():
        assert len(outlook(Tally(rules)).nodes) < MAX_NODES
