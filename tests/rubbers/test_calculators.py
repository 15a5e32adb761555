"""The pile and melar calculators (issue 19).

A melar recorded on the cards sent with it, a pile no trick count makes refused, 0 points
asked about, and both open to a follower."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.rubbers.test_cards_pages import HIGH_HAND, LOW_HAND, start, stored, text


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def melar_post(client: FlaskClient, page: str, cards: list[str], action: str = "spoil") -> object:
    return client.post(page + "/melar", data={"cards": cards, "action": action, "key": "k" * 16})


def test_melou_records_only_the_cards_sent_with_it(app: Flask, en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    assert "6 points: Seat 2 may spoil" in text(melar_post(en, page, LOW_HAND, "check"))
    # A, 7 swapped in after that verdict: the Melou sent with them is checked on them.
    swapped = ["AS", "7S", *LOW_HAND[2:]]
    response = melar_post(en, page, swapped)
    assert response.status_code == 422  # type: ignore[attr-defined]
    html = text(response)
    assert "27 points: 10 or more, so Seat 2 must play the hand." in html
    assert 'value="spoil"' not in html
    assert stored(app, page) == []
    response = melar_post(en, page, LOW_HAND)
    assert response.status_code == 302  # type: ignore[attr-defined]
    assert [hand.kind for hand in stored(app, page)] == ["spoiled"]


def test_melou_without_ten_cards_records_nothing(app: Flask, en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    response = melar_post(en, page, LOW_HAND[:9])
    assert response.status_code == 422  # type: ignore[attr-defined]
    assert "A hand has 10 cards: 9 are picked." in text(response)
    assert melar_post(en, start(en), LOW_HAND).status_code == 404  # type: ignore[attr-defined]
    assert stored(app, page) == []


def test_the_melou_button_leaves_when_the_cards_change(en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    html = text(melar_post(en, page, LOW_HAND, "check"))
    # The verdict and its button belong to the cards checked (cards.js removes them on the
    # first change), and the button sends the grid's own cards, not a copy of the checked ones.
    grid = re.search(r'<form method="post" action="[^"]*/melar"[^>]*>(.*?)</form>', html, re.S)
    assert grid, html
    inside = grid.group(1)
    assert re.search(r'data-verdict[^>]*>.*name="action" value="spoil"', inside, re.S)
    assert 'name="cards" value="2S" data-points="0" checked' in inside
    assert html.count('value="spoil"') == 1


ELEVEN = ["AS", "7S", "KS", "JS", "QS", "6S", "5S", "4S", "3S", "2S", "AH"]


def test_a_pile_no_trick_count_makes_is_refused(en: FlaskClient) -> None:
    page = start(en)
    query = "&".join(f"cards={card}" for card in ELEVEN)
    response = en.get(f"{page}/count?action=use&{query}")
    assert response.status_code == 422
    assert "11 cards: a team's pile holds 4 cards for each trick it won (4, 8, 12 …)." in text(
        response
    )
    twelve = query + "&cards=KH"
    response = en.get(f"{page}/count?action=use&team=1&{twelve}")
    assert response.status_code == 302
    assert response.location.endswith("?points=45&team=1#record")


def test_zero_points_are_asked_about_before_they_are_used(en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    response = en.get(f"{page}/count?action=use&team=0")
    assert response.status_code == 200
    html = text(response)
    assert (
        "Nós: 0 points. Then the hand reads “Eles: 120 → bandeira, 4 games”. Is that right?" in html
    )
    assert 'name="action" value="confirm-zero"' in html
    response = en.get(f"{page}/count?action=confirm-zero&team=0")
    assert response.status_code == 302
    assert response.location.endswith("?points=0&team=0#record")


def test_a_follower_may_count_and_check_but_records_nothing(app: Flask, en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    follower = app.test_client()
    follower.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    html = text(follower.get(page + "/count?cards=AS&cards=7S&cards=KS&cards=JS&action=count"))
    assert "Count a pile" in html and "data-total>28<" in html.replace(" ", "")
    assert "Fill the hand form with these points" not in html and "Nothing is recorded" not in html
    html = html_lib.unescape(
        follower.get(page + "/melar?check=1&" + "&".join(f"cards={c}" for c in LOW_HAND)).get_data(
            as_text=True
        )
    )
    assert "6 points: Seat 2 may spoil the deal (melar)." in html
    assert 'value="spoil"' not in html
    assert melar_post(follower, page, LOW_HAND).status_code == 403  # type: ignore[attr-defined]
    assert stored(app, page) == []
    high = follower.get(page + "/melar?check=1&" + "&".join(f"cards={c}" for c in HIGH_HAND))
    assert high.status_code == 200
    assert "11 points: 10 or more, so Seat 2 must play the hand." in text(high)
