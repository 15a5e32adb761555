"""The pt-PT words a Lisbon table found stiff or wrong (issue 25, item 21), said plainly.

Each check reads the page as a phone in Portugal gets it."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from flask_babel import gettext

RATING_HINT = (
    "The rating is how well each player has played, worked out rubber by rubber, pair against "
    "pair; the small number after ± is how unsure it still is, and it shrinks with every rubber. "
    "The order is cautious: a player with few rubbers stays lower until the cards prove them. "
    "Pentes: given/taken."
)

PT = {"Accept-Language": "pt-PT"}


def test_a_groups_read_only_link_says_what_its_edit_link_gives(client: FlaskClient) -> None:
    """The group's edit link starts rubbers; "registar mãos" is what a rubber's gives."""
    group = client.post("/api/v1/groups", json={"name": "Tasca"}, headers=PT).get_json()
    with client.application.test_client() as stranger:
        refused = stranger.post(f"/g/{group['id']}/rubbers/new", data={}, headers=PT)
        assert refused.status_code == 403
        text = refused.get_data(as_text=True)
        assert "começar partidas" in text and "registar mãos" not in text
        english = stranger.get(f"/g/{group['id']}/bidding/new", headers={"Accept-Language": "en"})
        assert english.status_code == 403
        assert "start rubbers and games" in english.get_data(as_text=True)


def test_a_capote_short_of_a_bandeira_is_said_in_one_bracket(client: FlaskClient) -> None:
    made = client.post("/api/v1/rubbers", json={"rules": {"preset": "portugal"}}).get_json()
    page = "/r/" + made["edit_url"].split("/r/", 1)[1]
    client.get(page)
    answer = client.post(
        f"/api/v1/rubbers/{made['id']}/hands",
        json={"points": [120, 0]},
        headers={"X-Edit-Key": made["edit_key"]},
    )
    assert answer.status_code == 201, answer.get_json()
    html = client.get(f"/r/{made['id']}", headers=PT).get_data(as_text=True)
    assert "120 → 2 jogos (capote) — sem todas as vazas, não é bandeira" in html
    assert ") (" not in html


def test_the_statistics_speak_the_tables_words(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Tasca"}, headers=PT).get_json()
    stats = client.get(f"/g/{group['id']}/stats", headers=PT).get_data(as_text=True)
    assert "Resultados com nome" not in stats
    assert "Pentes e outras vitórias de cada jogador" in stats


def test_no_statistics_jargon_nor_file_formats(app: Flask) -> None:
    """The ranking's hint and the cross's downloads, as a Portuguese phone reads them."""
    for language, jargon in (("pt-PT", "dúvida"), ("pt-BR", "dúvida")):
        with app.test_request_context(headers={"Accept-Language": language}):
            hint = gettext(RATING_HINT)
            assert "±" in hint and jargon not in hint, hint
            assert "pode ainda mudar" in hint or "ainda pode mudar" in hint, hint
            download = gettext("Download the cross (for printing)")
            assert "SVG" not in download and "imprimir" in download, download


def test_the_card_entrys_sentences_read_as_a_table_speaks(app: Flask) -> None:
    """ "João Pedro ganha, 11 pontos, e sai na vaza 2" and "Preencher a mão" read stiffly."""
    with app.test_request_context(headers=PT):
        trick = gettext(
            "%(player)s wins, %(points)s points, and leads trick %(next)s.",
            player="João Pedro",
            points=11,
            next=2,
        )
        assert trick == "João Pedro leva a vaza (11 pontos) e sai na vaza 2."
        assert gettext("Fill the hand form with these points") == "Usar estes pontos na mão"
