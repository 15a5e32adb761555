"""A rubber at the table: what is stored, every write, the forms and pages.

It also holds card entry and the drawings (the cross, the tallies, the seats)."""
