"""Groups of regulars: what is stored, their statistics and ratings, the totals that follow
every write of one of their rubbers, and their pages."""
