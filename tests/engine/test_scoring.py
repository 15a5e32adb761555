"""Scoring: the games of a hand under every setting, and a rubber folded from its hands."""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper.engine import (
    MAX_MULTIPLIER,
    PRESETS,
    Hand,
    HandKind,
    HandNotAllowedError,
    ImpossiblePointsError,
    Outcome,
    RubberFinishedError,
    RubberState,
    RuleSet,
    ScoringError,
    TooManyHandsError,
    UnknownTeamError,
    can_add_hand,
    new_rubber,
    play_hand,
    replay,
    verify_hand,
)

PORTUGAL = RuleSet()
NOS, ELES = 0, 1


def rules(**changes: Any) -> RuleSet:
    return RuleSet.from_dict(changes)


def games_of(state: RubberState) -> list[tuple[int, int]]:
    """What each hand added."""
    return [result.games for result in state.hands]


# The worked examples table of RULES.md, row by row.


def test_worked_example_75_45_is_one_game() -> None:
    state = replay(PORTUGAL, [Hand.played(75, 45)])
    assert state.games == (1, 0)
    assert state.finished is False


def test_worked_example_30_90_is_still_one_game() -> None:
    state = replay(PORTUGAL, [Hand.played(30, 90)])
    assert state.games == (0, 1)


def test_worked_example_29_91_is_capote() -> None:
    state = replay(PORTUGAL, [Hand.played(29, 91)])
    assert state.games == (0, 2)
    assert state.hands[0].reasons == ("capote",)


def test_worked_example_two_ties_carried() -> None:
    state = replay(PORTUGAL, [Hand.tie(), Hand.played(60, 60), Hand.played(75, 45)])
    assert state.games == (3, 0)
    assert games_of(state) == [(0, 0), (0, 0), (3, 0)]
    assert state.hands[2].base_games == 1
    assert state.hands[2].carried_extra == 2
    assert state.pending_extra == 0


def test_worked_example_carry_waits_across_a_revoke() -> None:
    state = replay(PORTUGAL, [Hand.tie(), Hand.revoke(NOS), Hand.played(70, 50)])
    assert state.games == (2, 2)
    assert games_of(state) == [(0, 0), (0, 2), (2, 0)]
    assert state.hands[1].reasons == ("revoke_penalty",)
    assert state.hands[2].carried_extra == 1


def test_worked_example_120_without_all_tricks_is_capote() -> None:
    state = replay(PORTUGAL, [Hand.played(120, 0)])
    assert state.games == (2, 0)
    assert state.finished is False
    assert state.hands[0].bandeira is False
    assert state.hands[0].reasons == ("capote",)


def test_worked_example_bandeira_wins_the_rubber() -> None:
    state = replay(PORTUGAL, [Hand.played(120, 0, all_tricks=True)])
    assert state.games == (4, 0)
    assert state.finished is True
    assert state.winner == NOS
    assert state.outcome is Outcome.BANDEIRA
    assert state.hands[0].bandeira is True


def test_worked_example_double_after_a_tie() -> None:
    state = replay(rules(tie="double"), [Hand.tie(), Hand.played(91, 29)])
    assert state.games == (4, 0)
    assert state.hands[1].base_games == 2
    assert state.hands[1].multiplier == 2


def test_worked_example_double_after_two_ties() -> None:
    state = replay(rules(tie="double"), [Hand.tie(), Hand.tie(), Hand.played(70, 50)])
    assert state.games == (4, 0)
    assert state.hands[2].multiplier == 4
    assert state.finished is True


def test_worked_example_offender_minus_two_never_below_zero() -> None:
    state = replay(rules(revoke="offender_minus_two"), [Hand.played(70, 50), Hand.revoke(NOS)])
    assert state.games == (0, 0)
    assert games_of(state) == [(1, 0), (-1, 0)]
    assert state.hands[1].games_after == (0, 0)


