"""What the rubber page says at the table, in its three languages (issue 25, items 6, 21, 26).

A revoke's and a bandeira's buttons name the team that revoked or made it, the same way in the
entry panel, the confirmation, the hand list and the offline outlook; the sitting's line reads
naturally; the direction arrow says what it means; the rules line opens to the preset's
contents as the engine holds them.
"""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine

LANGUAGES = {"pt_PT": "pt-PT", "pt_BR": "pt-BR", "en": "en"}

REVOKE = {"pt_PT": "Renunciou: Nós", "pt_BR": "Renunciou: Nós", "en": "Revoke (renúncia) by Nós"}
BANDEIRA = {"pt_PT": "Fez bandeira: Eles", "pt_BR": "Fez bandeira: Eles", "en": "Bandeira by Eles"}
WORD = {
    # "Fez bandeira" would take a second line, and the panel must keep to 45 % of a 360×640
    # phone (test_fit); under the word, the team that made it, in its colour.
    "pt_PT": ("Renunciou", "Bandeira"),
    "pt_BR": ("Renunciou", "Bandeira"),
    "en": ("Revoke by", "Bandeira by"),
}
REVOKE_NOTE = {
    "pt_PT": "Renunciou: Nós, 2 jogos para Eles",
    "pt_BR": "Renunciou: Nós, 2 jogos para Eles",
    "en": "Revoke (renúncia) by Nós: Eles mark 2 games",
}
SITTING = {
    "pt_PT": "1.ª partida da sessão — partidas ganhas: Nós 0 – 0 Eles",
    "pt_BR": "1ª partida da sessão — partidas ganhas: Nós 0 – 0 Eles",
    "en": "Rubber 1 of the sitting — rubbers won: Nós 0 – 0 Eles",
}
ARROW = {
    "pt_PT": "O jogo roda contra os ponteiros do relógio",
    "pt_BR": "O jogo gira no sentido anti-horário",
    "en": "Play goes counter-clockwise",
}


def in_language(client: FlaskClient, language: str) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = LANGUAGES[language]
    return client


def start(client: FlaskClient, **fields: str) -> str:
    response = client.post("/rubbers/new", data={"preset": "portugal", **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def text(markup: str) -> str:
    """The text of a piece of HTML, its tags out and its spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", "", markup)).split())


def button(page: str, action: str) -> tuple[str, str]:
    """The aria-label and the visible words of a quick button of the hand form."""
    found = re.search(
        rf'<button [^>]*value="{action}"[^>]*aria-label="([^"]*)">(.*?)</button>', page
    )
    assert found, page
    return html.unescape(found[1]), text(found[2].replace('<span class="who">', " "))


@pytest.mark.parametrize("language", LANGUAGES)
def test_revoke_and_bandeira_name_the_team_that_did_it(client: FlaskClient, language: str) -> None:
    """Item 6: "Renúncia de Nós" read both ways; now "Renúncia de Nós" everywhere."""
    page_url = start(in_language(client, language))
    page = client.get(page_url).get_data(as_text=True)
    assert button(page, "revoke-0") == (REVOKE[language], f"{WORD[language][0]} Nós")
    assert button(page, "bandeira-1") == (BANDEIRA[language], f"{WORD[language][1]} Eles")

    # The confirmation asked before a revoke counts: the tap's answer is the page asking it.
    answer = client.post(page_url + "/hands", data={"action": "revoke-0", "team": "0"})
    assert answer.status_code == 200
    asked = answer.get_data(as_text=True)
    question = re.search(r'data-confirm><p class="note[^"]*" role="alert">([^<]*)<', asked)
    assert question, asked
    assert html.unescape(question[1]).startswith(REVOKE_NOTE[language])

    # The offline outlook's question names it the same way as the button.
    outlook = client.get(page_url + "/outlook").get_json()
    assert outlook["words"]["outcome"]["revoke-0"][0].startswith(REVOKE[language] + " — ")
    assert outlook["words"]["outcome"]["bandeira-1"][0].startswith(BANDEIRA[language] + " — ")

    # The hand list, once it is recorded.
    client.post(
        page_url + "/hands", data={"action": "revoke-0", "team": "0", "confirm": "revoke-0"}
    )
    shown = client.get(page_url).get_data(as_text=True)
    listed = re.search(r'<span class="summary">(.*?)</span>\s*<span class="after">', shown, re.S)
    assert listed and text(listed[1]) == REVOKE_NOTE[language]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sitting_line_and_the_arrow_read_naturally(client: FlaskClient, language: str) -> None:
    """Item 21: "Sessão, 6.ª partida: ..." reads as a sentence; ↺ says what it marks."""
    page = client.get(start(in_language(client, language))).get_data(as_text=True)
    sitting = re.search(r'<p class="sitting-count">(.*?)</p>', page)
    assert sitting and text(sitting[1]) == SITTING[language]
    arrow = re.search(
        r'<span class="direction" role="img" title="([^"]*)" aria-label="([^"]*)">↺</span>', page
    )
    assert arrow, page
    assert html.unescape(arrow[1]) == html.unescape(arrow[2]) == ARROW[language]
    # The visible explanation: the direction among the rules, with its arrow.
    rules = re.search(r'<details class="rules"[^>]*>(.*?)</details>', page, re.S)
    assert rules
    assert "↺" in text(rules[1])


BRASIL = {
    "pt_PT": [
        "Jogos para ganhar a partida: 6 (regra da casa)",
        "Empate 60-60: a próxima mão vale mais um jogo",
        "Bandeira (4 jogos): os 120 pontos",
        "Sentido do jogo: como os ponteiros do relógio ↻",
        "Melar (com menos de 10 pontos na mão, volta-se a dar): sim",
    ],
    "pt_BR": [
        "Jogos para vencer a partida: 6 (regra da casa)",
        "Empate 60-60: a próxima mão vale mais um jogo",
        "Bandeira (4 jogos): os 120 pontos",
        "Sentido do jogo: horário ↻",
        "Melar (com menos de 10 pontos na mão, dá de novo): sim",
    ],
    "en": [
        "Games to win the rubber: 6 (house rule)",
        "A 60-60 tie: the next hand is worth one more game",
        "Bandeira (4 games): all 120 points",
        "Direction of play: clockwise ↻",
        "Melar (spoil a deal under 10 points): yes",
    ],
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rules_line_opens_to_what_the_preset_holds(client: FlaskClient, language: str) -> None:
    """Item 26: "Regras: Brasil." opens to melar, the 120 points, clockwise, the tie."""
    page = client.get(
        start(in_language(client, language), preset="brasil", games_to_win="6")
    ).get_data(as_text=True)
    rules = re.search(
        r'<details class="rules"[^>]*><summary>(.*?)</summary>(.*?)</details>', page, re.S
    )
    assert rules, page
    items = [text(item) for item in re.findall(r"<li>([^<]*)", rules[2], re.S)]
    for line in BRASIL[language]:
        assert line in items, items
    # Every setting of the engine's rule set is there, one line each.
    assert len(items) == len(engine.PRESETS["brasil"].to_dict()) - 1
    # The summary still says the preset and the house rule.
    assert "6" in text(rules[1])
