"""Groups in the database: their edit rights, a rubber moved in or out, and what pages read.

What the pages read of a group is the statistics from its stored totals and a player's ratings.

What every write of a group's rubber keeps is in ``groups.seats`` (the seat cache),
``groups.totals`` (the totals) and ``groups.ratings`` (the ratings, rubber by rubber); the
group's sittings in ``groups.sittings``.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from blinker import Namespace
from flask_babel import gettext as _
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm.exc import StaleDataError

from scorekeeper.extensions import db
from scorekeeper.groups import statistics
from scorekeeper.groups.models import (
    TV_CODE_LENGTH,
    DeviceGroup,
    Group,
    GroupOpponent,
    GroupOutcome,
    GroupPartner,
    GroupPlayer,
    GroupSeat,
)
from scorekeeper.groups.ratings import flag_is, refresh_players

# Named here as well for the API's import, which keeps its group writes in one module.
from scorekeeper.groups.ratings import rerate_from as rerate_from
from scorekeeper.groups.seats import add_rubbers as add_rubbers
from scorekeeper.groups.seats import lock as lock
from scorekeeper.groups.seats import refresh_seats as refresh_seats
from scorekeeper.groups.totals import ALL, FINISHED, PLAYER_TOTALS, Totals, result_of, seats_table
from scorekeeper.rubbers import store
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web import grants

CHART_POINTS = 200
"""The rating chart shows a player's last rubbers, at most this many."""


# Groups and edit rights -------------------------------------------------------------------------


def create_group(name: str, device: str | None = None) -> tuple[Group, str]:
    """Store a new group; returns it with its edit key (only ever known to its creator)."""
    key = store.new_token()
    group = Group(
        id=store.new_token(), edit_key_hash=store.hash_key(key), name=name, tv_code=new_tv_code()
    )
    GRANTS.create(group, device)
    return group, key


def _read_only() -> str:
    return _(
        "This phone has the group's read-only link: open the group's edit link to start rubbers "
        "and games in it, or to move rubbers into it."
    )


TV_CODE_LETTERS = "abcdefghjkmnpqrstuvwxyz"
"""The letters of a TV code: lower case, without i, l and o, which read as 1 and 0."""


def tv_code() -> str:
    """Return a random TV code: TV_CODE_LENGTH of TV_CODE_LETTERS, about 45 bits.

    >>> code = tv_code()
    >>> len(code) == TV_CODE_LENGTH and set(code) <= set(TV_CODE_LETTERS)
    True
    """
    return "".join(secrets.choice(TV_CODE_LETTERS) for _ in range(TV_CODE_LENGTH))


def new_tv_code() -> str:
    """Return a TV code that opens no TV yet, a group's or another's (:func:`tv_page`).

    Two alike are one in 10^13: drawn again."""
    while True:
        code = tv_code()
        if tv_page(code) is None:
            return code


def by_tv_code(code: str) -> Group | None:
    """Return the group whose TV code this is, typed in either case."""
    return db.session.execute(
        sa.select(Group).where(Group.tv_code == code.lower())
    ).scalar_one_or_none()


signals = Namespace()
tv_code_sought = signals.signal("tv-code-sought")
"""Sent with a TV code that no group has (lower case, as the sender). A feature above the groups
whose TVs have codes of their own (the tournaments) answers with its :class:`TvPage` when the
code is one of its TVs', else None: the groups know nothing of them, yet /tv/<code> opens their
TVs and a new code is drawn unused by any (docs/decisions/groups.md, "The TV's short address")."""


@dataclass(frozen=True)
class TvPage:
    """The TV a short code opens: the endpoint of its page and the values of its address."""

    endpoint: str
    values: dict[str, Any]


def tv_page(code: str) -> TvPage | None:
    """Return the TV a code opens, typed in either case: a group's, else one a listener names.

    None for a code that is none (:data:`tv_code_sought`)."""
    code = code.lower()
    if len(code) != TV_CODE_LENGTH:
        return None
    group = by_tv_code(code)
    if group is not None:
        return TvPage("groups.display", {"group_id": group.id})
    for _listener, answer in tv_code_sought.send(code):
        if isinstance(answer, TvPage):
            return answer
    return None


GRANTS: grants.Granted[Group] = grants.Granted(
    Group, DeviceGroup, "group_id", dated=False, book="group_keys", read_only=_read_only
)
"""Which devices may change a group (web.grants)."""
get = GRANTS.get
grant = GRANTS.grant
can_edit = GRANTS.can_edit
key_matches = GRANTS.key_matches


def known_names(group_id: str, limit: int = 60) -> list[str]:
    """The group's players, most often seen first, each in its latest spelling."""
    rows = db.session.execute(
        sa.select(GroupPlayer.name)
        .where(GroupPlayer.group_id == group_id)
        .order_by(GroupPlayer.rated.desc(), GroupPlayer.name)
        .limit(limit)
    )
    return [row.name for row in rows]


