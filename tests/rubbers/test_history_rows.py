"""The phone's history tells its rubbers apart (issue 25, item 17).

Six rows of "Nós 4 – 0 Eles" said nothing of who played or where: each row names the players of
each side, when the rubber has them, and its group."""

from __future__ import annotations

from flask.testing import FlaskClient

PT = {"Accept-Language": "pt-PT"}


def _opened(
    client: FlaskClient, body: dict[str, object], headers: dict[str, str] | None = None
) -> dict[str, str]:
    made = client.post("/api/v1/rubbers", json=body, headers=headers or {})
    assert made.status_code == 201, made.get_json()
    rubber = made.get_json()
    assert client.get("/r/" + rubber["edit_url"].split("/r/", 1)[1]).status_code == 302
    return dict(rubber)


def test_each_row_names_its_players_and_its_group(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Tasca do Zé"}).get_json()
    _opened(
        client,
        {"players": ["Ana", "Bruno", "Carla", "Duarte"], "group": group["id"]},
        {"X-Group-Key": group["edit_key"]},
    )
    _opened(client, {"players": ["Eva", "Filipe", "Gil", "Hugo"]})
    _opened(client, {})
    html = client.get("/history", headers=PT).get_data(as_text=True)
    rows = html.split('<ul class="history">', 1)[1].split("</ul>", 1)[0].split("<li>")[1:]
    assert len(rows) == 3
    texts = [" ".join(row.split()) for row in rows]
    assert any("Ana e Carla contra Bruno e Duarte" in row and "Tasca do Zé" in row for row in texts)
    assert any("Eva e Gil contra Filipe e Hugo" in row and "Tasca" not in row for row in texts)
    assert sum("contra" not in row for row in texts) == 1  # no names: nothing made up
