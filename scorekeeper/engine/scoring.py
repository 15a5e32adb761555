"""A rubber's state folded from its hands, and the refusals of a hand that cannot come next."""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from .games import HandReason, HandResult, base_games, is_bandeira
from .hands import TOTAL_POINTS as TOTAL_POINTS
from .hands import WIN_ABOVE, Hand, HandKind, HandNotAllowedError, ScoringError
from .rules import Direction, Revoke, RuleSet, Tie
from .tricks import SEATS

MAX_HANDS = 200
"""No real rubber comes near this; it bounds what one rubber can store."""
MAX_MULTIPLIER = 2**10
"""``tie: double`` stops doubling after ten ties in a row: no table gets there, and the games a
hand can add stay a number every database holds (unbounded, 63 ties overflowed SQLite)."""


class RubberFinishedError(ScoringError):
    """A hand after the rubber was already won."""

    code = "rubber_finished"

    def __init__(self, number: int) -> None:
        self.value = number
        super().__init__(f"Hand {number} comes after the rubber was already won.")


class TooManyHandsError(ScoringError):
    """More hands than any rubber needs."""

    code = "too_many_hands"

    def __init__(self, number: int) -> None:
        self.value = number
        super().__init__(
            f"A rubber holds at most {MAX_HANDS} hands; hand {number} is one too many."
        )


class PaperResultError(ScoringError):
    """Games kept on paper that no rubber ends with: one team at the target, the other short."""

    code = "paper_result"

    def __init__(self, games: object, target: int) -> None:
        self.value = games
        self.target = target
        super().__init__(
            f"A rubber kept on paper ends with one team on {target} games or more and the other "
            f"short of them, not {games!r}."
        )


PAPER_MAX_GAMES = 99
"""The most games one side may be given on paper: two digits, as the sheet has room for."""


class Outcome(enum.Enum):
    """The name a finished rubber is known by, if any."""

    PENTE = "pente"
    """Won with the other team on 0 games (pt-BR: gato)."""
    CHAPEU = "chapeu"
    """Won 4-1 (chapéu): a rubber to 4, the other team on 1 game."""
    ARREPIO = "arrepio"
    """Won 4-3 after trailing 0-3 (arrepio): a rubber to 4."""
    BANDEIRA = "bandeira"
    """Won at once by a bandeira (under bandeira_wins_rubber)."""
    REVOKE = "revoke"
    """Won at once by the other team's revoke (under revoke: lose_rubber)."""


@dataclass(frozen=True)
class Tally:
    """What the next hand needs to know of the rubber before it.

    It holds the running totals of the fold, without the results of the hands behind them. A store
    keeps it beside the hands, so that one more hand is scored without reading the others
    (:func:`next_hand`).

    ``brink`` says, for each team, whether it has stood one game short of the target while the
    other team had none: the arrepio a later win over it would be.
    """

    rules: RuleSet
    hand_count: int = 0
    games: tuple[int, int] = (0, 0)
    pending_extra: int = 0
    pending_multiplier: int = 1
    finished: bool = False
    winner: int | None = None
    outcome: Outcome | None = None
    dealer: int = 0
    brink: tuple[bool, bool] = (False, False)

    @property
    def leader(self) -> int:
        """The seat that leads the next hand's first trick: the one after the dealer."""
        return (self.dealer + 1) % SEATS


