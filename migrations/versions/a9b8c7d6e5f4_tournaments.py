"""Tournaments of pairs

A tournament, its pairs, the organizer's phones, and which rubbers are its matches' (issue 26,
docs/decisions/tournaments.md); a rubber names its tournament, if any.

Revision ID: a9b8c7d6e5f4
Revises: b8d2e4f6a1c3
Create Date: 2026-12-02 22:40:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a9b8c7d6e5f4'
down_revision = 'b8d2e4f6a1c3'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'tournaments',
        sa.Column('id', sa.String(length=43), nullable=False),
        sa.Column('edit_key_hash', sa.String(length=64), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=False),
        sa.Column('format', sa.String(length=16), nullable=False),
        sa.Column('best_of', sa.Integer(), nullable=False),
        sa.Column('rounds', sa.Integer(), nullable=True),
        sa.Column('groups', sa.Integer(), nullable=True),
        sa.Column('advance', sa.Integer(), nullable=True),
        sa.Column('third_place', sa.Boolean(), nullable=False),
        sa.Column('draw', sa.String(length=8), nullable=False),
        sa.Column('rules', sa.JSON(), nullable=False),
        sa.Column('swiss_rounds', sa.JSON(), nullable=False),
        sa.Column('walkovers', sa.JSON(), nullable=False),
        sa.Column('withdrawn', sa.JSON(), nullable=False),
        sa.Column('group_id', sa.String(length=43), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=False),
        sa.Column('updated_at', sa.DateTime(), nullable=False),
        sa.Column('version', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['group_id'], ['groups.id'], ),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_tournaments_created_at', 'tournaments', ['created_at'], unique=False)
    op.create_table(
        'tournament_pairs',
        sa.Column('tournament_id', sa.String(length=43), nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('entry', sa.Integer(), nullable=False),
        sa.Column('name', sa.String(length=40), nullable=True),
        sa.Column('player0', sa.String(length=40), nullable=False),
        sa.Column('player1', sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('tournament_id', 'number'),
    )
    op.create_table(
        'device_tournaments',
        sa.Column('device', sa.String(length=64), nullable=False),
        sa.Column('tournament_id', sa.String(length=43), nullable=False),
        sa.Column('added_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('device', 'tournament_id'),
    )
    op.create_table(
        'tournament_rubbers',
        sa.Column('rubber_id', sa.String(length=43), nullable=False),
        sa.Column('tournament_id', sa.String(length=43), nullable=False),
        sa.Column('round', sa.Integer(), nullable=False),
        sa.Column('table', sa.Integer(), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('pair0', sa.Integer(), nullable=False),
        sa.Column('pair1', sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(['rubber_id'], ['rubbers.id'], ),
        sa.ForeignKeyConstraint(['tournament_id'], ['tournaments.id'], ),
        sa.PrimaryKeyConstraint('rubber_id'),
        sa.UniqueConstraint('tournament_id', 'round', 'table', 'seq'),
    )
    op.create_index(
        'ix_tournament_rubbers_tournament_id', 'tournament_rubbers', ['tournament_id'], unique=False
    )
    if op.get_bind().dialect.name == 'sqlite':
        # In place: a batch would copy the rubbers' table, which its hands point at (the copy's
        # DROP TABLE is refused); SQLite adds a nullable column with its REFERENCES as it is.
        op.execute(
            'ALTER TABLE rubbers ADD COLUMN tournament_id VARCHAR(43) '
            'CONSTRAINT fk_rubbers_tournament_id_tournaments REFERENCES tournaments (id)'
        )
    else:
        op.add_column('rubbers', sa.Column('tournament_id', sa.String(length=43), nullable=True))
        op.create_foreign_key(
            'fk_rubbers_tournament_id_tournaments', 'rubbers', 'tournaments', ['tournament_id'],
            ['id'],
        )

def downgrade():
    if op.get_bind().dialect.name == 'sqlite':
        op.drop_column('rubbers', 'tournament_id')  # SQLite 3.35 drops a column in place
    else:
        op.drop_constraint('fk_rubbers_tournament_id_tournaments', 'rubbers', type_='foreignkey')
        op.drop_column('rubbers', 'tournament_id')
    op.drop_index('ix_tournament_rubbers_tournament_id', table_name='tournament_rubbers')
    op.drop_table('tournament_rubbers')
    op.drop_table('device_tournaments')
    op.drop_table('tournament_pairs')
    op.drop_index('ix_tournaments_created_at', table_name='tournaments')
    op.drop_table('tournaments')
