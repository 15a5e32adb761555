"""``/r/<id>/outlook``: the engine's outlook of a rubber, for a phone that goes offline."""

from __future__ import annotations

import gzip

from flask import Flask
from flask.testing import FlaskClient


def test_the_outlook_follows_the_rubber_as_it_stands(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    answer = client.get(page + "/outlook")
    assert answer.status_code == 200
    assert answer.headers["Cache-Control"] == "private, no-cache"
    data = answer.get_json()
    assert (
        data["version"]
        == client.get(f"/api/v1{page.replace('/r/', '/rubbers/')}").get_json()["version"]
    )
    root = data["nodes"][0]
    assert root[:6] == [1, 0, 0, 1, 0, -1]  # 1-0, no tie left, not won
    capote = int(data["played"][0][95], 36)
    two = data["nodes"][root[6][capote]]
    assert two[:2] == [3, 0]
    assert data["words"]["hand"][:2] == ["Mão 2", "Mão 3"]
    assert data["words"]["won"] == ["Vencedores da partida: Nós", "Vencedores da partida: Eles"]
    assert data["words"]["marker"] == "com as mãos ainda não enviadas"
    assert data["words"]["extra"]["1"] == "Empate: a próxima mão decidida vale mais 1 jogo"
    assert data["played"][0][119] == "-"  # no cards make 119


def test_the_outlook_goes_gzipped_to_a_browser(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    plain = client.get(page + "/outlook")
    packed = client.get(page + "/outlook", headers={"Accept-Encoding": "gzip"})
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed.get_data()) == plain.get_data()
    assert len(packed.get_data()) < len(plain.get_data()) / 3


def test_only_a_phone_that_records_the_hands_gets_the_outlook(
    app: Flask, client: FlaskClient
) -> None:
    page = client.post("/rubbers").location
    assert app.test_client().get(page + "/outlook").status_code == 403  # a follower


def test_the_outlook_of_an_unknown_rubber_is_404(client: FlaskClient) -> None:
    assert client.get("/r/" + "x" * 32 + "/outlook").status_code == 404
    assert client.get("/r/nope/outlook").status_code == 404
