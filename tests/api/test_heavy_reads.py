"""Heavy public reads, built once per version and limited per client (issue 24, item 7).

A group's export file and a rubber's cross as a picture are built once per version of their
data (web/downloads.py): a second GET of an unchanged version builds nothing, and with its ETag
it is 304; a hand recorded changes the version. Too many from one address: 429 with a sentence.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import limits
from tests.support.api_calls import new_group, new_rubber, play
from tests.support.apps import fresh_app

WON = {"points": [91, 29]}


def builds(app: Flask) -> int:
    return int(app.extensions["downloads"].builds)


def a_group(client: FlaskClient) -> tuple[dict[str, Any], dict[str, Any]]:
    """A group of two rubbers; the second, in play, is returned with the group."""
    group = new_group(client)
    play(client, new_rubber(client, group, players=["Ana", "Rui", "Zé", "Bia"]), WON, WON)
    rubber = new_rubber(client, group)
    play(client, rubber, WON)
    return group, rubber


def test_a_second_export_of_an_unchanged_group_is_not_built_again(
    app: Flask, client: FlaskClient
) -> None:
    group, _ = a_group(client)
    url = f"/api/v1/groups/{group['id']}/export.json"
    first = client.get(url)
    assert first.status_code == 200
    etag = first.headers.get("ETag")
    assert etag, first.headers
    built = builds(app)
    again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    plain = client.get(url)
    assert plain.status_code == 200 and plain.headers["ETag"] == etag
    assert plain.get_json() == first.get_json()
    assert builds(app) == built  # neither the 304 nor the second 200 built it again


def test_a_hand_recorded_in_a_group_rubber_changes_the_export(client: FlaskClient) -> None:
    group, rubber = a_group(client)
    url = f"/api/v1/groups/{group['id']}/export.json"
    first = client.get(url)
    hands_before = [len(r["hands"]) for r in first.get_json()["rubbers"]]
    play(client, rubber, WON)
    after = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert after.status_code == 200
    assert after.headers["ETag"] != first.headers["ETag"]
    assert [len(r["hands"]) for r in after.get_json()["rubbers"]] == [
        hands_before[0],
        hands_before[1] + 1,
    ]


def test_the_export_is_gzipped_for_a_client_that_takes_it(client: FlaskClient) -> None:
    group, _ = a_group(client)
    url = f"/api/v1/groups/{group['id']}/export.json"
    packed = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert packed.headers.get("Content-Encoding") == "gzip"
    assert "Accept-Encoding" in packed.headers["Vary"]
    plain = client.get(url)
    assert "Content-Encoding" not in plain.headers
    assert json.loads(gzip.decompress(packed.data)) == plain.get_json()
    assert len(packed.data) < len(plain.data) / 3


def test_the_cross_picture_is_drawn_once_per_rubber_version(
    app: Flask, client: FlaskClient
) -> None:
    _, rubber = a_group(client)
    url = f"/r/{rubber['id']}/cross.png"
    first = client.get(url)
    assert first.status_code == 200 and first.data.startswith(b"\x89PNG")
    etag = first.headers.get("ETag")
    assert etag, first.headers
    built = builds(app)
    assert client.get(url, headers={"If-None-Match": etag}).status_code == 304
    assert client.get(url).data == first.data
    assert builds(app) == built
    play(client, rubber, WON)
    changed = client.get(url, headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    assert builds(app) == built + 1


@pytest.fixture
def limited_app(tmp_path: Path) -> Iterator[Flask]:
    config = {"TESTING": True, "SECRET_KEY": "reads", "RATELIMIT_ENABLED": True}
    with fresh_app(tmp_path / "reads.sqlite3", config) as app:
        yield app


def test_heavy_reads_are_limited_per_client(limited_app: Flask) -> None:
    client = limited_app.test_client()
    group, rubber = a_group(client)
    per_minute = int(limits.DOWNLOADS.split("/")[0])
    urls = [f"/api/v1/groups/{group['id']}/export.json", f"/r/{rubber['id']}/cross.png"]
    for number in range(per_minute):
        assert client.get(urls[number % 2]).status_code == 200, number
    refused = client.get(urls[0], headers={"Accept-Language": "en"})
    assert refused.status_code == 429
    body = refused.get_json()
    assert body["code"] == "rate_limited" and "download" in body["error"]
    assert "Retry-After" in refused.headers
    page = client.get(urls[1])
    assert page.status_code == 429 and "minuto" in page.get_data(as_text=True)
    other = client.get(urls[0], environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200  # another client has its own count


TOURNAMENT_DOCUMENTS = ["tv", "print", "bracket.svg", "export.json", "standings.csv", "api"]


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tournaments folded (tournaments.store.standing), by id, as the requests fold them."""
    from scorekeeper.tournaments import store

    folded: list[str] = []
    fold = store.standing

    def counted(tournament: Any, **how: Any) -> Any:
        folded.append(tournament.id)
        return fold(tournament, **how)

    monkeypatch.setattr(store, "standing", counted)
    return folded


def tournament_address(tournament_id: str, kind: str) -> str:
    if kind == "api":
        return f"/api/v1/tournaments/{tournament_id}"
    return f"/t/{tournament_id}/{kind}"


@pytest.mark.parametrize("kind", TOURNAMENT_DOCUMENTS)
def test_a_tournament_document_is_built_once_per_version(
    app: Flask, client: FlaskClient, kind: str, folds: list[str]
) -> None:
    """Ten followers' GETs of an unchanged tournament, with no ETag, fold it for none.

    A hand at one of its tables builds it once more (issue 41, item 2)."""
    body = {"name": "Torneio", "format": "knockout", "pairs": tournament_pairs(4)}
    tournament = client.post("/api/v1/tournaments", json=body).get_json()
    address = tournament_address(tournament["id"], kind)
    first = client.get(address)
    assert first.status_code == 200, first.get_data(as_text=True)[:300]
    built, folded = builds(app), len(folds)
    answers = [client.get(address) for _ in range(10)]
    assert {answer.status_code for answer in answers} == {200}
    assert {answer.get_data() for answer in answers} == {first.get_data()}
    assert (builds(app), len(folds)) == (built, folded)  # kept: none of the ten folded it
    unchanged = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
    assert unchanged.status_code == 304
    rubber_id = tournament["rounds"][0]["matches"][0]["rubbers"][0]
    hand = client.post(
        f"/api/v1/rubbers/{rubber_id}/hands",
        json={"points": [80, 40]},
        headers={"X-Edit-Key": tournament["edit_key"]},
    )
    assert hand.status_code == 201, hand.get_json()
    changed = client.get(address, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert builds(app) == built + 1
    assert client.get(address).status_code == 200 and builds(app) == built + 1


def test_a_swiss_has_no_bracket_and_says_so_without_folding_it_again(
    client: FlaskClient, folds: list[str]
) -> None:
    body = {"name": "Suíço", "format": "swiss", "rounds": 2, "pairs": tournament_pairs(4)}
    tournament = client.post("/api/v1/tournaments", json=body).get_json()
    address = tournament_address(tournament["id"], "bracket.svg")
    assert client.get(address).status_code == 404
    folded = len(folds)
    assert [client.get(address).status_code for _ in range(5)] == [404] * 5
    assert len(folds) == folded
    assert client.get(tournament_address("nonesuch0000", "tv")).status_code == 404
    missing = client.get(tournament_address("nonesuch0000", "api"))
    assert missing.status_code == 404 and missing.get_json()["code"] == "no_tournament"


def tournament_pairs(count: int) -> list[dict[str, Any]]:
    return [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, count + 1)]
