"""A rubber's result kept on paper; a tournament's TV code and language

A tournament's match rubber may be given its games as the table kept them on paper (issue 42,
item 11): ``rubbers.paper_games``. A tournament's TV has a short address, /tv/<code>, drawn for
every tournament already there as for a new one, and shows the language the organizer chose
(item 13): ``tournaments.tv_code`` and ``tournaments.tv_language``
(docs/decisions/tournaments.md).

Revision ID: c5d7e9f1a3b5
Revises: a9b8c7d6e5f4
Create Date: 2026-12-04 22:50:00.000000

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c5d7e9f1a3b5'
down_revision = 'a9b8c7d6e5f4'
branch_labels = None
depends_on = None

LETTERS = "abcdefghjkmnpqrstuvwxyz"  # as scorekeeper.groups.store.TV_CODE_LETTERS then
LENGTH = 10


def upgrade():
    op.add_column('rubbers', sa.Column('paper_games', sa.JSON(), nullable=True))
    # NOT NULL from the start, with a default only while the codes are drawn (as the groups').
    op.add_column(
        'tournaments',
        sa.Column('tv_code', sa.String(length=LENGTH), server_default='', nullable=False),
    )
    op.add_column('tournaments', sa.Column('tv_language', sa.String(length=8), nullable=True))
    tournaments = sa.table(
        'tournaments', sa.column('id', sa.String), sa.column('tv_code', sa.String)
    )
    groups = sa.table('groups', sa.column('tv_code', sa.String))
    connection = op.get_bind()
    drawn = set(connection.execute(sa.select(groups.c.tv_code)).scalars())
    for (tournament_id,) in connection.execute(sa.select(tournaments.c.id)).all():
        code = "".join(secrets.choice(LETTERS) for _ in range(LENGTH))
        while code in drawn:
            code = "".join(secrets.choice(LETTERS) for _ in range(LENGTH))
        drawn.add(code)
        connection.execute(
            tournaments.update().where(tournaments.c.id == tournament_id).values(tv_code=code)
        )
    if connection.dialect.name != 'sqlite':  # SQLite keeps the default, which no insert uses
        op.alter_column('tournaments', 'tv_code', server_default=None)
    op.create_index('ix_tournaments_tv_code', 'tournaments', ['tv_code'], unique=True)


def downgrade():
    op.drop_index('ix_tournaments_tv_code', table_name='tournaments')
    op.drop_column('tournaments', 'tv_language')
    op.drop_column('tournaments', 'tv_code')
    op.drop_column('rubbers', 'paper_games')
