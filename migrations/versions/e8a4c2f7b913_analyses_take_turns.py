"""Analyses take turns

Each analysis keeps its turn in the queue (issue 24, item 2): its client's first waiting takes
the current turn, each next one the turn after its previous, and the consumer runs the lowest
turn first, so a client's second analysis never runs before another's first
(docs/decisions/analysis.md, "Turns"). Existing rows take turn 0.

Revision ID: e8a4c2f7b913
Revises: a7c3e9d41b20
Create Date: 2026-12-02 15:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'e8a4c2f7b913'
down_revision = 'a7c3e9d41b20'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('analyses', schema=None) as batch_op:
        batch_op.add_column(sa.Column('turn', sa.Integer(), nullable=False, server_default='0'))


def downgrade():
    with op.batch_alter_table('analyses', schema=None) as batch_op:
        batch_op.drop_column('turn')
