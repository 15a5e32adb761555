"""A command with the analyses' consumer beside it: ``make run``'s development server.

``python -m scorekeeper.background.beside flask --app scorekeeper run ...`` starts the consumer
(:func:`consumer.command`), runs the command, and stops the consumer when the command ends, as
``make serve``'s gunicorn does with its own. Asked to stop (SIGINT, SIGTERM, SIGHUP), to itself
alone or with its group, it stops both and exits (docs/decisions/analysis.md, "make run
analyses").
"""

from __future__ import annotations

import signal
import subprocess
import sys
from types import FrameType

from scorekeeper.background.consumer import command, stop

STOPPING = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop the wrapper, the command and the consumer with it."""

SERVER_STOP = 10.0
"""Seconds the command has to end after SIGTERM before it is killed."""


class Stopped(Exception):
    """A signal asked this process to stop."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def _stopped(signum: int, _frame: FrameType | None) -> None:
    _ignore_stops()
    raise Stopped(signum)


def _ignore_stops() -> None:
    # Once stopping, a second signal must not cut short the stop of what this process started
    # (Ctrl-C again reaches the consumer itself, which then ends its analysis at once).
    for each in STOPPING:
        signal.signal(each, signal.SIG_IGN)


def end(server: subprocess.Popen[bytes]) -> None:
    """Stop the command: SIGTERM, then a kill.

    SIGTERM, not SIGINT: a command started in the background inherits SIGINT ignored, and
    Flask's development server (its reloader's child too) ends on SIGTERM at once."""
    if server.poll() is None:
        server.terminate()
    try:
        server.wait(timeout=SERVER_STOP)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait(timeout=SERVER_STOP)


def run_beside(arguments: list[str]) -> int:
    """Run ``arguments`` with a consumer beside it; return the command's exit status.

    A stopping signal, to this process alone or to its whole group (Ctrl-C), stops the command
    and the consumer; then the status is a shell's for that signal, 128 plus its number. The
    handlers are set even where SIGINT came ignored (a job started in the background), so a
    SIGINT to this process always stops it."""
    for each in STOPPING:
        signal.signal(each, _stopped)
    consumer: subprocess.Popen[bytes] | None = None
    server: subprocess.Popen[bytes] | None = None
    try:
        consumer = subprocess.Popen(command())
        server = subprocess.Popen(arguments)
        return server.wait()
    except Stopped as stopped:
        return 128 + stopped.signum
    finally:
        _ignore_stops()
        if server is not None:
            end(server)
        if consumer is not None:
            stop(consumer)


if __name__ == "__main__":
    sys.exit(run_beside(sys.argv[1:]))
