"""The language switch goes back to the page it was used on, and only to a page of this site.

``/language/en?next=/%09/evil.example`` once answered ``Location: //evil.example``-to-be (a
browser strips the tab and reads another host), and a line break in ``next`` was a 500.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from tests.support.apps import fresh_app

ELSEWHERE = [
    "/%09/evil.example",
    "/%0a/evil.example",
    "/%0d%0a/evil.example",
    "/%0d%0aSet-Cookie:%20stolen=1",
    "%09//evil.example",
    "//evil.example",
    "///evil.example",
    "/%2F/evil.example",
    "/%5Cevil.example",
    "/\\evil.example",
    "%5C%5Cevil.example",
    "https://evil.example/",
    "https:evil.example",
    "javascript:alert(1)",
    "evil.example",
    "/%E2%80%A8//evil.example",
    "/%C2%A0//evil.example",
    "/%0b/evil.example",
    "/%7f/evil.example",
    " /r/x",
    "",
]


@pytest.mark.parametrize("target", ELSEWHERE)
def test_next_outside_the_site_goes_home(client: FlaskClient, target: str) -> None:
    answer = client.get(f"/language/en?next={target}")
    assert answer.status_code == 302, answer.status_code
    assert answer.headers["Location"] == "/"
    assert "stolen" not in str(answer.headers)
    assert "Set-Cookie: stolen" not in answer.get_data(as_text=True)


@pytest.mark.parametrize(
    "target",
    ["/", "/glossary", "/r/AbC-123_x", "/r/AbC/hands/3/edit", "/g/x/player?name=Z%C3%A9&a=1"],
)
def test_next_on_the_site_is_where_the_switch_goes(client: FlaskClient, target: str) -> None:
    answer = client.get("/language/pt_BR", query_string={"next": target})
    assert answer.status_code == 302
    assert answer.headers["Location"] == target
    assert "lang=pt_BR" in answer.headers["Set-Cookie"]


def test_the_pages_own_switch_links_go_back_to_the_page(client: FlaskClient) -> None:
    page = client.get("/glossary?x=1").get_data(as_text=True)
    assert 'href="/language/en?next=/glossary?x%3D1"' in page
    answer = client.get("/language/en?next=/glossary?x%3D1")
    assert answer.headers["Location"] == "/glossary?x=1"


def test_behind_a_proxy_under_a_prefix_the_switch_stays_under_it(tmp_path: Path) -> None:
    config = {"TESTING": True, "SECRET_KEY": "x", "PROXY_COUNT": 1}
    with fresh_app(tmp_path / "prefix.sqlite3", config) as app:
        headers = {"X-Forwarded-Prefix": "/tasca", "X-Forwarded-Proto": "https"}
        client = app.test_client()
        page = client.get("/glossary", headers=headers).get_data(as_text=True)
        assert 'href="/tasca/language/en?next=/glossary?"' in page
        answer = client.get("/language/en?next=/glossary?", headers=headers)
        assert answer.headers["Location"] == "/tasca/glossary"
        home = client.get("/language/en?next=//evil.example", headers=headers)
        assert home.headers["Location"] == "/tasca/"
