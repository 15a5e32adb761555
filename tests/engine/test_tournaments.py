"""Tournaments of pairs (RULES.md, "Tournaments"): settings, entrants, draws, standings, the end."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.engine.tournaments import (
    Match,
    MatchResult,
    PairEntry,
    RubberResult,
    Settings,
    Tournament,
    TournamentError,
    check_pairs,
    fold,
    parse_pairs,
    random_draw,
)
from scorekeeper.engine.tournaments.draws import swiss_pairings

Results = dict[tuple[int, int], MatchResult]


def won_by(side: int, games: tuple[int, int] = (4, 1)) -> MatchResult:
    """One finished rubber won by ``side`` of the match (its games given for the first pair)."""
    return MatchResult((RubberResult(games if side == 0 else (games[1], games[0]), side),))


def play_out(tournament: Tournament, results: Results, pick: random.Random | None = None) -> bool:
    """Decide every undecided match of ``tournament`` (the first pair wins, or a random side)."""
    added = False
    for drawn in tournament.rounds:
        for match in drawn.matches:
            if match.needs_rubber:
                side = pick.randrange(2) if pick else 0
                results[(match.round, match.table)] = won_by(side)
                added = True
    return added


def fold_through(
    settings_: Settings, pick: random.Random | None = None
) -> tuple[Tournament, Results]:
    """Play a knockout or round robin to its end, folding after each round's results."""
    results: Results = {}
    tournament = fold(settings_, results=results)
    while play_out(tournament, results, pick):
        tournament = fold(settings_, results=results)
    return tournament, results


def pairings(tournament: Tournament) -> list[list[tuple[int, int | None]]]:
    return [[match.pairs for match in drawn.matches] for drawn in tournament.rounds]


# Settings ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "code", "value"),
    [
        ({"pairs": 2}, "too_few_pairs", 2),
        ({"pairs": 129}, "too_many_pairs", 129),
        ({"best_of": 2}, "even_best_of", 2),
        ({"best_of": 0}, "even_best_of", 0),
        ({"best_of": 7}, "bad_best_of", 7),
        ({"format": "ladder"}, "unknown_format", "ladder"),
        ({"format": "swiss", "rounds": 0}, "bad_rounds", 0),
        ({"format": "swiss", "rounds": 8}, "bad_rounds", 8),
        ({"rounds": 3}, "bad_rounds", 3),
        ({"format": "round_robin", "groups": 2}, "bad_groups", 2),
        ({"format": "round_robin", "groups": 5, "advance": 1}, "bad_groups", 5),
        ({"format": "round_robin", "groups": 2, "advance": 4}, "bad_groups", 4),
        ({"format": "round_robin", "groups": 2, "advance": 0}, "bad_groups", 0),
        ({"format": "swiss", "groups": 2, "advance": 1}, "bad_groups", 2),
        ({"format": "swiss", "third_place": True}, "bad_third_place", True),
        ({"pairs": 3, "third_place": True}, "bad_third_place", 3),
    ],
)
def test_settings_refuse_what_the_rules_do_not_allow(
    changes: dict[str, object], code: str, value: object
) -> None:
    arguments: dict[str, object] = {"format": "knockout", "pairs": 8, **changes}
    with pytest.raises(TournamentError) as raised:
        Settings(**arguments)  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.value) == (code, value)


@pytest.mark.parametrize(
    ("settings_", "rounds"),
    [
        (Settings("knockout", 3), 2),
        (Settings("knockout", 8), 3),
        (Settings("knockout", 9, third_place=True), 4),
        (Settings("round_robin", 6), 5),
        (Settings("round_robin", 7), 7),
        (Settings("swiss", 16), 4),
        (Settings("swiss", 17), 5),
        (Settings("swiss", 17, rounds=16), 16),
        (Settings("round_robin", 12, groups=3, advance=2), 3 + 3),
        (Settings("round_robin", 9, groups=2, advance=1), 5 + 1),
        (Settings("swiss", 128), 7),
    ],
)
def test_total_rounds(settings_: Settings, rounds: int) -> None:
    assert settings_.total_rounds == rounds


def test_best_of_three_is_won_at_two_rubbers() -> None:
    settings_ = Settings("knockout", 4, best_of=3)
    one_each = MatchResult((RubberResult((4, 0), 0), RubberResult((2, 4), 1), RubberResult((1, 0))))
    match = fold(settings_, results={(1, 1): one_each}).match(1, 1)
    assert (match.wins, match.games, match.winner, match.needs_rubber) == (
        (1, 1),
        (6, 4),
        None,
        True,
    )
    two = MatchResult((*one_each.rubbers[:2], RubberResult((0, 4), 1)))
    match = fold(settings_, results={(1, 1): two}).match(1, 1)
    assert (match.wins, match.games, match.winner, match.needs_rubber) == ((1, 2), (6, 8), 4, False)


# Entrants ------------------------------------------------------------------------------------


