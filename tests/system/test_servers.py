"""More than one app server: two gunicorn servers on one database, behind nginx, answer as one.

The database is PostgreSQL in CI's second pass; the nginx is the documented one.

Each server keeps rendered rubber pages and verified session cookies in memory
(web/page_cache.py, web/security.py). A page kept by one server is checked against the rubber's
version in the database on every request, so a write through the other server is seen at once;
a cookie is the same cookie on both. Read here server by server, then through the proxy, which
sends each request to the next server in turn.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
import requests

from tests.support.servers import Stack, behind_proxy

SCORE = re.compile(r'<strong class="games">(\d+) – (\d+)</strong>')
EN = {"Accept-Language": "en"}


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with behind_proxy(tmp_path, servers=2) as running:
        yield running


def score(html: str) -> tuple[int, int]:
    found = SCORE.search(html)
    assert found, html[:2000]
    return int(found.group(1)), int(found.group(2))


class _HiddenFields(HTMLParser):
    def __init__(self, action: str) -> None:
        super().__init__()
        self.action = action
        self.fields: dict[str, str] = {}
        self._inside = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._inside = values.get("action", "").endswith(self.action)
        elif tag == "input" and self._inside and values.get("type") == "hidden":
            self.fields[values["name"]] = values.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._inside = False


def form_fields(html: str, action: str = "/hands") -> dict[str, str]:
    """The hidden fields of the page's form that posts to an address ending in ``action``."""
    reader = _HiddenFields(action)
    reader.feed(html)
    return reader.fields


def test_a_page_kept_by_one_server_is_never_stale_after_a_write_through_the_other(
    stack: Stack,
) -> None:
    first, second = (server.url for server in stack.servers)
    with requests.Session() as scorer, requests.Session() as follower:
        for client in (scorer, follower):
            client.trust_env = False
            client.headers.update(EN)
        rubber = scorer.post(f"{first}/api/v1/rubbers", json={}, timeout=10).json()
        page = f"/r/{rubber['id']}"
        # The scorer's phone takes its edit link on the first server, which keeps its pages.
        granted = scorer.get(f"{first}{page}/edit/{rubber['edit_key']}", timeout=10)
        assert granted.status_code == 200 and score(granted.text) == (0, 0)
        kept = scorer.get(first + page, timeout=10)
        assert score(kept.text) == (0, 0)
        followed = follower.get(first + page, timeout=10)
        etag = followed.headers["ETag"]

        # A hand through the second server's API.
        written = scorer.post(
            f"{second}/api/v1/rubbers/{rubber['id']}/hands",
            json={"points": [70, 50]},
            headers={"X-Edit-Key": rubber["edit_key"]},
            timeout=10,
        )
        assert written.status_code == 201
        for client in (scorer, follower):
            assert score(client.get(first + page, timeout=10).text) == (1, 0)
        again = follower.get(first + page, headers={"If-None-Match": etag}, timeout=10)
        assert again.status_code == 200 and again.headers["ETag"] != etag

        # A hand from the page the first server sent, posted to the second: the same session
        # (and CSRF token in it) on both, and the first server shows it.
        fields = form_fields(scorer.get(first + page, timeout=10).text)
        assert {"csrf_token", "key", "version"} <= set(fields), fields
        posted = scorer.post(
            f"{second}{page}/hands",
            data={**fields, "action": "points", "team": "0", "points": "90"},
            timeout=10,
        )
        assert posted.status_code == 200 and score(posted.text) == (2, 0)
        assert score(scorer.get(first + page, timeout=10).text) == (2, 0)

        # An undo through the first server: the second, which never showed the page, agrees.
        fields = form_fields(scorer.get(second + page, timeout=10).text, "/undo")
        undone = scorer.post(f"{first}{page}/undo", data=fields, timeout=10)
        assert undone.status_code == 200 and score(undone.text) == (1, 0)

        # The same answers from both, asked as the proxy asks (the address the phone used):
        # the follower's page is the same bytes, and an ETag one server gave is good at the
        # other until the rubber changes.
        follower.headers.update({"X-Forwarded-Host": "sueca.example", "X-Forwarded-Proto": "https"})
        from_first = follower.get(first + page, timeout=10)
        from_second = follower.get(second + page, timeout=10)
        shared = [follower.get(server + page + "/share", timeout=10) for server in (first, second)]
        assert 'id="share-url" href="https://sueca.example/r/' in shared[0].text
        assert shared[0].content == shared[1].content
        assert from_first.content == from_second.content
        assert from_first.headers["ETag"] == from_second.headers["ETag"]
        unchanged = follower.get(
            second + page, headers={"If-None-Match": from_first.headers["ETag"]}, timeout=10
        )
        assert unchanged.status_code == 304


def test_through_the_proxy_every_read_sees_every_write_before_it(stack: Stack) -> None:
    with stack.front.session() as phone:
        phone.headers.update(EN)
        rubber = phone.post(
            f"{stack.url}/api/v1/rubbers",
            json={"rules": {"preset": "online", "games_to_win": 20}},
            timeout=10,
        ).json()
        page = f"{stack.url}/r/{rubber['id']}"
        assert phone.get(rubber["edit_url"], timeout=10).status_code == 200
        for number in range(1, 13):
            points = [61, 59] if number % 3 else [59, 61]
            written = phone.post(
                f"{stack.url}/api/v1/rubbers/{rubber['id']}/hands",
                json={"points": points},
                headers={"X-Edit-Key": rubber["edit_key"]},
                timeout=10,
            )
            assert written.status_code == 201, written.text[:300]
            games = tuple(written.json()["games"])
            for _ in range(2):  # one read from each server, nginx taking them in turn
                assert score(phone.get(page, timeout=10).text) == games
                state = phone.get(f"{stack.url}/api/v1/rubbers/{rubber['id']}", timeout=10)
                assert len(state.json()["hands"]) == number
    for server in stack.servers:
        server.stop()
        assert server.log.read_text().count(f"GET /r/{rubber['id']} ") >= 6, server.log


def test_two_servers_count_the_rate_limits_together_in_redis(tmp_path: Path) -> None:
    """Two servers count a client's creations together, in Redis.

    Behind nginx the servers share the work, and their counts in Redis (REDIS_URL in CI,
    .ci/run): the documented limit holds for a client whichever server answers it."""
    from scorekeeper.web.limits import GROUPS

    per_minute = int(GROUPS.split("/")[0])
    with behind_proxy(tmp_path, servers=2, env={"RATELIMIT_FACTOR": "1"}) as running:
        first, second = (server.url for server in running.servers)
        made = [
            requests.post(f"{(first, second)[n % 2]}/api/v1/groups", json={"name": f"T{n}"})
            for n in range(per_minute)
        ]
        assert [answer.status_code for answer in made] == [201] * per_minute
        for url in (first, second):
            refused = requests.post(f"{url}/api/v1/groups", json={"name": "Mais"}, headers=EN)
            assert refused.status_code == 429, url
            assert "wait a minute" in refused.json()["error"]
