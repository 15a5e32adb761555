"""Issue 8's scale figure: each history and statistics page of a large group against a small one.

The large group has 10,000 rubbers (200,000 hands), and each page of a phone whose history holds
them is measured too, against the same page of a group and a phone of 100 rubbers, served from one
database by one server in the same run.

Run alone with ``python -m bench.scale``; :func:`measure` gives the figures to the benchmark.
A figure is the ratio of the median times, large ÷ small (budget 1.2), and it is missed when
the two pages do not take the same number of SQL queries. The player page is read against a
group of 1,000 rubbers too: its rating chart grows with the player's rubbers up to 200.
"""

from __future__ import annotations

import logging
import statistics
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask

from scorekeeper import create_app
from scorekeeper.extensions import db
from tests.support.apps import counted_queries, served
from tests.support.bulk import HANDS_PER_RUBBER, bulk_group

LARGE = 10_000
SMALL = 100
FULL_CHART = 1_000
"""A group in which the player page's rating chart is already full (its last 200 rated
rubbers): the player page at 10,000 rubbers is also read against this one."""
COUNTS = {"large": LARGE, "full chart": FULL_CHART, "small": SMALL}
ROUNDS = 25
"""Requests of each page to each size, alternately (A B A B …), after two to warm up."""
BUDGET = 1.2
PAGE_SIZE = 20
DEEP = 250
"""The deep page of the large histories: page 250 (rubbers 4,981 to 5,000 from the newest)."""
DEVICES = {
    "large": "bench-phone-of-ten-thousand-rubbers",
    "full chart": "bench-phone-of-a-thousand",
    "small": "bench-phone-of-a-hundred",
}

Figure = dict[str, Any]


@contextmanager
def quiet_werkzeug() -> Iterator[None]:
    """No line per request from the server while the pages are measured."""
    log = logging.getLogger("werkzeug")
    level = log.level
    log.setLevel(logging.WARNING)
    try:
        yield
    finally:
        log.setLevel(level)


def _session_cookie(app: Flask, device: str) -> str:
    """The signed session cookie a phone with this anonymous id sends."""
    serializer = app.session_interface.get_signing_serializer(app)  # type: ignore[attr-defined]
    return f"{app.config['SESSION_COOKIE_NAME']}={serializer.dumps({'device': device})}"


def _get(url: str, cookie: str) -> tuple[float, int, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": "en", "Cookie": cookie})
    started = time.perf_counter()
    with urllib.request.urlopen(request) as response:
        body = response.read()
        status = response.status
    return time.perf_counter() - started, status, body


def pages(groups: dict[str, tuple[str, list[str]]]) -> dict[str, dict[str, str]]:
    """Each page measured, with its address in each group and phone."""

    def deep(ids: list[str]) -> str:
        # The rubber just above the deep page: the "Older" link of the page before it. The
        # small history is only five pages long: its deep page is its middle one.
        above = (DEEP - 1) * PAGE_SIZE if len(ids) > DEEP * PAGE_SIZE else len(ids) // 2
        return ids[-above]

    urls: dict[str, dict[str, str]] = {}
    for size, (group_id, ids) in groups.items():
        for name, url in {
            "phone history, page 1 (/history)": "/history",
            f"phone history, page {DEEP} (/history?before=)": f"/history?before={deep(ids)}",
            "group page with its history, page 1 (/g/<id>)": f"/g/{group_id}",
            f"group history, page {DEEP} (/g/<id>?before=)": f"/g/{group_id}?before={deep(ids)}",
            "statistics page (/g/<id>/stats)": f"/g/{group_id}/stats",
            "player page (/g/<id>/player)": f"/g/{group_id}/player?name=rui",
            "statistics JSON (/api/v1/groups/<id>/stats)": f"/api/v1/groups/{group_id}/stats",
        }.items():
            urls.setdefault(name, {})[size] = url
    return urls


def build(app: Flask) -> dict[str, tuple[str, list[str]]]:
    """One database: the large and the small group, each rubber also in its phone's history."""
    with app.app_context():
        db.create_all()
    return {
        size: bulk_group(app, count, f"bench-{size.replace(' ', '-')}", device=DEVICES[size])
        for size, count in COUNTS.items()
    }


def measure() -> list[Figure]:
    """Return the figures: per page, the median time of the large ÷ that of the small.

    One server, one run, requests alternated; a figure is ok within the budget and with the same
    number of queries."""
    with tempfile.TemporaryDirectory(prefix="sueca-scale-") as folder:
        app = create_app(
            {
                "SECRET_KEY": "bench-scale",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'scale.sqlite3'}",
                "HISTORY_PAGE_SIZE": PAGE_SIZE,
            }
        )
        try:
            started = time.perf_counter()
            groups = build(app)
            built = time.perf_counter() - started
            cookies = {size: _session_cookie(app, device) for size, device in DEVICES.items()}
            with quiet_werkzeug(), served(app, threaded=False) as base:
                figures = [
                    _compare(app, base, name, urls, cookies, built)
                    for name, urls in pages(groups).items()
                ]
                # The player page shows more as the player's rated rubbers grow to 200 (the
                # chart): past that it should cost the same.
                name = "player page (/g/<id>/player)"
                player = pages(groups)[name]
                figures.append(
                    _compare(app, base, name, player, cookies, built, against="full chart")
                )
                return figures
        finally:
            with app.app_context():
                db.session.remove()
                db.engine.dispose()


