"""The page "Analisar a mão": the best line from any card, and the replay's confirmation page.

huey runs in its immediate mode here (``memory://``): the analysis is done within the POST, so
each page shows its result at once. tests/browser/test_analysis.py runs a real consumer.
"""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.background import work
from scorekeeper.background.models import Analysis, Status
from scorekeeper.engine import RuleSet, verify_record
from scorekeeper.engine.analysis import analyse_record, record_line, record_lines
from scorekeeper.extensions import db
from tests.support.apps import fresh_app
from tests.support.records import FULL_RECORD

RULES = RuleSet()
RECORD_TEXT = "|".join(" ".join(trick) for trick in FULL_RECORD)


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "WTF_CSRF_ENABLED": False,
        "RATELIMIT_ENABLED": False,
        "ANALYSIS_QUEUE_URL": "memory://",  # huey runs the task at once: only for tests
    }
    with fresh_app(tmp_path / "test.sqlite3", config) as app:
        yield app


@pytest.fixture
def en(app: Flask) -> FlaskClient:
    client = app.test_client()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def text(response: Any) -> str:
    return html_lib.unescape(response.get_data(as_text=True))


def start(client: FlaskClient) -> str:
    """A rubber whose first hand seat 1 leads (seat 0 deals), as FULL_RECORD was played."""
    response = client.post("/rubbers/new", data={"first_dealer": "0"})
    assert response.status_code == 302
    return str(response.location)


def expected() -> tuple[Any, Any, tuple[Any, ...]]:
    record = verify_record("H", 1, FULL_RECORD, RULES)
    analysis = analyse_record(record, RULES)
    return record, analysis, record_lines(record, RULES, analysis)


def rows(app: Flask) -> list[Analysis]:
    with app.app_context():
        return list(db.session.execute(db.select(Analysis)).scalars())


def confirm(client: FlaskClient, page: str) -> str:
    response = client.post(page + "/replay/confirm", data={"trump": "H", "record": RECORD_TEXT})
    assert response.status_code == 200
    return text(response)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html)
    assert found, name
    return found.group(1)


def recorded(client: FlaskClient, page: str) -> None:
    html = confirm(client, page)
    response = client.post(
        page + "/replay/save",
        data={
            "trump": "H",
            "record": RECORD_TEXT,
            "key": hidden(html, "key"),
            "version": hidden(html, "version"),
        },
    )
    assert response.status_code == 302


def line_tricks(html: str) -> list[str]:
    return re.findall(r"<li[^>]*data-line-trick=\"\d+\"[^>]*>(.*?)</li>", html, re.S)


