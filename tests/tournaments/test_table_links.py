"""One link per table for the evening (API.md, "Tables for the evening"; issue 42, item 6).

A best-of-3's table phone opens the same link after each rubber and records the next one; the
link goes on to the table's next match; a follower's state carries no link."""

from __future__ import annotations

import re
from typing import Any

from flask.testing import FlaskClient

from tests.api.test_tournaments import BANDEIRA, create, key, matches, pairs, state

FORM = re.compile(r'<form[^>]*action="/r/([^/"]+)/hands"')


def links(client: FlaskClient, tournament: dict[str, Any]) -> dict[int, str]:
    answer = client.get(f"/api/v1/tournaments/{tournament['id']}", headers=key(tournament))
    assert answer.status_code == 200
    return {entry["table"]: entry["edit_url"] for entry in answer.get_json()["tables"]}


def test_the_organizers_state_carries_one_link_per_table_and_a_followers_none(
    client: FlaskClient,
) -> None:
    tournament = create(client, format="knockout", pairs=pairs(8))
    assert sorted(links(client, tournament)) == [1, 2, 3, 4]  # round 1's tables
    follower = state(client, tournament)
    assert "tables" not in follower or follower["tables"] is None


def test_a_knockout_with_byes_has_a_link_for_every_table_it_will_play_at(
    client: FlaskClient,
) -> None:
    """Round 1 of 6 plays at tables 1 and 2 (the byes take none), the semi-finals at 1 and 2."""
    tournament = create(client, format="knockout", pairs=pairs(6))
    played = sorted(m["table"] for m in matches(tournament, 1) if m["pairs"][1] is not None)
    assert played == [1, 2]
    assert sorted(links(client, tournament)) == [1, 2]  # the semi-finals' tables too
    with_third = create(client, format="knockout", pairs=pairs(4), third_place=True)
    assert sorted(links(client, with_third)) == [1, 2]
    in_groups = create(client, format="round_robin", pairs=pairs(8), groups=2, advance=2)
    assert sorted(links(client, in_groups)) == [1, 2, 3, 4]


def test_a_best_of_three_table_keeps_its_one_link(client: FlaskClient, app: Any) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4), best_of=3)
    link = links(client, tournament)[1].removeprefix("http://localhost")
    phone = app.test_client()
    first = phone.get(link)
    assert first.status_code == 302
    rubber = first.headers["Location"].rsplit("/", 1)[1]
    match = matches(state(client, tournament), 1)[0]
    assert match["rubbers"] == [rubber]
    page = phone.get(f"/r/{rubber}").get_data(as_text=True)
    assert FORM.search(page), "the table's phone records the rubber it was sent to"
    # The first rubber won through the API; the same link now opens the second, recordable.
    won = client.post(f"/api/v1/rubbers/{rubber}/hands", json=BANDEIRA, headers=key(tournament))
    assert won.status_code == 201
    second = phone.get(link)
    assert second.status_code == 302
    following = second.headers["Location"].rsplit("/", 1)[1]
    assert following != rubber
    assert matches(state(client, tournament), 1)[0]["rubbers"] == [rubber, following]
    assert FORM.search(phone.get(f"/r/{following}").get_data(as_text=True))


def test_a_table_with_nothing_in_play_says_where_it_stands(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    link = links(client, tournament)[2].removeprefix("http://localhost")
    first, second = matches(tournament, 1)
    client.post(
        f"/api/v1/rubbers/{second['rubbers'][0]}/hands", json=BANDEIRA, headers=key(tournament)
    )
    page = client.get(link, headers={"Accept-Language": "en"})
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    assert "Table 2 · Round 1" in text and "decided" in text
    assert client.get(link[:-3] + "xyz").status_code == 404
    assert first["winner"] is None
