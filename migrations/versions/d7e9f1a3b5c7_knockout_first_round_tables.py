"""A knockout's first round at tables 1 to k, the byes after them

A knockout's first round played at its places in the bracket, so a knockout of 6 played at
tables 2 and 4 while 1 and 3 stood empty for the byes. Its matches of two pairs now take tables
1, 2, ... from the top of the bracket and the byes the numbers after them
(docs/decisions/tournaments.md, "Tables"): the rubbers and walkovers already kept at a first
round's table move to the match's new number.

Revision ID: d7e9f1a3b5c7
Revises: c5d7e9f1a3b5
Create Date: 2026-12-06 11:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd7e9f1a3b5c7'
down_revision = 'c5d7e9f1a3b5'
branch_labels = None
depends_on = None


def _bracket_order(size):
    """Seeds by place in a bracket of ``size``, as scorekeeper.engine.tournaments.draws then."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for top in order for seed in (top, total - top)]
    return order


def _bracket_size(pairs):
    return 1 << max(pairs - 1, 0).bit_length()


def _new_tables(pairs):
    """{old table: new table} of a knockout's first round of ``pairs`` pairs."""
    size = _bracket_size(pairs)
    order = _bracket_order(size)
    places = range(size // 2)
    played = [place for place in places if order[2 * place + 1] <= pairs]
    byes = [place for place in places if order[2 * place + 1] > pairs]
    return {place + 1: number for number, place in enumerate(played + byes, start=1)}


def _snake_sizes(pairs, groups):
    sizes = [0] * groups
    for index in range(pairs):
        row, column = divmod(index, groups)
        sizes[column if row % 2 == 0 else groups - 1 - column] += 1
    return sizes


def _first_round(format, pairs, groups, advance):
    """(round, pairs) of a tournament's knockout's first round, None without a knockout."""
    if format == 'knockout':
        return 1, pairs
    if format == 'round_robin' and groups and advance:
        group_rounds = max(size - 1 if size % 2 == 0 else size for size in _snake_sizes(pairs, groups))
        return group_rounds + 1, groups * advance
    return None


def _renumber(forward):
    connection = op.get_bind()
    tournaments = sa.table(
        'tournaments',
        sa.column('id', sa.String),
        sa.column('format', sa.String),
        sa.column('groups', sa.Integer),
        sa.column('advance', sa.Integer),
        sa.column('walkovers', sa.JSON),
    )
    pairs_table = sa.table('tournament_pairs', sa.column('tournament_id', sa.String))
    rubbers = sa.table(
        'tournament_rubbers',
        sa.column('rubber_id', sa.String),
        sa.column('tournament_id', sa.String),
        sa.column('round', sa.Integer),
        sa.column('table', sa.Integer),
    )
    counts = dict(
        connection.execute(
            sa.select(pairs_table.c.tournament_id, sa.func.count()).group_by(
                pairs_table.c.tournament_id
            )
        ).all()
    )
    for row in connection.execute(sa.select(tournaments)).all():
        first = _first_round(row.format, counts.get(row.id, 0), row.groups, row.advance)
        if first is None:
            continue
        number, pairs = first
        mapping = _new_tables(pairs)
        if not forward:
            mapping = {new: old for old, new in mapping.items()}
        if all(old == new for old, new in mapping.items()):
            continue
        kept = connection.execute(
            sa.select(rubbers.c.rubber_id, rubbers.c.table).where(
                rubbers.c.tournament_id == row.id, rubbers.c.round == number
            )
        ).all()
        for rubber_id, table in kept:  # one row a rubber: no two take one (table, seq) at once
            connection.execute(
                rubbers.update()
                .where(rubbers.c.rubber_id == rubber_id)
                .values(table=-mapping.get(table, table))
            )
        connection.execute(
            rubbers.update()
            .where(rubbers.c.tournament_id == row.id, rubbers.c.round == number)
            .values(table=-rubbers.c.table)
        )
        walkovers = [
            [round_, mapping.get(table, table) if round_ == number else table, winner]
            for round_, table, winner in row.walkovers or []
        ]
        if walkovers != (row.walkovers or []):
            connection.execute(
                tournaments.update().where(tournaments.c.id == row.id).values(walkovers=walkovers)
            )


def upgrade():
    _renumber(forward=True)


def downgrade():
    _renumber(forward=False)
