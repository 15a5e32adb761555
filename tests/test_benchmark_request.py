"""The reference for the engine's benchmarks: one rubber page request through the whole app.

Run with ``make bench``; the engine's figures are read against this one, measured in the same
run on the same machine, never against a fixed time.
"""

from __future__ import annotations

from flask.testing import FlaskClient
from pytest_benchmark.fixture import BenchmarkFixture


def test_benchmark_rubber_page_request(client: FlaskClient, benchmark: BenchmarkFixture) -> None:
    page = client.post("/rubbers/new", data={"preset": "portugal", "games_to_win": "20"}).location
    for points in ("75", "60", "30", "95", "50", "61", "59", "88", "32", "70", "20", "64"):
        action = "tie" if points == "60" else "points"
        client.post(page + "/hands", data={"action": action, "team": "0", "points": points})
    response = benchmark(client.get, page)
    assert response.status_code == 200
    assert response.get_data(as_text=True).count('class="summary"') == 12