def test_check_pairs_names_the_pair_and_the_player() -> None:
    check_pairs([["Ana", "Bruno"], ["Carla", "Duarte"], ["Eva", "Filipe"]])
    with pytest.raises(TournamentError) as raised:
        check_pairs([["Ana", "Bruno"], ["Carla", "Duarte"], ["eva", "BRUNO "]])
    assert (raised.value.code, raised.value.pair, raised.value.value) == (
        "repeated_player",
        3,
        "BRUNO ",
    )
    with pytest.raises(TournamentError) as raised:
        check_pairs([["Ana", "Bruno"], ["Carla", "  "]])
    assert (raised.value.code, raised.value.pair, raised.value.value) == ("pair_of_one", 2, "Carla")
    with pytest.raises(TournamentError) as raised:
        check_pairs([["Ana", "Ana"]])
    assert (raised.value.code, raised.value.pair) == ("repeated_player", 1)


def test_parse_pairs_reads_every_way_of_writing_a_pair() -> None:
    text = (
        "Ana e Bruno\n"
        "  \n"
        "Carla / Duarte\n"
        "Os Primos: Eva, Filipe\n"
        "Gil & Hugo\n"
        "Inês - Jorge\n"
        "Ana-Luísa E João\n"
        "Tasca do Zé: Rui and Sara\n"
    )
    assert parse_pairs(text) == [
        PairEntry(("Ana", "Bruno")),
        PairEntry(("Carla", "Duarte")),
        PairEntry(("Eva", "Filipe"), "Os Primos"),
        PairEntry(("Gil", "Hugo")),
        PairEntry(("Inês", "Jorge")),
        PairEntry(("Ana-Luísa", "João")),
        PairEntry(("Rui", "Sara"), "Tasca do Zé"),
    ]


@pytest.mark.parametrize(
    ("text", "code", "line", "value"),
    [
        ("Ana e Bruno\n\nCarla\n", "pair_of_one", 3, "Carla"),
        ("Ana e Bruno\nCarla /\n", "pair_of_one", 2, "Carla /"),
        ("Ana, Bruno, Carla", "too_many_players", 1, "Ana, Bruno, Carla"),
        ("Ana e Bruno\nCarla e ana", "repeated_player", 2, "Carla e ana"),
        ("Ana e ANA", "repeated_player", 1, "Ana e ANA"),
    ],
)
def test_parse_pairs_points_at_the_bad_line(text: str, code: str, line: int, value: str) -> None:
    with pytest.raises(TournamentError) as raised:
        parse_pairs(text)
    assert (raised.value.code, raised.value.line, raised.value.value) == (code, line, value)


def test_a_player_twice_in_one_pair_is_told_apart_from_one_in_two_pairs() -> None:
    with pytest.raises(TournamentError) as raised:
        check_pairs([["Ana", "Bruno"], ["Carla", "carla"]])
    assert (raised.value.code, raised.value.pair, raised.value.twice) == (
        "repeated_player",
        2,
        "Carla",
    )
    with pytest.raises(TournamentError) as raised:
        parse_pairs("Ana e Bruno\nCarla e CARLA")
    assert (raised.value.line, raised.value.twice) == (2, "Carla")
    with pytest.raises(TournamentError) as raised:
        parse_pairs("Ana e Bruno\nCarla e ana")
    assert (raised.value.line, raised.value.twice) == (2, None)  # in two pairs
    with pytest.raises(TournamentError) as raised:
        Settings("swiss", 10, rounds=10)
    assert (raised.value.code, raised.value.limit) == ("bad_rounds", 9)
    with pytest.raises(TournamentError) as raised:
        Settings("knockout", 10, rounds=3)
    assert (raised.value.code, raised.value.limit) == ("bad_rounds", None)


def test_random_draw_is_a_reproducible_permutation() -> None:
    draw = random_draw(16, 42)
    assert sorted(draw) == list(range(1, 17))
    assert draw == random_draw(16, 42)
    assert draw != tuple(range(1, 17))
    assert len({random_draw(16, seed) for seed in range(20)}) == 20


# Knockout ------------------------------------------------------------------------------------


def test_knockout_first_round_in_standard_order_with_byes() -> None:
    tournament = fold(Settings("knockout", 8))
    assert pairings(tournament) == [[(1, 8), (4, 5), (2, 7), (3, 6)]]
    tournament = fold(Settings("knockout", 5))
    assert pairings(tournament)[0] == [(1, None), (4, 5), (2, None), (3, None)]
    assert [match.winner for match in tournament.rounds[0].matches] == [1, None, 2, 3]
    # The one match of two pairs plays at table 1; the byes take the numbers after it.
    assert [match.table for match in tournament.rounds[0].matches] == [2, 1, 3, 4]


def test_knockout_next_match_appears_once_both_pairs_are_known() -> None:
    settings_ = Settings("knockout", 5)
    tournament = fold(settings_)
    # 2 and 3 both had byes: their semi-final is known at once, at its bracket place.
    assert [(match.table, match.pairs) for match in tournament.rounds[1].matches] == [(2, (2, 3))]
    tournament = fold(settings_, results={(1, 1): won_by(1)})
    assert [(match.table, match.pairs) for match in tournament.rounds[1].matches] == [
        (1, (1, 5)),
        (2, (2, 3)),
    ]
    assert len(tournament.rounds) == 2 and not tournament.finished and tournament.winner is None