def test_the_hand_page_opens_an_analysis_made_rather_than_asking_again(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    recorded(en, page)
    hand = text(en.get(page + "/hands/1"))
    assert "Analyse the hand" in hand and "See the analysis" not in hand
    en.post(page + "/hands/1/analysis")
    hand = text(en.get(page + "/hands/1"))
    assert "Analyse the hand" not in hand
    link = re.search(r'<a class="button" href="([^"]+)" data-analysis-link>([^<]+)</a>', hand)
    assert link and link.groups() == (page + "/hands/1/analysis", "See the analysis")
    assert "Ver a análise</a>" in text(app.test_client().get(page + "/hands/1"))  # pt-PT
    assert len(rows(app)) == 1

    with app.app_context():  # one that failed is offered again
        db.session.execute(db.update(Analysis).values(status=Status.FAILED))
        db.session.commit()
    hand = text(en.get(page + "/hands/1"))
    assert "Analyse the hand" in hand and "See the analysis" not in hand


def test_each_card_leads_to_the_best_line_from_it(en: FlaskClient) -> None:
    page = start(en)
    recorded(en, page)
    analysis_page = page + "/hands/1/analysis"
    assert en.post(analysis_page).status_code == 302
    html = text(en.get(analysis_page))
    assert "data-analysis-result" in html and "data-line=" not in html
    # Every card is a link to its line: ?from=1 to ?from=40.
    tricks_part = html[html.index('id="tricks"') :]  # the summary's links are its own
    steps = [int(n) for n in re.findall(r'href="\?from=(\d+)#line"', tricks_part)]
    assert steps == list(range(1, 41))

    record, analysis, lines = expected()
    index = 10  # the 2H of trick 3, the card that cost 10: the best card was the 4C
    item, line = analysis.cards[index], lines[index]
    assert (item.trick, str(item.card), item.cost) == (3, "2H", 10)
    assert line is not None
    shown = record_line(record, RULES, index, line)
    html = text(en.get(f"{analysis_page}?from={index + 1}"))
    assert f'data-line="{index + 1}"' in html
    tricks = line_tricks(html)
    assert len(tricks) == len(shown) == 11 - item.trick
    # The first trick: the cards already on the table, then the best card instead.
    first = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", tricks[0])).strip()
    assert first.startswith("Seat 2: 5♠ Seat 3: 6♠ Seat 4: 4♣"), first
    assert "data-line-here" in tricks[0] and tricks[0].count("data-on-table") == index % 4
    for trick, html_trick in zip(shown, tricks, strict=True):
        cards = re.findall(r'class="card suit-(\w)">([^<]+)<', html_trick)
        assert len(cards) == 4
        assert f"{trick.taken[0]} – {trick.taken[1]}" in html_trick
    intro = re.search(r"data-line-intro>([^<]*)<", html)
    assert intro and intro.group(1) == (f"Instead of 2♥, 4♣: Eles would have made {item.best[1]}.")
    end = re.search(r"data-line-end>([^<]*)<", html)
    assert (
        end
        and end.group(1) == f"At the end: Nós {item.best[0]} – {item.best[1]} Eles: 1 game to Eles"
    )
    assert "One of the best lines" in html
    # Step to the cards before and after.
    assert f'href="?from={index}#line" data-line-previous' in html
    assert f'href="?from={index + 2}#line" data-line-next' in html

    # A card played that was a best card: its line is that card, then the next card's.
    assert analysis.cards[1].cost == 0
    html = text(en.get(f"{analysis_page}?from=2"))
    assert re.search(r"data-line-intro>2♠ was one of the best cards", html)
    assert 'href="?from=1#line" data-line-previous' in html
    html = text(en.get(f"{analysis_page}?from=1"))
    assert "data-line-previous" not in html and 'href="?from=2#line" data-line-next' in html
    html = text(en.get(f"{analysis_page}?from=40"))
    assert "data-line-next" not in html and len(line_tricks(html)) == 1


@pytest.mark.parametrize("step", ["0", "41", "abc", "-3", "9" * 30])
def test_a_card_that_is_not_there_shows_the_page_without_a_line(en: FlaskClient, step: str) -> None:
    page = start(en)
    recorded(en, page)
    en.post(page + "/hands/1/analysis")
    response = en.get(f"{page}/hands/1/analysis?from={step}")
    assert response.status_code == 200
    html = text(response)
    assert "data-line=" not in html
    assert "Tap one of the cards below to see the best line from it." in html


def test_an_analysis_stored_before_the_lines_is_shown_and_offered_again(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    recorded(en, page)
    request = work.record_request("H", 1, FULL_RECORD, RULES)
    result = work.run(request, 60, lambda done, total: None)
    older = {key: value for key, value in result.items() if key != "lines"}
    with app.app_context():
        db.session.add(
            Analysis(
                id=work.content_key(request, version=1),
                request=request,
                status=Status.DONE,
                client="x" * 64,
                done=40,
                total=40,
                result=older,
            )
        )
        db.session.commit()
    html = text(en.get(page + "/hands/1/analysis"))
    assert "data-analysis-result" in html
    assert 'href="?from=' not in html
    assert "This analysis was made before the best lines were kept" in html
    assert en.post(page + "/hands/1/analysis").status_code == 302
    assert len(rows(app)) == 2
    html = text(en.get(page + "/hands/1/analysis"))
    assert "before the best lines were kept" not in html and 'href="?from=40#line"' in html


def test_the_confirmation_page_analyses_the_record_before_it_is_recorded(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    html = confirm(en, page)
    button = re.search(r'<button[^>]*formaction="([^"]*)"[^>]*data-analyse[^>]*>([^<]*)<', html)
    assert button and button.group(2) == "Analyse the hand"
    version = hidden(html, "version")
    response = en.post(
        button.group(1), data={"trump": "H", "record": RECORD_TEXT, "version": version}
    )
    assert response.status_code == 302
    shown = response.location
    assert "/replay/analysis?" in shown
    html = text(en.get(shown))
    _record, analysis, _lines = expected()
    assert analysis.value is not None
    assert f"Nós {analysis.value[0]} – {analysis.value[1]} Eles" in html
    # The way back: the confirmation page again, with the same record and version.
    back = re.search(r'<form method="post" action="([^"]*)"[^>]*data-back', html)
    assert back and back.group(1).endswith("/replay/confirm")
    assert hidden(html, "record") == RECORD_TEXT and hidden(html, "version") == version
    line = text(en.get(shown + ("&" if "?" in shown else "?") + "from=9"))
    assert 'data-line="9"' in line
    # Nothing recorded yet; once it is, the hand's analysis is the same one, not a second.
    with app.app_context():
        from scorekeeper.rubbers.models import Hand

        assert db.session.execute(db.select(Hand)).first() is None
    recorded(en, page)
    html = text(en.get(page + "/hands/1/analysis"))
    assert "data-analysis-result" in html
    assert [row.status for row in rows(app)] == ["done"]


def test_an_unfinished_record_is_not_analysed(app: Flask, en: FlaskClient) -> None:
    page = start(en)
    short = "|".join(" ".join(trick) for trick in FULL_RECORD[:9])
    response = en.post(page + "/replay/analysis", data={"trump": "H", "record": short})
    assert response.status_code == 422
    assert "9 tricks are in" in text(response)
    assert rows(app) == []


def test_a_record_ended_by_a_revoke_offers_no_analysis(en: FlaskClient) -> None:
    page = start(en)
    revoke = "AS 2H 7S JS|3S KS QS 4S"  # seat 3 trumped spades, then plays one: a revoke
    response = en.post(page + "/replay/confirm", data={"trump": "H", "record": revoke})
    assert response.status_code == 200
    assert "data-analyse" not in text(response)
    response = en.post(page + "/replay/analysis", data={"trump": "H", "record": revoke})
    assert response.status_code == 422
    assert "without a revoke" in text(response)


@pytest.mark.parametrize(
    ("language", "heading", "intro", "end"),
    [
        (
            "pt-PT",
            "Lugar 4 na 3.ª vaza: a melhor sequência daí em diante",
            "Em vez do 2♥, o 4♣: 67 pontos para Eles.",
            "No fim: Nós 53 – 67 Eles: 1 jogo para Eles",
        ),
        (
            "pt-BR",
            "Lugar 4 na 3ª vaza: a melhor sequência daí em diante",
            "Em vez do 2♥, o 4♣: 67 pontos para Eles.",
            "No final: Nós 53 – 67 Eles: 1 jogo para Eles",
        ),
    ],
)
def test_the_line_is_worded_in_each_language(
    app: Flask, en: FlaskClient, language: str, heading: str, intro: str, end: str
) -> None:
    page = start(en)
    recorded(en, page)
    en.post(page + "/hands/1/analysis")
    _record, analysis, _lines = expected()
    assert analysis.cards[10].best == (53, 67)
    reader = app.test_client()
    reader.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    html = text(reader.get(page + "/hands/1/analysis?from=11"))
    assert f"<h2>{heading}</h2>" in html
    assert f"data-line-intro>{intro}<" in html
    assert f"data-line-end>{end}<" in html
    assert "uma das melhores sequências" in html


@pytest.mark.parametrize(
    ("language", "instead", "one_of_the_best", "turning"),
    [
        (
            "pt-PT",
            "Em vez do 4♦, a D♦: 75 pontos para Eles.",
            "A D♠ era uma das melhores cartas",
            "Com o 4♣ na 3.ª vaza",
        ),
        (
            "pt-BR",
            "Em vez do 4♦, a D♦: 75 pontos para Eles.",
            "A D♠ era uma das melhores cartas",
            "Com o 4♣ na 3ª vaza",
        ),
        ("en", "Instead of 4♦, Q♦: Eles would have made 75.", "Q♠ was one of", "With 4♣ in"),
    ],
)
def test_a_dama_takes_the_feminine_article(
    app: Flask, en: FlaskClient, language: str, instead: str, one_of_the_best: str, turning: str
) -> None:
    """Issue 27, item 3: "Em vez do 3♣, o Q♣" read "a"; the dama is feminine, English has none."""
    page = start(en)
    recorded(en, page)
    en.post(page + "/hands/1/analysis")
    _record, analysis, lines = expected()
    item, line = analysis.cards[25], lines[25]  # seat 1's 4D in trick 7; the QD kept 75
    assert (str(item.card), item.cost, item.best[1]) == ("4D", 2, 75)
    assert line is not None and str(line[0]) == "QD"
    assert str(analysis.cards[6].card) == "QS" and analysis.cards[6].cost == 0
    reader = app.test_client()
    reader.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    html = text(reader.get(page + "/hands/1/analysis?from=26"))
    assert f"data-line-intro>{instead}<" in html
    html = text(reader.get(page + "/hands/1/analysis?from=7"))
    assert re.search(rf"data-line-intro>{one_of_the_best}", html)
    turned = re.search(r"data-turning>([^<]*)<", html)
    assert turned and turned.group(1).startswith(turning), turned


def trick_text(html: str, number: int) -> str:
    found = re.search(rf'<li value="{number}" data-trick="{number}">(.*?)</li>', html, re.S)
    assert found, number
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", found.group(1))).replace(" ,", ",").strip()


@pytest.mark.parametrize(
    ("language", "said"),
    [
        (
            "pt-PT",
            "Lugar 2: 4♦ −2 pontos para Eles, contra o melhor jogo de todos a partir daqui: "
            "75 pontos para Eles antes desta carta, 73 depois dela; a melhor carta era D♦",
        ),
        (
            "pt-BR",
            "Lugar 2: 4♦ −2 pontos para Eles, contra o melhor jogo de todos a partir daqui: "
            "75 pontos para Eles antes desta carta, 73 depois dela; a melhor carta era D♦",
        ),
        (
            "en",
            "Seat 2: 4♦ −2 points for Eles, against best play by all from here on: "
            "Eles would have made 75 before this card, 73 after it; the best card was Q♦",
        ),
    ],
)
def test_a_cost_says_for_which_team_and_against_what(
    app: Flask, en: FlaskClient, language: str, said: str
) -> None:
    """Issue 27, item 1: "−2 pontos" said neither whose points nor against what."""
    page = start(en)
    recorded(en, page)
    en.post(page + "/hands/1/analysis")
    _record, analysis, _lines = expected()
    item = analysis.cards[25]  # seat 1's 4D, trick 7: Eles 75 with the QD, 73 after the 4D
    assert (item.trick, item.cost, item.best[1], item.value[1]) == (7, 2, 75, 73)
    reader = app.test_client()
    reader.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    shown = trick_text(text(reader.get(page + "/hands/1/analysis")), 7)
    assert said in shown, shown
    assert "Lugar 1: 3♦ −3 pontos para Nós," in shown or language != "pt-PT"
    # "Nós" is the first person: no verb of the third may follow it ("Nós teriam feito 48").
    if language != "en":
        assert "daqui: 48 pontos para Nós antes desta carta, 45 depois dela" in shown, shown
    # A card that cost the team nothing says nothing of a cost.
    assert shown.count("−") == 3  # the 3D (−3), 4D (−2) and AD (−3); not the 2D


def test_the_page_opens_with_a_summary_of_the_hand(app: Flask, en: FlaskClient) -> None:
    """Issue 27, item 2: played, best from the first card, the costliest cards, the turn."""
    page = start(en)
    recorded(en, page)
    en.post(page + "/hands/1/analysis")
    _record, analysis, _lines = expected()
    assert (analysis.played, analysis.value) == ((48, 72), (52, 68))
    costs = sorted(
        ((card.cost, i) for i, card in enumerate(analysis.cards) if card.cost),
        key=lambda pair: (-pair[0], pair[1]),
    )
    assert costs[:3] == [(15, 11), (10, 10), (4, 29)]  # the AC, the 2H, the KD
    html = text(app.test_client().get(page + "/hands/1/analysis"))  # pt-PT
    summary = re.search(r"<section[^>]*data-summary[^>]*>(.*?)</section>", html, re.S)
    assert summary, html
    assert html.index("data-summary") < html.index('id="tricks"')
    box = summary.group(1)
    said = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", box)).replace(" ,", ",").replace(" .", ".")
    assert "Jogado Nós 48 – 72 Eles: 1 jogo para Eles" in said, said
    assert (
        "Com o melhor jogo dos quatro, desde a primeira carta Nós 52 – 68 Eles: 1 jogo para Eles"
        in said
    ), said
    costliest = [
        re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", item)).replace(" ,", ",").strip()
        for item in re.findall(r"<li[^>]*data-costliest[^>]*>(.*?)</li>", box, re.S)
    ]
    assert costliest == [
        "Lugar 1: A♣ na 3.ª vaza, −15 pontos para Nós",
        "Lugar 4: 2♥ na 3.ª vaza, −10 pontos para Eles",
        "Lugar 4: R♦ na 8.ª vaza, −4 pontos para Eles",
    ]
    assert 'href="?from=12#line"' in box  # each leads to its line
    assert (
        "A carta que mudou os jogos Lugar 4: 2♥ na 3.ª vaza. "
        "Com o 4♣ na 3.ª vaza, 67 pontos para Eles: 1 jogo para Eles." in said
    ), said
    english = text(en.get(page + "/hands/1/analysis"))
    assert "The cards that cost the most" in english
    assert "Seat 1: A♣ in trick 3, −15 points for Nós" in re.sub(r"<[^>]+>", "", english)
