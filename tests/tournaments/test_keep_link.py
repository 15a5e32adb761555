"""The organizer's way back: the link offered once right after creating, the phone's history."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from tests.tournaments.test_pages import PASTED, start, text

PANEL = 'data-keep="keep-link"'


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def organizer_link(page: str, tournament_id: str) -> str:
    (link,) = set(re.findall(rf'"(http://localhost/t/{tournament_id}/edit/[^"]+)"', page))
    return link


def test_right_after_creating_the_page_asks_to_keep_the_organizers_link(
    en: FlaskClient,
) -> None:
    address = start(en, name="Torneio da Tasca")
    tournament_id = address.rsplit("/", 1)[-1]
    page = en.get(address).get_data(as_text=True)
    panel = page[page.index(PANEL) : page.index("</section>", page.index(PANEL))]
    link = organizer_link(page, tournament_id)
    assert f'data-url="{link}"' in panel and f'href="{link}"' in panel
    assert "data-share" in panel and "data-copy" in panel  # static/share.js's buttons
    words = text(panel)
    assert "Keep the organizer's link" in words
    assert "only way to run this tournament from another phone" in words
    assert "share.js" in page
    # At the top: before the tables, the rounds and the folded link at the bottom.
    assert page.index(PANEL) < page.index("At the tables now")
    assert page.index(PANEL) < page.index("The organizer's link")


def test_the_panel_is_shown_once_then_the_link_stays_where_it_was(en: FlaskClient) -> None:
    address = start(en)
    tournament_id = address.rsplit("/", 1)[-1]
    assert "Keep the organizer's link" in text(en.get(address).get_data(as_text=True))
    again = en.get(address).get_data(as_text=True)
    assert "Keep the organizer's link" not in text(again)
    # An empty placeholder, so that following the page live keeps a panel on the screen.
    assert re.search(r'<div data-keep="keep-link" hidden></div>', again)
    assert "The organizer's link" in text(again) and organizer_link(again, tournament_id)


def test_only_the_phone_that_created_it_is_asked(en: FlaskClient) -> None:
    address = start(en)
    tournament_id = address.rsplit("/", 1)[-1]
    link = organizer_link(en.get(address).get_data(as_text=True), tournament_id)
    helper = en.application.test_client()
    helper.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    follower = helper.get(address).get_data(as_text=True)
    assert PANEL not in follower  # a follower's page, cached for everyone: no placeholder
    assert helper.get(link).status_code == 302
    assert "Keep the organizer's link" not in text(helper.get(address).get_data(as_text=True))


def test_a_refused_creation_asks_nothing(en: FlaskClient) -> None:
    refused = en.post("/t/new", data={"name": "T", "format": "knockout", "pairs": "Ana e Bruno"})
    assert refused.status_code == 422
    address = start(en)
    assert "Keep the organizer's link" in text(en.get(address).get_data(as_text=True))


def test_the_history_lists_the_phones_tournaments_newest_first(en: FlaskClient) -> None:
    first = start(en, name="Torneio de Janeiro")
    second = start(en, name="Liga da Tasca", format="round_robin")
    third = start(en, name="Suíço de Março", format="swiss", rounds="2")
    page = en.get("/history").get_data(as_text=True)
    words = text(page)
    assert "No rubbers on this phone yet." not in words
    assert "Your tournaments" in words
    places = [page.index(f'href="{address}"') for address in (third, second, first)]
    assert places == sorted(places)  # newest first
    assert "Suíço de Março Swiss system" in words
    assert "Liga da Tasca Round robin" in words
    assert "Torneio de Janeiro Knockout" in words
    assert page.count("<time datetime=") >= 3


def test_the_history_lists_a_tournament_opened_with_the_organizers_link(
    en: FlaskClient,
) -> None:
    address = start(en, name="Torneio da Tasca", format="knockout", pairs=PASTED)
    tournament_id = address.rsplit("/", 1)[-1]
    link = organizer_link(en.get(address).get_data(as_text=True), tournament_id)
    helper = en.application.test_client()
    helper.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    helper.get(address)  # following it gives no right: not in the history
    assert "Torneio da Tasca" not in text(helper.get("/history").get_data(as_text=True))
    assert "No rubbers on this phone yet." in text(helper.get("/history").get_data(as_text=True))
    helper.get(link)
    history = helper.get("/history").get_data(as_text=True)
    assert f'href="{address}"' in history and "Torneio da Tasca" in text(history)


def test_the_history_says_the_tournaments_in_portuguese(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-PT"
    start(client, name="Torneio da Tasca", format="groups", groups="2", advance="1")
    words = text(client.get("/history").get_data(as_text=True))
    assert "Os seus torneios" in words
    assert "Torneio da Tasca Grupos, depois eliminatória" in words
    assert "Ainda não há partidas neste telemóvel." not in words
