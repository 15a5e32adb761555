"""A command with the analyses' consumer beside it: ``make run``'s development server.

``python -m scorekeeper.background.beside flask --app scorekeeper run ...`` starts the consumer
(:func:`consumer.command`), runs the command, and stops the consumer when the command ends, as
``make serve``'s gunicorn does with its own (docs/decisions/analysis.md, "make run analyses").
"""

from __future__ import annotations

import subprocess
import sys

from scorekeeper.background.consumer import command, stop


def run_beside(arguments: list[str]) -> int:
    """Run ``arguments`` with a consumer beside it; return the command's exit status.

    Ctrl-C reaches the whole foreground group: the command and the consumer stop on it, and
    this waits for both (a SIGINT to this process alone is passed on to them)."""
    consumer = subprocess.Popen(command())
    try:
        server = subprocess.Popen(arguments)
        try:
            return server.wait()
        except KeyboardInterrupt:
            stop(server)
            return 130
    finally:
        stop(consumer)


if __name__ == "__main__":
    sys.exit(run_beside(sys.argv[1:]))