def test_worked_example_six_games_without_bandeira_winning_the_rubber() -> None:
    six = rules(games_to_win=6, bandeira_wins_rubber=False)
    after_bandeira = replay(six, [Hand.played(120, 0, all_tricks=True)])
    assert after_bandeira.games == (4, 0)
    assert after_bandeira.finished is False
    state = replay(
        six, [Hand.played(120, 0, all_tricks=True), Hand.played(61, 59), Hand.played(61, 59)]
    )
    assert state.games == (6, 0)
    assert state.finished is True
    assert state.winner == NOS
    assert games_of(state) == [(4, 0), (1, 0), (1, 0)]


# Points and games


@pytest.mark.parametrize(
    ("points", "games"),
    [
        ((61, 59), (1, 0)),
        ((90, 30), (1, 0)),
        ((91, 29), (2, 0)),
        ((118, 2), (2, 0)),
        ((59, 61), (0, 1)),
        ((30, 90), (0, 1)),
        ((29, 91), (0, 2)),
        ((0, 120), (0, 2)),
    ],
)
def test_the_90_91_boundary_for_both_teams(points: tuple[int, int], games: tuple[int, int]) -> None:
    state = replay(PORTUGAL, [Hand.played(*points)])
    assert state.games == games
    assert state.hands[0].winner == (0 if points[0] > 60 else 1)


def test_the_second_teams_points_default_to_the_rest() -> None:
    assert Hand.played(91).points == (91, 29)
    assert Hand.played(0).points == (0, 120)
    assert Hand.played(60).kind is HandKind.TIE


# Tie settings


def test_tie_carry_two_and_three_in_a_row() -> None:
    two = replay(PORTUGAL, [Hand.tie(), Hand.tie()])
    assert (two.pending_extra, two.pending_multiplier) == (2, 1)
    assert replay(PORTUGAL, [Hand.tie(), Hand.tie(), Hand.played(50, 70)]).games == (0, 3)
    three = replay(rules(games_to_win=6), [Hand.tie()] * 3 + [Hand.played(70, 50)])
    assert three.games == (4, 0)
    assert three.hands[3].carried_extra == 3
    assert three.finished is False


def test_tie_carry_adds_to_a_capote_and_to_a_bandeira() -> None:
    assert replay(rules(games_to_win=10), [Hand.tie(), Hand.played(95, 25)]).games == (3, 0)
    state = replay(rules(games_to_win=10), [Hand.tie(), Hand.played(0, 120, all_tricks=True)])
    assert state.games == (0, 5)
    assert state.outcome is Outcome.BANDEIRA


def test_tie_carry_goes_to_the_next_winner_whoever_it_is() -> None:
    state = replay(PORTUGAL, [Hand.played(70, 50), Hand.tie(), Hand.played(40, 80)])
    assert state.games == (1, 2)


def test_tie_void_carries_nothing() -> None:
    void = rules(tie="void")
    state = replay(void, [Hand.tie(), Hand.tie(), Hand.played(75, 45)])
    assert state.games == (1, 0)
    assert games_of(state) == [(0, 0), (0, 0), (1, 0)]
    assert (state.hands[1].reasons, state.hands[2].reasons) == (("tie", "tie_void"), ("one_game",))
    assert replay(void, [Hand.tie()]).pending_extra == 0
    assert replay(void, [Hand.tie()]).pending_multiplier == 1


def test_tie_double_two_and_three_in_a_row() -> None:
    double = rules(tie="double", games_to_win=20)
    one = replay(double, [Hand.tie()])
    assert (one.pending_extra, one.pending_multiplier) == (0, 2)
    two = replay(double, [Hand.tie(), Hand.tie()])
    assert two.pending_multiplier == 4
    assert replay(double, [Hand.tie(), Hand.tie(), Hand.played(70, 50)]).games == (4, 0)
    three = replay(double, [Hand.tie()] * 3 + [Hand.played(50, 70)])
    assert three.games == (0, 8)
    assert three.hands[3].multiplier == 8
    assert three.pending_multiplier == 1
    assert replay(double, [Hand.tie()] * 3 + [Hand.played(10, 110)]).games == (0, 16)