@dataclass(frozen=True)
class RubberState:
    """A rubber after some hands.

    It is always the fold of its hands by :func:`replay`; its running totals are its
    :class:`Tally`."""

    tally: Tally
    first_dealer: int = 0
    hands: tuple[HandResult, ...] = field(default=())

    @property
    def rules(self) -> RuleSet:
        return self.tally.rules

    @property
    def games(self) -> tuple[int, int]:
        return self.tally.games

    @property
    def pending_extra(self) -> int:
        """Games a tie left for the next hand won (``tie: carry``)."""
        return self.tally.pending_extra

    @property
    def pending_multiplier(self) -> int:
        """What ties left to multiply the next hand won by (``tie: double``)."""
        return self.tally.pending_multiplier

    @property
    def finished(self) -> bool:
        return self.tally.finished

    @property
    def winner(self) -> int | None:
        return self.tally.winner

    @property
    def outcome(self) -> Outcome | None:
        return self.tally.outcome

    @property
    def dealer(self) -> int:
        """Who deals the next hand."""
        return self.tally.dealer

    @property
    def leader(self) -> int:
        """The seat that leads the next hand's first trick: the one after the dealer."""
        return self.tally.leader

    @property
    def shuffler(self) -> int:
        """Who shuffles for the next hand: dealer+1 counter-clockwise, dealer+3 clockwise."""
        step = 1 if self.rules.direction is Direction.COUNTERCLOCKWISE else 3
        return (self.dealer + step) % SEATS

    @property
    def cutter(self) -> int:
        """Who cuts for the next hand: the seat on the other side of the dealer."""
        step = 3 if self.rules.direction is Direction.COUNTERCLOCKWISE else 1
        return (self.dealer + step) % SEATS

    @property
    def shutout(self) -> bool:
        """Whether the rubber was won with the other team on 0 games (the pente loop is drawn)."""
        return self.winner is not None and self.games[1 - self.winner] == 0

    @property
    def pente(self) -> bool:
        """Whether the rubber is a pente (pt-BR gato): a clean sheet, won with games against none.

        >>> replay(RuleSet(), [Hand.played(95), Hand.played(95)]).pente
        True
        >>> replay(RuleSet(revoke=Revoke.LOSE_RUBBER), [Hand.revoke(1)]).pente  # won, but 0-0
        False
        """
        return is_pente(self.games, self.winner)

    @property
    def names(self) -> tuple[Outcome, ...]:
        """Every name the finished rubber goes by (:func:`rubber_names`).

        >>> replay(RuleSet(), [Hand.played(120, all_tricks=True)]).names
        (<Outcome.BANDEIRA: 'bandeira'>, <Outcome.PENTE: 'pente'>)
        """
        return rubber_names(self.outcome, self.games, self.winner)

    def past_target(self, team: int) -> int:
        """Return the games the team holds beyond the target.

        The record keeps them; the cross draws the target's dots, and says these beside them.

        >>> replay(RuleSet(), [Hand.played(75)] * 3 + [Hand.played(95)]).past_target(0)
        1
        """
        return max(self.games[team] - self.rules.games_to_win, 0)

    def dots(self, team: int) -> tuple[int, ...]:
        """The hand number behind each game the team holds now, in the order they were marked.

        A game kept on paper (:func:`paper_result`) has no hand behind it: 0.

        >>> replay(RuleSet(), [Hand.played(75), Hand.played(95)]).dots(0)
        (1, 2, 2)
        """
        if not self.hands:  # none, or the games of a rubber kept on paper, from no hand
            return (0,) * self.games[team]
        marks: list[int] = []
        for result in self.hands:
            added = result.games[team]
            if added > 0:
                marks.extend([result.number] * added)
            elif added < 0:
                del marks[added:]
        return tuple(marks)


def is_pente(games: tuple[int, int], winner: int | None) -> bool:
    """Return whether a rubber won by ``winner`` with these games is a pente.

    It is 4-0 at the usual target, the loser on 0 at any target; a win by a revoke with no game
    marked is none.

    >>> is_pente((4, 0), 0), is_pente((2, 0), 0), is_pente((0, 0), 1), is_pente((4, 1), 0)
    (True, True, False, False)
    """
    return winner is not None and games[1 - winner] == 0 and games[winner] > 0


