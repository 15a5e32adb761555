"""The performance benchmark: ``make bench`` (``python -m bench``).

It measures each figure of docs/performance.md against a reference measured in the same run, prints
the table, writes bench/results.json and exits non-zero when a figure misses its budget."""