def test_tie_double_stops_doubling_after_ten_ties() -> None:
    double = rules(tie="double", games_to_win=20)
    ten = replay(double, [Hand.tie()] * 10)
    assert ten.pending_multiplier == 1024 == MAX_MULTIPLIER
    many = replay(double, [Hand.tie()] * 150 + [Hand.played(61, 59)])
    assert many.hands[-1].multiplier == 1024
    assert many.games == (1024, 0) and many.finished and many.winner == NOS
    assert len(many.dots(NOS)) == 1024


def test_the_double_is_spent_by_one_hand() -> None:
    state = replay(
        rules(tie="double", games_to_win=10), [Hand.tie(), Hand.played(70), Hand.played(70)]
    )
    assert games_of(state) == [(0, 0), (2, 0), (1, 0)]


# Pending ties across revokes and spoiled deals


def test_pending_carry_survives_a_revoke_and_a_spoiled_deal() -> None:
    brasil = RuleSet.from_dict({"preset": "brasil", "games_to_win": 10})
    hands = [Hand.tie(), Hand.revoke(ELES), Hand.spoiled(), Hand.played(70, 50)]
    state = replay(brasil, hands)
    assert games_of(state) == [(0, 0), (2, 0), (0, 0), (2, 0)]
    assert state.games == (4, 0)
    assert [result.games_after for result in state.hands] == [(0, 0), (2, 0), (2, 0), (4, 0)]
    after_spoiled = replay(brasil, hands[:3])
    assert after_spoiled.pending_extra == 1
    assert state.pending_extra == 0


def test_pending_double_survives_a_revoke_and_a_spoiled_deal() -> None:
    double = RuleSet.from_dict({"preset": "brasil", "tie": "double", "games_to_win": 10})
    hands = [Hand.tie(), Hand.spoiled(), Hand.revoke(NOS), Hand.played(40, 80)]
    state = replay(double, hands)
    assert games_of(state) == [(0, 0), (0, 0), (0, 2), (0, 2)]
    assert replay(double, hands[:3]).pending_multiplier == 2


def test_ties_separated_by_a_revoke_still_add_up() -> None:
    state = replay(
        rules(games_to_win=10), [Hand.tie(), Hand.revoke(NOS), Hand.tie(), Hand.played(70)]
    )
    assert games_of(state) == [(0, 0), (0, 2), (0, 0), (3, 0)]


# Revoke settings


def test_revoke_opponents_two() -> None:
    assert games_of(replay(PORTUGAL, [Hand.revoke(NOS)])) == [(0, 2)]
    assert games_of(replay(PORTUGAL, [Hand.revoke(ELES)])) == [(2, 0)]
    state = replay(PORTUGAL, [Hand.played(70), Hand.played(70), Hand.played(70), Hand.revoke(NOS)])
    assert state.games == (3, 2)
    assert state.hands[-1].winner is None


def test_revoke_offender_minus_two() -> None:
    minus = rules(revoke="offender_minus_two", games_to_win=10)
    state = replay(minus, [Hand.played(95, 25), Hand.played(70, 50), Hand.revoke(NOS)])
    assert games_of(state) == [(2, 0), (1, 0), (-2, 0)]
    assert state.games == (1, 0)
    assert state.hands[-1].reasons == ("revoke_minus_two",)


def test_revoke_offender_minus_two_at_zero_takes_nothing() -> None:
    minus = rules(revoke="offender_minus_two")
    state = replay(minus, [Hand.played(70, 50), Hand.revoke(ELES)])
    assert games_of(state) == [(1, 0), (0, 0)]
    assert state.games == (1, 0)