def rubber_names(
    outcome: Outcome | str | None, games: tuple[int, int], winner: int | None
) -> tuple[Outcome, ...]:
    """Return every name a finished rubber goes by: its outcome, and pente when it is one.

    Pente (pt-BR gato) whenever the loser is on 0 games (:func:`is_pente`), whatever ended it:
    the one fact the rubber page, the sitting's running count and the statistics all read. A
    4-0 won by a bandeira is a bandeira and a pente.

    >>> rubber_names("bandeira", (4, 0), 0), rubber_names(Outcome.BANDEIRA, (5, 1), 0)
    ((<Outcome.BANDEIRA: 'bandeira'>, <Outcome.PENTE: 'pente'>), (<Outcome.BANDEIRA: 'bandeira'>,))
    """
    names = [] if outcome is None else [Outcome(outcome)]
    if is_pente(games, winner) and Outcome.PENTE not in names:
        names.append(Outcome.PENTE)
    return tuple(names)


def new_rubber(rules: RuleSet, first_dealer: int = 0) -> RubberState:
    """A rubber with no hands yet.

    >>> new_rubber(RuleSet(), first_dealer=3).leader
    0
    """
    if isinstance(first_dealer, bool) or first_dealer not in range(SEATS):
        raise HandNotAllowedError(
            first_dealer, f"The dealer must be a seat from 0 to 3, not {first_dealer!r}."
        )
    return RubberState(Tally(rules, dealer=first_dealer), first_dealer=first_dealer)


def verify_hand(state: RubberState, hand: Hand) -> None:
    """Raise a :class:`ScoringError` if ``hand`` cannot be the next hand of the rubber.

    >>> verify_hand(new_rubber(RuleSet()), Hand.spoiled())
    Traceback (most recent call last):
    ...
    scorekeeper.engine.hands.HandNotAllowedError: A deal can only be spoiled (melar) when the melar rule is on.
    """
    _verify(state.tally, hand)


def _verify(tally: Tally, hand: Hand) -> None:
    number = tally.hand_count + 1
    if tally.finished:
        raise RubberFinishedError(number)
    if number > MAX_HANDS:
        raise TooManyHandsError(number)
    if hand.kind is HandKind.SPOILED and not tally.rules.melar:
        raise HandNotAllowedError(
            hand.kind, "A deal can only be spoiled (melar) when the melar rule is on."
        )


def can_add_hand(state: RubberState, hand: Hand) -> bool:
    """Whether ``hand`` can be the next hand of the rubber.

    >>> can_add_hand(replay(RuleSet(), [Hand.played(120, all_tricks=True)]), Hand.played(70))
    False
    """
    try:
        verify_hand(state, hand)
    except ScoringError:
        return False
    return True


def play_hand(state: RubberState, hand: Hand) -> RubberState:
    """The rubber after one more hand (raises a :class:`ScoringError` if it cannot be added).

    >>> play_hand(new_rubber(RuleSet()), Hand.played(29, 91)).games
    (0, 2)
    """
    tally, result = next_hand(state.tally, hand)
    return replace(state, tally=tally, hands=(*state.hands, result))


def next_hand(tally: Tally, hand: Hand) -> tuple[Tally, HandResult]:
    """Return the running totals after one more hand, and what the hand added.

    It is :func:`play_hand` without the results of the hands before (raises a :class:`ScoringError`
    likewise).

    >>> tally, result = next_hand(Tally(RuleSet(), hand_count=3, games=(2, 1)), Hand.played(95))
    >>> tally.games, tally.hand_count, result.number, [str(reason) for reason in result.reasons]
    ((4, 1), 4, 4, ['capote', 'rubber_won'])
    """
    _verify(tally, hand)
    rules = tally.rules
    effect = _Effect(extra=tally.pending_extra, multiplier=tally.pending_multiplier)
    if hand.kind is HandKind.PLAYED:
        _score_played(effect, hand, rules)
    elif hand.kind is HandKind.TIE:
        _score_tie(effect, rules)
    elif hand.kind is HandKind.REVOKE:
        _score_revoke(effect, hand, rules, tally.games)
    else:
        effect.reasons.append(HandReason.SPOILED)
    games = (tally.games[0] + effect.added[0], tally.games[1] + effect.added[1])
    rubber_winner = effect.rubber_winner
    if rubber_winner is None:
        rubber_winner = _reached_target(games, rules)
    if rubber_winner is not None:
        effect.reasons.append(HandReason.RUBBER_WON)
    result = HandResult(
        number=tally.hand_count + 1,
        hand=hand,
        dealer=tally.dealer,
        leader=tally.leader,
        games=(effect.added[0], effect.added[1]),
        games_after=games,
        reasons=tuple(effect.reasons),
        winner=effect.winner,
        base_games=effect.base,
        carried_extra=effect.carried,
        multiplier=effect.applied_multiplier,
        bandeira=effect.bandeira,
        rubber_winner=rubber_winner,
    )
    return _tally_after(tally, effect, result), result


