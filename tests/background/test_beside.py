"""`make run`'s wrapper: stopping it stops the development server and the consumer (issue 41, 6).

Real processes: ``python -m scorekeeper.background.beside flask --app scorekeeper run`` on a
free port and an SQLite file of the test's own, a signal to the wrapper alone (or to its whole
group, as Ctrl-C sends it), then nothing of it left running and the port closed."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests

from tests.support.servers import GONE, ROOT, STARTUP, free_port

STOPPED_WITHIN = 15.0
"""Seconds the wrapper has to stop both: an idle consumer's graceful stop takes about one."""


def children(pid: int) -> list[int]:
    """Return the processes descended from ``pid`` (read from /proc), and not yet ended."""
    found: list[int] = []
    parents = {pid}
    grew = True
    while grew:
        grew = False
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) in found:
                continue
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] in parents and stat[0] != "Z":
                found.append(int(entry.name))
                parents.add(int(entry.name))
                grew = True
    return found


def running(pid: int) -> bool:
    """Whether ``pid`` is a process that has not ended (a zombie has)."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def _stat(pid: int) -> tuple[str, int] | None:
    """Return a process's state letter and parent pid, or None once it is gone."""
    try:
        text = (Path("/proc") / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    state, parent = text.rsplit(")", 1)[1].split()[:2]
    return state, int(parent)


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def make_run(tmp_path: Path, sigint: str) -> Iterator[tuple[subprocess.Popen[bytes], int]]:
    """`make run`'s command on a free port, SIGINT at ``sigint`` (SIG_DFL or SIG_IGN) as it starts.

    A terminal's foreground job has SIGINT at its default; a job a script starts in the
    background (``make run &``, nohup) has it ignored, and Python then leaves it so. Yields the
    wrapper and its port once the server answers; whatever is left is killed at the end."""
    port = free_port()
    flask = str(Path(sys.executable).parent / "flask")
    wrapper = [sys.executable, "-m", "scorekeeper.background.beside", flask, "--app"]
    wrapper += ["scorekeeper", "run", "--host", "127.0.0.1", "--port", str(port)]
    setting = f"import os, signal, sys; signal.signal(signal.SIGINT, signal.{sigint}); "
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "ANALYSIS_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
        "SECRET_KEY": "beside-test",
        "PYTHONUNBUFFERED": "1",
    }
    log = tmp_path / "run.log"
    with log.open("ab") as output:
        process = subprocess.Popen(
            [sys.executable, "-c", setting + "os.execv(sys.argv[1], sys.argv[1:])", *wrapper],
            env=env,
            cwd=ROOT,
            stdout=output,
            stderr=output,
            start_new_session=True,  # its own group: the test's Ctrl-C reaches it alone
        )
    seen: set[int] = set()
    try:
        started = time.monotonic()
        while True:
            assert process.poll() is None, log.read_text()[-3000:]
            try:
                url = f"http://127.0.0.1:{port}/api/v1/openapi.json"
                if requests.get(url, timeout=1).status_code == 200:
                    break
            except GONE:
                pass
            assert time.monotonic() - started < STARTUP, log.read_text()[-3000:]
            time.sleep(0.05)
        seen.update(children(process.pid))
        yield process, port
    finally:
        for pid in (process.pid, *seen, *children(process.pid)):
            if running(pid):
                os.kill(pid, signal.SIGKILL)
        process.wait(timeout=30)


@pytest.mark.parametrize(
    ("sigint", "sent", "to_group"),
    [
        ("SIG_DFL", signal.SIGTERM, False),  # a service manager's or `kill`'s stop
        ("SIG_DFL", signal.SIGINT, False),
        ("SIG_IGN", signal.SIGINT, False),  # started in the background by a script
        ("SIG_IGN", signal.SIGTERM, False),
        ("SIG_DFL", signal.SIGHUP, False),  # the terminal closed
        ("SIG_DFL", signal.SIGINT, True),  # Ctrl-C, to the whole foreground group
    ],
    ids=["SIGTERM", "SIGINT", "SIGINT-background", "SIGTERM-background", "SIGHUP", "Ctrl-C"],
)
def test_stopping_make_run_stops_the_server_and_the_consumer(
    tmp_path: Path, sigint: str, sent: signal.Signals, to_group: bool
) -> None:
    with make_run(tmp_path, sigint) as (wrapper, port):
        beside = children(wrapper.pid)
        commands = [(Path("/proc") / str(pid) / "cmdline").read_bytes() for pid in beside]
        assert any(b"huey_consumer" in command for command in commands), commands
        assert any(b"flask" in command and b"run" in command for command in commands), commands
        if to_group:
            os.killpg(wrapper.pid, sent)
        else:
            os.kill(wrapper.pid, sent)
        try:
            status = wrapper.wait(timeout=STOPPED_WITHIN)
        except subprocess.TimeoutExpired:
            status = None
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and (
            listening(port) or any(running(pid) for pid in beside)
        ):
            time.sleep(0.1)
        left = [pid for pid in beside if running(pid)]
        still_serving = listening(port)
    assert status is not None, f"the wrapper did not exit within {STOPPED_WITHIN} s of {sent.name}"
    assert (left, still_serving) == ([], False), f"after {sent.name}: {left} left running"
    if not to_group:
        assert status == 128 + sent, status