def test_revoke_lose_rubber() -> None:
    lose = rules(revoke="lose_rubber")
    state = replay(lose, [Hand.played(70, 50), Hand.played(70, 50), Hand.revoke(NOS)])
    assert state.finished is True
    assert state.winner == ELES
    assert state.outcome is Outcome.REVOKE
    assert state.games == (2, 0)
    assert state.hands[-1].games == (0, 0)
    assert state.hands[-1].reasons == ("revoke_loses_rubber", "rubber_won")
    with pytest.raises(RubberFinishedError):
        play_hand(state, Hand.played(70))


def test_revoke_lose_rubber_by_eles() -> None:
    state = replay(rules(revoke="lose_rubber"), [Hand.revoke(ELES)])
    assert (state.finished, state.winner, state.outcome) == (True, NOS, Outcome.REVOKE)


# Bandeira settings


def test_bandeira_tricks() -> None:
    assert replay(PORTUGAL, [Hand.played(120, 0)]).games == (2, 0)
    assert replay(PORTUGAL, [Hand.played(0, 120)]).games == (0, 2)
    state = replay(PORTUGAL, [Hand.played(0, 120, all_tricks=True)])
    assert (state.games, state.winner, state.outcome) == ((0, 4), ELES, Outcome.BANDEIRA)


def test_bandeira_points() -> None:
    points = rules(bandeira="points", bandeira_wins_rubber=False, games_to_win=10)
    assert replay(points, [Hand.played(120, 0)]).games == (4, 0)
    assert replay(points, [Hand.played(120, 0, all_tricks=True)]).games == (4, 0)
    assert replay(points, [Hand.played(0, 120)]).games == (0, 4)
    assert replay(points, [Hand.played(118, 2)]).games == (2, 0)
    assert replay(points, [Hand.played(120, 0)]).hands[0].bandeira is True


@pytest.mark.parametrize("preset", ["brasil", "online"])
def test_bandeira_on_points_wins_the_rubber_in_the_presets(preset: str) -> None:
    state = replay(PRESETS[preset], [Hand.played(0, 120)])
    assert (state.games, state.finished, state.winner) == ((0, 4), True, ELES)
    assert state.outcome is Outcome.BANDEIRA


def test_bandeira_wins_the_rubber_whatever_the_target() -> None:
    state = replay(
        rules(games_to_win=6), [Hand.played(50, 70), Hand.played(120, 0, all_tricks=True)]
    )
    assert state.games == (4, 1)
    assert (state.finished, state.winner, state.outcome) == (True, NOS, Outcome.BANDEIRA)
    assert state.hands[-1].reasons == ("bandeira", "bandeira_wins_rubber", "rubber_won")


def test_six_game_rubber_with_and_without_bandeira_winning_it() -> None:
    hands = [
        Hand.played(70),
        Hand.played(120, 0, all_tricks=True),
        Hand.played(61),
        Hand.played(40),
    ]
    on = replay(rules(games_to_win=6, bandeira_wins_rubber=True), hands[:2])
    assert (on.games, on.finished, on.winner, on.outcome) == ((5, 0), True, NOS, Outcome.BANDEIRA)
    off_rules = rules(games_to_win=6, bandeira_wins_rubber=False)
    off = replay(off_rules, hands[:2])
    assert (off.games, off.finished, off.winner, off.outcome) == ((5, 0), False, None, None)
    assert can_add_hand(off, Hand.played(40))
    done = replay(off_rules, hands[:3])
    assert (done.games, done.finished, done.winner, done.outcome) == (
        (6, 0),
        True,
        NOS,
        Outcome.PENTE,
    )


# The rubber: target, past the target, outcomes


def test_the_first_to_the_target_wins_and_may_pass_it() -> None:
    state = replay(PORTUGAL, [Hand.played(70), Hand.played(70), Hand.played(70), Hand.played(100)])
    assert state.games == (5, 0)
    assert (state.finished, state.winner) == (True, NOS)
    assert state.hands[-1].reasons == ("capote", "rubber_won")


@pytest.mark.parametrize("target", [1, 2, 4, 6, 20])
def test_games_to_win(target: int) -> None:
    state = new_rubber(rules(games_to_win=target))
    for _ in range(target - 1):
        state = play_hand(state, Hand.played(50, 70))
        assert not state.finished
    state = play_hand(state, Hand.played(50, 70))
    assert (state.games, state.finished, state.winner) == ((0, target), True, ELES)


