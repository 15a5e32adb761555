"""One rule for a name at every door.

No control characters. The HTML forms refuse them as the API does, in the reader's language, storing
nothing; the import takes back what an older version stored with them, the names normalised
(web/columns.py, api/groups.py)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Rubber
from scorekeeper.web.columns import without_control
from tests.support.api_calls import new_group, new_rubber
from tests.support.apps import snapshot

NAMES = ["Nós\tEles", "Ana\x1b[31m", "Rui\nEva", "Zé\x7f", "Bia\x85Eva"]
"""Each holds a control character (\\x85 is one too); a NUL the request guard refuses first."""


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize(
    ("url", "field"),
    [
        ("/rubbers/new", "team0"),
        ("/rubbers/new", "player2"),
        ("/groups/new", "name"),
        ("/bidding/new", "player0"),
    ],
)
def test_the_forms_refuse_a_name_with_a_control_character(
    app: Flask, en: FlaskClient, url: str, field: str, name: str
) -> None:
    data = {"preset": "portugal", "first_dealer": "0", "name": "Tasca", field: name}
    if url == "/bidding/new":
        data |= {"player1": "Rui", "player2": "Eva", "player3": "Zé", "target": "1000"}
    before = snapshot(app)
    answer = en.post(url, data=data)
    assert answer.status_code == 422, answer.get_data(as_text=True)[:300]
    assert "must not contain control or invisible characters" in answer.get_data(as_text=True)
    assert snapshot(app) == before


def test_the_forms_refuse_in_portuguese_too(app: Flask, client: FlaskClient) -> None:
    answer = client.post("/groups/new", data={"name": "Tasca\tdo Zé"})
    assert answer.status_code == 422
    assert "caracteres de controlo ou invisíveis" in answer.get_data(as_text=True)


def test_a_group_whose_names_were_stored_with_them_is_imported_back(
    app: Flask, client: FlaskClient
) -> None:
    """An older version's forms stored tabs and escapes: the group's own export comes back."""
    group = new_group(client)
    made = new_rubber(client, group, players=["Ana", "Rui", "Eva", "Zé"])
    with app.app_context():
        db.session.execute(
            sa.update(Rubber)
            .where(Rubber.id == made["id"])
            .values(team0="Nós\tEles", team1="Os\x1b[0m outros", players=[*NAMES[1:4], "Bia\n"])
        )
        db.session.commit()
    exported = client.get(f"/api/v1/groups/{group['id']}/export.json").get_json()
    assert exported["rubbers"][0]["teams"] == ["Nós\tEles", "Os\x1b[0m outros"]
    other = new_group(client, "Cópia")
    answer = client.post(
        f"/api/v1/groups/{other['id']}/import",
        json=exported,
        headers={"X-Group-Key": other["edit_key"]},
    )
    assert answer.status_code == 200, answer.get_json()
    copy = client.get(answer.get_json()["rubbers"][0]["url"].replace("/r/", "/api/v1/rubbers/"))
    state: dict[str, Any] = copy.get_json()
    assert state["teams"] == ["Nós Eles", "Os[0m outros"]
    assert state["players"] == ["Ana[31m", "Rui Eva", "Zé", "Bia"]


def test_the_api_still_refuses_them(client: FlaskClient) -> None:
    answer = client.post("/api/v1/rubbers", json={"teams": ["Nós\tEles", "Eles"]})
    assert answer.status_code == 422
    assert answer.get_json()["code"] == "control_characters"


def test_normalised_is_what_the_api_takes() -> None:
    assert without_control("Nós\tEles") == "Nós Eles"
    assert without_control("\x00Ana\x1b\r\n") == "Ana"
    assert without_control("Zé \ud800 Rui") == "Zé  Rui"


@pytest.mark.parametrize(
    "moment", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00", "2025-02-30T00:00:00Z"]
)
def test_an_import_date_out_of_range_is_refused_with_a_sentence(
    app: Flask, client: FlaskClient, moment: str
) -> None:
    group = new_group(client)
    before = snapshot(app)
    answer = client.post(
        f"/api/v1/groups/{group['id']}/import",
        json={"rubbers": [{"created_at": moment}]},
        headers={"X-Group-Key": group["edit_key"], "Accept-Language": "en"},
    )
    assert answer.status_code == 422, answer.get_data(as_text=True)[:300]
    body = answer.get_json()
    assert body["field"] == "rubbers[0].created_at" and body["code"] == "date"
    assert "must be a date and time" in body["error"]
    assert snapshot(app) == before
