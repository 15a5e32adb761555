"""Real servers for the system tests: gunicorn as `make serve` runs it, and the tools a test
needs from Debian (nginx, openssl), which under CI must be there."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parent.parent.parent
STARTUP = 30.0
GONE = (requests.ConnectionError, requests.Timeout, requests.exceptions.ChunkedEncodingError)
"""What a client sees while a server is down or dies under its request."""


def missing(reason: str) -> None:
    """Skip with one loud line; under CI (CI=true), fail: CI must have what the test needs."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"this test needs {reason}, and CI must have it")
    print(f"\n*** SKIPPING: {reason} ***")
    pytest.skip(reason)


def need_program(name: str, package: str) -> str:
    """The path of a Debian program the test cannot do without."""
    found = shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin")
    if found is None:
        missing(f"{name} (apt-get install {package})")
    assert found is not None
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def upgrade(env: dict[str, str]) -> None:
    """`flask --app scorekeeper db upgrade`: the schema from the real migrations."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]


def gunicorn_command() -> list[str]:
    """`make serve`'s server: gunicorn with the project's settings (HOST, PORT and
    WEB_CONCURRENCY from the environment)."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:scorekeeper.gunicorn_conf",
        "scorekeeper:create_app()",
    ]


@dataclass
class Gunicorn:
    """gunicorn in its own process group, so a kill takes the master and its workers at once."""

    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    command: list[str] = field(default_factory=gunicorn_command)
    process: subprocess.Popen[bytes] | None = None
    kills: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {"HOST": "127.0.0.1", "PYTHONUNBUFFERED": "1", **self.env, "PORT": str(self.port)}
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                env=env,
                cwd=ROOT,
                stdout=log,
                stderr=log,
                start_new_session=True,
            )
        started = time.monotonic()
        while time.monotonic() - started < STARTUP:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                if requests.get(f"{self.url}/api/v1/openapi.json", timeout=1).status_code == 200:
                    return
            except GONE:
                pass
            time.sleep(0.05)
        pytest.fail(f"gunicorn did not answer within {STARTUP} s:\n{self.log.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL to the whole group: no worker finishes its request or closes its database."""
        assert self.process is not None
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
        self.kills += 1

    def stop(self) -> None:
        """SIGTERM, as a service manager stops it: the workers finish and the logs are flushed."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