def test_knockout_with_third_place_ends_when_both_last_matches_are_decided() -> None:
    settings_ = Settings("knockout", 4, third_place=True)
    results: Results = {(1, 1): won_by(0), (1, 2): won_by(1, (4, 2))}
    tournament = fold(settings_, results=results)
    final_round = tournament.rounds[-1]
    assert [(m.table, m.pairs, m.stage) for m in final_round.matches] == [
        (1, (1, 3), "knockout"),
        (2, (4, 2), "third_place"),
    ]
    results[(2, 1)] = won_by(1)
    tournament = fold(settings_, results=results)
    assert (tournament.finished, tournament.winner) == (False, None)
    results[(2, 2)] = won_by(0)
    tournament = fold(settings_, results=results)
    assert (tournament.finished, tournament.winner) == (True, 3)
    assert [(line.rank, line.pair) for line in tournament.standings] == [
        (1, 3),
        (2, 1),
        (3, 4),
        (4, 2),
    ]
    line = tournament.standings[0]
    assert (line.played, line.won, line.lost, line.games_won, line.games_lost) == (2, 2, 0, 8, 3)


def test_knockout_standings_share_the_rank_of_one_rounds_losers() -> None:
    tournament, _ = fold_through(Settings("knockout", 6))
    assert tournament.finished
    ranks = [line.rank for line in tournament.standings]
    assert ranks == [1, 2, 3, 3, 5, 5]
    assert tournament.standings[0].pair == tournament.winner == 1
    byes = {line.pair: line for line in tournament.standings}
    assert (byes[1].played, byes[1].won) == (3, 3)  # a bye counts as a match won


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 40), st.randoms(use_true_random=False))
def test_knockout_seeds_one_and_two_meet_only_in_the_final(pairs: int, pick: random.Random) -> None:
    settings_ = Settings("knockout", pairs)
    tournament, _ = fold_through(settings_, pick)
    assert tournament.finished and tournament.winner is not None
    for drawn in tournament.rounds:
        for match in drawn.matches:
            if set(match.pairs) == {1, 2}:
                assert drawn.number == settings_.total_rounds
            if drawn.number < settings_.total_rounds - 1:
                assert not {1, 2, 3, 4} >= set(match.pairs) - {None} or None in match.pairs
    tables = [[match.table for match in drawn.matches] for drawn in tournament.rounds]
    assert [sorted(row) for row in tables] == [list(range(1, len(row) + 1)) for row in tables]
    assert tables[1:] == [list(range(1, len(row) + 1)) for row in tables[1:]]
    played = [match.table for match in tournament.rounds[0].matches if not match.is_bye]
    assert sorted(played) == list(range(1, len(played) + 1))
    assert [drawn.number for drawn in tournament.rounds] == list(
        range(1, settings_.total_rounds + 1)
    )


# Round robin ---------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 30))
def test_round_robin_every_pair_meets_every_other_once(pairs: int) -> None:
    tournament = fold(Settings("round_robin", pairs))
    assert len(tournament.rounds) == tournament.settings.total_rounds
    met = Counter(
        frozenset(m.pairs) for d in tournament.rounds for m in d.matches if m.pairs[1] is not None
    )
    assert met == Counter(frozenset(two) for two in combinations(range(1, pairs + 1), 2))
    byes = Counter(m.pairs[0] for d in tournament.rounds for m in d.matches if m.pairs[1] is None)
    assert byes == (Counter(range(1, pairs + 1)) if pairs % 2 else Counter())
    for drawn in tournament.rounds:
        seen = [p for m in drawn.matches for p in m.pairs if p is not None]
        assert sorted(seen) == list(range(1, pairs + 1))
        assert all(m.pairs[1] is not None for m in drawn.matches[:-1])
        assert [m.table for m in drawn.matches] == list(range(1, len(drawn.matches) + 1))


def tie_break_results(
    tournament: Tournament, winners: Mapping[frozenset[int], tuple[int, tuple[int, int]]]
) -> Results:
    """Each match's result from ``winners``: the pair that wins, with its games and the loser's."""
    results: Results = {}
    for drawn in tournament.rounds:
        for match in drawn.matches:
            first, second = match.pairs
            if second is None:
                continue
            winner, (more, less) = winners[frozenset((first, second))]
            results[(match.round, match.table)] = won_by(0 if winner == first else 1, (more, less))
    return results


