"""The share page: who gets which link, and an address that is not a rubber's."""

from __future__ import annotations

import re

from flask import Flask
from flask.testing import FlaskClient

from tests.support.apps import held_key

QR = re.compile(r'<svg role="img" shape-rendering="crispEdges" viewBox="0 0 (\d+) \1" class="qr">')


def test_the_scorer_gets_both_links_and_a_follower_only_the_first(
    app: Flask, client: FlaskClient
) -> None:
    page = client.post("/rubbers").location
    rubber_id = page.rsplit("/", 1)[-1]
    key = held_key(app, client, rubber_id)
    mine = client.get(page + "/share")
    assert mine.status_code == 200
    html = mine.get_data(as_text=True)
    assert f'id="share-url" href="http://localhost/r/{rubber_id}"' in html
    assert f'id="edit-url" href="http://localhost/r/{rubber_id}/edit/{key}"' in html
    assert len(QR.findall(html)) == 2
    assert f'href="/r/{rubber_id}/share"' in client.get(page).get_data(as_text=True)

    theirs = app.test_client().get(page + "/share").get_data(as_text=True)
    assert len(QR.findall(theirs)) == 1
    assert key not in theirs and "/edit/" not in theirs


def test_the_share_page_of_no_rubber_is_404(client: FlaskClient) -> None:
    for rubber_id in ("x" * 32, "nope", "a" * 500, "%00"):
        assert client.get(f"/r/{rubber_id}/share").status_code == 404
