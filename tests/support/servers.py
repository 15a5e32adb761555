"""Real servers for the system tests: gunicorn as `make serve` runs it, nginx, PostgreSQL, Redis.

nginx runs as deploy/nginx.conf configures it (through .ci/proxy). Also the tools a test needs
from Debian, which under CI must be there; and a live server whose requests a test can count."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import requests
from flask import Flask
from requests.adapters import HTTPAdapter

from tests.support.apps import fresh_app, served

ROOT = Path(__file__).resolve().parent.parent.parent
APP_SERVERS = max(1, int(os.environ.get("APP_SERVERS", "1")))
"""gunicorn servers on one database for the two-phones and crash tests (tests/system/): 1, or
2 in CI's PostgreSQL pass (.ci/run), where they run behind nginx or side by side."""
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
"""The Redis server that several app servers count their rate limits in: .ci/run starts one for
its run on two servers (APP_SERVERS=2)."""
LIFTED = "1000"
"""RATELIMIT_FACTOR of the system tests' servers: the limits stay on, counted as in production,
but one address may create a thousand times more (the tests create hundreds from 127.0.0.1)."""
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


@contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A real redis-server on 127.0.0.1 and a free port, nothing kept on disk: its URL."""
    program = need_program("redis-server", "redis-server")
    port = free_port()
    process = subprocess.Popen(
        [
            program,
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        started = time.monotonic()
        while True:
            assert process.poll() is None, "redis-server stopped at once"
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1) as probe:
                    probe.sendall(b"PING\r\n")
                    if probe.recv(16).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            assert time.monotonic() - started < STARTUP, "redis-server did not answer"
            time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)


@dataclass(frozen=True)
class Postgres:
    """A PostgreSQL server of one test's own, as .ci/postgres started it."""

    url: str
    folder: Path

    def restart(self) -> None:
        """``pg_ctl restart -m fast``: every connection is cut; the server answers on return."""
        restarted = subprocess.run(
            [str(ROOT / ".ci" / "postgres"), "restart", str(self.folder)],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert restarted.returncode == 0, restarted.stderr[-3000:]


@contextmanager
def postgres_server() -> Iterator[Postgres]:
    """A real PostgreSQL on 127.0.0.1 and a free port, for a test that stops or restarts it.

    Its folder is made by ``mkdtemp``, not under pytest's ``tmp_path``: as root the server runs
    as the postgres user, who may not enter pytest's folders (mode 0700)."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        missing("PostgreSQL (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="scorekeeper-pg-"))
    script = str(ROOT / ".ci" / "postgres")
    try:
        started = subprocess.run(
            [script, "start", str(folder)],
            env={**os.environ, "PGTEST_PORT": str(free_port())},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert started.returncode == 0, started.stderr[-3000:]
        yield Postgres(started.stdout.strip().splitlines()[-1], folder)
    finally:
        subprocess.run([script, "stop", str(folder)], capture_output=True, timeout=120, check=False)
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def shared_limits(folder: Path, servers: int) -> Iterator[dict[str, str]]:
    """The environment of ``servers`` app servers' rate limits.

    One counts in its own memory; several share their counts in a real Redis (REDIS_URL, else one
    started here), under a key prefix of their own. Under CI several servers need REDIS_URL: .ci/run
    must start it."""
    if servers <= 1:
        yield {}
        return
    prefix = {"RATELIMIT_KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    if REDIS_URL:
        yield {"RATELIMIT_STORAGE_URI": REDIS_URL, **prefix}
        return
    if os.environ.get("CI") == "true":
        pytest.fail("several app servers share their rate limits in Redis: set REDIS_URL (.ci/run)")
    with redis_server(folder) as url:
        yield {"RATELIMIT_STORAGE_URI": url, **prefix}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def as_from_a_terminal(command: list[str]) -> list[str]:
    """``command`` with SIGINT at its default, as a terminal's foreground job has it (Ctrl-C).

    A suite started in the background (``make test &``, nohup) ignores SIGINT, and every child
    inherits that: `flask run` would sleep through the SIGINT a test sends it as Ctrl-C."""
    restore = "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    return [sys.executable, "-c", restore + "os.execv(sys.argv[1], sys.argv[1:])", *command]


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
    """Return `make serve`'s server: gunicorn with the project's settings.

    HOST, PORT and WEB_CONCURRENCY come from the environment."""
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "--config",
        "python:scorekeeper.gunicorn_conf",
        "scorekeeper:create_app()",
    ]


def gunicorn_env(app: Flask) -> dict[str, str]:
    """The environment of a gunicorn serving ``app``'s database with its secret key."""
    return {
        **os.environ,
        "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
        "SECRET_KEY": app.config["SECRET_KEY"],
        "PYTHONUNBUFFERED": "1",
    }


@dataclass
class Gunicorn:
    """gunicorn in its own process group, so a kill takes the master and its workers at once."""

    env: dict[str, str]
    log: Path
    port: int = field(default_factory=free_port)
    command: list[str] = field(default_factory=gunicorn_command)
    cwd: Path = ROOT
    process: subprocess.Popen[bytes] | None = None
    kills: int = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        # The system tests create many rubbers from one address: the limits raised, unless the
        # test's own env says otherwise (configuration only: the limits stay on).
        env = {
            "HOST": "127.0.0.1",
            "PYTHONUNBUFFERED": "1",
            "RATELIMIT_FACTOR": LIFTED,
            **self.env,
            "PORT": str(self.port),
        }
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                self.command,
                env=env,
                cwd=self.cwd,
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
        self.kill()  # a server that never answered is not left running after the test
        self.process.wait(timeout=30)
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


@dataclass(frozen=True)
class Proxy:
    """nginx from deploy/nginx.conf, as .ci/proxy started it."""

    url: str
    folder: Path

    @property
    def cert(self) -> str:
        """The certificate to trust (requests' ``verify``)."""
        return str(self.folder / "cert.pem")

    def session(self, source: str = "127.0.0.1") -> requests.Session:
        """Return a client that trusts this proxy's certificate, connecting from ``source``.

        ``source`` is a loopback address (127.0.0.0/8): nginx sees each as a client of its own.
        requests would let REQUESTS_CA_BUNDLE from the environment win over ``verify``: the
        environment is not read."""
        client = requests.Session()
        client.trust_env = False
        client.verify = self.cert
        if source != "127.0.0.1":
            client.mount("https://", FromAddress(source))
        return client

    @property
    def spki(self) -> str:
        """Return the hash of the certificate's key.

        As Chromium's --ignore-certificate-errors-spki-list takes it."""
        return (self.folder / "spki").read_text().strip()

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{(self.folder / 'http_port').read_text().strip()}"

    @property
    def access_log(self) -> Path:
        return self.folder / "access.log"

    @property
    def error_log(self) -> Path:
        return self.folder / "error.log"

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1])