def _compare(
    app: Flask,
    base: str,
    name: str,
    urls: dict[str, str],
    cookies: dict[str, str],
    built: float,
    against: str = "small",
) -> Figure:
    pair = ("large", against)
    times: dict[str, list[float]] = {size: [] for size in pair}
    queries: dict[str, set[int]] = {size: set() for size in pair}
    sizes = dict.fromkeys(pair, 0)
    for round_ in range(ROUNDS + 2):
        for size in pair:
            with counted_queries(app) as statements:
                seconds, status, body = _get(base + urls[size], cookies[size])
            if status != 200:
                raise RuntimeError(f"{urls[size]} answered {status}")
            queries[size].add(len(statements))
            sizes[size] = len(body)
            if round_ >= 2:
                times[size].append(seconds)
    large, small = (statistics.median(times[size]) for size in pair)
    value = large / small
    same = len(queries["large"]) == 1 and queries["large"] == queries[against]
    detail = (
        f"median {large * 1000:.1f} ms at {LARGE:,} rubbers ({LARGE * HANDS_PER_RUBBER:,}"
        f" hands) / {small * 1000:.1f} ms at {COUNTS[against]:,} rubbers; SQL queries"
        f" {_listed(queries['large'])} / {_listed(queries[against])}"
        f"{'' if same else ' (NOT the same)'}; {ROUNDS} requests each, alternated;"
        f" {sizes['large']:,} / {sizes[against]:,} bytes; database built in {built:.1f} s"
    )
    return {
        "figure": f"{name}: {LARGE:,} rubbers ÷ {COUNTS[against]:,}",
        "value": value,
        "budget": BUDGET,
        "comparison": "<=",
        "unit": "ratio",
        "ok": value <= BUDGET and same,
        "detail": detail,
    }


def _listed(counts: set[int]) -> str:
    return "/".join(str(count) for count in sorted(counts))


def main() -> int:
    figures = measure()
    for figure in figures:
        verdict = "ok" if figure["ok"] else "MISSED"
        print(
            f"{verdict:6} {figure['figure']}: {figure['value']:.2f}"
            f" (budget {figure['comparison']} {figure['budget']})\n       {figure['detail']}"
        )
    return 0 if all(figure["ok"] for figure in figures) else 1


if __name__ == "__main__":
    raise SystemExit(main())