def test_round_robin_standings_apply_every_tie_break() -> None:
    settings_ = Settings("round_robin", 4)
    # 1 beats everyone; 2, 3 and 4 beat one another in a ring: level on wins. Games: 2 is 6-8
    # and 4 is 8-10 (both -2), 3 is 6-9 (-3); 4 marked more than 2.
    winners = {
        frozenset((1, 2)): (1, (4, 0)),
        frozenset((1, 3)): (1, (4, 2)),
        frozenset((1, 4)): (1, (4, 3)),
        frozenset((2, 3)): (2, (4, 0)),
        frozenset((3, 4)): (3, (4, 1)),
        frozenset((4, 2)): (4, (4, 2)),
    }
    tournament = fold(settings_, results=tie_break_results(fold(settings_), winners))
    lines = {line.pair: line for line in tournament.standings}
    assert [(lines[p].games_won, lines[p].games_lost) for p in (2, 3, 4)] == [
        (6, 8),
        (6, 9),
        (8, 10),
    ]
    assert [(line.rank, line.pair) for line in tournament.standings] == [
        (1, 1),
        (2, 4),
        (3, 2),
        (4, 3),
    ]
    assert (tournament.finished, tournament.winner) == (True, 1)
    assert all(line.buchholz is None and line.group is None for line in tournament.standings)


def test_round_robin_two_level_pairs_who_met_are_ordered_by_their_match() -> None:
    settings_ = Settings("round_robin", 4)
    winners = {
        frozenset((1, 2)): (2, (4, 0)),
        frozenset((1, 3)): (1, (4, 0)),
        frozenset((1, 4)): (1, (4, 0)),
        frozenset((2, 3)): (3, (4, 0)),
        frozenset((2, 4)): (2, (4, 0)),
        frozenset((3, 4)): (4, (4, 0)),
    }
    tournament = fold(settings_, results=tie_break_results(fold(settings_), winners))
    # 1 and 2 both 2 wins, +4 and 12 games each: 2 beat 1. 3 and 4: one win, -4, 4 games; 4 beat 3.
    assert [(line.rank, line.pair) for line in tournament.standings] == [
        (1, 2),
        (2, 1),
        (3, 4),
        (4, 3),
    ]


def test_round_robin_three_level_pairs_share_the_rank() -> None:
    settings_ = Settings("round_robin", 4)
    winners = {
        frozenset((1, 2)): (1, (4, 0)),
        frozenset((2, 3)): (2, (4, 0)),
        frozenset((1, 3)): (3, (4, 0)),
        frozenset((1, 4)): (1, (4, 0)),
        frozenset((2, 4)): (2, (4, 0)),
        frozenset((3, 4)): (3, (4, 0)),
    }
    tournament = fold(settings_, results=tie_break_results(fold(settings_), winners))
    assert [(line.rank, line.pair) for line in tournament.standings] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (4, 4),
    ]
    assert (tournament.finished, tournament.winner) == (True, None)


def test_walkover_and_bye_count_as_wins_without_games() -> None:
    settings_ = Settings("round_robin", 3)
    tournament = fold(settings_)
    assert pairings(tournament) == [[(2, 3), (1, None)], [(1, 2), (3, None)], [(1, 3), (2, None)]]
    tournament.check_walkover(1, 1, 3)
    results: Results = {(1, 1): MatchResult(walkover=3)}
    tournament = fold(settings_, results=results)
    match = tournament.match(1, 1)
    assert (match.winner, match.walkover, match.decided, match.needs_rubber) == (
        3,
        True,
        True,
        False,
    )
    lines = {line.pair: line for line in tournament.standings}
    # Round 1 is decided, so round 2 is current: its bye (3's) counts, round 3's (2's) not yet.
    assert tournament.current_round == 2
    assert (lines[3].played, lines[3].won, lines[3].games_won, lines[3].games_lost) == (2, 2, 0, 0)
    assert (lines[2].played, lines[2].won, lines[2].lost) == (1, 0, 1)
    assert (lines[1].played, lines[1].won, lines[1].games_won) == (1, 1, 0)


def test_a_round_robin_bye_counts_only_from_when_its_round_is_current() -> None:
    settings_ = Settings("round_robin", 5)
    tournament = fold(settings_)
    assert tournament.current_round == 1
    resting = [drawn.matches[-1].pairs[0] for drawn in tournament.rounds]
    assert sorted(resting) == [1, 2, 3, 4, 5]  # each pair rests once
    # Before a single hand only round 1's rest counts: not every pair played 1, won 1.
    lines = {line.pair: (line.played, line.won, line.lost) for line in tournament.standings}
    assert lines == {pair: (1, 1, 0) if pair == resting[0] else (0, 0, 0) for pair in lines}
    results: Results = {}
    for number in range(1, 6):
        tournament = fold(settings_, results=results)
        assert tournament.current_round == number
        # Rounds before ``number`` are played: each pair's matches there, and its rest once
        # its round has come.
        for line in tournament.standings:
            rested = resting.index(line.pair) + 1 <= number
            met = sum(
                line.pair in match.pairs and not match.is_bye
                for drawn in tournament.rounds[: number - 1]
                for match in drawn.matches
            )
            assert line.played == met + rested, (number, line)
        for match in tournament.rounds[number - 1].matches:
            if match.needs_rubber:
                results[(number, match.table)] = won_by(0)
    tournament = fold(settings_, results=results)
    assert tournament.current_round is None and tournament.finished
    assert all(line.played == 5 for line in tournament.standings)  # 4 matches and the rest


