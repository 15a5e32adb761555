"""An import's idempotency key

An import sent with a key answers, when sent again with the same file, every rubber it made
under that key (issue 24, item 5): the key, a hash of its file and the rubbers it made.

Revision ID: d4e5f6a7b8c9
Revises: e8a4c2f7b913
Create Date: 2026-12-02 10:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4e5f6a7b8c9'
down_revision = 'e8a4c2f7b913'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('group_imports',
    sa.Column('group_id', sa.String(length=43), nullable=False),
    sa.Column('key', sa.String(length=100), nullable=False),
    sa.Column('body_hash', sa.String(length=64), nullable=False),
    sa.Column('rubbers', sa.JSON(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ),
    sa.PrimaryKeyConstraint('group_id', 'key')
    )


def downgrade():
    op.drop_table('group_imports')
