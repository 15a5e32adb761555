"""A melar taken from the pages is always checked on the leader's cards (issue 25, item 22)."""

from __future__ import annotations

import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.rubbers.test_calculators import melar_post
from tests.rubbers.test_cards_pages import HIGH_HAND, LOW_HAND, start, stored, text


@pytest.fixture
def en_client(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_quick_melou_opens_the_check_instead_of_recording(en_client: FlaskClient) -> None:
    page = start(en_client, preset="brasil")
    html = text(en_client.get(page))
    assert 'value="spoiled"' not in html  # no one-tap melar that nothing checked
    quick = re.search(r'<div class="quick">(.*?)</form>', html, re.S)
    assert quick and re.search(
        rf'<a class="button" href="{re.escape(page)}/melar"[^>]*>Spoiled deal \(melar\)</a>',
        quick.group(1),
    )


def test_the_edit_form_offers_melou_only_for_a_checked_melar(
    app: Flask, en_client: FlaskClient
) -> None:
    page = start(en_client, preset="brasil")
    en_client.post(page + "/hands", data={"action": "points", "team": "0", "points": "70"})
    edit = page + "/hands/1/edit"
    html = text(en_client.get(edit))
    assert 'value="spoiled"' not in html
    assert "A melar is recorded from the melar check" in html
    response = en_client.post(edit, data={"action": "spoiled", "version": "1", "key": "k" * 16})
    assert response.status_code == 422
    assert "A melar is recorded from the melar check" in text(response)
    assert [h.kind for h in stored(app, page)] == ["played"]
    # A melar checked on its cards stays one on its edit form.
    melar_post(en_client, page, LOW_HAND)
    assert 'value="spoiled" checked' in text(en_client.get(page + "/hands/2/edit"))


def test_a_recorded_hand_becomes_a_melar_only_through_the_check(
    app: Flask, en_client: FlaskClient
) -> None:
    page = start(en_client, preset="brasil")
    en_client.post(page + "/hands", data={"action": "points", "team": "0", "points": "70"})
    en_client.post(page + "/hands", data={"action": "points", "team": "0", "points": "70"})
    edit = text(en_client.get(page + "/hands/2/edit"))
    assert f'href="{page}/melar?hand=2"' in edit
    check = text(en_client.get(page + "/melar?hand=2"))
    assert "Seat 3 leads: tap their 10 cards." in check  # hand 2's leader, not the next one's
    refused = en_client.post(
        page + "/melar", data={"hand": "2", "cards": HIGH_HAND, "action": "spoil", "key": "h" * 16}
    )
    assert refused.status_code == 422
    assert [h.kind for h in stored(app, page)] == ["played", "played"]
    response = en_client.post(
        page + "/melar", data={"hand": "2", "cards": LOW_HAND, "action": "spoil", "key": "l" * 16}
    )
    assert response.status_code == 302
    assert [h.kind for h in stored(app, page)] == ["played", "spoiled"]
    assert en_client.get(page + "/melar?hand=3").status_code == 404
