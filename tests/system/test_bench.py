"""The benchmark's verdict (bench/figures.py): no timing here, only the budget logic."""

from __future__ import annotations

import json
import math

import pytest
import requests

from bench import figures, queue, run


def test_a_figure_is_judged_against_its_budget() -> None:
    assert figures.figure("page ÷ hello", 0.5, 0.5, ">=", "", "")["ok"] is True
    assert figures.figure("page ÷ hello", 0.49, 0.5, ">=", "", "")["ok"] is False
    assert figures.figure("bytes", 14_600, 14_600, "<=", "bytes", "")["ok"] is True
    assert figures.figure("bytes", 14_601, 14_600, "<=", "bytes", "")["ok"] is False
    with pytest.raises(ValueError, match="<= or >="):
        figures.figure("bytes", 1, 2, "<", "bytes", "")


def test_the_run_fails_when_one_figure_misses() -> None:
    met = figures.figure("LCP", 0.5, 1.0, "<=", "s", "median of 0.5 s")
    missed = figures.figure("page ÷ hello", 0.2, 0.5, ">=", "", "rubber 200 req/s, hello 1000")
    assert figures.exit_status([met]) == 0
    assert figures.exit_status([met, missed]) == 1
    assert figures.exit_status([]) == 1, "a run that measured nothing did not pass"


def test_a_figure_not_measured_is_a_miss_written_as_null() -> None:
    absent = figures.not_measured("scale", 1.2, "<=", "", "bench/scale.py is not there yet")
    assert math.isnan(absent["value"]) and absent["ok"] is False
    assert figures.exit_status([absent]) == 1
    written = json.loads(json.dumps(figures.for_json([absent])))
    assert written[0]["value"] is None
    assert written[0]["detail"] == "not measured: bench/scale.py is not there yet"
    assert "| scale | not measured | <= 1.2 | NO |" in figures.table([absent])


def test_the_table_shows_every_figure_with_its_verdict() -> None:
    rows = figures.table(
        [
            figures.figure("bytes", 13_909, 14_600, "<=", "bytes", "HTML 4,727"),
            figures.figure("page ÷ hello", 0.41, 0.5, ">=", "", "rubber 1,337 req/s"),
        ]
    ).splitlines()
    assert rows[0] == "| figure | value | budget | met | detail |"
    assert rows[2] == "| bytes | 13,909 bytes | <= 14,600 bytes | yes | HTML 4,727 |"
    assert rows[3] == "| page ÷ hello | 0.41 | >= 0.5 | NO | rubber 1,337 req/s |"


def test_a_part_that_breaks_is_reported_as_missed_not_raised() -> None:
    def broken() -> list[figures.Figure]:
        raise RuntimeError("gunicorn did not start")

    [reported] = run._guarded("page ÷ hello", 0.5, ">=", "", broken)
    assert reported["ok"] is False
    assert reported["detail"] == "not measured: RuntimeError: gunicorn did not start"


def test_the_load_only_ever_targets_this_machine(tmp_path: object) -> None:
    with pytest.raises(ValueError, match="127.0.0.1"):
        run.wrk("http://example.org/", "", tmp_path)  # type: ignore[arg-type]
    with requests.Session() as session, pytest.raises(ValueError, match="127.0.0.1"):
        queue.one_analysis(session, "http://example.org", 0)


def test_the_page_parser_finds_what_a_phone_downloads() -> None:
    assets = run.page_assets(
        '<link rel="stylesheet" href="/static/app.css?v=1"><link rel="apple-touch-icon" '
        'href="/static/icons/icon-192.png"><script defer src="/static/app.js" data-sw="/sw.js">'
        '</script><input type="hidden" name="csrf_token" value="t0k3n">'
    )
    assert assets.urls == ["/static/app.css?v=1", "/static/app.js", "/sw.js"]
    assert assets.later == ["/static/icons/icon-192.png"]
    assert assets.csrf == "t0k3n"


def test_a_ratio_is_the_median_of_each_rounds_ratio() -> None:
    """A round where the machine was busy for the hello run does not decide the figure."""
    assert run._ratio([500, 600, 700], [1000, 1000, 1000]) == 0.6
    assert run._ratio([500, 300, 700], [1000, 1000, 1000]) == 0.5
    assert run._ratio([1, 3], [2, 2]) == 1.0


def test_the_analysis_peak_is_its_own_process_s_not_its_parent_s() -> None:
    """make bench runs the analyses in a child process: the peak it reports is the child's.

    Linux carries getrusage's ru_maxrss over exec, so a child of a 200 MiB parent would report
    200 MiB whatever it used itself."""
    import subprocess
    import sys

    parent = bytearray(200 * 1024 * 1024)
    parent[::4096] = b"\1" * len(parent[::4096])  # resident, page by page
    child = subprocess.run(
        [sys.executable, "-c", "from bench.analysis import resident_peak; print(resident_peak())"],
        capture_output=True,
        text=True,
        check=True,
        cwd=run.ROOT,
    )
    assert len(parent) == 200 * 1024 * 1024
    assert 5 < float(child.stdout) < 150, child.stdout