def test_the_current_round_is_the_lowest_with_an_undecided_match() -> None:
    settings_ = Settings("round_robin", 4)
    assert fold(settings_).current_round == 1
    # Round 2 played first: round 1 stays current while a match of it is undecided.
    results: Results = {(2, 1): won_by(0), (2, 2): won_by(0), (1, 1): won_by(0)}
    assert fold(settings_, results=results).current_round == 1
    results[(1, 2)] = won_by(1)
    assert fold(settings_, results=results).current_round == 3
    assert fold(Settings("swiss", 4)).current_round is None  # nothing drawn yet
    assert fold(Settings("knockout", 3)).current_round == 1


def test_check_walkover_refusals() -> None:
    settings_ = Settings("round_robin", 3, best_of=3)
    played = MatchResult((RubberResult((4, 1), 0),))
    tournament = fold(settings_, results={(2, 1): played}, withdrawn=[3])
    for (round_, table, winner), code in {
        (1, 2, 1): "bye_match",
        (1, 1, 1): "not_a_pair",
        (2, 1, 1): "match_played",
        (9, 1, 1): "no_such_match",
        (3, 1, 3): "withdrawn",
    }.items():
        with pytest.raises(TournamentError) as raised:
            tournament.check_walkover(round_, table, winner)
        assert raised.value.code == code, (round_, table, winner)
    with pytest.raises(TournamentError) as raised:
        tournament.check_walkover(1, 1, 2)  # 3 withdrew: the match is 2's already
    assert raised.value.code == "match_played"


def test_a_withdrawn_pair_gives_its_undecided_matches_away() -> None:
    settings_ = Settings("round_robin", 4)
    results: Results = {(1, 1): won_by(1, (4, 2))}
    first = fold(settings_, results=results).rounds[0].matches[0]
    assert first.pairs == (1, 4)
    tournament = fold(settings_, results=results, withdrawn=[4])
    assert tournament.match(1, 1).winner == 4 and not tournament.match(1, 1).walkover
    later = [m for d in tournament.rounds[1:] for m in d.matches if 4 in m.pairs]
    assert len(later) == 2
    assert all(m.walkover and m.winner != 4 and m.decided for m in later)
    with pytest.raises(TournamentError) as raised:
        fold(settings_, withdrawn=[5])
    assert raised.value.code == "not_a_pair"


# Swiss ---------------------------------------------------------------------------------------


def swiss_round(
    settings_: Settings,
    draws: list[tuple[tuple[int, int | None], ...]],
    results: Results,
    pick: random.Random,
    withdrawn: tuple[int, ...] = (),
) -> Tournament:
    """Draw the next Swiss round, store it, and decide its matches at random."""
    tournament = fold(settings_, draws, results, withdrawn)
    draws.append(tournament.draw_next_round())
    tournament = fold(settings_, draws, results, withdrawn)
    play_out(tournament, results, pick)
    return fold(settings_, draws, results, withdrawn)


def test_swiss_round_one_halves_and_the_bye() -> None:
    assert fold(Settings("swiss", 8)).draw_next_round() == ((1, 5), (2, 6), (3, 7), (4, 8))
    assert fold(Settings("swiss", 7)).draw_next_round() == ((1, 4), (2, 5), (3, 6), (7, None))
    assert fold(Settings("swiss", 7), withdrawn=[1]).draw_next_round() == ((2, 5), (3, 6), (4, 7))


def test_swiss_refuses_a_round_out_of_turn() -> None:
    settings_ = Settings("swiss", 4, rounds=2)
    draws = [fold(settings_).draw_next_round()]
    tournament = fold(settings_, draws)
    assert not tournament.can_draw_round()
    with pytest.raises(TournamentError) as raised:
        tournament.draw_next_round()
    assert (raised.value.code, raised.value.value) == ("round_unfinished", 1)
    results: Results = {(1, 1): won_by(0), (1, 2): won_by(1)}
    tournament = fold(settings_, draws, results)
    assert tournament.can_draw_round()
    draws.append(tournament.draw_next_round())
    assert draws[1] == ((1, 4), (2, 3))  # the two winners, then the two losers; no rematch
    results.update({(2, 1): won_by(0), (2, 2): won_by(0)})
    tournament = fold(settings_, draws, results)
    assert tournament.finished and tournament.winner == 1
    with pytest.raises(TournamentError) as raised:
        tournament.draw_next_round()
    assert raised.value.code == "all_rounds_drawn"
    for format_ in ("knockout", "round_robin"):
        with pytest.raises(TournamentError) as raised:
            fold(Settings(format_, 4)).draw_next_round()
        assert raised.value.code == "rounds_draw_themselves"