def test_outcome_pente() -> None:
    state = replay(PORTUGAL, [Hand.played(70)] * 4)
    assert (state.games, state.winner, state.outcome) == ((4, 0), NOS, Outcome.PENTE)
    assert state.shutout is True


def test_outcome_chapeu() -> None:
    state = replay(
        PORTUGAL,
        [Hand.played(50), Hand.played(70), Hand.played(70), Hand.played(70), Hand.played(70)],
    )
    assert (state.games, state.winner, state.outcome) == ((4, 1), NOS, Outcome.CHAPEU)
    mirrored = replay(PORTUGAL, [Hand.played(70)] + [Hand.played(20)] * 2)
    assert (mirrored.games, mirrored.winner, mirrored.outcome) == ((1, 4), ELES, Outcome.CHAPEU)
    assert state.shutout is False


def test_chapeu_and_arrepio_are_scores_of_a_rubber_to_4() -> None:
    """A 6-1 is no chapéu, a 6-5 after 0-5 no arrepio (RULES.md: only the scores they name)."""
    six = RuleSet.from_dict({"preset": "portugal", "games_to_win": 6})
    one_six = replay(six, [Hand.played(50)] + [Hand.played(95)] * 3)
    assert (one_six.games, one_six.winner, one_six.outcome) == ((6, 1), NOS, None)
    comeback = [Hand.played(29), Hand.played(29), Hand.played(50)] + [Hand.played(70)] * 6
    five = replay(six, comeback)
    assert (five.games, five.winner, five.outcome) == ((6, 5), NOS, None)
    three = RuleSet.from_dict({"preset": "portugal", "games_to_win": 3})
    two_one = replay(three, [Hand.played(50), Hand.played(95), Hand.played(70)])
    assert (two_one.games, two_one.outcome) == ((3, 1), None)


def test_outcome_arrepio_after_0_3() -> None:
    hands = [Hand.played(29, 91), Hand.played(50, 70)] + [Hand.played(70, 50)] * 4
    state = replay(PORTUGAL, hands)
    assert [result.games_after for result in state.hands] == [
        (0, 2),
        (0, 3),
        (1, 3),
        (2, 3),
        (3, 3),
        (4, 3),
    ]
    assert (state.games, state.winner, state.outcome) == ((4, 3), NOS, Outcome.ARREPIO)


def test_a_4_3_win_without_being_0_3_has_no_name() -> None:
    hands = [Hand.played(70), Hand.played(50)] * 3 + [Hand.played(70)]
    state = replay(PORTUGAL, hands)
    assert (state.games, state.winner, state.outcome) == ((4, 3), NOS, None)


def test_a_4_2_win_has_no_name() -> None:
    hands = [Hand.played(50), Hand.played(50), Hand.played(100), Hand.played(100)]
    state = replay(PORTUGAL, hands)
    assert (state.games, state.winner, state.outcome) == ((4, 2), NOS, None)


def test_outcome_bandeira_beats_pente() -> None:
    state = replay(PORTUGAL, [Hand.played(120, 0, all_tricks=True)])
    assert state.outcome is Outcome.BANDEIRA
    assert state.shutout is True


def test_an_unfinished_rubber_has_no_outcome() -> None:
    state = replay(PORTUGAL, [Hand.played(70), Hand.played(50)])
    assert (state.finished, state.winner, state.outcome, state.shutout) == (
        False,
        None,
        None,
        False,
    )


def test_outcome_values() -> None:
    assert [outcome.value for outcome in Outcome] == [
        "pente",
        "chapeu",
        "arrepio",
        "bandeira",
        "revoke",
    ]


# Dealer, leader, shuffler, cutter


