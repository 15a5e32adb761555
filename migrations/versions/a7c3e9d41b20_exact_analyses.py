"""Exact analyses

One row per content analysed (a record of tricks or open hands, keyed by its SHA-256): its
status in the queue, its progress and its result, so the same hand is never computed twice
(issue 17; scorekeeper/analysis/).

Revision ID: a7c3e9d41b20
Revises: c3f1d2a4b5e6
Create Date: 2026-12-01 14:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a7c3e9d41b20'
down_revision = 'c3f1d2a4b5e6'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('analyses',
    sa.Column('id', sa.String(length=64), nullable=False),
    sa.Column('request', sa.JSON(), nullable=False),
    sa.Column('status', sa.String(length=10), nullable=False),
    sa.Column('client', sa.String(length=64), nullable=False),
    sa.Column('done', sa.Integer(), nullable=False),
    sa.Column('total', sa.Integer(), nullable=False),
    sa.Column('result', sa.JSON(), nullable=True),
    sa.Column('error', sa.String(length=40), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('updated_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('analyses', schema=None) as batch_op:
        batch_op.create_index('ix_analyses_status_client', ['status', 'client'], unique=False)


def downgrade():
    with op.batch_alter_table('analyses', schema=None) as batch_op:
        batch_op.drop_index('ix_analyses_status_client')
    op.drop_table('analyses')
