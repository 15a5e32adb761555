"""The references for the engine's benchmarks: one rubber page request through the whole app.

Run with ``make bench``; the engine's figures are read against these, measured in the same
run on the same machine, never against a fixed time. A rubber page is rendered once per
version of the rubber (scorekeeper/page_cache.py): the engine runs on the request that renders
it (the first after a hand), not on the ones answered from the kept rendering. Both are
measured.
"""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from pytest_benchmark.fixture import BenchmarkFixture

from scorekeeper.web.page_cache import PageCache

SCORES = ("75", "60", "30", "95", "50", "61", "59", "88", "32", "70", "20", "64")


def rubber_of_12_hands(client: FlaskClient) -> str:
    page = str(
        client.post("/rubbers/new", data={"preset": "portugal", "games_to_win": "20"}).location
    )
    for points in SCORES:
        action = "tie" if points == "60" else "points"
        client.post(page + "/hands", data={"action": action, "team": "0", "points": points})
    client.get(page)  # the last hand's note, shown once
    return page


def test_benchmark_rubber_page_request(client: FlaskClient, benchmark: BenchmarkFixture) -> None:
    page = rubber_of_12_hands(client)
    response = benchmark(client.get, page)
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('class="summary"') == 12


def test_benchmark_rubber_page_rendered(
    app: Flask, client: FlaskClient, benchmark: BenchmarkFixture
) -> None:
    """The page as the first request after a hand gets it: folded and rendered."""
    page = rubber_of_12_hands(client)

    def forget() -> None:
        app.extensions["page_cache"] = PageCache()

    response = benchmark.pedantic(client.get, args=(page,), setup=forget, rounds=100)
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('class="summary"') == 12