def test_the_dealer_sequence_example() -> None:
    brasil = RuleSet.from_dict({"preset": "brasil", "games_to_win": 10})
    hands = [Hand.played(70), Hand.played(50), Hand.spoiled(), Hand.played(70), Hand.played(50)]
    state = replay(brasil, hands, first_dealer=1)
    assert [result.dealer for result in state.hands] == [1, 2, 3, 3, 0]
    assert [result.leader for result in state.hands] == [2, 3, 0, 0, 1]
    assert state.dealer == 1
    assert state.leader == 2


@pytest.mark.parametrize("dealer", range(4))
def test_the_leader_is_the_seat_after_the_dealer(dealer: int) -> None:
    state = new_rubber(PORTUGAL, first_dealer=dealer)
    assert state.dealer == dealer
    assert state.leader == (dealer + 1) % 4
    after = play_hand(state, Hand.played(70))
    assert after.hands[0].dealer == dealer
    assert after.hands[0].leader == (dealer + 1) % 4
    assert after.dealer == (dealer + 1) % 4
    assert after.leader == (dealer + 2) % 4


def test_the_deal_passes_after_ties_and_revokes_but_not_spoiled_deals() -> None:
    brasil = RuleSet.from_dict({"preset": "brasil", "games_to_win": 10})
    state = replay(
        brasil, [Hand.tie(), Hand.revoke(NOS), Hand.spoiled(), Hand.spoiled(), Hand.played(70)]
    )
    assert [result.dealer for result in state.hands] == [0, 1, 2, 2, 2]
    assert state.dealer == 3


@pytest.mark.parametrize(
    ("dealer", "shuffler", "cutter"),
    [(0, 1, 3), (1, 2, 0), (2, 3, 1), (3, 0, 2)],
)
def test_shuffler_and_cutter_counterclockwise(dealer: int, shuffler: int, cutter: int) -> None:
    state = new_rubber(PORTUGAL, first_dealer=dealer)
    assert (state.shuffler, state.cutter, state.leader) == (shuffler, cutter, shuffler)


@pytest.mark.parametrize(
    ("dealer", "shuffler", "cutter"),
    [(0, 3, 1), (1, 0, 2), (2, 1, 3), (3, 2, 0)],
)
def test_shuffler_and_cutter_clockwise(dealer: int, shuffler: int, cutter: int) -> None:
    state = new_rubber(PRESETS["brasil"], first_dealer=dealer)
    assert (state.shuffler, state.cutter, state.leader) == (shuffler, cutter, cutter)


@pytest.mark.parametrize("dealer", [4, -1, True, "0", None])
def test_a_first_dealer_that_is_no_seat_is_refused(dealer: object) -> None:
    with pytest.raises(HandNotAllowedError) as caught:
        new_rubber(PORTUGAL, first_dealer=dealer)
    assert repr(dealer) in str(caught.value)


# The dots of the cross


def test_dots_name_the_hand_behind_each_game() -> None:
    state = replay(PORTUGAL, [Hand.played(75), Hand.played(95), Hand.played(40)])
    assert state.dots(NOS) == (1, 2, 2)
    assert state.dots(ELES) == (3,)


def test_dots_of_carried_ties_and_revokes() -> None:
    state = replay(rules(games_to_win=10), [Hand.tie(), Hand.played(70), Hand.revoke(NOS)])
    assert state.dots(NOS) == (2, 2)
    assert state.dots(ELES) == (3, 3)


def test_offender_minus_two_removes_the_latest_dots() -> None:
    minus = rules(revoke="offender_minus_two", games_to_win=10)
    state = replay(minus, [Hand.played(75), Hand.played(95), Hand.played(40), Hand.revoke(NOS)])
    assert state.dots(NOS) == (1,)
    assert state.dots(ELES) == (3,)
    one = replay(minus, [Hand.played(70, 50), Hand.revoke(NOS)])
    assert one.dots(NOS) == ()
    again = replay(minus, [Hand.played(70, 50), Hand.revoke(NOS), Hand.played(100)])
    assert again.dots(NOS) == (3, 3)


# Reasons


