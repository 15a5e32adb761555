"""Run the benchmark: two gunicorn servers on 127.0.0.1, wrk, Chromium and pytest-benchmark.

Each figure is read against a reference measured in the same run (the hello page, a page
request), so a busy machine slows both and cannot fake a result. The benchmark uses a database
of its own in a temporary folder (or BENCH_DATABASE_URL), never instance/.
"""

from __future__ import annotations

import contextlib
import datetime
import gzip
import importlib
import importlib.util
import json
import math
import os
import platform
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urljoin, urlsplit

from bench.figures import Figure, exit_status, figure, for_json, not_measured, table

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results.json"
HOST = "127.0.0.1"
WORKERS = int(os.environ.get("BENCH_WORKERS", "2"))
THREADS = int(os.environ.get("BENCH_THREADS", "1"))
"""Threads per gunicorn worker, the same for every server: 1 is gunicorn's sync worker."""
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "8"))
SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
WRITE_POOL = 600
"""Rubbers the write figure spreads its hands over, so that none grows long."""
SCORES = ("75", "60", "30", "95", "50", "61", "59", "88", "32", "70", "20", "64")
"""The 12 hands of the measured rubber (60 is a tie): to 20 games, so it is not over."""
FIRST_ROUND_TRIP = 14_600
"""Ten TCP segments of 1,460 bytes: what a server sends before the phone's first ACK."""
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

