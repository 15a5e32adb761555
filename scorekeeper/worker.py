"""The analyses' consumer's app: ``huey_consumer scorekeeper.worker.huey`` imports it.

It builds the app as a server does (the same settings, the same database and queue) for the
queue's tasks to run in; no web worker ever computes an analysis. Started by
``python -m scorekeeper.background.consumer`` (``make worker``).
"""

from __future__ import annotations

from scorekeeper import create_app
from scorekeeper.background.queue import queue_of

app = create_app()
huey = queue_of(app)
