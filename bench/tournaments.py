"""Issue 26's figures: a Swiss round of 128 pairs drawn, a tournament page, a follower's poll.

- A 128-pair Swiss round drawn in processor time (the engine alone), after six rounds of
  random results: its worst of 10 tournaments, budget 0.5 s.
- The tournament page of 64 pairs after 6 rounds (a Swiss, every match played through the API,
  one rubber each) against a rubber page of 12 hands, each asked by the same test client of one
  app in the same run, alternately: the ratio of the medians, budget 2.
- A follower's poll of the tournament's state while nothing changed: every one answered 304.

Run alone with ``python -m bench.tournaments``; :func:`measure` gives the figures to the benchmark.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.figures import Figure, figure, table
from scorekeeper import create_app
from scorekeeper.engine import tournaments as tourney

SWISS_PAIRS = 128
PAGE_PAIRS = 64
ROUNDS_PLAYED = 6
TOURNAMENTS = 10
REQUESTS = 30
"""Each page asked this many times, alternately with the other, after two to warm up."""
POLLS = 20


def _random_results(
    fold: tourney.Tournament, chance: random.Random
) -> dict[tuple[int, int], tourney.MatchResult]:
    results = {}
    for drawn in fold.rounds:
        for match in drawn.matches:
            if match.pairs[1] is None:
                continue
            side = chance.randrange(2)
            loser = chance.randrange(4)
            games = (4, loser) if side == 0 else (loser, 4)
            results[match.round, match.table] = tourney.MatchResult(
                (tourney.RubberResult(games, side),)
            )
    return results


def swiss_draw_seconds(seed: int) -> float:
    """Processor time of drawing round 7 of a 128-pair Swiss after six random rounds."""
    chance = random.Random(seed)
    settings = tourney.Settings("swiss", SWISS_PAIRS, rounds=ROUNDS_PLAYED + 1)
    drawn: list[tuple[tourney.Pairing, ...]] = []
    results: dict[tuple[int, int], tourney.MatchResult] = {}
    for _ in range(ROUNDS_PLAYED):
        fold = tourney.fold(settings, drawn, results)
        drawn.append(fold.draw_next_round())
        results = _random_results(tourney.fold(settings, drawn, results), chance)
    fold = tourney.fold(settings, drawn, results)
    start = time.process_time()
    fold.draw_next_round()
    return time.process_time() - start


def _median_seconds(client: Any, url: str, times: list[float]) -> None:
    start = time.perf_counter()
    response = client.get(url)
    times.append(time.perf_counter() - start)
    if response.status_code != 200:
        raise RuntimeError(f"{url} answered {response.status_code}")


def page_figures(workdir: Path) -> list[Figure]:
    """The tournament page of 64 pairs after 6 rounds against a rubber page, and the poll."""
    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{workdir / 'tournaments.sqlite3'}",
            "RATELIMIT_ENABLED": False,
            "WTF_CSRF_ENABLED": False,
            "SECRET_KEY": "bench",
        }
    )
    import flask_migrate

    with app.app_context():
        flask_migrate.upgrade(directory=app.extensions["migrate"].directory)
    client = app.test_client()
    pairs = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, PAGE_PAIRS + 1)]
    created = client.post(
        "/api/v1/tournaments",
        json={"name": "Bench", "format": "swiss", "pairs": pairs, "rounds": ROUNDS_PLAYED},
    ).get_json()
    key = {"X-Edit-Key": created["edit_key"]}
    base = f"/api/v1/tournaments/{created['id']}"
    chance = random.Random(26)
    for number in range(1, ROUNDS_PLAYED + 1):
        state = client.get(base).get_json()
        (drawn,) = [item for item in state["rounds"] if item["number"] == number]
        for match in drawn["matches"]:
            if match["winner"] is None:
                hand = [120, 0] if chance.randrange(2) == 0 else [0, 120]
                client.post(
                    f"/api/v1/rubbers/{match['rubbers'][-1]}/hands",
                    json={"points": hand, "all_tricks": True},
                    headers=key,
                )
        if number < ROUNDS_PLAYED:
            client.post(f"{base}/rounds", headers=key)
    rubber = client.post("/api/v1/rubbers", json={}).get_json()
    for points in (75, 30, 95, 50, 61, 59, 88, 32, 70, 20, 64, 66):
        client.post(
            f"/api/v1/rubbers/{rubber['id']}/hands",
            json={"points": [points, 120 - points]},
            headers={"X-Edit-Key": rubber["edit_key"]},
        )
    page, reference = f"/t/{created['id']}", f"/r/{rubber['id']}"
    times: dict[str, list[float]] = {page: [], reference: []}
    for url in (page, reference, page, reference):  # warm up
        client.get(url)
    for _ in range(REQUESTS):
        for url in (page, reference):
            _median_seconds(client, url, times[url])
    ratio = statistics.median(times[page]) / statistics.median(times[reference])
    # What a change costs, once: the page rendered again (an address not kept yet).
    first: list[float] = []
    for number in range(5):
        _median_seconds(client, f"{page}?render={number}", first)
    etag = client.get(base).headers["ETag"]
    answered = [client.get(base, headers={"If-None-Match": etag}).status_code for _ in range(POLLS)]
    not_modified = answered.count(304) / POLLS
    return [
        figure(
            "tournament page of 64 pairs after 6 rounds ÷ a rubber page",
            ratio,
            2.0,
            "<=",
            "",
            f"{statistics.median(times[page]) * 1000:.1f} ms against "
            f"{statistics.median(times[reference]) * 1000:.1f} ms (medians of {REQUESTS}, "
            "the same app and client, alternately); rendered once per change of the "
            f"tournament: {statistics.median(first) * 1000:.0f} ms",
        ),
        figure(
            "a follower's poll of an unchanged tournament answered 304",
            not_modified,
            1.0,
            ">=",
            "of polls",
            f"{answered.count(304)} of {POLLS} polls with the ETag of the state",
        ),
    ]


def measure() -> list[Figure]:
    seconds = [swiss_draw_seconds(seed) for seed in range(TOURNAMENTS)]
    figures = [
        figure(
            "a 128-pair Swiss round drawn (after 6 rounds), worst of 10",
            max(seconds),
            0.5,
            "<=",
            "s",
            f"processor time; median {statistics.median(seconds):.3f} s",
        )
    ]
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-tournaments-") as folder:
        figures += page_figures(Path(folder))
    return figures


if __name__ == "__main__":
    results = measure()
    print(table(results))
    sys.exit(0 if all(item["ok"] for item in results) else 1)
