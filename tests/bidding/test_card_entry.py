"""Counting a pile of a bidding game with the table's deck: 40 cards, or 48 for six.

Six players add the 9s and 8s; the total is filled into the hand form to be confirmed; nothing is
stored by counting."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.engine import bidding as rules
from scorekeeper.engine.bidding_deck import deck
from tests.bidding.test_pages import FIVE, PT, game_of, record, start
from tests.support.apps import snapshot


def cards_on(text: str) -> list[str]:
    return re.findall(r'<input type="checkbox" name="cards" value="([^"]+)"', text)


def test_the_grid_is_the_table_s_deck(client: FlaskClient) -> None:
    five = start(client)
    text = client.get(f"/b/{five}/count", headers=PT).get_data(as_text=True)
    assert sorted(cards_on(text)) == sorted(str(card) for card in deck(5))
    assert len(cards_on(text)) == 40 and "9H" not in cards_on(text)
    assert "40 cartas neste baralho" in text
    six = start(client, [*FIVE, "Fábio"])
    text = client.get(f"/b/{six}/count", headers=PT).get_data(as_text=True)
    assert len(cards_on(text)) == 48 and {"9H", "8S"} <= set(cards_on(text))
    assert "48 cartas neste baralho" in text


def test_a_counted_pile_fills_the_side_s_points(app: Flask, client: FlaskClient) -> None:
    six = start(client, [*FIVE, "Fábio"])
    before = snapshot(app)
    picked = ["AH", "7H", "9H", "8D", "KS", "QC"]
    shown = client.get(f"/b/{six}/count", query_string={"cards": picked}, headers=PT)
    assert shown.status_code == 200
    assert re.search(r"data-total>27<", shown.get_data(as_text=True))
    assert re.search(r"data-other>93<", shown.get_data(as_text=True))
    used = client.get(f"/b/{six}/count", query_string={"cards": picked, "action": "use"})
    assert used.status_code == 302
    assert used.headers["Location"] == f"/b/{six}?points=27#record"
    assert snapshot(app) == before  # counting stores nothing
    page = client.get(f"/b/{six}?points=27", headers=PT).get_data(as_text=True)
    assert re.search(r'name="points"[^>]*value="27"', page)
    # Confirmed with who bid, how much and with whom.
    record(client, six, bidder="5", other_bid="75", partner="0", points="27", action="points")
    assert game_of(app, six).scores == [-75, 75, 75, 75, 75, -75]  # 27 fails 75


def test_the_whole_deck_is_120(client: FlaskClient) -> None:
    four = start(client, FIVE[:4])
    every = [str(card) for card in deck(4)]
    used = client.get(f"/b/{four}/count", query_string={"cards": every, "action": "use"})
    assert used.headers["Location"] == f"/b/{four}?points={rules.TOTAL_POINTS}#record"


def test_a_card_not_in_the_deck_or_twice_is_refused(app: Flask, client: FlaskClient) -> None:
    five = start(client)
    before = snapshot(app)
    for cards, said in (
        (["9H", "AH"], "9♥ não existe neste baralho"),
        (["AH", "AH"], "A♥ foi escolhida duas vezes"),
        (["ZZ"], "ZZ não é uma carta"),
    ):
        response = client.get(
            f"/b/{five}/count", query_string={"cards": cards, "action": "use"}, headers=PT
        )
        assert response.status_code == 422
        assert said in response.get_data(as_text=True), said
    assert snapshot(app) == before


def test_counting_needs_edit_rights_and_a_game_in_play(app: Flask, client: FlaskClient) -> None:
    four = start(client, FIVE[:4], target="61")
    assert app.test_client().get(f"/b/{four}/count").status_code == 403
    assert client.get("/b/nope/count").status_code == 404
    assert client.get(f"/b/{four}/count?cards=A%00H").status_code == 400
    record(client, four, bidder="0", bid="61", partner="0", action="made")
    finished = client.get(f"/b/{four}/count")
    assert finished.status_code == 302 and finished.headers["Location"] == f"/b/{four}"
    assert "já está ganho" in client.get(f"/b/{four}", headers=PT).get_data(as_text=True)


def test_a_pile_no_deal_makes_is_refused(app: Flask, client: FlaskClient) -> None:
    """A trick is one card from each player: at a table of 5 a pile holds 5, 10, 15 … cards."""
    five = start(client)
    before = snapshot(app)
    seven = ["AH", "7H", "KH", "JH", "QH", "AS", "7S"]
    refused = client.get(
        f"/b/{five}/count", query_string={"cards": seven, "action": "use"}, headers=PT
    )
    assert refused.status_code == 422
    text = refused.get_data(as_text=True)
    assert "7 cartas: numa mesa de 5, um monte tem 5 cartas por cada vaza ganha" in text
    assert re.search(r"data-total>51<", text)  # the count itself still shows
    assert snapshot(app) == before
    ten = [*seven, "KS", "JS", "QS"]
    used = client.get(f"/b/{five}/count", query_string={"cards": ten, "action": "use"})
    assert used.status_code == 302 and used.headers["Location"] == f"/b/{five}?points=60#record"