@pytest.mark.parametrize(
    ("rule_changes", "hands", "reasons"),
    [
        ({}, [Hand.played(75)], [("one_game",)]),
        ({}, [Hand.played(91)], [("capote",)]),
        ({}, [Hand.played(120)], [("capote",)]),
        (
            {},
            [Hand.played(120, all_tricks=True)],
            [("bandeira", "bandeira_wins_rubber", "rubber_won")],
        ),
        (
            {"bandeira_wins_rubber": False, "games_to_win": 6},
            [Hand.played(120, all_tricks=True)],
            [("bandeira",)],
        ),
        ({}, [Hand.tie(), Hand.played(75)], [("tie", "tie_carry"), ("one_game", "tie_carried")]),
        ({"tie": "void"}, [Hand.tie(), Hand.played(75)], [("tie", "tie_void"), ("one_game",)]),
        (
            {"tie": "double"},
            [Hand.tie(), Hand.played(95)],
            [("tie", "tie_double"), ("capote", "tie_doubled", "rubber_won")],
        ),
        ({}, [Hand.revoke(NOS)], [("revoke_penalty",)]),
        ({"revoke": "offender_minus_two"}, [Hand.revoke(NOS)], [("revoke_minus_two",)]),
        ({"revoke": "lose_rubber"}, [Hand.revoke(NOS)], [("revoke_loses_rubber", "rubber_won")]),
        ({"melar": True}, [Hand.spoiled()], [("spoiled",)]),
        ({"games_to_win": 1}, [Hand.played(70)], [("one_game", "rubber_won")]),
        ({"games_to_win": 2}, [Hand.revoke(ELES)], [("revoke_penalty", "rubber_won")]),
    ],
)
def test_reasons(
    rule_changes: dict[str, Any], hands: list[Hand], reasons: list[tuple[str, ...]]
) -> None:
    state = replay(rules(**rule_changes), hands)
    assert [result.reasons for result in state.hands] == reasons


def test_hand_results_record_the_hand_and_its_numbers() -> None:
    state = replay(PORTUGAL, [Hand.tie(), Hand.played(20, 100)], first_dealer=2)
    first, second = state.hands
    assert (first.number, first.hand, first.dealer, first.leader, first.winner) == (
        1,
        Hand.tie(),
        2,
        3,
        None,
    )
    assert (second.number, second.dealer, second.leader, second.winner) == (2, 3, 0, ELES)
    assert second.hand == Hand.played(20, 100)
    assert (second.base_games, second.carried_extra, second.multiplier) == (2, 1, 1)
    assert second.games == (0, 3)
    assert second.games_after == (0, 3)


# Bad input


@pytest.mark.parametrize("points", [-1, 121, 200, -120])
def test_points_outside_0_to_120_are_refused(points: int) -> None:
    with pytest.raises(ImpossiblePointsError) as caught:
        Hand.played(points)
    assert isinstance(caught.value, ScoringError) and isinstance(caught.value, ValueError)
    assert str(points) in str(caught.value)
    assert caught.value.value == points


@pytest.mark.parametrize("points", [1, 119])
def test_1_and_119_are_impossible(points: int) -> None:
    with pytest.raises(ImpossiblePointsError, match=f"^{points} card points is impossible"):
        Hand.played(points)
    with pytest.raises(ImpossiblePointsError, match=f"^{points} card points is impossible"):
        Hand.played(60, points)


@pytest.mark.parametrize("points", [(70, 60), (50, 50), (120, 120), (0, 0)])
def test_points_must_add_up_to_120(points: tuple[int, int]) -> None:
    with pytest.raises(ImpossiblePointsError) as caught:
        Hand.played(*points)
    assert f"{points[0]} and {points[1]} add up to {sum(points)}" in str(caught.value)


@pytest.mark.parametrize("points", [70.0, "70", True, None])
def test_points_must_be_whole_numbers(points: object) -> None:
    with pytest.raises(ImpossiblePointsError) as caught:
        Hand.played(points)
    assert repr(points) in str(caught.value)


