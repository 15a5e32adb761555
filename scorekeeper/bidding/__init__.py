"""Bidding Sueca at the table: 4 to 6 players, each on their own score (RULES.md)."""
