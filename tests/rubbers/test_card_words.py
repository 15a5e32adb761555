"""Cards in the reader's own letters and symbols: typed, shown and named in messages (issue 25)."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask.testing import FlaskClient

from tests.support.records import FULL_RECORD


def start(client: FlaskClient, accept: str, **fields: str) -> str:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    response = client.post("/rubbers/new", data={"first_dealer": "0", **fields})
    assert response.status_code == 302
    return response.location


def replay(client: FlaskClient, page: str, record: str = "", **fields: str) -> tuple[int, str, str]:
    """Post to the replay page; return the status, the record it carries and its text."""
    response = client.post(page + "/replay", data={"trump": "H", "record": record, **fields})
    html = html_lib.unescape(response.get_data(as_text=True))
    carried = re.search(r'name="record" type="hidden" value="([^"]*)"', html)
    assert carried, html
    return response.status_code, carried.group(1), html


def errors(html: str) -> list[str]:
    return re.findall(r'<p class="error"[^>]*>([^<]*)<', html)


# Item 8: R, V, D typed and shown in the Portuguese interfaces ------------------------------


@pytest.mark.parametrize("accept", ["pt-PT", "pt-BR"])
def test_rei_valete_dama_are_typed_in_portuguese_letters(client: FlaskClient, accept: str) -> None:
    page = start(client, accept)
    status, record, _html = replay(client, page, action="type", typed="RE ve De KO")
    assert (status, record) == (200, "KS JS QS KD")


def test_the_card_buttons_show_the_pages_letters(client: FlaskClient) -> None:
    faces = {}
    for accept in ("pt-PT", "en"):
        page = start(client, accept)
        html = replay(client, page)[2]
        faces[accept] = [
            re.search(rf'data-card="{card}"[^>]*>([^<]+)</button>', html).group(1)  # type: ignore[union-attr]
            for card in ("KS", "JH", "QC")
        ]
        assert re.search(r"R rei, V valete, D dama" if accept != "en" else "K king", html)
    assert faces == {"pt-PT": ["R♠", "V♥", "D♣"], "en": ["K♠", "J♥", "Q♣"]}


# Item 24: no English card code in a Portuguese message -------------------------------------


def test_portuguese_messages_name_cards_by_their_faces(client: FlaskClient) -> None:
    page = start(client, "pt-BR")
    said = errors(replay(client, page, card="10S")[2])
    assert said == ["10♠: 10♠ não existe neste baralho."]
    record = " ".join(FULL_RECORD[0])
    said = errors(replay(client, page, record, card="7S")[2])
    assert said == ["7♠: 7♠ já foi jogada na vaza 1."]
    count = html_lib.unescape(client.get(page + "/count?cards=ZZ&cards=KS&cards=KS").text)
    shown = re.sub(r"<[^>]+>", "", count)  # what a person reads, not the form's values
    assert "por exemplo 7C (7♥)" in shown and "7H" not in shown
    assert "R♠ foi escolhida duas vezes" in shown and "KS" not in shown


# Item 25: a card repeated in the trick being entered -----------------------------------------


def test_a_card_repeated_in_the_same_trick_is_said_so(client: FlaskClient) -> None:
    page = start(client, "pt-BR")
    status, record, html = replay(client, page, "AS 2S", card="AS")
    assert (status, record) == (422, "AS 2S")
    assert errors(html) == ["A♠: A♠ já foi jogada nesta vaza."]
    start(client, "en")
    assert errors(replay(client, page, "AS 2S", card="AS")[2]) == [
        "A♠: A♠ was already played in this trick."
    ]


def test_the_apis_sentences_name_cards_by_api_md_codes(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    answer = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": [["KS", "KS"]]}
    ).get_json()
    assert answer["errors"][0]["error"] == "KS já foi jogada nesta vaza."
