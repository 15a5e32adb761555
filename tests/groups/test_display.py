"""The group's display page (the café's TV): which rubbers it shows, and what changes its ETag."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web.columns import utcnow

BANDEIRA = {"points": [120, 0], "all_tricks": True}


def group_with_rubbers(client: FlaskClient, count: int) -> tuple[dict[str, Any], list[Any]]:
    group = client.post("/api/v1/groups", json={"name": "Tasca do Zé"}).get_json()
    rubbers = []
    for number in range(count):
        players = [f"P{number}{seat}" for seat in range(4)]
        created = client.post(
            "/api/v1/rubbers",
            json={"group": group["id"], "players": players},
            headers={"X-Group-Key": group["edit_key"]},
        )
        assert created.status_code == 201
        rubbers.append(created.get_json())
    return group, rubbers


def hand(client: FlaskClient, rubber: dict[str, Any], body: dict[str, Any]) -> None:
    answer = client.post(
        f"/api/v1/rubbers/{rubber['id']}/hands",
        json=body,
        headers={"X-Edit-Key": rubber["edit_key"]},
    )
    assert answer.status_code == 201, answer.get_json()


def age(app: Flask, rubber: dict[str, Any], **since: float) -> None:
    """The rubber's last write, that long ago."""
    with app.app_context():
        db.session.execute(
            sa.update(Rubber)
            .where(Rubber.id == rubber["id"])
            .values(updated_at=utcnow() - timedelta(**since))
        )
        db.session.commit()


def shown(client: FlaskClient, group: dict[str, Any]) -> str:
    answer = client.get(f"/g/{group['id']}/display")
    assert answer.status_code == 200
    return answer.get_data(as_text=True)


def test_it_shows_the_rubbers_being_played_now(app: Flask, client: FlaskClient) -> None:
    group, (won_now, won_before, playing, left) = group_with_rubbers(client, 4)
    hand(client, won_now, BANDEIRA)
    hand(client, won_before, BANDEIRA)
    age(app, won_before, minutes=11)  # won a while ago: off the screen
    age(app, left, hours=3, minutes=1)  # nobody has written to it for three hours
    age(app, playing, hours=2, minutes=59)
    html = shown(client, group)
    assert html.count('<section class="table') == 2
    assert "P00 &amp; P02" in html and "P20 &amp; P22" in html
    assert "P10" not in html.split('class="standings"')[0] and "P30" not in html
    assert "<form" not in html and "<a " not in html and "<button" not in html


def test_the_etag_follows_hands_new_rubbers_and_old_rubbers_edited(
    app: Flask, client: FlaskClient
) -> None:
    group, (old, playing) = group_with_rubbers(client, 2)
    hand(client, old, BANDEIRA)
    age(app, old, days=2)
    address = f"/g/{group['id']}/display"
    first = client.get(address)
    etag = first.headers["ETag"]
    assert f'data-follow="{etag[3:-1]}"' in first.get_data(as_text=True)
    assert client.get(address, headers={"If-None-Match": etag}).status_code == 304

    hand(client, playing, {"points": [75, 45]})
    second = client.get(address, headers={"If-None-Match": etag})
    assert second.status_code == 200 and second.headers["ETag"] != etag

    # Undoing the old rubber's bandeira moves the standings, though it was off the screen.
    etag = second.headers["ETag"]
    undone = client.delete(
        f"/api/v1/rubbers/{old['id']}/hands/last", headers={"X-Edit-Key": old["edit_key"]}
    )
    assert undone.status_code == 200
    third = client.get(address, headers={"If-None-Match": etag})
    assert third.status_code == 200
    html = third.get_data(as_text=True)
    assert 'class="standings"' not in html  # no finished rubber left: no standings
    assert "P00 &amp; P02" in html  # and the rubber, written to just now, is on the screen


def test_a_display_of_no_group_is_404(client: FlaskClient) -> None:
    for group_id in ("x" * 32, "nope", "a" * 500):
        assert client.get(f"/g/{group_id}/display").status_code == 404


def test_two_tables_known_only_as_nos_and_eles_both_stay(app: Flask, client: FlaskClient) -> None:
    """Unnamed players may be two tables at once: a later one replaces only a won rubber."""
    group = client.post("/api/v1/groups", json={"name": "Tasca do Zé"}).get_json()
    created = [
        client.post(
            "/api/v1/rubbers",
            json={"group": group["id"]},
            headers={"X-Group-Key": group["edit_key"]},
        ).get_json()
        for _ in range(3)
    ]
    hand(client, created[0], BANDEIRA)  # the first table won; the second and third play on
    page = shown(client, group)
    assert page.count('<section class="table') == 2
    assert "Vencedores da partida" not in page
