"""At a Brazilian table (issue 19): what the pages say of Brazil's rules, through the client."""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import engine


@pytest.fixture
def br(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    return client


def text(client: FlaskClient, path: str) -> str:
    page = html_lib.unescape(client.get(path).get_data(as_text=True))
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page))


def start(client: FlaskClient, **fields: str) -> str:
    response = client.post("/rubbers/new", data={"first_dealer": "0", **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return str(response.location)


# Item 6: a 4-0 won by a bandeira ------------------------------------------------------------


def test_a_bandeira_at_0_0_is_named_a_gato_too_by_the_engine() -> None:
    state = engine.replay(engine.PRESETS["brasil"], [engine.Hand.played(120)])
    assert (state.games, state.outcome, state.pente) == ((4, 0), engine.Outcome.BANDEIRA, True)
    assert state.names == (engine.Outcome.BANDEIRA, engine.Outcome.PENTE)
    later = engine.replay(
        engine.PRESETS["brasil"], [engine.Hand.played(40), engine.Hand.played(120)]
    )
    assert (later.games, later.names) == ((4, 1), (engine.Outcome.BANDEIRA,))


def test_the_page_and_the_sitting_say_the_same_of_a_bandeira_4_0(br: FlaskClient) -> None:
    page = start(br, preset="brasil")
    br.post(page + "/hands", data={"action": "points", "team": "0", "points": "120"})
    assert "Partida vencida por Nós: bandeira · gato" in text(br, page)
    sitting = text(br, page + "/sitting")
    assert "1 partida; gatos 1 – 0" in sitting
    assert "Nós venceu · bandeira · gato" in sitting or "bandeira · gato" in sitting