def test_swiss_buchholz_breaks_a_tie_on_wins() -> None:
    settings_ = Settings("swiss", 4, rounds=2)
    draws = [((1, 3), (2, 4))]
    results: Results = {(1, 1): won_by(0), (1, 2): won_by(1)}
    draws.append(((1, 4), (3, 2)))
    results.update({(2, 1): won_by(0), (2, 2): won_by(0)})
    tournament = fold(settings_, draws, results)
    # 1: 2 wins. 3 and 4: 1 win each; 3 met 1 (2 wins) and 2 (0), 4 met 2 (0) and 1 (2): level.
    # Games: 3 is 1-4 then 4-1, 4 is 4-1 then 1-4: level too; they have not met: shared.
    lines = {line.pair: line for line in tournament.standings}
    assert (lines[3].buchholz, lines[4].buchholz, lines[1].buchholz, lines[2].buchholz) == (
        2,
        2,
        2,
        2,
    )
    assert [(line.rank, line.pair) for line in tournament.standings] == [
        (1, 1),
        (2, 3),
        (2, 4),
        (4, 2),
    ]


def test_swiss_bye_goes_to_the_lowest_ranked_pair_without_one() -> None:
    settings_ = Settings("swiss", 5, rounds=3)
    pick = random.Random(5)
    draws: list[tuple[tuple[int, int | None], ...]] = []
    results: Results = {}
    for _ in range(3):
        swiss_round(settings_, draws, results, pick)
    byes = [pairs[0] for draw in draws for pairs in draw if pairs[1] is None]
    assert byes[0] == 5 and len(set(byes)) == 3


def fewest_rematches(players: list[int], met: set[frozenset[int]]) -> int:
    """The rematches a round of ``players`` cannot avoid: n/2 less the largest matching of new pairs."""
    fresh: nx.Graph[int] = nx.Graph()
    fresh.add_nodes_from(players)
    fresh.add_edges_from(
        (a, b) for a, b in combinations(players, 2) if frozenset((a, b)) not in met
    )
    return len(players) // 2 - len(nx.max_weight_matching(fresh, maxcardinality=True))


@settings(max_examples=25, deadline=None)
@given(st.integers(3, 24), st.randoms(use_true_random=False), st.data())
def test_swiss_draws_no_rematch_while_one_can_be_avoided(
    pairs: int, pick: random.Random, data: st.DataObject
) -> None:
    rounds = data.draw(st.integers(1, min(pairs - 1, 8)))
    settings_ = Settings("swiss", pairs, rounds=rounds)
    draws: list[tuple[tuple[int, int | None], ...]] = []
    results: Results = {}
    for _ in range(rounds):
        met = {frozenset(p) for draw in draws for p in draw if p[1] is not None}
        tournament = swiss_round(settings_, draws, results, pick)
        drawn = [p for p in draws[-1] if p[1] is not None]
        players = [p for pairs_ in drawn for p in pairs_ if p is not None]
        assert sorted([*players, *(p[0] for p in draws[-1] if p[1] is None)]) == list(
            range(1, pairs + 1)
        )
        rematches = sum(frozenset(p) in met for p in drawn)
        assert rematches == fewest_rematches(players, met)
    assert tournament.finished
    byes = [p[0] for draw in draws for p in draw if p[1] is None]
    assert len(byes) == len(set(byes)) == (rounds if pairs % 2 else 0)


def test_swiss_least_squared_gaps_among_pairings_without_rematch() -> None:
    settings_ = Settings("swiss", 6, rounds=3)
    draws = [((1, 4), (2, 5), (3, 6))]
    results: Results = {(1, 1): won_by(0), (1, 2): won_by(0), (1, 3): won_by(1)}
    tournament = fold(settings_, draws, results)
    second = tournament.draw_next_round()
    wins = {line.pair: line.won for line in tournament.standings}
    assert {wins[1], wins[2], wins[6]} == {1}
    # Three winners and three losers: one match must cross, and one is enough.
    assert sum((wins[a] - wins[b]) ** 2 for a, b in second if b is not None) == 1
    assert not {frozenset(p) for p in second} & {frozenset(p) for p in draws[0]}


def test_swiss_allows_the_fewest_rematches_when_none_is_free() -> None:
    # Four pairs, two withdrawn after round 1: the two left met in round 1 and meet again.
    settings_ = Settings("swiss", 4, rounds=3)
    draws = [((1, 3), (2, 4))]
    results: Results = {(1, 1): won_by(0), (1, 2): won_by(0)}
    tournament = fold(settings_, draws, results, withdrawn=[2, 4])
    assert tournament.draw_next_round() == ((1, 3),)


def test_swiss_withdrawn_pairs_are_not_drawn() -> None:
    settings_ = Settings("swiss", 8, rounds=3)
    pick = random.Random(3)
    draws: list[tuple[tuple[int, int | None], ...]] = []
    results: Results = {}
    swiss_round(settings_, draws, results, pick)
    tournament = swiss_round(settings_, draws, results, pick, withdrawn=(6,))
    assert all(6 not in pairs for pairs in draws[1])
    assert [pairs[1] for pairs in draws[1]].count(None) == 1
    assert tournament.finished is False


