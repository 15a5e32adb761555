"""The side a hand was typed for

A hand entered as "Eles, 95" and one entered as "Nós, 25" are the same hand (both teams' card
points are stored), but its edit form should open as it was entered (issue 14, item 4):
hands.typed_team keeps the team whose points the hand form typed. Hands already stored have
none and open from their winner's side.

Revision ID: 3c1d5e7a9b20
Revises: 959a0976c58f
Create Date: 2026-12-01 13:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '3c1d5e7a9b20'
down_revision = '959a0976c58f'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.add_column(sa.Column('typed_team', sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table('hands', schema=None) as batch_op:
        batch_op.drop_column('typed_team')
