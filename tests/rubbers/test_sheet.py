"""The rubber's score sheet: a CSV a person reads, in the page's language, with the names.

The API's CSV stays as API.md has it; the sheet is a download of its own (issue 25, item 9)."""

from __future__ import annotations

import csv
import io
import re

import pytest
from flask.testing import FlaskClient

from tests.groups.test_groups import start_rubber


def sheet(client: FlaskClient, page: str, language: str) -> list[list[str]]:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    response = client.get(page + "/sheet.csv")
    assert response.status_code == 200
    assert response.mimetype == "text/csv"
    assert "attachment" in response.headers["Content-Disposition"]
    return list(csv.reader(io.StringIO(response.get_data(as_text=True).lstrip("\ufeff"))))


@pytest.mark.parametrize(
    ("language", "header"),
    [
        (
            "pt-PT",
            ["Mão", "Quem deu", "Trunfo", "Pontos: Ana e Eva", "Pontos: Rui e Zé",
             "O que a mão deu", "Jogos: Ana e Eva", "Jogos: Rui e Zé"],
        ),
        (
            "pt-BR",
            ["Mão", "Quem deu", "Trunfo", "Pontos: Ana e Eva", "Pontos: Rui e Zé",
             "O que a mão deu", "Jogos: Ana e Eva", "Jogos: Rui e Zé"],
        ),
        (
            "en",
            ["Hand", "Dealer", "Trump", "Card points: Ana and Eva", "Card points: Rui and Zé",
             "What the hand gave", "Games: Ana and Eva", "Games: Rui and Zé"],
        ),
    ],
)  # fmt: skip
def test_the_sheet_speaks_the_page_s_language_and_names_the_players(
    client: FlaskClient, language: str, header: list[str]
) -> None:
    page = start_rubber(client)  # Ana and Eva against Rui and Zé, Ana deals
    rubber_id = page.rsplit("/", 1)[-1]
    key = re.search(r'id="edit-url" href="[^"]+/edit/([^"]+)"', client.get(page + "/share").text)
    assert key
    recorded = client.post(
        f"/api/v1/rubbers/{rubber_id}/hands",
        json={"points": [75, 45], "trump": "H"},
        headers={"X-Edit-Key": key.group(1)},
    )
    assert recorded.status_code == 201
    rows = sheet(client, page, language)
    assert rows[0] == header
    [hand] = rows[1:]
    assert hand[0] == "1" and hand[1] == "Ana" and hand[3:5] == ["75", "45"]
    assert hand[6:] == ["1", "0"]
    assert hand[2] == {"pt-PT": "copas", "pt-BR": "copas", "en": "hearts"}[language]
    assert "Ana" in hand[5] and "played" not in hand and "true" not in hand and "false" not in hand
    # The API's CSV is the contract's, unchanged.
    api = client.get(f"/api/v1/rubbers/{rubber_id}/export.csv").get_data(as_text=True)
    assert api.splitlines()[0] == (
        "number,kind,points_0,points_1,all_tricks,team,games_0,games_1,dealer,trump"
    )


@pytest.mark.parametrize(
    ("language", "first"),
    [
        ("pt-PT", ["Começada", "Equipa"]),
        ("pt-BR", ["Começada", "Time"]),
        ("en", ["Started", "Team"]),
    ],
)
def test_the_group_s_sheet_has_a_row_per_rubber_in_words(
    client: FlaskClient, language: str, first: list[str]
) -> None:
    made = client.post("/groups/new", data={"name": "Tasca"})
    group_id = made.location.rsplit("/", 1)[-1]
    key = re.search(r'id="edit-url" href="[^"]+/edit/([^"]+)"', client.get(f"/g/{group_id}").text)
    assert key
    started = client.post(
        "/api/v1/rubbers",
        json={"players": ["Ana", "Rui", "Eva", "Zé"], "group": group_id},
        headers={"X-Group-Key": key.group(1)},
    )
    assert started.status_code == 201
    rows = sheet(client, f"/g/{group_id}", language)
    assert rows[0][:2] == first
    [rubber] = rows[1:]
    assert rubber[1:7] == ["Nós", {"en": "Ana and Eva"}.get(language, "Ana e Eva"), "0", "Eles",
                           {"en": "Rui and Zé"}.get(language, "Rui e Zé"), "0"]  # fmt: skip
