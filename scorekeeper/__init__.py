"""The Sueca scorekeeper."""