class FromAddress(HTTPAdapter):
    """requests' adapter whose connections leave from one loopback address."""

    def __init__(self, source: str) -> None:
        assert source.startswith("127."), source
        self.source = source
        super().__init__()

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        kwargs["source_address"] = (self.source, 0)
        super().init_poolmanager(*args, **kwargs)


@contextmanager
def proxy(folder: Path, upstreams: Sequence[str]) -> Iterator[Proxy]:
    """The documented nginx, with a certificate of its own, in front of ``upstreams``."""
    need_program("nginx", "nginx")
    need_program("openssl", "openssl")
    env = {
        **os.environ,
        "PROXY_HTTPS_PORT": str(free_port()),
        "PROXY_HTTP_PORT": str(free_port()),
    }
    started = subprocess.run(
        [str(ROOT / ".ci" / "proxy"), "start", str(folder), *upstreams],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        if started.returncode != 0:
            pytest.fail(f".ci/proxy start failed:\n{started.stderr[-3000:]}")
        yield Proxy(started.stdout.strip().splitlines()[-1], folder)
    finally:
        subprocess.run([str(ROOT / ".ci" / "proxy"), "stop", str(folder)], timeout=60, check=False)


@dataclass
class Stack:
    """What production runs: gunicorn servers (PROXY_COUNT=1) on one database, nginx in front."""

    servers: list[Gunicorn]
    front: Proxy
    app: Flask

    @property
    def url(self) -> str:
        return self.front.url


@contextmanager
def behind_proxy(
    tmp_path: Path, servers: int = 1, env: dict[str, str] | None = None
) -> Iterator[Stack]:
    """``servers`` gunicorn servers behind nginx, on the test's database, its tables made afresh.

    The database is DATABASE_URL when set, PostgreSQL in CI, else a SQLite file of its own."""
    need_program("nginx", "nginx")
    with (
        fresh_app(tmp_path / "stack.sqlite3", {"SECRET_KEY": "stack"}) as app,
        shared_limits(tmp_path, servers) as limits,
    ):
        server_env = {
            **os.environ,
            "DATABASE_URL": app.config["SQLALCHEMY_DATABASE_URI"],
            "SECRET_KEY": "stack",
            "PROXY_COUNT": "1",
            **limits,
            **(env or {}),
        }
        running: list[Gunicorn] = []
        try:
            for number in range(servers):
                server = Gunicorn(env=server_env, log=tmp_path / f"gunicorn-{number}.log")
                server.start()
                running.append(server)
            upstreams = [f"127.0.0.1:{server.port}" for server in running]
            with proxy(tmp_path / "proxy", upstreams) as front:
                yield Stack(running, front, app)
        finally:
            for server in running:
                server.stop()


# A live server whose requests are counted (the follower's page, the TV) ----------------


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
