"""Sittings (sessões): the rubbers of the same two pairs in a row, and the sheet's running count.

The rubbers are read around one rubber in the group's order (or along its chain of "next rubber,
same table"), and the paper sheet's running count is over them (docs/decisions/groups.md,
"Sittings")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import sqlalchemy as sa

from scorekeeper import engine
from scorekeeper.engine.names import player_key
from scorekeeper.extensions import db
from scorekeeper.groups.ratings import at_or_after, before
from scorekeeper.groups.statistics import SEATS, seat_names
from scorekeeper.rubbers.models import Rubber

SITTING_GAP = timedelta(hours=3)
"""Two rubbers of the same four players further apart than this are two sittings."""
TEAM_KEY = "team:"
"""The mark of a side known by its team's name rather than its two players."""
NEIGHBOURS = 40
"""Rubbers read on each side of one to find its sitting: no sitting is longer."""


def side(players: Sequence[str | None] | None, teams: Sequence[str], team: int) -> frozenset[str]:
    """Return who a team is, for telling sittings apart.

    Its two players, or its name when a seat of it is unnamed."""
    names = seat_names(players)
    keys = [player_key(names[seat]) for seat in range(SEATS) if engine.team_of(seat) == team]
    if all(keys):
        return frozenset(keys)
    return frozenset({TEAM_KEY + player_key(teams[team])})


@dataclass(frozen=True)
class SittingRubber:
    """A rubber as a sitting sees it: who played, when, and how it ended."""

    id: str
    created_at: datetime
    previous_id: str | None
    sides: tuple[frozenset[str], frozenset[str]]
    """Who team 0 and team 1 were."""
    finished: bool
    winner: int | None
    shutout: bool

    @property
    def table(self) -> frozenset[frozenset[str]]:
        return frozenset(self.sides)

    @property
    def named(self) -> bool:
        """Whether all four players are named (else a side is known by its team's name)."""
        return not any(key.startswith(TEAM_KEY) for team in self.sides for key in team)


def follows(earlier: SittingRubber, later: SittingRubber) -> bool:
    """Whether ``later`` was played right after ``earlier`` at the same table."""
    if later.previous_id == earlier.id:
        return True
    return later.table == earlier.table and later.created_at - earlier.created_at <= SITTING_GAP


def sitting(rubbers: Sequence[SittingRubber], target: str) -> list[SittingRubber]:
    """Return the sitting of rubber ``target``: the rubbers of the same four players around it.

    Each is started within SITTING_GAP of the one before (or as its "next rubber"), in order.

    ``rubbers`` are the neighbours of the target in the group's order.
    """
    index = next(i for i, rubber in enumerate(rubbers) if rubber.id == target)
    table = rubbers[index].table
    same = [rubber for rubber in rubbers if rubber.table == table or rubber.id == target]
    at = next(i for i, rubber in enumerate(same) if rubber.id == target)
    start = at
    while start > 0 and follows(same[start - 1], same[start]):
        start -= 1
    end = at
    while end + 1 < len(same) and follows(same[end], same[end + 1]):
        end += 1
    return same[start : end + 1]


@dataclass(frozen=True)
class SittingRow:
    """One rubber of a sitting and the running count after it, for the sitting's two sides."""

    rubber: SittingRubber
    flipped: bool
    """Whether the rubber's team 0 is the sitting's second side."""
    rubbers: tuple[int, int]
    pentes: tuple[int, int]


def running_count(rubbers: Sequence[SittingRubber]) -> list[SittingRow]:
    """Return the paper sheet's running count: rubbers and pentes won by each side of the sitting.

    The first rubber's team 0 is side 0.

    >>> a, b = frozenset({"ana", "eva"}), frozenset({"rui", "zé"})
    >>> when = datetime(2026, 1, 1)
    >>> rows = running_count([
    ...     SittingRubber("1", when, None, (a, b), True, 0, True),
    ...     SittingRubber("2", when, "1", (b, a), True, 0, False),
    ... ])
    >>> [(row.rubbers, row.pentes) for row in rows]
    [((1, 0), (1, 0)), ((1, 1), (1, 0))]
    """
    if not rubbers:
        return []
    first = rubbers[0].sides[0]
    won = [0, 0]
    pentes = [0, 0]
    rows = []
    for rubber in rubbers:
        flipped = rubber.sides[0] != first
        if rubber.finished and rubber.winner is not None:
            winner = rubber.winner ^ flipped
            won[winner] += 1
            pentes[winner] += rubber.shutout
        rows.append(SittingRow(rubber, flipped, (won[0], won[1]), (pentes[0], pentes[1])))
    return rows


# The rubbers around one, from the database ------------------------------------------------


def sitting_view(rubber: Rubber) -> SittingRubber:
    return SittingRubber(
        id=rubber.id,
        created_at=rubber.created_at,
        previous_id=rubber.previous_id,
        sides=(
            side(rubber.players, rubber.teams, 0),
            side(rubber.players, rubber.teams, 1),
        ),
        finished=rubber.finished,
        winner=rubber.winner,
        shutout=rubber.finished and engine.is_pente((rubber.games0, rubber.games1), rubber.winner),
    )


def neighbours(rubber: Rubber) -> list[Rubber]:
    """Return the rubbers around this one that its sitting can be made of, in order.

    In a group, its neighbours in the group's order; elsewhere, its chain of "next rubber, same
    table"."""
    if rubber.group_id is not None and rubber.group_seq is not None:
        earlier = db.session.execute(
            sa.select(Rubber)
            .where(Rubber.group_id == rubber.group_id, before(rubber.created_at, rubber.group_seq))
            .order_by(Rubber.created_at.desc(), Rubber.group_seq.desc())
            .limit(NEIGHBOURS)
        ).scalars()
        later = db.session.execute(
            sa.select(Rubber)
            .where(
                Rubber.group_id == rubber.group_id,
                at_or_after(rubber.created_at, rubber.group_seq),
            )
            .order_by(Rubber.created_at, Rubber.group_seq)
            .limit(NEIGHBOURS + 1)
        ).scalars()
        return [*reversed(list(earlier)), *later]
    ids = _chain(rubber.id, backwards=True) | _chain(rubber.id, backwards=False)
    found = db.session.execute(sa.select(Rubber).where(Rubber.id.in_(ids))).scalars()
    return sorted(found, key=lambda r: (r.created_at, r.id))


def _chain(rubber_id: str, *, backwards: bool) -> set[str]:
    """The ids linked to a rubber by "next rubber, same table", one way, at most NEIGHBOURS."""
    start = (
        sa.select(Rubber.id, Rubber.previous_id, sa.literal(0).label("depth"))
        .where(Rubber.id == rubber_id)
        .cte("chain", recursive=True)
    )
    link = Rubber.id == start.c.previous_id if backwards else Rubber.previous_id == start.c.id
    chain = start.union_all(
        sa.select(Rubber.id, Rubber.previous_id, start.c.depth + 1)
        .join(start, link)
        .where(start.c.depth < NEIGHBOURS)
    )
    return set(db.session.execute(sa.select(chain.c.id)).scalars())