def move(rubber: Rubber, group: Group) -> None:
    """Move a rubber that is in no group into ``group``, and commit.

    Raises ``store.Conflict("busy")`` when another write got to the rubber or the group first.
    """
    assert rubber.group_id is None
    try:
        rubber.group_id = group.id
        refresh_seats(rubber, rubber.state())
        db.session.commit()
    except (OperationalError, IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise store.Conflict("busy") from error
    except Exception:
        db.session.rollback()
        raise


def leave(rubber: Rubber) -> None:
    """Undo :func:`move`: take a rubber out of its group again, and commit.

    Its seat rows and its part of the group's totals go, and the rubbers after it are rated again
    without it.

    Raises ``store.Conflict("busy")`` when another write got to the rubber or the group first.
    """
    group_id, created_at, seq = rubber.group_id, rubber.created_at, rubber.group_seq
    assert group_id is not None and seq is not None
    try:
        result = result_of(rubber.state().tally)
        rubber.group_id = None
        rubber.group_seq = None
        # The rubber's row, then the group's: the order every other write takes them in.
        db.session.flush()
        lock(group_id)
        connection = db.session.connection()
        old = [
            dict(row)
            for row in connection.execute(
                sa.select(seats_table).where(seats_table.c.rubber_id == rubber.id)
            ).mappings()
        ]
        connection.execute(seats_table.delete().where(seats_table.c.rubber_id == rubber.id))
        totals = Totals()
        totals.count_seats(old, -1)
        totals.count_rubber(-1)
        totals.count_result(result, -1)
        totals.write(group_id)
        rerate_from(group_id, created_at, seq)
        refresh_players(group_id, {row["player_key"] for row in old})
        db.session.commit()
    except (OperationalError, IntegrityError, StaleDataError) as error:
        db.session.rollback()
        raise store.Conflict("busy") from error
    except Exception:
        db.session.rollback()
        raise


# The statistics, read from the stored totals -------------------------------------------------


def stats(group_id: str) -> statistics.GroupStats:
    """Return the group's statistics read from its stored totals.

    Four queries, whatever the number of rubbers; no seat or hand read."""
    result = statistics.GroupStats()
    for player in db.session.execute(
        sa.select(GroupPlayer).where(GroupPlayer.group_id == group_id)
    ).scalars():
        result.names[player.player_key] = player.name
        if player.rubbers <= 0:
            continue  # no finished rubber yet
        found = statistics.PlayerStats(
            player.player_key,
            player.name,
            **{name: getattr(player, name) for name in PLAYER_TOTALS},
        )
        if player.mu is not None and player.sigma is not None:
            found.rating = statistics.Rating(player.mu, player.sigma)
            found.rated = player.rated
        result.players[player.player_key] = found

    for pair in db.session.execute(
        sa.select(GroupPartner).where(GroupPartner.group_id == group_id, GroupPartner.rubbers > 0)
    ).scalars():
        keys = (pair.player_key, pair.partner_key)
        result.partners[keys] = statistics.PairStats(
            tuple(sorted(keys)),  # type: ignore[arg-type]
            pair.rubbers,
            pair.won,
            pair.games_won,
            pair.games_lost,
        )

    for versus in db.session.execute(
        sa.select(GroupOpponent).where(
            GroupOpponent.group_id == group_id, GroupOpponent.rubbers > 0
        )
    ).scalars():
        result.versus[(versus.player_key, versus.opponent_key)] = statistics.Versus(
            versus.player_key, versus.opponent_key, versus.rubbers, versus.won
        )

    for outcome in db.session.execute(
        sa.select(GroupOutcome).where(GroupOutcome.group_id == group_id, GroupOutcome.rubbers > 0)
    ).scalars():
        if outcome.outcome == FINISHED:
            result.rubbers = outcome.rubbers
        elif outcome.outcome != ALL:
            result.outcomes[outcome.outcome] = outcome.rubbers
    return result


def rubber_counts(group_id: str) -> tuple[int, int]:
    """The group's rubbers, and those finished, from its stored totals."""
    counts = {
        row.outcome: row.rubbers
        for row in db.session.execute(
            sa.select(GroupOutcome.outcome, GroupOutcome.rubbers).where(
                GroupOutcome.group_id == group_id, GroupOutcome.outcome.in_((ALL, FINISHED))
            )
        )
    }
    return counts.get(ALL, 0), counts.get(FINISHED, 0)


def rating_history(group_id: str, key: str) -> list[tuple[float, float]]:
    """A player's rating (mu, sigma) after each of their last rated rubbers, oldest first."""
    rows = db.session.execute(
        sa.select(GroupSeat.mu, GroupSeat.sigma)
        .where(
            GroupSeat.group_id == group_id,
            GroupSeat.player_key == key,
            flag_is(GroupSeat.rated, True),
        )
        .order_by(GroupSeat.created_at.desc(), GroupSeat.group_seq.desc())
        .limit(CHART_POINTS)
    ).all()
    return [(float(row.mu), float(row.sigma)) for row in reversed(rows)]
