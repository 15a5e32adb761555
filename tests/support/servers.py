"""Servers whose requests a test can count, and one it can stop and start again."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import requests
from flask import Flask

from tests.support.apps import fresh_app, served

STARTUP = 30.0


@dataclass(frozen=True)
class Seen:
    """One request as it reached the app: when (time.monotonic()), what, from which browser."""

    at: float
    method: str
    path: str
    agent: str
    status: int


@dataclass
class Counted:
    """WSGI middleware that notes every request the app answers, with its status."""

    app: Callable[..., Iterable[bytes]]
    seen: list[Seen] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        arrived = time.monotonic()

        def noted(status: str, headers: Any, *rest: Any) -> Any:
            with self.lock:
                self.seen.append(
                    Seen(
                        arrived,
                        environ["REQUEST_METHOD"],
                        environ.get("PATH_INFO", ""),
                        environ.get("HTTP_USER_AGENT", ""),
                        int(status.split()[0]),
                    )
                )
            return start_response(status, headers, *rest)

        return self.app(environ, noted)

    def by(self, agent: str, since: float = 0.0) -> list[Seen]:
        """The requests of one browser (its user agent), from ``since`` on."""
        with self.lock:
            return [seen for seen in self.seen if seen.agent == agent and seen.at >= since]


@dataclass
class CountedServer:
    """The app on a live server, and every request it answered."""

    url: str
    counted: Counted
    app: Flask


@contextmanager
def counted_server(sqlite_file: Path) -> Iterator[CountedServer]:
    """A live server (as the browser tests' own) whose every request is noted."""
    with fresh_app(sqlite_file, {"SECRET_KEY": "browser-tests"}) as app:
        counted = Counted(app.wsgi_app)
        app.wsgi_app = counted  # type: ignore[method-assign]
        with served(app) as url:
            yield CountedServer(url, counted, app)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Gunicorn:
    """The app under gunicorn in a process group of its own, on a port kept across restarts:
    stopping it closes every connection, as a server going down does."""

    database_url: str
    log: Path
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {
            **os.environ,
            "DATABASE_URL": self.database_url,
            "SECRET_KEY": "browser-tests",
        }
        command = [
            sys.executable,
            "-m",
            "gunicorn",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "scorekeeper:create_app()",
        ]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, env=env, stdout=log, stderr=log, start_new_session=True
            )
        started = time.monotonic()
        while time.monotonic() - started < STARTUP:
            assert self.process.poll() is None, self.log.read_text()[-3000:]
            try:
                requests.get(f"{self.url}/api/v1/openapi.json", timeout=1)
            except requests.RequestException:
                time.sleep(0.05)
                continue
            return
        raise TimeoutError(f"gunicorn did not answer within {STARTUP} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None
