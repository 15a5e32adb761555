"""Slow clients: 50 connections that send their headers a line a second, for 30 s, against nginx.

The nginx is the documented one in front of `make serve`'s gunicorn, while a phone goes on using the
app.

First the same kind of client, 48 of them, straight at gunicorn for a few seconds: its 2 workers
of 4 threads each wait on them, and a page gets no answer (the attack is real). Six times the
threads, so that however the two workers share them out, each has its four held.
Behind nginx, which reads every request whole before passing it on, each ordinary request is
answered, quickly. Only 127.0.0.1 is ever connected to; every client stops by itself at its
deadline. ``SLOW_SECONDS`` sets the 30 s.
"""

from __future__ import annotations

import os
import socket
import ssl
import statistics
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import requests

from tests.support.servers import Stack, behind_proxy

SLOW_CONNECTIONS = 50
SLOW_SECONDS = float(os.environ.get("SLOW_SECONDS", "30"))
PACE = 1.0
"""Seconds between two header lines of a slow client: never the blank line that ends them."""
ANSWER_WITHIN = 5.0
"""An ordinary request behind the proxy must be answered within this many seconds."""
BASELINE_CONNECTIONS = 48
BASELINE_SECONDS = 6.0


@dataclass
class SlowClients:
    """Connections that each send a request line, then one header line per PACE.

    They go on until their deadline; one the server closes is opened again."""

    host: str
    port: int
    count: int
    tls: ssl.SSLContext | None = None
    opened: int = 0
    closed_by_server: int = 0
    most_open: int = 0
    _open: int = 0
    _stop: threading.Event = field(default_factory=threading.Event)
    _threads: list[threading.Thread] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self, seconds: float) -> None:
        until = time.monotonic() + seconds
        for _ in range(self.count):
            thread = threading.Thread(target=self._run, args=(until,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def wait_open(self, seconds: float) -> None:
        """Until every client has sent its first line, or for at most this long."""
        until = time.monotonic() + seconds
        while self.opened < self.count and time.monotonic() < until:
            time.sleep(0.05)

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=10)

    def _count(self, change: int) -> None:
        with self._lock:
            self._open += change
            self.most_open = max(self.most_open, self._open)
            if change > 0:
                self.opened += 1

    def _run(self, until: float) -> None:
        assert self.host == "127.0.0.1"
        while not self._stop.is_set() and time.monotonic() < until:
            try:
                raw = socket.create_connection((self.host, self.port), timeout=5)
            except OSError:
                time.sleep(0.1)
                continue
            sock = raw
            try:
                if self.tls:
                    sock = self.tls.wrap_socket(raw, server_hostname=self.host)
                sock.sendall(f"GET / HTTP/1.1\r\nHost: {self.host}\r\n".encode())
                self._count(+1)
                try:
                    while not self._stop.wait(PACE) and time.monotonic() < until:
                        sock.sendall(b"X-Slow: 1\r\n")
                        if _closed(sock):
                            with self._lock:
                                self.closed_by_server += 1
                            break
                finally:
                    self._count(-1)
            except OSError:
                with self._lock:
                    self.closed_by_server += 1
            finally:
                sock.close()
                raw.close()


def _closed(sock: socket.socket) -> bool:
    """Whether the server has closed (or answered, to end) this connection."""
    sock.setblocking(False)
    try:
        return True if sock.recv(1) is not None else True
    except (BlockingIOError, ssl.SSLWantReadError):
        return False
    except OSError:
        return True
    finally:
        sock.setblocking(True)


@dataclass
class Phone:
    """An ordinary phone using the app the while: its answers and how long each took."""

    base: str
    session: requests.Session
    rubber: dict[str, str]
    timings: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def one_round(self, timeout: float) -> None:
        rubber_id = self.rubber["id"]
        for method, path, body in (
            ("GET", "/", None),
            ("GET", f"/r/{rubber_id}", None),
            ("POST", f"/api/v1/rubbers/{rubber_id}/hands", {"points": [60, 60]}),
            ("GET", f"/api/v1/rubbers/{rubber_id}", None),
        ):
            started = time.monotonic()
            try:
                answer = self.session.request(
                    method,
                    self.base + path,
                    json=body,
                    headers={"X-Edit-Key": self.rubber["edit_key"]},
                    timeout=timeout,
                )
            except requests.RequestException as error:
                self.failures.append(f"{method} {path}: {type(error).__name__}")
                continue
            self.timings.append(time.monotonic() - started)
            if answer.status_code >= 400:
                self.failures.append(f"{method} {path}: {answer.status_code}")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with behind_proxy(tmp_path) as running:
        yield running


def new_rubber(session: requests.Session, base: str) -> dict[str, str]:
    """A rubber that takes a tie a round and never ends: ties are void under "online"."""
    made = session.post(
        f"{base}/api/v1/rubbers",
        json={"rules": {"preset": "online", "games_to_win": 20}},
        timeout=10,
    )
    assert made.status_code == 201, made.text[:300]
    return dict(made.json())


def test_slow_clients_behind_the_proxy_leave_every_request_answered(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    gunicorn = stack.servers[0]
    with requests.Session() as direct:
        direct.trust_env = False
        # Straight at gunicorn: its threads wait on slow clients, and a phone waits on them.
        attack = SlowClients("127.0.0.1", gunicorn.port, BASELINE_CONNECTIONS)
        rubber = new_rubber(direct, gunicorn.url)
        attack.start(BASELINE_SECONDS)
        attack.wait_open(2.0)
        time.sleep(0.5)
        assert attack.opened >= BASELINE_CONNECTIONS, attack.opened
        with pytest.raises(requests.Timeout):
            direct.get(f"{gunicorn.url}/r/{rubber['id']}", timeout=2.0)
        attack.stop()

    # Behind nginx: 50 of them for 30 s, and the phone goes on.
    tls = ssl.create_default_context(cafile=stack.front.cert)
    port = int(stack.url.rsplit(":", 1)[1])
    slow = SlowClients("127.0.0.1", port, SLOW_CONNECTIONS, tls)
    with stack.front.session() as session:
        phone = Phone(stack.url, session, new_rubber(session, stack.url))
        started = time.monotonic()
        slow.start(SLOW_SECONDS)
        try:
            while time.monotonic() - started < SLOW_SECONDS:
                phone.one_round(timeout=ANSWER_WITHIN)
                time.sleep(0.2)
        finally:
            slow.stop()
        elapsed = time.monotonic() - started
        state = session.get(f"{stack.url}/api/v1/rubbers/{phone.rubber['id']}", timeout=10)

    assert not phone.failures, phone.failures
    assert slow.most_open >= SLOW_CONNECTIONS * 0.9, slow.most_open
    assert len(phone.timings) >= 40, len(phone.timings)
    assert max(phone.timings) < ANSWER_WITHIN
    hands = len(state.json()["hands"])
    assert hands == len(phone.timings) // 4
    median = statistics.median(phone.timings) * 1000
    worst = max(phone.timings) * 1000
    with capsys.disabled():
        print(
            f"\n[hardening] slow clients: {BASELINE_CONNECTIONS} straight at gunicorn "
            f"(2 workers x 4 threads) left a page unanswered for 2 s; "
            f"behind nginx, {SLOW_CONNECTIONS} for {elapsed:.0f} s "
            f"(at most {slow.most_open} open at once, {slow.opened} opened, "
            f"{slow.closed_by_server} closed by nginx's header timeout): "
            f"{len(phone.timings)} ordinary requests all answered ({hands} hands stored), "
            f"median {median:.0f} ms, slowest {worst:.0f} ms"
        )
