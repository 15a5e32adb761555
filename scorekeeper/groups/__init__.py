"""Groups of regulars: what is stored, their statistics and ratings, and their pages.

It also holds the totals that follow every write of one of their rubbers."""
