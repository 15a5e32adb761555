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
    assert "Vencedores da partida: Nós · bandeira · gato" in text(br, page)
    sitting = text(br, page + "/sitting")
    assert "1 partida; gatos 1 – 0" in sitting
    assert "bandeira · gato" in sitting


# Item 4: typed cards with the interface's suit letters --------------------------------------


def typed(client: FlaskClient, page: str, cards: str, record: str = "") -> tuple[int, str, str]:
    response = client.post(
        page + "/replay", data={"trump": "H", "record": record, "typed": cards, "action": "type"}
    )
    html = html_lib.unescape(response.get_data(as_text=True))
    carried = re.search(r'name="record" type="hidden" value="([^"]*)"', html)
    assert carried, html
    return response.status_code, carried.group(1), html


@pytest.mark.parametrize("accept", ["pt-PT", "pt-BR"])
def test_portuguese_suit_letters_are_read_and_shown_back_with_symbols(
    client: FlaskClient, accept: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    page = start(client)
    status, record, html = typed(client, page, "7c ae 2E 3p")
    assert (status, record) == (200, "7H AS 2S 3C")  # C copas, E espadas, P paus
    assert all(face in html for face in ("7♥", "A♠", "2♠", "3♣"))
    assert "Naipes: C copas ♥, O ouros ♦, E espadas ♠, P paus ♣." in html
    assert 'placeholder="AE 2E 7E JE"' in html


@pytest.mark.parametrize("accept", ["pt-PT", "pt-BR"])
def test_an_english_suit_letter_is_never_guessed_in_portuguese(
    client: FlaskClient, accept: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    page = start(client)
    status, record, html = typed(client, page, "7C 7H")
    assert record == ""  # nothing taken, not even the 7C before it
    assert "7H: H não é uma letra de naipe aqui." in html
    assert "C copas ♥, O ouros ♦, E espadas ♠, P paus ♣." in html
    status, record, html = typed(client, page, "7Z")
    assert "7Z não é uma carta" in html and "por exemplo 7C (7♥)" in html
    assert "7H" not in re.sub(r"<[^>]+>", "", html.split("7Z não é uma carta")[1])[:60]


def test_the_english_interface_keeps_english_letters(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = start(client)
    assert typed(client, page, "7C AH")[1] == "7C AH"  # C clubs in English
    status, record, html = typed(client, page, "7E")
    assert record == "" and "7E: E is not a suit letter here." in html
    assert "like 7H (7♥)" in typed(client, page, "7Z")[2]


def test_a_stored_hand_lists_its_tricks_with_symbols(client: FlaskClient) -> None:
    from tests.support.records import FULL_RECORD

    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    page = start(client)
    record = "|".join(" ".join(trick) for trick in FULL_RECORD)
    client.post(page + "/replay/save", data={"trump": "H", "record": record, "key": "k" * 16})
    html = client.get(page + "/hands/1").get_data(as_text=True)
    first = " ".join(FULL_RECORD[0])
    assert first not in re.sub(r"<[^>]+>", "", html)
    faces = re.findall(r'<span class="card suit-\w"[^>]*>([^<]+)</span>', html)
    assert faces[:4] == ["A♠", "2♠", "7♠", "V♠"]  # AS 2S 7S JS: the valete is V in Portuguese


def test_a_stored_hand_names_its_trump_in_words(client: FlaskClient) -> None:
    """A symbol alone is lost on a small screen, and on a screen reader: "♥ copas"."""
    from tests.support.records import FULL_RECORD

    record = "|".join(" ".join(trick) for trick in FULL_RECORD)
    for language, words in (("pt-PT", "♥ copas"), ("pt-BR", "♥ copas"), ("en", "♥ hearts")):
        client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
        page = start(client)
        client.post(page + "/replay/save", data={"trump": "H", "record": record, "key": "k" * 16})
        html = client.get(page + "/hands/1").get_data(as_text=True)
        shown = re.search(r'<dd class="suit suit-H">([^<]+)</dd>', html)
        assert shown and shown.group(1) == words, language


def test_the_api_keeps_api_md_letters(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    answer = client.post(
        "/api/v1/verify", json={"trump": "H", "leader": 1, "tricks": [["7C", "AC", "2C", "3C"]]}
    )
    assert answer.status_code == 200, answer.get_json()
    assert answer.get_json()["tricks"][0]["winner"] == 2  # AC, the ace of clubs (paus)


# Item 1: which rules a phone starts on -------------------------------------------------------


def quick_fields(html: str) -> dict[str, str]:
    """The hidden fields of the home page's one-tap "new rubber" form."""
    form = re.search(r'<form method="post" action="/rubbers"[^>]*>(.*?)</form>', html, re.S)
    assert form, html
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


def rules_of(client: FlaskClient, page: str) -> dict[str, object]:
    rubber_id = page.rsplit("/", 1)[-1]
    return dict(client.get(f"/api/v1/rubbers/{rubber_id}").get_json()["rules"])


def test_a_pt_br_phone_starts_on_the_brasil_preset(br: FlaskClient) -> None:
    home = br.get("/").get_data(as_text=True)
    fields = quick_fields(home)
    assert fields["preset"] == "brasil"
    assert "Regras: Brasil" in text(br, "/")
    assert 'href="/rubbers/new"' in home  # the choice, one tap away
    page = br.post("/rubbers", data=fields).location
    assert rules_of(br, page)["preset"] == "brasil"
    assert "Melou" in text(br, page)
    new = br.get("/rubbers/new").get_data(as_text=True)
    assert '<option selected value="brasil">' in new


def test_a_pt_pt_phone_starts_on_portugal(client: FlaskClient) -> None:
    assert quick_fields(client.get("/").get_data(as_text=True))["preset"] == "portugal"
    assert rules_of(client, client.post("/rubbers").location)["preset"] == "portugal"


def test_a_phone_that_has_played_starts_on_its_last_rubbers_rules(br: FlaskClient) -> None:
    start(br, preset="online", games_to_win="6", tie="double")
    fields = quick_fields(br.get("/").get_data(as_text=True))
    assert fields == {**fields, "preset": "online", "games_to_win": "6", "tie": "double"}
    assert "Regras: Mesas online" in text(br, "/")
    rules = rules_of(br, br.post("/rubbers", data=fields).location)
    assert (rules["preset"], rules["games_to_win"], rules["tie"]) == ("online", 6, "double")
    # Even a bare POST (an old home page) starts on them.
    rules = rules_of(br, br.post("/rubbers").location)
    assert (rules["preset"], rules["games_to_win"], rules["tie"]) == ("online", 6, "double")
    new = br.get("/rubbers/new").get_data(as_text=True)
    assert '<option selected value="online">' in new
    assert re.search(r'name="games_to_win"[^>]*value="6"', new)
    assert '<input checked id="tie-3" name="tie" type="radio" value="double">' in new


# Item 2: the rules in force, in words ---------------------------------------------------------


def test_the_rubber_page_names_its_preset_and_every_setting_changed(br: FlaskClient) -> None:
    page = start(br, preset="brasil")
    assert "Regras: Brasil." in text(br, page)
    page = start(br, preset="brasil", games_to_win="6", melar="no", tie="void")
    shown = text(br, page)
    assert (
        "Regras: Brasil, com Jogos para vencer a partida: 6; Empate 60-60: nada acontece; "
        "Melar (com menos de 10 pontos na mão, dá de novo): não."
    ) in shown


def test_the_house_rule_boxes_show_the_presets_values(br: FlaskClient) -> None:
    html = html_lib.unescape(br.get("/rubbers/new?preset=brasil").get_data(as_text=True))
    bandeira = re.search(r'<input checked id="bandeira-0" [^>]*value=""> <span>([^<]*)<', html)
    assert bandeira and bandeira.group(1) == "como nas regras: os 120 pontos"
    raw = br.get("/rubbers/new?preset=brasil").get_data(as_text=True)
    tie = re.search(
        r'<fieldset class="choices" data-preset-values="([^"]*)" data-as-preset="([^"]*)">\s*'
        r"<legend>Empate 60-60</legend>",
        raw,
    )
    assert tie and tie.group(2) == "como nas regras: {value}"
    values = html_lib.unescape(tie.group(1))
    assert '"portugal": "a próxima mão vale mais um jogo"' in values
    assert '"online": "nada acontece"' in values


# Item 8: the small things ----------------------------------------------------------------------


def test_a_decimal_in_the_points_box_is_refused_not_read_as_605(
    app: object, br: FlaskClient
) -> None:
    page = start(br)
    response = br.post(page + "/hands", data={"action": "points", "team": "0", "points": "60,5"})
    assert response.status_code == 422
    html = html_lib.unescape(response.get_data(as_text=True))
    assert "Os pontos são números inteiros: nenhuma carta vale meio ponto (60,5)." in html
    box = re.search(r'<input[^>]*name="points"[^>]*>', html)
    assert box and 'type="text"' in box.group(0) and 'value="60,5"' in box.group(0)
    assert br.get(f"/api/v1/rubbers/{page.rsplit('/', 1)[-1]}").get_json()["hands"] == []


@pytest.mark.parametrize(("accept", "shape"), [("pt-BR", r"\d\d/\d\d/\d{4} \d\d:\d\d")])
def test_dates_are_written_the_readers_way(client: FlaskClient, accept: str, shape: str) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    page = start(client)
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    for listed in ("/history", "/"):  # the home page lists the last rubbers played
        html = client.get(listed).get_data(as_text=True)
        shown = re.findall(r"<time [^>]*>([^<]+)</time>", html)
        assert shown and all(re.fullmatch(shape, when) for when in shown), (listed, shown)


def test_zero_games_are_plural_in_pt_br(br: FlaskClient) -> None:
    html = html_lib.unescape(br.get(start(br)).get_data(as_text=True))
    assert 'aria-label="Nós: 0 jogos"' in html and '0 jogo"' not in html


def test_the_melar_prompt_names_the_player(br: FlaskClient) -> None:
    page = start(br, preset="brasil", player1="Ana")
    shown = text(br, page + "/melar")
    assert "Começa" not in shown  # one translation, not two run together
    assert "Toque nas 10 cartas de quem começa: Ana." in shown and "dele" not in shown
    # With the seat's own name too: never "as cartas de Lugar 2".
    shown = text(br, start(br, preset="brasil") + "/melar")
    assert "Toque nas 10 cartas de quem começa: Lugar 2." in shown


def test_a_replay_stopped_by_a_revoke_says_so(br: FlaskClient) -> None:
    page = start(br)
    record = "AS 2H 7S JS|3S KS QS 4S"  # seat 3 did not follow spades in trick 1
    response = br.post(page + "/replay", data={"trump": "H", "record": record})
    shown = re.sub(r"\s+", " ", html_lib.unescape(response.get_data(as_text=True)))
    assert "A mão parou na renúncia: confira o resultado e registre." in shown
    assert "A mão está completa" not in shown


def test_pt_br_wordings(br: FlaskClient) -> None:
    assert "Quem dá primeiro" in text(br, "/rubbers/new")
    page = start(br)
    br.post(page + "/hands", data={"action": "tie"})
    assert "Jogada normal (pontos)" in text(br, page + "/hands/1/edit")
    assert "As partidas de hoje" in text(br, page + "/sitting")


def test_a_followers_page_opens_the_calculators(client: FlaskClient, app: object) -> None:
    page = start(client, preset="brasil")
    follower = app.test_client()  # type: ignore[attr-defined]
    html = follower.get(page).get_data(as_text=True)
    assert f'href="{page}/count"' in html and f'href="{page}/melar"' in html