REPORT_LUA = """
done = function(summary, latency, requests)
  io.write(string.format(
    '\\nBENCH {"requests": %d, "duration_us": %d, "connect": %d, "read": %d, "write": %d, '
    .. '"status": %d, "timeout": %d}\\n',
    summary.requests, summary.duration, summary.errors.connect, summary.errors.read,
    summary.errors.write, summary.errors.status, summary.errors.timeout))
end
"""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def gunicorn(app: str, env: dict[str, str]) -> Iterator[str]:
    """A gunicorn server of ``app`` on 127.0.0.1 with the benchmark's workers; its base URL."""
    port = _free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            f"--workers={WORKERS}",
            f"--threads={THREADS}",
            f"--bind={HOST}:{port}",
            "--log-level=warning",
            app,
        ],
        cwd=ROOT,
        env={**os.environ, **env},
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            with contextlib.suppress(OSError), socket.create_connection((HOST, port), 1):
                break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn {app} did not start")
            time.sleep(0.1)
        yield f"http://{HOST}:{port}"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wrk(url: str, lua: str, workdir: Path, seconds: int = SECONDS) -> dict[str, Any]:
    """One wrk run: requests per second, with every error wrk counted."""
    if urlsplit(url).hostname != HOST:
        raise ValueError(f"the benchmark only loads {HOST}, not {url}")
    script = workdir / f"wrk-{secrets.token_hex(4)}.lua"
    script.write_text(lua + REPORT_LUA)
    finished = subprocess.run(
        [
            "wrk",
            "--threads=1",
            f"--connections={CONNECTIONS}",
            f"--duration={seconds}s",
            "--timeout=10s",
            f"--script={script}",
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    line = next(line for line in finished.stdout.splitlines() if line.startswith("BENCH "))
    report: dict[str, Any] = json.loads(line.removeprefix("BENCH "))
    report["per_second"] = report["requests"] / (report["duration_us"] / 1e6)
    report["errors"] = sum(report[k] for k in ("connect", "read", "write", "status", "timeout"))
    return report


def _lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of ASCII is a valid Lua string


def get_lua(cookie: str | None = None, gzip_ok: bool = False) -> str:
    lines = []
    if cookie:
        lines.append(f'wrk.headers["Cookie"] = {_lua_string(cookie)}')
    if gzip_ok:
        lines.append('wrk.headers["Accept-Encoding"] = "gzip"')
    return "\n".join(lines) + "\n"


def post_lua(cookie: str, paths: list[str], body: str) -> str:
    """POST one hand to each rubber of the pool in turn, each with its own write key.

    Each is sent as the hand form sends it (wrk does not follow the redirect)."""
    listed = ", ".join(_lua_string(path) for path in paths)
    return f"""
wrk.method = "POST"
wrk.headers["Cookie"] = {_lua_string(cookie)}
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
local paths = {{{listed}}}
local body = {_lua_string(body)}
local run = {_lua_string(secrets.token_hex(6))}
local turn = 0
request = function()
  -- A fresh write key each time, as the hand form carries one.
  turn = turn + 1
  local key = "&key=" .. run .. "-" .. turn
  return wrk.format("POST", paths[(turn % #paths) + 1], nil, body .. key)
end
"""


class _Assets(HTMLParser):
    """What a page makes the browser download: stylesheets, scripts, icons, the worker."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []
        self.later: list[str] = []
        self.csrf: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("href"):
            rel = set((found.get("rel") or "").split())
            # Not apple-touch-icon: only an iPhone fetches it, when the page is saved to its
            # home screen (counted apart, in the figure's detail).
            if rel & {"stylesheet", "icon", "manifest", "preload"}:
                self.urls.append(str(found["href"]))
            elif "apple-touch-icon" in rel:
                self.later.append(str(found["href"]))
        elif tag == "script" and found.get("src"):
            self.urls.append(str(found["src"]))
            if found.get("data-sw"):
                self.urls.append(str(found["data-sw"]))
        elif tag == "form" and found.get("data-outlook-script"):
            # Fetched after the page by a phone that records hands, for its score offline
            # (counted apart, in the figure's detail).
            self.later.append(f"{found['data-page']}/outlook")
        elif tag == "img" and found.get("src"):
            self.urls.append(str(found["src"]))
        elif tag == "input" and found.get("name") == "csrf_token" and self.csrf is None:
            self.csrf = found.get("value")


def page_assets(html: str) -> _Assets:
    parser = _Assets()
    parser.feed(html)
    return parser


class Seeded:
    """The benchmark's data: a phone's session, its rubber of 12 hands and a pool to write to."""

    def __init__(self, app: Any) -> None:
        from scorekeeper import engine
        from scorekeeper.extensions import db
        from scorekeeper.rubbers import recording as adding
        from scorekeeper.rubbers import store
        from scorekeeper.rubbers.models import Rubber

        client = app.test_client()
        form = page_assets(client.get("/rubbers/new").get_data(as_text=True))
        created = client.post(
            "/rubbers/new",
            data={"csrf_token": form.csrf, "preset": "portugal", "games_to_win": "20"},
        )
        self.page = created.location
        html = client.get(self.page).get_data(as_text=True)
        self.csrf = page_assets(html).csrf or ""
        for points in SCORES:
            action = "tie" if points == "60" else "points"
            answer = client.post(
                self.page + "/hands",
                data={"csrf_token": self.csrf, "action": action, "team": "0", "points": points},
            )
            if answer.status_code not in (302, 303):
                raise RuntimeError(f"seeding a hand answered {answer.status_code}")
        client.get(self.page)  # shows the last hand's note, so the session carries no more
        cookie = client.get_cookie("session")
        if cookie is None:
            raise RuntimeError("the phone got no session")
        self.cookie = f"session={cookie.value}"
        session = app.session_interface.get_signing_serializer(app).loads(cookie.value)
        device = session["device"]
        hands = [
            engine.Hand.tie()
            if points == "60"
            else engine.Hand.played(int(points), 120 - int(points))
            for points in SCORES
        ]
        self.pool: list[str] = []
        with app.app_context():
            rules = engine.RuleSet.from_dict({"preset": "portugal", "games_to_win": 20})
            for _ in range(WRITE_POOL):
                rubber, _key = store.create_rubber(
                    teams=("Nós", "Eles"), players=None, first_dealer=0, rules=rules, device=device
                )
                for hand in hands:
                    adding.record_hand(rubber.id, device, hand)
                self.pool.append(f"/r/{rubber.id}/hands")
            self.pool_hands = self._pool_hands(db, Rubber)
        self._db, self._rubber = db, Rubber
        self.app = app

    def _pool_hands(self, db: Any, rubber: Any) -> int:
        ids = [path.split("/")[2] for path in self.pool]
        return int(
            db.session.execute(
                db.select(db.func.sum(rubber.hand_count)).where(rubber.id.in_(ids))
            ).scalar_one()
        )

    def hands_added(self) -> int:
        with self.app.app_context():
            now = self._pool_hands(self._db, self._rubber)
        added, self.pool_hands = now - self.pool_hands, now
        return added


def _ratio(measured: list[float], reference: list[float]) -> float:
    """Return the median of each round's ratio.

    A run is read against the hello run just before it, so a machine that is busier in one round
    than another moves both sides of a ratio."""
    ratios = sorted(m / r for m, r in zip(measured, reference, strict=True))
    middle = len(ratios) // 2
    return ratios[middle] if len(ratios) % 2 else (ratios[middle - 1] + ratios[middle]) / 2


def throughput(seeded: Seeded, env: dict[str, str], workdir: Path) -> list[Figure]:  # noqa: C901  one loop timing every kind of request, each a branch of its own
    """The rubber page and the record-a-hand POST against the hello page, alternated A B A B."""
    page_lua = get_lua(seeded.cookie, gzip_ok=True)
    # The 304 is a phone following the score: the scorer's page has a new write key each time.
    conditional_lua = get_lua(gzip_ok=True)
    write_body = f"csrf_token={seeded.csrf}&action=tie&team=0&points="
    write_lua = post_lua(seeded.cookie, seeded.pool, write_body)
    hello: list[float] = []
    page: list[float] = []
    writes: list[float] = []
    revalidated: list[float] = []
    unwritten: list[float] = []
    unremembered: list[float] = []
    problems: list[str] = []
    with (
        gunicorn("bench.hello:app", env) as hello_url,
        gunicorn("bench.wsgi:app", env) as app_url,
        gunicorn("bench.floor:app", env) as floor_url,
        gunicorn("bench.plain_session:app", env) as plain_url,
    ):
        import requests

        first = requests.get(app_url + seeded.page, timeout=10)
        etag = first.headers.get("ETag")
        if etag:
            conditional_lua += f'wrk.headers["If-None-Match"] = {_lua_string(etag)}\n'
            again = requests.get(app_url + seeded.page, headers={"If-None-Match": etag}, timeout=10)
            if again.status_code != 304:
                problems.append(f"the page's own ETag was answered {again.status_code}, not 304")
        for url in (hello_url + "/", app_url + seeded.page):
            wrk(url, get_lua(seeded.cookie), workdir, seconds=1)  # warm both up
        runs: list[tuple[list[float], str, str]] = [
            (hello, hello_url + "/", get_lua()),
            (page, app_url + seeded.page, page_lua),
            (writes, app_url + seeded.pool[0], write_lua),
        ]
        if etag:
            runs.append((revalidated, app_url + seeded.page, conditional_lua))
        runs.append((unwritten, floor_url + seeded.pool[0], write_lua))
        runs.append((unremembered, plain_url + seeded.page, page_lua))
        for _ in range(ROUNDS):
            for samples, url, lua in runs:
                if samples is writes or samples is unwritten:
                    # Write keys never used before: a repeat stores nothing.
                    lua = post_lua(seeded.cookie, seeded.pool, write_body)
                report = wrk(url, lua, workdir)
                if report["errors"]:
                    problems.append(f"{report['errors']} errors loading {urlsplit(url).path}")
                samples.append(report["per_second"])
                if samples is writes:
                    added = seeded.hands_added()
                    if added < report["requests"]:
                        problems.append(f"{report['requests']} POSTs stored only {added} hands")
    mean = sum(hello) / len(hello)
    trouble = "; " + "; ".join(problems) if problems else ""
    figures = [
        figure(
            "rubber page throughput ÷ hello page",
            _ratio(page, hello) if not problems else float("nan"),
            0.5,
            ">=",
            "",
            f"rubber page {sum(page) / len(page):,.0f} req/s (12 hands, gzip, the editing phone), "
            f"hello {mean:,.0f} req/s; {WORKERS} gunicorn workers, wrk {CONNECTIONS} connections, "
            f"{ROUNDS}×{SECONDS} s each, the median of the rounds' ratios{trouble}",
        ),
        figure(
            "record-a-hand POST (answered by its redirect) ÷ hello page",
            _ratio(writes, hello) if not problems else float("nan"),
            0.3,
            ">=",
            "",
            f"record a hand {sum(writes) / len(writes):,.0f} req/s over {WRITE_POOL} rubbers, "
            f"hello {mean:,.0f} req/s{trouble}",
        ),
    ]
    if revalidated:
        figures.append(
            figure(
                "unchanged rubber page, a follower's (If-None-Match → 304) ÷ hello page",
                _ratio(revalidated, hello),
                0.0,
                ">=",
                "",
                f"304 {sum(revalidated) / len(revalidated):,.0f} req/s, hello {mean:,.0f} req/s "
                "(an extra figure, without a budget of its own: the page figure above is full "
                "GETs)",
            )
        )
    if not problems:
        without = _ratio(unremembered, hello)
        figures.append(
            figure(
                "the rubber page with every session cookie verified ÷ hello page",
                without,
                0.0,
                ">=",
                "",
                f"{sum(unremembered) / len(unremembered):,.0f} req/s, hello {mean:,.0f} req/s "
                "(an extra figure, without a budget of its own: bench/plain_session.py, the app "
                "reading its session as Flask does, without the verified-cookie cache of "
                "web/security.py; the cache's share of the page figure: "
                f"{1 - without / _ratio(page, hello):.1%})",
            )
        )
    floor = sum(unwritten) / len(unwritten)
    wait = durable_commit(workdir)
    figures.append(
        figure(
            "the same POST with its database write taken out ÷ hello page",
            _ratio(unwritten, hello),
            0.0,
            ">=",
            "",
            f"{sum(unwritten) / len(unwritten):,.0f} req/s, hello {mean:,.0f} req/s (an extra "
            "figure, without a budget of its own: bench/floor.py, the app with hands.record_hand "
            "replaced by scoring the hand and storing nothing; the most the POST could answer "
            "were its write free)",
        )
    )
    # A sync worker waits for the disk through its commit: the most a POST could answer that
    # cost nothing but that wait on top of the rest.
    most = WORKERS / (WORKERS / floor + wait / 1000)
    figures.append(
        figure(
            "that POST, waiting only for one durable commit ÷ hello page",
            most / mean,
            0.0,
            ">=",
            "",
            f"{most:,.0f} req/s: {WORKERS} workers each taking the floor's "
            f"{1000 * WORKERS / floor:.2f} ms and a durable SQLite commit's {wait:.2f} ms "
            "(WAL, synchronous=FULL, the median of 300 on the benchmark's disk; an extra figure, "
            "without a budget of its own: the most the POST could answer were its statements "
            "free, the disk's wait kept)",
        )
    )
    return figures


def durable_commit(workdir: Path, commits: int = 300) -> float:
    """Return the milliseconds one small commit takes as the app makes it on SQLite.

    WAL, synchronous=FULL (a hand acknowledged is on the disk), the median of ``commits``."""
    import sqlite3

    connection = sqlite3.connect(workdir / "commits.sqlite3", isolation_level=None)
    try:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("CREATE TABLE counter (id INTEGER PRIMARY KEY, value INTEGER)")
        connection.execute("INSERT INTO counter VALUES (1, 0)")
        took = []
        for _ in range(commits):
            started = time.perf_counter()
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("UPDATE counter SET value = value + 1 WHERE id = 1")
            connection.execute("COMMIT")
            took.append(time.perf_counter() - started)
    finally:
        connection.close()
    return 1000 * sorted(took)[len(took) // 2]


def page_bytes(seeded: Seeded, env: dict[str, str]) -> list[Figure]:
    """What a phone downloads for the rubber page, counted from the server's gzip answers."""
    import requests

    with gunicorn("bench.wsgi:app", env) as app_url:
        headers = {"Cookie": seeded.cookie, "Accept-Encoding": "gzip"}
        bodies: dict[str, int] = {}
        header_bytes = 0
        others: set[str] = set()
        with requests.get(app_url + seeded.page, headers=headers, stream=True, timeout=10) as page:
            raw = page.raw.read(decode_content=False)
            html = (
                gzip.decompress(raw) if page.headers.get("Content-Encoding") == "gzip" else raw
            ).decode()
            bodies["HTML"] = len(raw)
            header_bytes += _header_size(page)
        assets = page_assets(html)
        later: dict[str, int] = {}
        for urls, sizes in ((assets.urls, bodies), (assets.later, later)):
            for url in dict.fromkeys(urls):
                absolute = urljoin(app_url + seeded.page, url)
                if urlsplit(absolute).netloc != urlsplit(app_url).netloc:
                    others.add(urlsplit(absolute).netloc)
                    continue
                with requests.get(absolute, headers=headers, stream=True, timeout=10) as answer:
                    answer.raise_for_status()
                    sizes[urlsplit(absolute).path] = len(answer.raw.read(decode_content=False))
                    if sizes is bodies:
                        header_bytes += _header_size(answer)
    total = sum(bodies.values())
    listed = ", ".join(f"{name.rsplit('/', 1)[-1]} {size:,}" for name, size in bodies.items())
    apart = ", ".join(f"{name.rsplit('/', 1)[-1]} {size:,}" for name, size in later.items())
    return [
        figure(
            "bytes a phone downloads for a rubber page with 12 hands (gzip)",
            total,
            FIRST_ROUND_TRIP,
            "<=",
            "bytes",
            f"{listed}; response headers {header_bytes:,} more; not counted: {apart or 'nothing'}"
            " (the apple-touch-icon, fetched only when an iPhone saves the page to its home "
            "screen; the outlook, fetched after the page by a phone that records hands, for "
            "the score it shows offline)",
        ),
        figure(
            "other hosts the rubber page loads from",
            len(others),
            0,
            "<=",
            "",
            ", ".join(sorted(others)) or "none",
        ),
    ]


def _header_size(response: Any) -> int:
    status = f"HTTP/1.1 {response.status_code} {response.reason}\r\n"
    lines = "".join(f"{name}: {value}\r\n" for name, value in response.headers.items())
    return len(status) + len(lines) + 2


LCP_SCRIPT = """() => new Promise((resolve) => {
  new PerformanceObserver((list) => {
    const entries = list.getEntries();
    resolve(entries[entries.length - 1].startTime);
  }).observe({type: "largest-contentful-paint", buffered: true});
  setTimeout(() => resolve(NaN), 15000);  // no paint at all: not measured, not a hang
})"""


def largest_contentful_paint(seeded: Seeded, env: dict[str, str]) -> list[Figure]:
    """LCP of the rubber page in Chromium throttled as Lighthouse's mobile preset."""
    from playwright.sync_api import sync_playwright

    name = "Largest Contentful Paint of the rubber page, mobile throttling"
    if not Path(CHROMIUM).exists():
        return [not_measured(name, 1.0, "<=", "s", f"no Chromium at {CHROMIUM}")]
    with gunicorn("bench.wsgi:app", env) as app_url, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = browser.new_context(
                viewport={"width": 412, "height": 823},
                device_scale_factor=1.75,
                is_mobile=True,
                has_touch=True,
                service_workers="block",
            )
            name_value = seeded.cookie.split("=", 1)
            context.add_cookies([{"name": name_value[0], "value": name_value[1], "url": app_url}])
            samples = []
            for _ in range(3):
                tab = context.new_page()
                cdp = context.new_cdp_session(tab)
                cdp.send("Network.enable")
                cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
                cdp.send(
                    "Network.emulateNetworkConditions",
                    {
                        "offline": False,
                        "latency": 150,
                        "downloadThroughput": 1.6 * 1024 * 1024 / 8,
                        "uploadThroughput": 750 * 1024 / 8,
                    },
                )
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
                tab.goto(app_url + seeded.page, wait_until="load")
                painted = tab.evaluate(LCP_SCRIPT)
                if not isinstance(painted, int | float) or math.isnan(painted):
                    raise RuntimeError("the page reported no Largest Contentful Paint")
                samples.append(painted / 1000)
                tab.close()
        finally:
            browser.close()
    median = sorted(samples)[len(samples) // 2]
    return [
        figure(
            name,
            median,
            1.0,
            "<=",
            "s",
            "150 ms RTT, 1.6 Mbps down, 750 kbps up, CPU ×4, no cache; median of "
            + ", ".join(f"{s:.2f}" for s in samples)
            + " s",
        )
    ]


def engine_figures(workdir: Path) -> list[Figure]:
    """The engine's two benchmarks against one rubber page request, with pytest-benchmark."""
    report = workdir / "engine.json"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "tests/engine/test_benchmark.py",
            "tests/system/test_benchmark_request.py",
            "--benchmark-enable",
            "--benchmark-only",
            f"--benchmark-json={report}",
        ],
        cwd=ROOT,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    medians = {
        item["name"]: item["stats"]["median"] * 1e6
        for item in json.loads(report.read_text())["benchmarks"]
    }
    rendered = medians["test_benchmark_rubber_page_rendered"]
    kept = medians["test_benchmark_rubber_page_request"]
    figures = []
    for test, name in (
        ("test_benchmark_verify_record", "engine: verify a full trick record"),
        ("test_benchmark_replay_30_hands", "engine: fold a 30-hand rubber"),
    ):
        figures.append(
            figure(
                name,
                100 * medians[test] / rendered,
                5.0,
                "<=",
                "% of a page request",
                f"{medians[test]:,.0f} µs; the rubber page request that folds and renders "
                f"{rendered:,.0f} µs (median), {100 * medians[test] / kept:.0f} % of one "
                f"answered from the kept rendering ({kept:,.0f} µs), where the engine does not run",
            )
        )
    return figures


def scale_figures() -> list[Figure]:
    """The history and statistics pages at scale, from bench/scale.py when it is there."""
    if importlib.util.find_spec("bench.scale") is None:
        return [
            not_measured(
                "history and statistics pages at 10,000 rubbers ÷ at 100",
                1.2,
                "<=",
                "",
                "bench/scale.py is not there yet",
            )
        ]
    scale = importlib.import_module("bench.scale")
    return list(scale.measure())


def tournament_figures() -> list[Figure]:
    """Issue 26's figures (bench/tournaments.py): a Swiss draw, a tournament page, a poll."""
    tournaments = importlib.import_module("bench.tournaments")
    return list(tournaments.measure())


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    system = f"{platform.system()} {platform.release()}"
    return f"{cpu}, {os.cpu_count()} cores, {system}, Python {platform.python_version()}"


def _guarded(name: str, budget: float, comparison: str, unit: str, measure: Any) -> list[Figure]:
    """A part of the benchmark that failed to run is a missed figure, not a crash of the rest."""
    try:
        return list(measure())
    except Exception as error:  # noqa: BLE001 — reported in the table, and the run fails
        return [not_measured(name, budget, comparison, unit, f"{type(error).__name__}: {error}")]


def _figures_of(module: str) -> list[Figure]:
    """The figures of ``python -m <module> --json``, run in a process of its own."""
    done = subprocess.run(
        [sys.executable, "-m", module, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: list[Figure] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def _analysis_figures() -> list[Figure]:
    """The analysis's figures, from a process of its own.

    Its peak memory is then the analysis's alone, not that of the databases and pages measured
    before it in this process."""
    return _figures_of("bench.analysis")


def _queue_figures() -> list[Figure]:
    """Issue 27's figures (bench/queue.py): an analysis through the queue, on SQLite and Redis.

    From a process of its own, as the analysis's: its reference solve runs where nothing else
    was measured."""
    return _figures_of("bench.queue")


def _flood_figures() -> list[Figure]:
    """Issue 41's figure (bench/floods.py): the other tables' hands under one client's flood.

    From a process of its own: its flooders are processes, and its servers its own."""
    return _figures_of("bench.floods")


def main() -> int:
    if shutil.which("wrk") is None:
        print("make bench needs wrk, the HTTP load generator: apt-get install wrk", file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as folder:
        workdir = Path(folder)
        env = {
            "BENCH_DATABASE_URL": os.environ.get("BENCH_DATABASE_URL")
            or f"sqlite:///{workdir / 'bench.sqlite3'}",
            "BENCH_SECRET_KEY": secrets.token_hex(32),
        }
        os.environ.update(env)
        import flask_migrate

        from bench.wsgi import app

        with app.app_context():
            flask_migrate.upgrade(directory=app.extensions["migrate"].directory)
        seeded = Seeded(app)
        figures: list[Figure] = []
        figures += _guarded(
            "rubber page throughput ÷ hello page",
            0.5,
            ">=",
            "",
            lambda: throughput(seeded, env, workdir),
        )
        figures += _guarded(
            "bytes a phone downloads for a rubber page with 12 hands (gzip)",
            FIRST_ROUND_TRIP,
            "<=",
            "bytes",
            lambda: page_bytes(seeded, env),
        )
        figures += _guarded(
            "Largest Contentful Paint of the rubber page, mobile throttling",
            1.0,
            "<=",
            "s",
            lambda: largest_contentful_paint(seeded, env),
        )
        figures += _guarded(
            "engine: verify a full trick record",
            5.0,
            "<=",
            "% of a page request",
            lambda: engine_figures(workdir),
        )
        figures += _guarded(
            "history and statistics pages at 10,000 rubbers ÷ at 100", 1.2, "<=", "", scale_figures
        )
        figures += _guarded(
            "analysis: a full deal's value, median", 0.1, "<=", "s", _analysis_figures
        )
        figures += _guarded(
            "an analysis through the queue (SQLite), on top of its solve, median",
            0.3,
            "<=",
            "s",
            _queue_figures,
        )
        figures += _guarded(
            "a 128-pair Swiss round drawn (after 6 rounds), worst of 10",
            0.5,
            "<=",
            "s",
            tournament_figures,
        )
        figures += _guarded(
            "other tables' hand p95 under the worst flood ÷ unloaded (nginx, 2 workers)",
            3.0,
            "<=",
            "",
            _flood_figures,
        )
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    where = machine()
    RESULTS.write_text(
        json.dumps(
            {"date": when, "machine": where, "figures": for_json(figures)},
            indent=2,
            ensure_ascii=False,
        )
        + "\n"
    )
    print(f"{when} · {where}\n")
    print(table(figures))
    missed = [item["figure"] for item in figures if not item["ok"]]
    print(
        f"\n{len(figures) - len(missed)} of {len(figures)} budgets met; results in {RESULTS.relative_to(ROOT)}"
    )
    return exit_status(figures)