@dataclass
class _Effect:
    """What one hand does to the games, before the rubber's target is looked at."""

    extra: int
    """The games a tie carries to the next won hand (``Tally.pending_extra``), after this one."""
    multiplier: int
    """What ties double the next won hand by (``Tally.pending_multiplier``), after this one."""
    added: list[int] = field(default_factory=lambda: [0, 0])
    reasons: list[HandReason] = field(default_factory=list)
    winner: int | None = None
    rubber_winner: int | None = None
    """The team the hand wins the rubber for at once (a bandeira, a revoke), whatever the games."""
    outcome: Outcome | None = None
    base: int = 0
    carried: int = 0
    applied_multiplier: int = 1
    bandeira: bool = False


def _score_played(effect: _Effect, hand: Hand, rules: RuleSet) -> None:
    """A played hand: its winner's games, with what earlier ties carried or doubled."""
    assert hand.points is not None
    winner = 0 if hand.points[0] > WIN_ABOVE else 1
    base = base_games(hand, rules)
    bandeira = is_bandeira(hand, rules)
    effect.winner, effect.base, effect.bandeira = winner, base, bandeira
    effect.reasons.append(
        HandReason.BANDEIRA if bandeira else HandReason.CAPOTE if base == 2 else HandReason.ONE_GAME
    )
    total = base
    if effect.extra:
        effect.carried = effect.extra
        total += effect.extra
        effect.reasons.append(HandReason.TIE_CARRIED)
    if effect.multiplier > 1:
        effect.applied_multiplier = effect.multiplier
        total *= effect.multiplier
        effect.reasons.append(HandReason.TIE_DOUBLED)
    effect.added[winner] = total
    effect.extra, effect.multiplier = 0, 1
    if bandeira and rules.bandeira_wins_rubber:
        effect.rubber_winner = winner
        effect.outcome = Outcome.BANDEIRA
        effect.reasons.append(HandReason.BANDEIRA_WINS_RUBBER)


def _score_tie(effect: _Effect, rules: RuleSet) -> None:
    """A tie: no games now, and what the tie rule keeps for the next won hand."""
    effect.reasons.append(HandReason.TIE)
    if rules.tie is Tie.CARRY:
        effect.extra += 1
        effect.reasons.append(HandReason.TIE_CARRY)
    elif rules.tie is Tie.DOUBLE:
        effect.multiplier = min(effect.multiplier * 2, MAX_MULTIPLIER)
        effect.reasons.append(HandReason.TIE_DOUBLE)
    else:
        effect.reasons.append(HandReason.TIE_VOID)


def _score_revoke(effect: _Effect, hand: Hand, rules: RuleSet, games: tuple[int, int]) -> None:
    """A revoke: the penalty the revoke rule sets, on the offenders or for the other team."""
    assert hand.team is not None
    offender, other = hand.team, 1 - hand.team
    if rules.revoke is Revoke.OPPONENTS_TWO:
        effect.added[other] = 2
        effect.reasons.append(HandReason.REVOKE_PENALTY)
    elif rules.revoke is Revoke.OFFENDER_MINUS_TWO:
        effect.added[offender] = -min(2, games[offender])
        effect.reasons.append(HandReason.REVOKE_MINUS_TWO)
    else:
        effect.rubber_winner = other
        effect.outcome = Outcome.REVOKE
        effect.reasons.append(HandReason.REVOKE_LOSES_RUBBER)


def _reached_target(games: tuple[int, int], rules: RuleSet) -> int | None:
    """The team whose games reached the target, if one did."""
    reached = None
    for team in (0, 1):
        if games[team] >= rules.games_to_win:
            reached = team
    return reached


