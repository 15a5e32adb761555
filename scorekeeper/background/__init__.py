"""Exact analyses run as background work: stored, queued with huey, never in a web worker.

``models.py`` holds what is stored (one row per analysed content, never computed twice),
``queue.py`` the huey queue, its bounds and the task, ``work.py`` the computation the consumer
runs (the engine's solver, under a time budget) and its answer as JSON.
"""
