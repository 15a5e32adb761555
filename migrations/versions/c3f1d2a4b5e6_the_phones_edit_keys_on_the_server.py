"""The phones' edit keys on the server

A phone's session cookie kept the edit keys it was given (30 rubbers', 8 of each other book)
and grew with them; they are kept in the device's rows instead (web/device.py), and the cookie
holds only the device's id and the secret the rows' keys are sealed with (the database alone
still gives no edit key away).

Revision ID: c3f1d2a4b5e6
Revises: 3c1d5e7a9b20
Create Date: 2026-12-01 13:50:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'c3f1d2a4b5e6'
down_revision = '3c1d5e7a9b20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('device_keys',
    sa.Column('device', sa.String(length=64), nullable=False),
    sa.Column('book', sa.String(length=16), nullable=False),
    sa.Column('owner_id', sa.String(length=43), nullable=False),
    sa.Column('sealed', sa.String(length=200), nullable=False),
    sa.Column('added_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('device', 'book', 'owner_id')
    )


def downgrade():
    op.drop_table('device_keys')
