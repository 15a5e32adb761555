"""Two checkouts of the app served side by side and loaded in turn, in the same run.

Run it as ``python -m bench.versions BASELINE [ROUNDS]``, or ``make versions`` for the baseline
the Makefile names (``BASELINE``: the last main an issue landed on). BASELINE is a git revision of
this repository (its files are taken out into a temporary folder, its catalogues compiled) or the
folder of another checkout.

``make bench`` reads each figure against a reference of its own run, so two of its runs on a
busy machine are hard to compare: the disk's wait and the other work differ from one to the
next. Here the other checkout (its own code, templates and catalogues, on this checkout's
database, seeded as ``make bench`` seeds it) and this one answer the hand POST and the rubber
page in alternate order, round after round; the verdict is the median of the rounds' ratios,
and the CPU time the workers took per request, which the machine's other work moves less.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from bench import run

SECONDS = int(os.environ.get("BENCH_SECONDS", "4"))
POOL = 3000
"""Rubbers the POSTs are spread over: room for some 500,000 hands, 40 rounds at 1,500 a second."""


@contextlib.contextmanager
def served(checkout: Path, env: dict[str, str]) -> Iterator[tuple[str, list[int]]]:
    """The checkout's app under gunicorn as ``make bench`` serves it: its URL and its workers."""
    port = run._free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            f"--workers={run.WORKERS}",
            f"--bind={run.HOST}:{port}",
            "--log-level=warning",
            "bench.wsgi:app",
        ],
        cwd=checkout,
        env={**os.environ, **env},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection((run.HOST, port), 1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn in {checkout} did not start")
            time.sleep(0.1)
        children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
        while len(workers := [int(pid) for pid in children.read_text().split()]) < run.WORKERS:
            time.sleep(0.1)
        yield f"http://{run.HOST}:{port}", workers
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)


def cpu_seconds(workers: list[int]) -> float:
    """The CPU time (user and system) the workers have taken, from Linux's /proc."""
    ticks = 0
    for pid in workers:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])
    return ticks / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def baseline(name: str) -> Iterator[Path]:
    """The checkout to compare with: a folder as it is, or a revision's files taken out of git."""
    if Path(name).is_dir():
        yield Path(name).resolve()
        return
    with tempfile.TemporaryDirectory(prefix=f"scorekeeper-{name}-") as folder:
        archive = subprocess.run(
            ["git", "-C", str(run.ROOT), "archive", "--format=tar", name],
            capture_output=True,
            check=True,
        )
        subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
        subprocess.run(
            [
                str(Path(sys.executable).parent / "pybabel"),
                "compile",
                "--use-fuzzy",
                "-d",
                str(Path(folder) / "scorekeeper" / "translations"),
            ],
            capture_output=True,
            check=True,
        )
        yield Path(folder)


def main(other: Path, rounds: int) -> None:
    with tempfile.TemporaryDirectory(prefix="scorekeeper-versions-") as folder:
        workdir = Path(folder)
        env = {
            "BENCH_DATABASE_URL": f"sqlite:///{workdir / 'bench.sqlite3'}",
            "BENCH_SECRET_KEY": secrets.token_hex(32),
        }
        os.environ.update(env)
        import flask_migrate

        from bench.wsgi import app

        with app.app_context():
            flask_migrate.upgrade(directory=app.extensions["migrate"].directory)
        run.WRITE_POOL = POOL  # enough rubbers that none reaches its 200 hands
        seeded = run.Seeded(app)
        body = f"csrf_token={seeded.csrf}&action=tie&team=0&points="
        names = ("other", "this")
        taken: dict[tuple[str, str], list[tuple[float, float]]] = {}
        with served(other, env) as first, served(run.ROOT, env) as second:
            servers = dict(zip(names, (first, second), strict=True))
            # Each is warmed up on both loads: the first POSTs on the fresh database were some
            # 14/s where the rest ran at 300 or more, and cost whichever went first its round.
            for url, _ in servers.values():
                run.wrk(url + seeded.page, run.get_lua(seeded.cookie), workdir, seconds=1)
                post = run.post_lua(seeded.cookie, seeded.pool, body)
                run.wrk(url + seeded.pool[0], post, workdir, seconds=1)
            for turn in range(rounds):
                for name in names if turn % 2 == 0 else names[::-1]:
                    url, workers = servers[name]
                    for what, path, lua in (
                        ("POST", seeded.pool[0], run.post_lua(seeded.cookie, seeded.pool, body)),
                        ("page", seeded.page, run.get_lua(seeded.cookie, gzip_ok=True)),
                    ):
                        before = cpu_seconds(workers)
                        report = run.wrk(url + path, lua, workdir, seconds=SECONDS)
                        if report["errors"]:
                            raise RuntimeError(f"{report['errors']} errors loading {name} {what}")
                        if not report["requests"]:
                            raise RuntimeError(f"{name} answered no {what} in {SECONDS} s")
                        cpu = (cpu_seconds(workers) - before) / report["requests"]
                        taken.setdefault((name, what), []).append((report["per_second"], cpu))
                print(
                    f"round {turn + 1}: "
                    + ", ".join(
                        f"{name} {what} {values[-1][0]:,.0f}/s"
                        for (name, what), values in sorted(taken.items())
                    ),
                    file=sys.stderr,
                    flush=True,
                )
    for what in ("POST", "page"):
        this, theirs = taken[("this", what)], taken[("other", what)]
        ratio = run._ratio([rate for rate, _ in this], [rate for rate, _ in theirs])
        cpu = [1e6 * cpu for _, cpu in this], [1e6 * cpu for _, cpu in theirs]
        print(
            f"{what}: this ÷ other {ratio:.3f} (median of {rounds} rounds' ratios); CPU per "
            f"request {statistics.median(cpu[0]):,.0f} µs here, {statistics.median(cpu[1]):,.0f}"
            f" µs there; {statistics.mean(r for r, _ in this):,.0f} and "
            f"{statistics.mean(r for r, _ in theirs):,.0f} req/s"
        )


if __name__ == "__main__":
    with baseline(sys.argv[1]) as checkout:
        main(checkout, int(sys.argv[2]) if len(sys.argv) > 2 else 10)
