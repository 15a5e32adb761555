"""The rest of a rubber's tally

The engine's running totals (dealer, what ties left pending, whether a team stood one game
short against none) are kept on the rubber's row beside the games, so that a hand is added
without reading the rubber's other hands. Rubbers stored before have no dealer here: their next
write folds their hands once and fills the columns.

Revision ID: 2fb27e069385
Revises: 53edd6e12274
Create Date: 2026-11-30 02:31:37.809795

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2fb27e069385'
down_revision = '53edd6e12274'
branch_labels = None
depends_on = None


def upgrade():
    # Plain ALTER TABLE: a batch copy of rubbers would drop the table others point at.
    op.add_column('rubbers', sa.Column('dealer', sa.Integer(), nullable=True))
    op.add_column('rubbers', sa.Column('pending_extra', sa.Integer(), server_default='0', nullable=False))
    op.add_column('rubbers', sa.Column('pending_multiplier', sa.Integer(), server_default='1', nullable=False))
    op.add_column('rubbers', sa.Column('brink0', sa.Boolean(), server_default=sa.false(), nullable=False))
    op.add_column('rubbers', sa.Column('brink1', sa.Boolean(), server_default=sa.false(), nullable=False))


def downgrade():
    # SQLite drops a column in place since 3.35 (ALTER TABLE ... DROP COLUMN).
    for column in ('brink1', 'brink0', 'pending_multiplier', 'pending_extra', 'dealer'):
        op.drop_column('rubbers', column)
