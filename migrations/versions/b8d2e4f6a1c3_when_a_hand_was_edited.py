"""When a hand was edited

A recorded hand replaced with other values keeps the time of its last change (issue 25, item
18: "alterada às 01:49" on the list and the hand's page), a rubber's and a bidding game's; the
hands already stored were never edited as far as anyone can tell, so they stay None.

Revision ID: b8d2e4f6a1c3
Revises: f1a2b3c4d5e6
Create Date: 2026-12-02 22:10:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8d2e4f6a1c3'
down_revision = 'f1a2b3c4d5e6'
branch_labels = None
depends_on = None


def upgrade():
    op.add_column('hands', sa.Column('edited_at', sa.DateTime(), nullable=True))
    op.add_column('bidding_hands', sa.Column('edited_at', sa.DateTime(), nullable=True))


def downgrade():
    with op.batch_alter_table('bidding_hands') as batch_op:
        batch_op.drop_column('edited_at')
    with op.batch_alter_table('hands') as batch_op:
        batch_op.drop_column('edited_at')