def test_all_tricks_needs_120() -> None:
    with pytest.raises(ImpossiblePointsError, match="not 90"):
        Hand.played(90, 30, all_tricks=True)
    with pytest.raises(ImpossiblePointsError, match="not 60"):
        Hand(HandKind.TIE, (60, 60), all_tricks=True)
    assert Hand.played(0, 120, all_tricks=True).all_tricks is True


def test_only_60_60_is_a_tie() -> None:
    with pytest.raises(ImpossiblePointsError, match="60-60"):
        Hand(HandKind.TIE, (70, 50))
    with pytest.raises(ImpossiblePointsError, match="60-60"):
        Hand(HandKind.PLAYED, (60, 60))


def test_hands_without_points_take_none() -> None:
    with pytest.raises(HandNotAllowedError, match="revoke hand has no card points"):
        Hand(HandKind.REVOKE, (70, 50), team=0)
    with pytest.raises(HandNotAllowedError, match="Only a revoke"):
        Hand(HandKind.SPOILED, team=1)
    with pytest.raises(ImpossiblePointsError):
        Hand(HandKind.PLAYED)


@pytest.mark.parametrize("team", [2, -1, True, None, "0"])
def test_a_revoke_by_an_unknown_team_is_refused(team: object) -> None:
    with pytest.raises(UnknownTeamError) as caught:
        Hand.revoke(team)
    assert isinstance(caught.value, ValueError)
    assert f"no team {team!r}" in str(caught.value)
    assert caught.value.value == team


def test_no_hand_after_the_rubber_is_won() -> None:
    state = replay(PORTUGAL, [Hand.played(70)] * 4)
    for hand in (Hand.played(70), Hand.tie(), Hand.revoke(ELES)):
        assert can_add_hand(state, hand) is False
        with pytest.raises(RubberFinishedError, match="Hand 5 ") as caught:
            play_hand(state, hand)
        assert caught.value.value == 5
    with pytest.raises(RubberFinishedError):
        replay(PORTUGAL, [Hand.played(120, all_tricks=True), Hand.played(70)])


def test_a_spoiled_deal_needs_melar() -> None:
    state = new_rubber(PORTUGAL)
    assert can_add_hand(state, Hand.spoiled()) is False
    with pytest.raises(HandNotAllowedError, match="melar"):
        verify_hand(state, Hand.spoiled())
    with pytest.raises(HandNotAllowedError, match="melar"):
        replay(PORTUGAL, [Hand.spoiled()])
    assert can_add_hand(new_rubber(PRESETS["brasil"]), Hand.spoiled()) is True
    assert replay(rules(melar=True), [Hand.spoiled()]).games == (0, 0)


def test_a_rubber_holds_at_most_200_hands() -> None:
    state = replay(rules(tie="void"), [Hand.tie()] * 200)
    assert len(state.hands) == 200
    assert can_add_hand(state, Hand.tie()) is False
    with pytest.raises(TooManyHandsError, match="hand 201"):
        play_hand(state, Hand.tie())


def test_replay_is_the_fold_of_play_hand() -> None:
    hands = [Hand.tie(), Hand.played(80), Hand.revoke(NOS), Hand.played(30)]
    state = new_rubber(PORTUGAL, first_dealer=3)
    for hand in hands:
        state = play_hand(state, hand)
    assert replay(PORTUGAL, hands, first_dealer=3) == state
    assert state.rules is PORTUGAL
    assert state.first_dealer == 3


def test_arrepio_may_end_past_the_target() -> None:
    # 0-3, then back to 3-3, then a capote: 5-3 after being 0-3 is still an arrepio.
    hands = [Hand.played(29, 91), Hand.played(50, 70)] + [Hand.played(70, 50)] * 3
    state = replay(PORTUGAL, [*hands, Hand.played(95, 25)])
    assert (state.games, state.winner, state.outcome) == ((5, 3), NOS, Outcome.ARREPIO)
