"""The review pages: a group's page, its edit link, starting a rubber by tapping names.

Also moving a rubber in, sittings, statistics, a player's rating chart, and the cross to
download."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.api.test_group_api import assert_totals_are_the_recount
from tests.groups.test_review import RUBBERS
from tests.groups.test_review import build as build_small_group
from tests.support.api_calls import new_group, new_rubber, play


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def start_group(client: FlaskClient, name: str = "Tasca do Zé") -> str:
    response = client.post("/groups/new", data={"name": name})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location.rsplit("/", 1)[-1]


def start_rubber(client: FlaskClient) -> str:
    """A rubber in no group, Ana and Eva against Rui and Zé: the address of its page."""
    response = client.post(
        "/rubbers/new",
        data={
            "player0": "Ana",
            "player1": "Rui",
            "player2": "Eva",
            "player3": "Zé",
            "preset": "portugal",
            "first_dealer": "0",
        },  # fmt: skip
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def text(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def test_a_group_is_made_from_its_page(app: Flask, en: FlaskClient) -> None:
    assert "Name of the group" in en.get("/groups/new").get_data(as_text=True)
    refused = en.post("/groups/new", data={"name": "  "})
    assert refused.status_code == 422 and "Give the group a name." in refused.get_data(as_text=True)
    group_id = start_group(en)
    page = en.get(f"/g/{group_id}").get_data(as_text=True)
    assert "Tasca do Zé" in page
    assert "Start a rubber in this group" in page
    assert f"/g/{group_id}/edit/" in page  # the edit link to share
    stranger = app.test_client()
    stranger.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    shown = stranger.get(f"/g/{group_id}").get_data(as_text=True)
    assert "Tasca do Zé" in shown and "Start a rubber" not in shown and "/edit/" not in shown
    assert stranger.get(f"/g/{group_id}/rubbers/new").status_code == 403


def test_the_edit_link_lets_another_phone_start_rubbers(app: Flask, en: FlaskClient) -> None:
    group_id = start_group(en)
    page = en.get(f"/g/{group_id}").get_data(as_text=True)
    link = re.search(r'id="edit-url" href="([^"]+)"', page)
    assert link
    phone = app.test_client()
    assert phone.get(link.group(1).replace("wrongkey", "")[:-3] + "abc").status_code == 404
    assert phone.get(link.group(1)).status_code == 302
    assert phone.get(f"/g/{group_id}/rubbers/new").status_code == 200


def test_players_are_picked_with_one_tap_each(app: Flask, en: FlaskClient) -> None:
    group_id = build_small_group(en)
    with app.app_context():
        from scorekeeper.extensions import db
        from scorekeeper.groups.models import DeviceGroup

        db.session.add(DeviceGroup(device="phone", group_id=group_id))
        db.session.commit()
    with en.session_transaction() as session:
        session["device"] = "phone"
    form = en.get(f"/g/{group_id}/rubbers/new").get_data(as_text=True)
    for name in ("Ana", "Rui", "Eva", "ZÉ", "Bea"):  # each once, in its latest spelling
        assert form.count(f'name="pick" value="{name}"') == 1, name
    fields: dict[str, str] = {"preset": "portugal", "first_dealer": "0"}
    for name in ("Ana", "Rui", "Eva"):
        response = en.post(f"/g/{group_id}/rubbers/new", data={**fields, "pick": name})
        assert response.status_code == 200
        page = response.get_data(as_text=True)
        fields = dict(re.findall(r'name="(player\d)" type="text" value="([^"]*)"', page))
        fields.update({"preset": "portugal", "first_dealer": "0"})
        assert re.search(rf'name="pick" value="{name}"[^>]*disabled', page)
    assert [fields[f"player{seat}"] for seat in range(3)] == ["Ana", "Rui", "Eva"]
    fields["player3"] = "Nuno"  # a new name, typed once
    started = en.post(f"/g/{group_id}/rubbers/new", data={**fields, "action": "start"})
    assert started.status_code == 302
    rubber_id = started.location.rsplit("/", 1)[-1]
    state = en.get(f"/api/v1/rubbers/{rubber_id}").get_json()
    assert state["group"] == group_id and state["players"] == ["Ana", "Rui", "Eva", "Nuno"]
    again = en.get(f"/g/{group_id}/rubbers/new").get_data(as_text=True)
    assert 'name="pick" value="Nuno"' in again

    twice = {**fields, "player3": " ana", "action": "start"}
    refused = en.post(f"/g/{group_id}/rubbers/new", data=twice)
    assert refused.status_code == 422
    assert "sits in two seats" in refused.get_data(as_text=True)
    emptied = en.post(f"/g/{group_id}/rubbers/new", data={**fields, "unpick": "1"})
    assert 'name="player1" type="text" value=""' in emptied.get_data(as_text=True)


def test_a_rubber_moves_in_only_with_both_edit_links(app: Flask, en: FlaskClient) -> None:
    group_id = start_group(en)
    rubber_page = start_rubber(en)
    rubber_id = rubber_page.rsplit("/", 1)[-1]
    page = en.get(f"/g/{group_id}").get_data(as_text=True)
    assert f"/g/{group_id}/rubbers/{rubber_id}/move" in page
    stranger = app.test_client()
    assert stranger.post(f"/g/{group_id}/rubbers/{rubber_id}/move").status_code == 403
    # A phone with the group's link but not the rubber's may not take it.
    link = re.search(r'id="edit-url" href="([^"]+)"', page)
    assert link and stranger.get(link.group(1)).status_code == 302
    assert stranger.post(f"/g/{group_id}/rubbers/{rubber_id}/move").status_code == 403
    moved = en.post(f"/g/{group_id}/rubbers/{rubber_id}/move")
    assert moved.status_code == 302
    assert en.get(f"/api/v1/rubbers/{rubber_id}").get_json()["group"] == group_id
    assert "is now in Tasca do Zé" in en.get(f"/g/{group_id}").get_data(as_text=True)


def test_the_group_page_shows_ranking_and_history(en: FlaskClient) -> None:
    group_id = build_small_group(en)
    page = text(en.get(f"/g/{group_id}").get_data(as_text=True))
    assert "Ranking" in page and "Ana" in page and "ZÉ" in page
    # Chapéu and arrepio are Brazilian words: an English page names only the pente.
    assert "Nós won · pente" in page and "chapéu" not in page and "arrepio" not in page
    brazil = en.get(f"/g/{group_id}", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    assert "chapéu" in text(brazil) and "arrepio" in text(brazil)
    assert "in play" in page
    stats = text(en.get(f"/g/{group_id}/stats").get_data(as_text=True))
    assert "Over 4 finished rubbers." in stats
    assert "Ana & Eva" in stats or "Eva & Ana" in stats


def test_the_player_page_charts_the_rating(en: FlaskClient) -> None:
    group_id = build_small_group(en)
    response = en.get(f"/g/{group_id}/player?name=%20ANA")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    chart = re.search(r'<svg class="chart"[^>]*aria-label="([^"]+)"', html)
    assert chart and "Rating of Ana after each of the last 4 rated rubbers" in unescape(
        chart.group(1)
    )
    assert html.count('<path class="line rating"') == 1 and '<polygon class="band"' in html
    page = text(html)
    assert "Best partner Bea: 1 of 1 rubber won" in page
    assert "Rui: 1 of 4 rubbers lost" in page
    assert en.get(f"/g/{group_id}/player?name=nobody").status_code == 404


def test_the_sitting_shows_each_cross_and_the_running_count(en: FlaskClient) -> None:
    created = start_rubber(en)
    pages = [created]
    for points in ("95", "95"):
        en.post(created + "/hands", data={"action": "points", "team": "0", "points": points})
    # Next rubber, same table: Eles win 4-1, then Nós win 4-2.
    pages.append(en.post(pages[-1] + "/next").location)
    en.post(pages[1] + "/hands", data={"action": "points", "team": "0", "points": "70"})
    for _ in range(2):
        en.post(pages[1] + "/hands", data={"action": "points", "team": "1", "points": "95"})
    pages.append(en.post(pages[-1] + "/next").location)
    for team, points in (("1", "95"), ("0", "95"), ("0", "95")):
        en.post(pages[2] + "/hands", data={"action": "points", "team": team, "points": points})
    html = en.get(pages[1] + "/sitting").get_data(as_text=True)
    assert html.count('<svg class="cross"') == 3
    page = text(html)
    assert "Ana & Eva 2 – 1 Rui & Zé" in page
    assert "3 rubbers; pentes 1 – 0" in page
    assert re.search(
        r"Rubbers won: 1 – 0 \(pentes 1 – 0\).*Rubbers won: 1 – 1 \(pentes 1 – 0\)"
        r".*Rubbers won: 2 – 1",
        page,
    )
    # A rubber in play says its own games, apart from the rubbers the sitting has won.
    pages.append(en.post(pages[-1] + "/next").location)
    en.post(pages[3] + "/hands", data={"action": "points", "team": "1", "points": "70"})
    page = text(en.get(pages[3] + "/sitting").get_data(as_text=True))
    assert "In play: 0 – 1 Rubbers won: 2 – 1" in page


def test_the_rubber_page_charts_its_games(en: FlaskClient) -> None:
    page = en.post("/rubbers").location
    assert '<svg class="chart"' not in en.get(page).get_data(as_text=True)  # no hand yet
    en.post(page + "/hands", data={"action": "points", "team": "0", "points": "95"})
    en.post(page + "/hands", data={"action": "points", "team": "1", "points": "70"})
    html = en.get(page).get_data(as_text=True)
    chart = re.search(r'<svg class="chart"[^>]*aria-label="([^"]+)"', html)
    assert chart and unescape(chart.group(1)) == ("Games over 2 hands: Nós 2 – 1 Eles")
    paths = re.findall(r'<path class="line (team\d)" d="([^"]+)"', html)
    assert [team for team, _ in paths] == ["team0", "team1"]
    assert paths[0][1].count("H") == 2  # a step per hand


def test_the_cross_downloads_as_svg_and_png(en: FlaskClient) -> None:
    payload = '</svg><script>alert(1)</script>"&'
    created = en.post("/api/v1/rubbers", json={"teams": [payload, "Eles"]}).get_json()
    headers = {"X-Edit-Key": created["edit_key"]}
    for _ in range(2):
        en.post(
            f"/api/v1/rubbers/{created['id']}/hands", json={"points": [95, 25]}, headers=headers
        )
    svg = en.get(f"/r/{created['id']}/cross.svg")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
    assert "attachment" in svg.headers["Content-Disposition"]
    body = svg.get_data(as_text=True)
    assert 'xmlns="http://www.w3.org/2000/svg"' in body
    assert "<script" not in body and payload not in body
    assert "&lt;/svg&gt;&lt;script&gt;" in body
    assert "4 – 0" in body and 'stroke-dasharray="6 4"' in body  # the pente loop
    from xml.etree import ElementTree

    ElementTree.fromstring(svg.get_data())  # well-formed XML
    png = en.get(f"/r/{created['id']}/cross.png")
    assert png.status_code == 200 and png.mimetype == "image/png"
    data = png.get_data()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (480, 560)
    assert en.get("/r/nope/cross.svg").status_code == 404


@pytest.mark.parametrize(
    ("accept", "word"), [("pt-PT", "Sessão"), ("pt-BR", "As partidas de hoje"), ("en", "Sitting")]
)
def test_review_pages_render_in_every_locale(client: FlaskClient, accept: str, word: str) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    group_id = build_small_group(client)
    rubber_id = client.get(f"/api/v1/groups/{group_id}/export.json").get_json()["rubbers"][0]["id"]
    for path in (
        f"/g/{group_id}",
        f"/g/{group_id}/stats",
        f"/g/{group_id}/player?name=ana",
        f"/r/{rubber_id}/sitting",
        f"/r/{rubber_id}",
        "/groups/new",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert "%(" not in html, path
    assert word in client.get(f"/r/{rubber_id}/sitting").get_data(as_text=True)


def test_ratings_are_written_the_readers_way(en: FlaskClient) -> None:
    group_id = build_small_group(en)
    for accept, mark in (("en", "."), ("pt-PT", ","), ("pt-BR", ",")):
        html = en.get(f"/g/{group_id}", headers={"Accept-Language": accept}).get_data(as_text=True)
        ratings = re.findall(r'<span class="rating">([^<]+)</span>', html)
        assert ratings and all(re.fullmatch(rf"-?\d+\{mark}\d", value) for value in ratings), (
            ratings
        )


def test_a_move_undone_leaves_the_group_as_it_was(app: Flask, en: FlaskClient) -> None:
    """Bringing a rubber in asks first (a disclosure), and this phone can take it out again.

    The group's totals and ratings are then a full recompute without it, as before the move."""
    group = new_group(en, "Tasca do Zé")
    for players, hands in RUBBERS:
        play(en, new_rubber(en, group, players=players), *hands)
    group_id = str(group["id"])
    assert en.get(f"/g/{group_id}/edit/{group['edit_key']}").status_code == 302  # its edit link
    before = assert_totals_are_the_recount(app, group_id, "built")
    page = start_rubber(en)
    rubber_id = page.rsplit("/", 1)[-1]
    for points in ("95", "95"):  # Ana and Eva win 4-0: it changes the ratings
        en.post(page + "/hands", data={"action": "points", "team": "0", "points": points})
    shown = en.get(f"/g/{group_id}").get_data(as_text=True)
    assert re.search(r"<details>\s*<summary>Move Nós 4 – 0 Eles here</summary>", shown)
    assert en.post(f"/g/{group_id}/rubbers/{rubber_id}/leave").status_code == 302  # not moved
    assert "Only the rubber this phone just brought here" in en.get(f"/g/{group_id}").text
    en.post(f"/g/{group_id}/rubbers/{rubber_id}/move")
    moved = assert_totals_are_the_recount(app, group_id, "moved")
    assert moved != before
    shown = en.get(f"/g/{group_id}").get_data(as_text=True)
    assert "Undo: take Nós 4 – 0 Eles out of the group" in shown
    stranger = app.test_client()
    assert stranger.post(f"/g/{group_id}/rubbers/{rubber_id}/leave").status_code == 403
    assert en.post(f"/g/{group_id}/rubbers/{rubber_id}/leave").status_code == 302
    assert "The rubber is out of Tasca do Zé again." in en.get(f"/g/{group_id}").text
    assert en.get(f"/api/v1/rubbers/{rubber_id}").get_json()["group"] is None
    assert assert_totals_are_the_recount(app, group_id, "left") == before


