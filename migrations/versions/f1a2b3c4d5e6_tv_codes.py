"""A group's TV code

The short address of a group's TV, /tv/<code> (issue 25, item 5): ten letters, unique, drawn for
every group already there as for a new one (docs/decisions/groups.md, "The TV's short address").

Revision ID: f1a2b3c4d5e6
Revises: d4e5f6a7b8c9
Create Date: 2026-12-02 15:30:00.000000

"""
import secrets

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'f1a2b3c4d5e6'
down_revision = 'd4e5f6a7b8c9'
branch_labels = None
depends_on = None

LETTERS = "abcdefghjkmnpqrstuvwxyz"  # as scorekeeper.groups.store.TV_CODE_LETTERS then
LENGTH = 10


def upgrade():
    # NOT NULL from the start, with a default only while the codes are drawn: on SQLite a column
    # made NOT NULL later means copying the table, which the tables that point at it refuse.
    op.add_column(
        'groups',
        sa.Column('tv_code', sa.String(length=LENGTH), server_default='', nullable=False),
    )
    groups = sa.table('groups', sa.column('id', sa.String), sa.column('tv_code', sa.String))
    connection = op.get_bind()
    drawn = set()
    for (group_id,) in connection.execute(sa.select(groups.c.id)).all():
        code = "".join(secrets.choice(LETTERS) for _ in range(LENGTH))
        while code in drawn:
            code = "".join(secrets.choice(LETTERS) for _ in range(LENGTH))
        drawn.add(code)
        connection.execute(groups.update().where(groups.c.id == group_id).values(tv_code=code))
    if connection.dialect.name != 'sqlite':  # SQLite keeps the default, which no insert uses
        op.alter_column('groups', 'tv_code', server_default=None)
    op.create_index('ix_groups_tv_code', 'groups', ['tv_code'], unique=True)


def downgrade():
    op.drop_index('ix_groups_tv_code', table_name='groups')
    op.drop_column('groups', 'tv_code')
