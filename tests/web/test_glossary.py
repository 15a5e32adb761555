"""The glossary: the game's words explained in the reader's language, linked from every footer."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

ROOT = Path(__file__).resolve().parents[2]
WORDS = (
    "vaza", "trunfo", "manilha", "renúncia", "bandeira", "capote", "pente", "gato", "chapéu",
    "arrepio", "melar", "Nós", "Eles", "partida", "jogo", "mão", "baralhar", "cortar", "dar",
)  # fmt: skip
"""The words issue 6 names."""
BIDDING_WORDS = ("leilão", "lance", "parceiro", "sozinho", "carta pedida")
"""The words of bidding Sueca (issue 23)."""


def defined(html: str) -> list[str]:
    return re.findall(r"<dfn[^>]*>([^<]+)</dfn>", html)


@pytest.mark.parametrize(
    ("accept", "title", "trick", "pente"),
    [
        ("pt-PT", "Glossário", "As quatro cartas jogadas numa volta", "Uma partida ganha por 4–0"),
        ("pt-BR", "Glossário", "As quatro cartas jogadas numa rodada", "vencida por 4–0. No papel"),
        ("en", "Glossary", "A trick: the four cards played in one round", "A rubber won 4–0"),
    ],
)
def test_the_glossary_explains_every_word_in_the_readers_language(
    client: FlaskClient, accept: str, title: str, trick: str, pente: str
) -> None:
    response = client.get("/glossary", headers={"Accept-Language": accept})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert f"<h1>{title}</h1>" in html
    assert set(WORDS) | set(BIDDING_WORDS) <= set(defined(html))
    explanations = html[html.index('<dl class="glossary">') :]
    assert trick in explanations
    assert pente in explanations
    if accept != "en":
        assert "the " not in explanations and "A trick" not in explanations


def test_every_page_links_the_glossary_from_its_footer(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    for path in ("/", page, "/history", "/rubbers/new"):
        html = client.get(path).get_data(as_text=True)
        footer = html[html.index("<footer>") :]
        assert '<a class="button" href="/glossary">Glossário: as palavras do jogo</a>' in footer


def test_the_docs_glossary_has_the_same_words(client: FlaskClient) -> None:
    page = set(defined(client.get("/glossary").get_data(as_text=True)))
    docs = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    in_docs = set(re.findall(r"\*\*([^*]+)\*\*", docs))
    assert page == in_docs


@pytest.mark.parametrize("preset", ["portugal", "brasil"])
def test_the_drawing_the_glossary_and_the_engine_agree_on_who_shuffles_and_cuts(
    client: FlaskClient, preset: str
) -> None:
    """Check RULES.md's seats in the engine, the drawing and the glossary.

    Counter-clockwise, dealer+1 shuffles and leads, dealer+3 cuts; clockwise, dealer+1 cuts
    and leads, dealer+3 shuffles. Both ways the shuffler sits on the dealer's right and the
    cutter on the left; only the lead changes side."""
    from scorekeeper import engine
    from scorekeeper.rubbers import drawings

    rules = engine.PRESETS[preset]
    state = engine.new_rubber(rules, first_dealer=0)
    clockwise = rules.direction is engine.Direction.CLOCKWISE
    assert (state.shuffler, state.cutter, state.leader) == ((3, 1, 1) if clockwise else (1, 3, 1))
    places = {seat.seat: seat.place for seat in drawings.table(state)}
    assert places[state.dealer] == "bottom"  # the dealer faces the table: right is right
    assert (places[state.shuffler], places[state.cutter]) == ("right", "left")
    assert places[state.leader] == ("left" if clockwise else "right")
    html = client.get("/glossary", headers={"Accept-Language": "en"}).get_data(as_text=True)
    explanation = re.sub(r"\s+", " ", html[html.index('id="baralhar"') :].split("</dd>")[0])
    assert (
        "Both in Portugal and in Brazil the dealer's right-hand neighbour shuffles and the "
        "left-hand neighbour cuts. The first trick is led by the next player in the direction "
        "of play: in Portugal (counter-clockwise) the one who shuffled, in Brazil (clockwise) "
        "the one who cut."
    ) in explanation
    docs = (ROOT / "docs" / "glossary.md").read_text(encoding="utf-8")
    assert "in Brazil the two swap" not in docs and "the one who cut" in docs


def test_the_bandeira_is_all_120_points_in_brazil_too(client: FlaskClient) -> None:
    html = client.get("/glossary", headers={"Accept-Language": "en"}).get_data(as_text=True)
    explanation = html[html.index('id="bandeira"') :].split("</dd>")[0]
    assert "in Brazil and at online tables, all 120 card points" in explanation


def _headwords(html: str, entry: str) -> list[str]:
    found = re.search(rf'<dt id="{entry}">(.*?)</dt>', html, re.S)
    assert found, entry
    return defined(found.group(1))


@pytest.mark.parametrize(
    ("accept", "shuffle", "pente", "european"),
    [
        ("pt-BR", ["embaralhar", "cortar", "dar", "baralhar"], ["gato", "pente"], ["desenha-se"]),
        ("pt-PT", ["baralhar", "cortar", "dar", "embaralhar"], ["pente", "gato"], []),
    ],
)
def test_each_portuguese_reads_its_own_headwords_first(
    client: FlaskClient, accept: str, shuffle: list[str], pente: list[str], european: list[str]
) -> None:
    """A Brazilian table says embaralhar and gato: the pt-BR glossary leads with them.

    The European word beside it, and no European phrasing in its sentences (issue 25, item 27)."""
    html = client.get("/glossary", headers={"Accept-Language": accept}).get_data(as_text=True)
    assert _headwords(html, "baralhar") == shuffle
    assert _headwords(html, "pente") == pente
    for phrase in european:
        assert phrase not in html
