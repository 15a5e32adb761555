"""One rubber per place: four quarter-finals decided at the same moment, followers reading.

A knockout of 8 brings each quarter-final to 3-0, then the four deciding hands are posted at the
same instant (a barrier, one thread each, the servers taken in turn) while four followers read
the tournament's state. Each semi-final must then have exactly one rubber: two requests that
both see a match needing its rubber cannot both create one, whatever the database (issue 42,
item 1; API.md, "One rubber per place"). On PostgreSQL, with two app servers (CI's second
run), 50 times; on SQLite, whose writers queue, 10.
"""

from __future__ import annotations

import os
import threading
from collections import Counter
from pathlib import Path

import requests
import sqlalchemy as sa

from scorekeeper.extensions import db
from scorekeeper.tournaments.models import MatchRubber
from tests.support.servers import APP_SERVERS, Stack, behind_proxy

TRIALS = 50 if os.environ.get("DATABASE_URL") else 10
FOLLOWERS = 4
TO_THREE = ({"points": [100, 20]}, {"points": [70, 50]})
"""Two games, then one: the quarter-final's first pair leads 3-0."""
DECIDING = {"points": [70, 50]}


def session() -> requests.Session:
    client = requests.Session()
    client.trust_env = False
    return client


def decide(url: str, key: dict[str, str], start: threading.Barrier, answers: list[int]) -> None:
    """The table's deciding hand, posted when every thread is ready."""
    with session() as table:
        start.wait()
        answers.append(table.post(url, json=DECIDING, headers=key, timeout=60).status_code)


def follow(url: str, start: threading.Barrier) -> None:
    """A follower reading the tournament's state five times from the same instant."""
    with session() as follower:
        start.wait()
        for _ in range(5):
            assert follower.get(url, timeout=60).status_code == 200


def trial(stack: Stack, client: requests.Session, number: int) -> None:
    servers = [server.url for server in stack.servers]
    pairs = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, 9)]
    body = {"name": f"Taça {number}", "format": "knockout", "pairs": pairs}
    made = client.post(f"{servers[0]}/api/v1/tournaments", json=body, timeout=30)
    assert made.status_code == 201, made.text
    tournament = made.json()
    key = {"X-Edit-Key": tournament["edit_key"]}
    quarters = [match["rubbers"][0] for match in tournament["rounds"][0]["matches"]]
    assert len(quarters) == 4
    for rubber in quarters:
        for hand in TO_THREE:
            url = f"{servers[0]}/api/v1/rubbers/{rubber}/hands"
            assert client.post(url, json=hand, headers=key, timeout=30).status_code == 201
    start = threading.Barrier(len(quarters) + FOLLOWERS)
    answers: list[int] = []
    state = f"/api/v1/tournaments/{tournament['id']}"
    threads = [
        threading.Thread(
            target=decide,
            args=(
                f"{servers[n % len(servers)]}/api/v1/rubbers/{rubber}/hands",
                key,
                start,
                answers,
            ),
        )
        for n, rubber in enumerate(quarters)
    ] + [
        threading.Thread(target=follow, args=(servers[n % len(servers)] + state, start))
        for n in range(FOLLOWERS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert answers == [201] * 4, answers
    with stack.app.app_context():
        places = Counter(
            db.session.execute(
                sa.select(MatchRubber.round, MatchRubber.table).where(
                    MatchRubber.tournament_id == tournament["id"]
                )
            ).all()
        )
        db.session.remove()
    semis = {place: count for place, count in places.items() if place[0] == 2}
    assert semis == {(2, 1): 1, (2, 2): 1}, (number, places)
    semi_finals = client.get(servers[-1] + state, timeout=30).json()["rounds"][1]["matches"]
    assert [len(match["rubbers"]) for match in semi_finals] == [1, 1], (number, semi_finals)


def test_a_match_never_gets_two_rubbers_when_the_matches_before_it_end_at_once(
    tmp_path: Path,
) -> None:
    with behind_proxy(tmp_path, servers=APP_SERVERS) as stack, session() as client:
        for number in range(TRIALS):
            trial(stack, client, number)
