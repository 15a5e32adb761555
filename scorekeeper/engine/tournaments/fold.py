"""A tournament folded from its settings, the stored Swiss draws, the results and withdrawals."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from .draws import (
    bracket_order,
    circle_rounds,
    first_round_tables,
    part_groups,
    swiss_first_round,
    swiss_pairings,
)
from .matches import Match, MatchResult, Pairing, Round, Standing, settle
from .settings import Settings, TournamentError, bracket_size, group_name, snake_groups
from .standings import knockout_standings, table_standings


@dataclass(frozen=True)
class Tournament:
    """A tournament's rounds as far as they are known, its standings and its end."""

    settings: Settings
    rounds: tuple[Round, ...]
    standings: tuple[Standing, ...]
    finished: bool
    winner: int | None
    """The knockout's final's winner; otherwise rank 1 if alone, once finished."""
    withdrawn: frozenset[int] = frozenset()
    knockout_standings: tuple[Standing, ...] = ()
    """In a round robin in groups, the knockout's standings once it has begun."""
    groups: tuple[tuple[int, ...], ...] = field(default=())
    """In a round robin in groups, each group's pairs (A first)."""

    @property
    def current_round(self) -> int | None:
        """Return the lowest round with a match undecided; None while none is (API.md).

        >>> fold(Settings("round_robin", 4)).current_round, fold(Settings("swiss", 4)).current_round
        (1, None)
        """
        return _current_round(self.rounds)

    def match(self, round: int, table: int) -> Match:
        """Return the match at ``table`` of ``round``; raise TournamentError("no_such_match").

        >>> fold(Settings("knockout", 8)).match(1, 2).pairs
        (4, 5)
        """
        for drawn in self.rounds:
            if drawn.number == round:
                for match in drawn.matches:
                    if match.table == table:
                        return match
        raise TournamentError(
            "no_such_match", (round, table), f"There is no match at table {table} of round {round}."
        )

    def evening_tables(self) -> list[int]:
        """Return every table a match of two pairs plays at, or will: one link each, all evening.

        The rounds drawn give theirs; a knockout's later rounds play at their places in the
        bracket, 1 to S/4 (the third place at table 2 of the final's round), and a knockout
        after groups plays its first round at 1 to k (its k matches of two pairs), known from
        the start though its pairs are not. A knockout of 6 plays round 1 at tables 1 and 2
        (the byes take no table) and its semi-finals at 1 and 2.

        >>> fold(Settings("knockout", 6)).evening_tables(), fold(Settings("round_robin", 5)).evening_tables()
        ([1, 2], [1, 2])
        """
        tables = {
            match.table for drawn in self.rounds for match in drawn.matches if not match.is_bye
        }
        knockout = self.settings.knockout_pairs
        if knockout is not None:
            size = bracket_size(knockout)
            tables |= set(range(1, size // 4 + 1))
            if self.settings.third_place:
                tables.add(2)
            if self.settings.has_groups:
                tables |= set(range(1, knockout - size // 2 + 1))
        return sorted(tables)

    def can_draw_round(self) -> bool:
        """Return whether the organizer may draw the next Swiss round now.

        >>> fold(Settings("swiss", 4)).can_draw_round(), fold(Settings("knockout", 4)).can_draw_round()
        (True, False)
        """
        try:
            self._check_draw()
        except TournamentError:
            return False
        return True

    def _check_draw(self) -> None:
        if self.settings.format != "swiss":
            raise TournamentError(
                "rounds_draw_themselves",
                self.settings.format,
                "This tournament's rounds draw themselves.",
            )
        if len(self.rounds) >= self.settings.swiss_rounds:
            raise TournamentError(
                "all_rounds_drawn", len(self.rounds), "Every round of this tournament is drawn."
            )
        if self.rounds and not all(match.decided for match in self.rounds[-1].matches):
            raise TournamentError(
                "round_unfinished",
                self.rounds[-1].number,
                f"Round {self.rounds[-1].number} has a match still unfinished.",
            )

    def draw_next_round(self) -> tuple[Pairing, ...]:
        """Return the next Swiss round's pairings, the bye last (store them and fold again).

        Raises TournamentError "rounds_draw_themselves", "all_rounds_drawn" or
        "round_unfinished". Withdrawn pairs are not drawn.

        >>> fold(Settings("swiss", 9)).draw_next_round()
        ((1, 5), (2, 6), (3, 7), (4, 8), (9, None))
        """
        self._check_draw()
        active = [pair for pair in range(1, self.settings.pairs + 1) if pair not in self.withdrawn]
        if not self.rounds:
            return swiss_first_round(active)
        matches = [match for drawn in self.rounds for match in drawn.matches]
        ranked = [line.pair for line in self.standings if line.pair not in self.withdrawn]
        wins = {line.pair: line.won for line in self.standings}
        met = {
            frozenset((match.pairs[0], second))
            for match in matches
            if (second := match.pairs[1]) is not None
        }
        had_bye = {match.pairs[0] for match in matches if match.is_bye}
        return swiss_pairings(ranked, wins, met, had_bye)

    def check_walkover(self, round: int, table: int, winner: int) -> None:
        """Raise TournamentError when a walkover cannot be entered for ``winner`` at that match.

        "no_such_match", "bye_match", "not_a_pair" (``winner`` not in it), "withdrawn" (the
        winner withdrew) or "match_played" (a rubber of it is finished, or it is decided).

        >>> tournament = fold(Settings("knockout", 5))
        >>> tournament.check_walkover(1, 1, 5)
        >>> tournament.check_walkover(1, 2, 1)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.tournaments.settings.TournamentError: Pair 1 has a bye in that round.
        """
        match = self._played_match(round, table, winner)
        if winner not in match.pairs:
            raise TournamentError("not_a_pair", winner, f"Pair {winner} is not in this match.")
        if winner in self.withdrawn:
            raise TournamentError("withdrawn", winner, f"Pair {winner} has withdrawn.")
        if match.decided or match.wins != (0, 0):
            raise TournamentError("match_played", winner, "A rubber of this match is finished.")

    def _played_match(self, round: int, table: int, value: object) -> Match:
        """Return the match at ``round`` and ``table``; a bye is no match to play ("bye_match")."""
        match = self.match(round, table)
        if match.is_bye:
            raise TournamentError(
                "bye_match", value, f"Pair {match.pairs[0]} has a bye in that round."
            )
        return match

    def check_paper_result(self, round: int, table: int) -> None:
        """Raise TournamentError when a result kept on paper cannot be given at that match.

        "no_such_match", "bye_match", or "match_decided" (won already, or a walkover). Whether
        its rubber in play has a hand is the store's to say.

        >>> tournament = fold(Settings("knockout", 5))
        >>> tournament.check_paper_result(1, 1)
        >>> tournament.check_paper_result(1, 2)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.tournaments.settings.TournamentError: Pair 1 has a bye in that round.
        """
        match = self._played_match(round, table, table)
        if match.decided:
            raise TournamentError("match_decided", table, "This match is decided already.")

    def check_undraw(self, round: int) -> None:
        """Raise TournamentError when ``round`` cannot be undrawn: only a Swiss's last round.

        "rounds_draw_themselves" or "not_last_round". Whether its matches have a hand is the
        store's to say (a hand may give no game).

        >>> fold(Settings("swiss", 4), swiss_rounds=[[(1, 3), (2, 4)]]).check_undraw(1)
        >>> fold(Settings("swiss", 4), swiss_rounds=[[(1, 3), (2, 4)]]).check_undraw(2)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.tournaments.settings.TournamentError: Only the last round drawn, round 1, can be undrawn.
        """
        if self.settings.format != "swiss":
            raise TournamentError(
                "rounds_draw_themselves",
                self.settings.format,
                "This tournament's rounds draw themselves.",
            )
        if not self.rounds or round != self.rounds[-1].number:
            last = self.rounds[-1].number if self.rounds else 0
            raise TournamentError(
                "not_last_round",
                last,
                f"Only the last round drawn, round {last}, can be undrawn.",
            )

    def check_late_pair(self) -> None:
        """Raise TournamentError "no_late_pairs" unless a pair may join now.

        Only a Swiss takes a late pair, before its last round is drawn: it is paired from the
        next round drawn, with no win for the rounds it missed.

        >>> fold(Settings("swiss", 4, rounds=2), swiss_rounds=[[(1, 3), (2, 4)]]).check_late_pair()
        >>> try:
        ...     fold(Settings("knockout", 4)).check_late_pair()
        ... except TournamentError as error:
        ...     print(error.code)
        no_late_pairs
        """
        if self.settings.format != "swiss" or len(self.rounds) >= self.settings.swiss_rounds:
            raise TournamentError(
                "no_late_pairs",
                self.settings.format,
                "Only a Swiss tournament takes a late pair, before its last round is drawn.",
            )

    def check_reinstate(self, pair: int) -> None:
        """Raise TournamentError "not_withdrawn" unless ``pair`` has withdrawn.

        >>> fold(Settings("round_robin", 4), withdrawn=[2]).check_reinstate(2)
        >>> fold(Settings("round_robin", 4)).check_reinstate(2)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.tournaments.settings.TournamentError: Pair 2 has not withdrawn.
        """
        if pair not in self.withdrawn:
            raise TournamentError("not_withdrawn", pair, f"Pair {pair} has not withdrawn.")

    def check_withdrawal(self, pair: int) -> None:
        """Raise TournamentError when ``pair`` cannot withdraw: "not_a_pair" or "withdrawn".

        >>> fold(Settings("round_robin", 4), withdrawn=[2]).check_withdrawal(2)
        Traceback (most recent call last):
        ...
        scorekeeper.engine.tournaments.settings.TournamentError: Pair 2 has withdrawn.
        """
        if not 1 <= pair <= self.settings.pairs:
            raise TournamentError("not_a_pair", pair, f"There is no pair {pair}.")
        if pair in self.withdrawn:
            raise TournamentError("withdrawn", pair, f"Pair {pair} has withdrawn.")


class _Settler:
    """Settles each match of the tournament from the stored results."""

    def __init__(
        self,
        settings: Settings,
        results: Mapping[tuple[int, int], MatchResult],
        withdrawn: Sequence[int],
    ) -> None:
        self.wins_needed = settings.wins_needed
        self.results = results
        self.withdrawn = withdrawn

    def __call__(
        self, round_: int, table: int, pairs: Pairing, stage: str, group: str | None = None
    ) -> Match:
        result = self.results.get((round_, table))
        return settle(
            (round_, table, stage, group), pairs, result, self.wins_needed, self.withdrawn
        )


def fold(
    settings: Settings,
    swiss_rounds: Sequence[Sequence[Pairing]] = (),
    results: Mapping[tuple[int, int], MatchResult] = {},  # noqa: B006 - read only
    withdrawn: Collection[int] = (),
) -> Tournament:
    """Return the tournament as its settings, Swiss draws, results (by round, table) and withdrawals make it.

    ``withdrawn`` lists the pairs that withdrew in the order they did: in a match of two
    withdrawn pairs, the one that withdrew last keeps the walkover the first withdrawal gave it.

    >>> from .matches import RubberResult
    >>> won = MatchResult((RubberResult((4, 1), 0),))
    >>> tournament = fold(Settings("knockout", 3), results={(1, 1): won, (2, 1): won})
    >>> [[match.pairs for match in drawn.matches] for drawn in tournament.rounds]
    [[(1, None), (2, 3)], [(1, 2)]]
    >>> tournament.finished, tournament.winner
    (True, 1)
    """
    for pair in withdrawn:
        if not 1 <= pair <= settings.pairs:
            raise TournamentError("not_a_pair", pair, f"There is no pair {pair}.")
    # In the order they withdrew, which settles a match of two withdrawn pairs.
    settler = _Settler(settings, results, tuple(dict.fromkeys(withdrawn)))
    everyone = range(1, settings.pairs + 1)
    out = frozenset(withdrawn)
    if settings.format == "swiss":
        return _swiss(settings, swiss_rounds, settler, out)
    if settings.format == "knockout":
        rounds, final = _knockout(settings, list(everyone), 0, settler)
        standings = knockout_standings(everyone, _matches(rounds))
        return Tournament(settings, tuple(rounds), standings, final is not None, final, out)
    if settings.groups is not None:
        return _groups(settings, settler, out)
    rounds = _round_robin_rounds([tuple(everyone)], settler, "round_robin")
    standings = table_standings(everyone, _due(rounds), buchholz=False)
    finished = all(match.decided for match in _matches(rounds))
    return Tournament(
        settings, tuple(rounds), standings, finished, _alone_first(standings, finished), out
    )


def _matches(rounds: Sequence[Round]) -> list[Match]:
    return [match for drawn in rounds for match in drawn.matches]


def _current_round(rounds: Sequence[Round]) -> int | None:
    for drawn in rounds:
        if not all(match.decided for match in drawn.matches):
            return drawn.number
    return None


def _due(rounds: Sequence[Round]) -> list[Match]:
    """Return the matches the standings count: a round robin's rest only once its round is current.

    Every round of a round robin is drawn at the start, its byes decided with it; counting them
    all would credit each pair with a rest not yet taken (RULES.md, "Tournaments").
    """
    current = _current_round(rounds)
    return [
        match
        for match in _matches(rounds)
        if not match.is_bye or current is None or match.round <= current
    ]


def _alone_first(standings: Sequence[Standing], finished: bool) -> int | None:
    if not finished or not standings or len(standings) > 1 and standings[1].rank == 1:
        return None
    return standings[0].pair


def _swiss(
    settings: Settings, draws: Sequence[Sequence[Pairing]], settler: _Settler, out: frozenset[int]
) -> Tournament:
    if len(draws) > settings.swiss_rounds:
        raise TournamentError(
            "all_rounds_drawn", len(draws), "More rounds are stored than the tournament has."
        )
    rounds = tuple(
        Round(
            number,
            tuple(
                settler(number, table, pairs, "swiss") for table, pairs in enumerate(draw, start=1)
            ),
        )
        for number, draw in enumerate(draws, start=1)
    )
    standings = table_standings(range(1, settings.pairs + 1), _matches(rounds), buchholz=True)
    finished = len(rounds) == settings.swiss_rounds and all(
        match.decided for match in _matches(rounds)
    )
    return Tournament(settings, rounds, standings, finished, _alone_first(standings, finished), out)


def _round_robin_rounds(
    groups: Sequence[Sequence[int]], settler: _Settler, stage: str
) -> list[Round]:
    """Return the rounds of a round robin in each group, round numbers shared, tables across."""
    schedules = [circle_rounds(members) for members in groups]
    names = [group_name(index) if stage == "group" else None for index in range(len(groups))]
    rounds: list[Round] = []
    for number in range(1, max(len(schedule) for schedule in schedules) + 1):
        drawn = [
            (pairs, name)
            for schedule, name in zip(schedules, names, strict=True)
            if number <= len(schedule)
            for pairs in schedule[number - 1]
        ]
        # Every group's matches, A's first, then the byes: a bye is listed last in its round.
        drawn.sort(key=lambda item: item[0][1] is None)
        rounds.append(
            Round(
                number,
                tuple(
                    settler(number, table, pairs, stage, name)
                    for table, (pairs, name) in enumerate(drawn, 1)
                ),
            )
        )
    return rounds


def _groups(settings: Settings, settler: _Settler, out: frozenset[int]) -> Tournament:
    assert settings.groups is not None and settings.advance is not None
    groups = snake_groups(settings.pairs, settings.groups)
    rounds = _round_robin_rounds(groups, settler, "group")
    standings: list[Standing] = []
    for index, members in enumerate(groups):
        letter = group_name(index)
        played = [match for match in _due(rounds) if match.group == letter]
        standings.extend(table_standings(members, played, buchholz=False, group=letter))
    final: int | None = None
    knockout: tuple[Standing, ...] = ()
    if all(match.decided for match in _matches(rounds)):
        # Group winners first, then the runners-up, ...: A1, B1, ..., A2, B2, ...
        tiers = [
            [line.pair for line in standings if line.group == group_name(index)][: settings.advance]
            for index in range(len(groups))
        ]
        seeded = [tier[place] for place in range(settings.advance) for tier in tiers]
        group_of = {pair: group_name(index) for index, tier in enumerate(tiers) for pair in tier}
        tier_of = {pair: place for tier in tiers for place, pair in enumerate(tier)}
        bracket, final = _knockout(
            settings, seeded, settings.group_rounds, settler, (group_of, tier_of)
        )
        rounds.extend(bracket)
        knockout = knockout_standings(seeded, _matches(bracket))
    return Tournament(
        settings, tuple(rounds), tuple(standings), final is not None, final, out, knockout, groups
    )


def _knockout(
    settings: Settings,
    seeded: Sequence[int],
    offset: int,
    settler: _Settler,
    parted: tuple[Mapping[int, str], Mapping[int, int]] | None = None,
) -> tuple[list[Round], int | None]:
    """Return a knockout's rounds as far as known, numbered after ``offset``, and its winner.

    A match is listed once both its pairs are known; its table is its place in the bracket, but
    in round 1, where the matches of two pairs take tables 1, 2, ... and the byes the numbers
    after them (docs/decisions/tournaments.md). The winner is given once the final (and the
    match for third place, if any) is decided.
    """
    size = bracket_size(len(seeded))
    slots: list[int | None] = [
        seeded[seed - 1] if seed <= len(seeded) else None for seed in bracket_order(size)
    ]
    if parted is not None:
        part_groups(slots, *parted)
    # Each place's pair in the round being built (None while unknown), one place a match.
    places: list[int | None] = slots
    tables = first_round_tables(len(seeded))
    losers: list[int | None] = []
    rounds: list[Round] = []
    for depth in range(1, settings.knockout_rounds + 1):
        number = offset + depth
        matches: list[Match] = []
        winners: list[int | None] = []
        semi_losers, losers = losers, []
        for place in range(0, len(places), 2):
            first, second = places[place], places[place + 1]
            # In round 1 the second place may be empty: a bye, listed as a match.
            if first is None or second is None and depth > 1:
                winners.append(None)
                losers.append(None)
                continue
            table = tables[place // 2] if depth == 1 else place // 2 + 1
            match = settler(number, table, (first, second), "knockout")
            matches.append(match)
            winners.append(match.winner)
            losers.append(match.loser)
        if depth == settings.knockout_rounds and settings.third_place:
            if semi_losers[0] is not None and semi_losers[1] is not None:
                pairs = (semi_losers[0], semi_losers[1])
                matches.append(settler(number, 2, pairs, "third_place"))
        places = winners
        if matches:
            rounds.append(Round(number, tuple(matches)))
    third = [match for drawn in rounds for match in drawn.matches if match.stage == "third_place"]
    over = not settings.third_place or bool(third) and third[0].decided
    return rounds, places[0] if over else None