def selected_preset(page: str) -> str:
    found = re.search(r'<option selected value="([a-z]+)">[^<]*</option>', page)
    assert found, "the preset's list has its choice"
    return found.group(1)


def test_a_groups_new_rubber_takes_the_groups_last_rules_else_the_languages(app: Flask) -> None:
    """A pt-BR phone's first rubber in a group is Brasil's; then the group's last rules hold.

    Whatever the phone played elsewhere, the group's own last rubber gives the rules.
    """
    phone = app.test_client()
    phone.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    group_id = start_group(phone)
    assert selected_preset(phone.get(f"/g/{group_id}/rubbers/new").get_data(as_text=True)) == (
        "brasil"
    )
    seats = {"player0": "Ana", "player1": "Rui", "player2": "Eva", "player3": "Zé"}
    started = phone.post(
        f"/g/{group_id}/rubbers/new",
        data={
            **seats,
            "preset": "acores",
            "games_to_win": "6",
            "first_dealer": "0",
            "action": "start",
        },
    )
    assert started.status_code == 302, text(started.get_data(as_text=True))
    elsewhere = phone.post(
        "/rubbers/new", data={**seats, "preset": "portugal", "first_dealer": "0"}
    )
    assert elsewhere.status_code == 302  # the phone's own last rubber, in no group
    form = phone.get(f"/g/{group_id}/rubbers/new").get_data(as_text=True)
    assert selected_preset(form) == "acores"
    assert 'name="games_to_win" type="number" value="6"' in form