def test_swiss_of_128_pairs_draws_its_seventh_round_without_rematches() -> None:
    """The size the benchmark times (docs/decisions/tournaments.md, "Speed")."""
    settings_ = Settings("swiss", 128)
    pick = random.Random(128)
    draws: list[tuple[tuple[int, int | None], ...]] = []
    results: Results = {}
    for _ in range(6):
        tournament = swiss_round(settings_, draws, results, pick)
    seventh = tournament.draw_next_round()
    assert len(seventh) == 64
    met = {frozenset(p) for draw in draws for p in draw}
    assert not met & {frozenset(p) for p in seventh}
    wins = {line.pair: line.won for line in tournament.standings}
    # Each score group's odd pair meets the next group's: at most 6 gaps of one win.
    assert sum((wins[a] - wins[b]) ** 2 for a, b in seventh if b is not None) <= 6


# Groups then knockout ------------------------------------------------------------------------


def test_groups_drawn_in_snake_order_with_shared_rounds() -> None:
    settings_ = Settings("round_robin", 8, groups=2, advance=2)
    tournament = fold(settings_)
    assert tournament.groups == ((1, 4, 5, 8), (2, 3, 6, 7))
    first = tournament.rounds[0].matches
    assert [(m.table, m.group, m.stage) for m in first] == [
        (1, "A", "group"),
        (2, "A", "group"),
        (3, "B", "group"),
        (4, "B", "group"),
    ]
    assert len(tournament.rounds) == 3
    assert [line.group for line in tournament.standings] == ["A"] * 4 + ["B"] * 4


def test_groups_knockout_two_groups_meet_crossed() -> None:
    settings_ = Settings("round_robin", 8, groups=2, advance=2)
    tournament, _ = fold_through(settings_)
    # The first pair of each match wins: the lower seeds top each group.
    order = {g: [line.pair for line in tournament.standings if line.group == g] for g in "AB"}
    assert order == {"A": [1, 4, 5, 8], "B": [2, 3, 6, 7]}
    semis = tournament.rounds[3]
    assert semis.number == 4 and [(m.table, m.pairs, m.stage) for m in semis.matches] == [
        (1, (1, 3), "knockout"),  # A1-B2
        (2, (2, 4), "knockout"),  # B1-A2
    ]
    assert tournament.finished and tournament.winner == 1
    assert [line.pair for line in tournament.knockout_standings] == [1, 2, 3, 4]


def test_groups_knockout_four_groups_keep_groups_apart() -> None:
    settings_ = Settings("round_robin", 16, groups=4, advance=2)
    tournament, _ = fold_through(settings_)
    tops = {g: [line.pair for line in tournament.standings if line.group == g][:2] for g in "ABCD"}
    first = tournament.rounds[settings_.group_rounds].matches
    a, b, c, d = (tops[g] for g in "ABCD")
    assert [m.pairs for m in first] == [(a[0], d[1]), (d[0], a[1]), (b[0], c[1]), (c[0], b[1])]