def _tally_after(tally: Tally, effect: _Effect, result: HandResult) -> Tally:
    """The running totals after the hand ``result`` tells of."""
    rules = tally.rules
    games = result.games_after
    brink = tuple(
        tally.brink[team] or (games[team] == rules.games_to_win - 1 and games[1 - team] == 0)
        for team in (0, 1)
    )
    spoiled = result.hand.kind is HandKind.SPOILED
    outcome = effect.outcome
    rubber_winner = result.rubber_winner
    if rubber_winner is not None and outcome is None:
        outcome = _name_outcome(rules, rubber_winner, games, brink[1 - rubber_winner])
    return Tally(
        rules,
        hand_count=result.number,
        games=games,
        pending_extra=effect.extra,
        pending_multiplier=effect.multiplier,
        finished=rubber_winner is not None,
        winner=rubber_winner,
        outcome=outcome,
        dealer=tally.dealer if spoiled else (tally.dealer + 1) % SEATS,
        brink=(brink[0], brink[1]),
    )


NAMED_TARGET = 4
"""The target of the rubbers chapéu (4-1) and arrepio (4-3 after 0-3) are said of: a 6-1 is
no chapéu."""


def _name_outcome(
    rules: RuleSet, winner: int, final: tuple[int, int], loser_on_brink: bool
) -> Outcome | None:
    loser = 1 - winner
    target = rules.games_to_win
    if is_pente(final, winner):
        return Outcome.PENTE
    if target != NAMED_TARGET:  # chapéu and arrepio name scores of a rubber to 4 (RULES.md)
        return None
    if final[loser] == 1:
        return Outcome.CHAPEU
    if final[loser] == target - 1 and loser_on_brink:
        return Outcome.ARREPIO
    return None


def replay(rules: RuleSet, hands: Iterable[Hand], first_dealer: int = 0) -> RubberState:
    """Fold a rubber's hands, in order, into its state. Editing a hand is replaying.

    >>> state = replay(RuleSet(), [Hand.tie(), Hand.tie(), Hand.played(75, 45)])
    >>> state.games, [h.games for h in state.hands]
    ((3, 0), [(0, 0), (0, 0), (3, 0)])
    """
    state = new_rubber(rules, first_dealer)
    for hand in hands:
        state = play_hand(state, hand)
    return state


def paper_result(rules: RuleSet, games: object, first_dealer: int = 0) -> RubberState:
    """A rubber its table kept on paper: won with these games, without the hands behind them.

    One team holds the target or more and the other less, as a rubber ends
    (:class:`PaperResultError` otherwise). Its name is only what the games say (pente,
    chapéu): whether a 4-3 was an arrepio is in the hands the paper kept.

    >>> state = paper_result(RuleSet(), (1, 4))
    >>> state.finished, state.winner, state.games, state.names
    (True, 1, (1, 4), (<Outcome.CHAPEU: 'chapeu'>,))
    >>> try:
    ...     paper_result(RuleSet(), (4, 4))
    ... except PaperResultError as error:
    ...     print(error.code, error.value)
    paper_result (4, 4)
    """
    target = rules.games_to_win
    if not isinstance(games, tuple | list) or len(games) != 2:  # noqa: PLR2004  two teams
        raise PaperResultError(games, target)
    if any(isinstance(g, bool) or not isinstance(g, int) for g in games):
        raise PaperResultError(games, target)
    final = (int(games[0]), int(games[1]))
    if (
        min(final) < 0
        or max(final) > PAPER_MAX_GAMES
        or (max(final) >= target) == (min(final) >= target)
    ):
        raise PaperResultError(final, target)
    winner = 0 if final[0] >= target else 1
    outcome = _name_outcome(rules, winner, final, loser_on_brink=False)
    tally = new_rubber(rules, first_dealer).tally
    return RubberState(
        replace(tally, games=final, finished=True, winner=winner, outcome=outcome),
        first_dealer=first_dealer,
    )