@pytest.mark.parametrize("pairs", [*range(4, 19), 24, 27, 33])
def test_groups_knockout_never_opens_within_a_group(pairs: int) -> None:
    for groups in range(2, pairs // 2 + 1):
        for advance in range(1, pairs // groups):
            settings_ = Settings("round_robin", pairs, groups=groups, advance=advance)
            tournament, _ = fold_through(settings_)
            group_of = {line.pair: line.group for line in tournament.standings}
            first = tournament.rounds[settings_.group_rounds].matches
            assert all(m.stage == "knockout" for m in first)
            for match in first:
                if match.pairs[1] is not None:
                    assert group_of[match.pairs[0]] != group_of[match.pairs[1]], (
                        groups,
                        advance,
                        match,
                    )
            assert tournament.finished and tournament.winner is not None


def test_match_lookup_and_needs_rubber() -> None:
    tournament = fold(Settings("knockout", 3))
    bye, match = tournament.rounds[0].matches
    assert (
        isinstance(bye, Match) and bye.pairs == (1, None) and bye.decided and not bye.needs_rubber
    )
    assert match.needs_rubber and not match.decided
    with pytest.raises(TournamentError) as raised:
        tournament.match(1, 3)
    assert (raised.value.code, raised.value.value) == ("no_such_match", (1, 3))


def all_pairings(players: list[int]) -> list[list[tuple[int, int]]]:
    """Every way to split an even list of pairs into matches."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    return [
        [(first, other), *more]
        for index, other in enumerate(rest)
        for more in all_pairings(rest[:index] + rest[index + 1 :])
    ]


@settings(max_examples=80, deadline=None)
@given(
    st.integers(1, 5).flatmap(
        lambda half: st.tuples(
            st.lists(st.integers(0, 5), min_size=2 * half, max_size=2 * half),
            st.sets(
                st.tuples(st.integers(1, 2 * half), st.integers(1, 2 * half)), max_size=3 * half
            ),
        )
    )
)
def test_swiss_pairings_are_the_least_cost_of_all(
    case: tuple[list[int], set[tuple[int, int]]],
) -> None:
    wins_list, met_list = case
    players = list(range(1, len(wins_list) + 1))
    wins = dict(zip(players, wins_list, strict=True))
    met = {frozenset(two) for two in met_list if two[0] != two[1]}
    ranked = sorted(players, key=lambda pair: (-wins[pair], pair))
    drawn = swiss_pairings(ranked, wins, met, had_bye=())

    def cost(matches: list[tuple[int, int]]) -> tuple[int, int]:
        return (
            sum(frozenset(m) in met for m in matches),
            sum((wins[a] - wins[b]) ** 2 for a, b in matches),
        )

    assert sorted(p for m in drawn for p in m if p is not None) == players
    best = min(cost(matches) for matches in all_pairings(players))
    assert cost([(a, b) for a, b in drawn if b is not None]) == best


def test_groups_past_z_are_named_on_like_spreadsheet_columns() -> None:
    settings_ = Settings("round_robin", 60, groups=30, advance=1)
    tournament = fold(settings_)
    names = sorted(
        {line.group for line in tournament.standings if line.group}, key=lambda g: (len(g), g)
    )
    assert names[:2] == ["A", "B"] and names[-4:] == ["AA", "AB", "AC", "AD"]
    assert len(names) == 30
    tournament, _ = fold_through(settings_)
    assert tournament.finished and len(tournament.knockout_standings) == 30


@st.composite
def any_settings(draw: st.DrawFn) -> Settings:
    format_ = draw(st.sampled_from(["knockout", "round_robin", "swiss", "groups"]))
    pairs = draw(st.integers(3, 20))
    best_of = draw(st.sampled_from([1, 3, 5]))
    if format_ == "swiss":
        return Settings("swiss", pairs, best_of, rounds=draw(st.integers(1, pairs - 1)))
    if format_ == "groups" and pairs >= 4:
        groups = draw(st.integers(2, pairs // 2))
        advance = draw(st.integers(1, pairs // groups - 1))
        third = groups * advance >= 4 and draw(st.booleans())
        return Settings(
            "round_robin", pairs, best_of, groups=groups, advance=advance, third_place=third
        )
    if format_ == "knockout":
        return Settings("knockout", pairs, best_of, third_place=pairs >= 4 and draw(st.booleans()))
    return Settings("round_robin", pairs, best_of)


@settings(max_examples=30, deadline=None)
@given(any_settings(), st.randoms(use_true_random=False))
def test_every_tournament_plays_to_its_end(settings_: Settings, pick: random.Random) -> None:
    """Rubbers, walkovers and withdrawals at random: every format ends, its rounds in order."""
    draws: list[tuple[tuple[int, int | None], ...]] = []
    results: Results = {}
    withdrawn: list[int] = []
    tournament = fold(settings_)
    for _ in range(200):
        if tournament.finished:
            break
        if tournament.can_draw_round():
            draws.append(tournament.draw_next_round())
        elif pick.random() < 0.05 and len(withdrawn) < settings_.pairs - 2:
            pair = pick.choice([p for p in range(1, settings_.pairs + 1) if p not in withdrawn])
            tournament.check_withdrawal(pair)
            withdrawn.append(pair)
        else:
            match = next(m for d in tournament.rounds for m in d.matches if m.needs_rubber)
            key = (match.round, match.table)
            if pick.random() < 0.1 and match.wins == (0, 0):
                winner = match.pairs[pick.randrange(2)]
                assert winner is not None
                tournament.check_walkover(*key, winner)
                results[key] = MatchResult(walkover=winner)
            else:
                side = pick.randrange(2)
                rubbers = results.get(key, MatchResult()).rubbers
                results[key] = MatchResult((*rubbers, won_by(side).rubbers[0]))
        tournament = fold(settings_, draws, results, withdrawn)
    assert tournament.finished
    assert [d.number for d in tournament.rounds] == list(range(1, settings_.total_rounds + 1))
    for drawn in tournament.rounds:
        tables = [m.table for m in drawn.matches]
        assert len(tables) == len(set(tables))
        assert all(m.decided for m in drawn.matches)
        in_round = [p for m in drawn.matches for p in m.pairs if p is not None]
        assert len(in_round) == len(set(in_round))
    assert len(tournament.standings) == settings_.pairs
    if tournament.winner is not None:
        assert tournament.standings[0].rank == 1 or settings_.knockout_pairs


@pytest.mark.parametrize(("withdrawn", "winner"), [([4, 3], 3), ([3, 4], 4)])
def test_a_later_withdrawal_does_not_take_back_an_earlier_walkover(
    withdrawn: list[int], winner: int
) -> None:
    """The match of two withdrawn pairs stays with the one that withdrew last, as it was won."""
    tournament = fold(Settings("round_robin", 4), withdrawn=withdrawn)
    (match,) = [m for d in tournament.rounds for m in d.matches if set(m.pairs) == {3, 4}]
    assert (match.winner, match.walkover) == (winner, True)
