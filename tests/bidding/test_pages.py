"""The pages of bidding Sueca through the test client.

Starting from home in one tap, the game page, recording, refusing, undoing and editing hands, the
edit and follow links, the history and the languages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.bidding.models import BiddingGame
from scorekeeper.extensions import db
from tests.support.apps import snapshot

FIVE = ["Ana", "Bruno", "Carla", "Duarte", "Eva"]
PT = {"Accept-Language": "pt-PT"}


def start(client: FlaskClient, names: list[str] = FIVE, **fields: str) -> str:
    form = {f"player{seat}": name for seat, name in enumerate(names)} | fields
    response = client.post("/bidding/new", data=form)
    assert response.status_code == 302, response.get_data(as_text=True)[:2000]
    found = re.fullmatch(r"/b/([A-Za-z0-9_-]{32})", response.headers["Location"])
    assert found, response.headers["Location"]
    return found.group(1)


def game_of(app: Flask, game_id: str) -> BiddingGame:
    with app.app_context():
        game = db.session.get(BiddingGame, game_id)
        assert game is not None
        db.session.expunge(game)
        return game


def version(app: Flask, game_id: str) -> str:
    return str(game_of(app, game_id).version)


def record(client: FlaskClient, game_id: str, **form: Any) -> Any:
    return client.post(f"/b/{game_id}/hands", data=form, headers=PT)


def page(client: FlaskClient, game_id: str, headers: dict[str, str] = PT) -> str:
    response = client.get(f"/b/{game_id}", headers=headers)
    assert response.status_code == 200 and response.mimetype == "text/html"
    return response.get_data(as_text=True)


def errors(text: str) -> list[str]:
    return re.findall(r'<p class="error"[^>]*>([^<]+)</p>', text)


def test_the_home_page_starts_the_last_table_again_in_one_tap(
    app: Flask, client: FlaskClient
) -> None:
    home = client.get("/", headers=PT).get_data(as_text=True)
    assert 'href="/bidding/new"' in home and "Novo jogo com licitação" not in home
    # With no game on this phone yet, the one tap leads to the names.
    assert client.post("/bidding").headers["Location"] == "/bidding/new"
    first = start(client, first_dealer="3")
    home = client.get("/", headers=PT).get_data(as_text=True)
    assert "Novo jogo com licitação: Ana, Bruno, Carla, Duarte, Eva" in home
    response = client.post("/bidding")
    assert response.status_code == 302
    second = response.headers["Location"].rsplit("/", 1)[-1]
    assert second != first
    game = game_of(app, second)
    assert game.players == FIVE and game.target == 200
    assert game.first_dealer == 3  # the first game had no hand: the same dealer deals
    assert "Guardar" not in page(client, second)


def test_a_game_page_shows_the_scores_the_deal_and_the_leader(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    text = page(client, game_id)
    assert "Sueca com licitação" in text
    assert "dá Ana, licita primeiro Bruno" in text
    assert "40 cartas, 8 a cada um" in text
    response = record(
        client,
        game_id,
        bidder="2",
        other_bid="75",
        partner="4",
        points="80",
        action="points",
        version=version(app, game_id),
    )
    assert response.status_code == 302
    text = page(client, game_id)
    assert "Carla licitou 75 com Eva: fez (80)" in text  # the flashed summary
    assert re.search(
        r'data-seat="2">\s*<span class="name">Carla</span>\s*<strong class="points">75<', text
    )
    assert "dá Bruno, licita primeiro Carla" in text
    record(client, game_id, bidder="0", bid="90", partner="alone", points="85", action="points")
    text = page(client, game_id)
    assert "Ana licitou 90 sem parceiro: não fez (85)" in text
    assert re.search(r'<strong class="points">−90</strong>', text)
    # The running list: what each seat gained or lost in each hand.
    cell = r'<td class="{}">{}<span class="running">= {}</span></td>\s*'
    totals = [("loss", "−90", "−90"), ("gain", r"\+90", "90"), ("gain", r"\+90", "165")]
    totals += [("gain", r"\+90", "90"), ("gain", r"\+90", "165")]
    # Each hand's row: what each seat gained or lost, and under it the seat's running total.
    assert re.search("".join(cell.format(*seat) for seat in totals), text)
    assert "vai à frente" not in text  # Carla and Eva share the lead at 165
    record(client, game_id, bidder="1", bid="80", partner="1", action="made")
    assert "Bruno vai à frente" in page(client, game_id)


def test_made_and_failed_without_points_and_all_passed(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, FIVE[:4])
    record(client, game_id, bidder="0", bid="70", partner="2", action="made")
    record(client, game_id, bidder="1", bid="80", partner="3", action="failed")
    record(client, game_id, action="passed")
    game = game_of(app, game_id)
    assert game.scores == [150, -80, 150, -80] and game.hand_count == 3 and game.dealer == 3
    text = page(client, game_id)
    assert "Todos passaram: ninguém pontua" in text
    assert "Bruno licitou 80 com Duarte: não fez" in text


def test_a_typed_bid_wins_over_the_quick_pick(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, bidder="0", bid="70", other_bid="77", partner="1", action="made")
    assert game_of(app, game_id).scores[:2] == [77, 77]


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"bidder": "0", "other_bid": "60", "partner": "1"}, "de 61 a 120"),
        ({"bidder": "0", "other_bid": "121", "partner": "1"}, "de 61 a 120"),
        (
            {"bidder": "0", "bid": "70", "partner": "1", "points": "119", "action": "points"},
            "119 é impossível",
        ),
        (
            {"bidder": "0", "bid": "70", "partner": "1", "points": "1", "action": "points"},
            "1 é impossível",
        ),
        (
            {"bidder": "0", "bid": "70", "partner": "1", "points": "121", "action": "points"},
            "de 0 a 120",
        ),
        ({"bidder": "0", "bid": "70", "partner": "1", "action": "points"}, "Escreva os pontos"),
        (
            {"bidder": "0", "bid": "70", "partner": "1", "points": "60", "action": "made"},
            "não batem certo",
        ),
        ({"bidder": "5", "bid": "70", "partner": "1"}, "Quem licitou tem de ser um dos jogadores"),
        ({"bidder": "x", "bid": "70", "partner": "1"}, "Quem licitou tem de ser um dos jogadores"),
        ({"bidder": "0", "bid": "70", "partner": "7"}, "O parceiro tem de ser um dos jogadores"),
        ({"bid": "70", "partner": "1"}, "Escolha quem licitou"),
        ({"bidder": "0", "partner": "1"}, "Escolha ou escreva a licitação"),
        ({"bidder": "0", "bid": "70"}, "Escolha o parceiro"),
        ({"bidder": "0", "bid": "75", "partner": "1"}, "Escolha uma das opções"),
    ],
)
def test_bad_input_is_refused_in_portuguese_and_stores_nothing(
    app: Flask, client: FlaskClient, form: dict[str, str], said: str
) -> None:
    game_id = start(client)
    before = snapshot(app)
    response = record(client, game_id, **({"action": "made"} | form))
    assert response.status_code == 422
    assert any(said in error for error in errors(response.get_data(as_text=True))), errors(
        response.get_data(as_text=True)
    )
    assert snapshot(app) == before


@pytest.mark.parametrize("names", [FIVE[:3], ["Ana"]])
def test_a_table_of_3_is_refused(app: Flask, client: FlaskClient, names: list[str]) -> None:
    before = snapshot(app)
    form = {f"player{seat}": name for seat, name in enumerate(names)}
    response = client.post("/bidding/new", data=form, headers=PT)
    assert response.status_code == 422
    assert "joga-se com 4 a 6 jogadores" in " ".join(errors(response.get_data(as_text=True)))
    assert snapshot(app) == before


def test_the_new_game_form_takes_a_target_and_six_players(app: Flask, client: FlaskClient) -> None:
    six = [*FIVE, "Fábio"]
    game_id = start(client, six, target="500", first_dealer="5")
    game = game_of(app, game_id)
    assert (game.target, game.first_dealer, len(game.players)) == (500, 5, 6)
    assert "48 cartas, 8 a cada um" in page(client, game_id)
    response = client.post("/bidding/new", data={"player0": "A", "target": "49"}, headers=PT)
    assert response.status_code == 422


def test_a_hand_after_the_end_is_refused(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, FIVE[:4], target="61")
    record(client, game_id, bidder="0", bid="61", partner="0", action="made")
    text = page(client, game_id)
    assert "Ana ganhou o jogo com 61 pontos" in text
    assert "Próximo jogo, mesma mesa" in text and 'name="bidder"' not in text
    before = snapshot(app)
    response = record(client, game_id, action="passed")
    assert response.status_code == 302
    assert "já está ganho" in page(client, game_id)
    assert snapshot(app) == before
    # Next game, same table: the deal goes on; a second tap lands on the same game.
    first = client.post("/bidding", data={"previous": game_id})
    again = client.post("/bidding", data={"previous": game_id})
    assert first.headers["Location"] == again.headers["Location"]
    following = game_of(app, first.headers["Location"].rsplit("/", 1)[-1])
    assert following.previous_id == game_id and following.first_dealer == 1


def test_double_taps_and_stale_pages(app: Flask, client: FlaskClient) -> None:
    game_id = start(client)
    form = {"bidder": "0", "bid": "70", "partner": "1", "action": "made", "key": "tap"}
    form["version"] = version(app, game_id)
    record(client, game_id, **form)
    record(client, game_id, **form)
    assert game_of(app, game_id).hand_count == 1
    assert "Essa mão já estava registada" in page(client, game_id)
    stale = {**form, "key": "another"}
    record(client, game_id, **stale)
    assert game_of(app, game_id).hand_count == 1
    assert "Outra pessoa registou uma mão" in page(client, game_id)


def test_the_page_records_the_called_card_and_the_edit_page_changes_it(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, FIVE[:4])
    answer = record(
        client, game_id, bidder="0", bid="70", partner="2", action="made", called=" ah "
    )
    assert answer.status_code == 302
    state = client.get(f"/api/v1/bidding/{game_id}").get_json()
    assert state["hands"][0]["called"] == "AH"
    edit = client.get(f"/b/{game_id}/hands/1/edit", headers=PT).get_data(as_text=True)
    assert re.search(r'name="called"[^>]*value="AH"', edit), edit
    changed = client.post(
        f"/b/{game_id}/hands/1/edit",
        data={"bidder": "0", "bid": "70", "partner": "2", "action": "made", "called": "7s"},
    )
    assert changed.status_code == 302
    assert client.get(f"/api/v1/bidding/{game_id}").get_json()["hands"][0]["called"] == "7S"


@pytest.mark.parametrize(
    ("called", "said"), [("9C", "9C não é uma carta deste baralho."), ("XX", "XX não é")]
)
def test_a_called_card_not_in_the_deck_is_refused_on_the_page(
    app: Flask, client: FlaskClient, called: str, said: str
) -> None:
    game_id = start(client, FIVE[:4])
    before = snapshot(app)
    response = record(
        client, game_id, bidder="0", bid="70", partner="2", action="made", called=called
    )
    assert response.status_code == 422
    assert any(said in error for error in errors(response.get_data(as_text=True)))
    assert snapshot(app) == before


def test_undo_and_edit(app: Flask, client: FlaskClient) -> None:
    game_id = start(client, FIVE[:4], target="100")
    record(client, game_id, bidder="0", bid="70", partner="2", action="made")
    record(client, game_id, bidder="1", bid="61", partner="3", action="made")
    edit = client.get(f"/b/{game_id}/hands/1/edit", headers=PT)
    assert edit.status_code == 200
    text = edit.get_data(as_text=True)
    assert re.search(r'checked id="bidder-0"', text) and 'value="made" checked' in text
    changed = client.post(
        f"/b/{game_id}/hands/1/edit",
        data={"bidder": "0", "bid": "80", "partner": "alone", "points": "79", "action": "points"},
    )
    assert changed.status_code == 302
    assert game_of(app, game_id).scores == [-80, 141, 80, 141]
    before = snapshot(app)
    early = client.post(
        f"/b/{game_id}/hands/1/edit",
        data={"bidder": "0", "bid": "120", "partner": "alone", "action": "made"},
        headers=PT,
    )
    assert early.status_code == 422
    assert "acabaria o jogo" in " ".join(errors(early.get_data(as_text=True)))
    assert snapshot(app) == before
    assert client.get(f"/b/{game_id}/hands/3/edit").status_code == 404
    undone = client.post(f"/b/{game_id}/undo", data={"version": version(app, game_id)})
    assert undone.status_code == 302
    assert game_of(app, game_id).hand_count == 1
    client.post(f"/b/{game_id}/undo")
    client.post(f"/b/{game_id}/undo")
    assert "Não há nenhuma mão para anular" in page(client, game_id)


def test_the_follow_link_is_read_only_and_the_edit_link_grants(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client)
    text = page(client, game_id)
    edit_url = re.search(r'id="edit-url" readonly value="([^"]+)"', text)
    assert edit_url
    follower = app.test_client()
    seen = page(follower, game_id)
    assert 'name="bidder"' not in seen and "edit-url" not in seen
    assert f'data-follow="/api/v1/bidding/{game_id}"' in seen
    before = snapshot(app)
    assert record(follower, game_id, action="passed").status_code == 403
    assert follower.post(f"/b/{game_id}/undo").status_code == 403
    assert follower.get(f"/b/{game_id}/hands/1/edit").status_code == 403
    assert snapshot(app) == before
    assert follower.get(f"/b/{game_id}/edit/wrong").status_code == 404
    second = app.test_client()
    assert second.get(edit_url.group(1).replace("http://localhost", "")).status_code == 302
    assert 'name="bidder"' in page(second, game_id)
    assert record(second, game_id, action="passed").status_code == 302
    assert client.get("/b/nope").status_code == 404


def test_the_page_answers_304_to_its_etag(client: FlaskClient) -> None:
    game_id = start(client)
    client.get(f"/b/{game_id}")  # the flashed note, once
    first = client.get(f"/b/{game_id}")
    etag = first.headers["ETag"]
    assert client.get(f"/b/{game_id}", headers={"If-None-Match": etag}).status_code == 304
    record(client, game_id, action="passed")
    client.get(f"/b/{game_id}")
    assert client.get(f"/b/{game_id}", headers={"If-None-Match": etag}).status_code == 200


def test_the_history_lists_the_phone_s_games(client: FlaskClient) -> None:
    game_id = start(client)
    record(client, game_id, bidder="2", other_bid="75", partner="4", action="made")
    text = client.get("/history", headers=PT).get_data(as_text=True)
    assert f'href="/b/{game_id}"' in text
    assert "Ana 0 · Bruno 0 · Carla 75 · Duarte 0 · Eva 75" in text and "a decorrer" in text
    assert f'href="/b/{game_id}"' not in app_client_history(client)
    # A score under 0 has the minus sign the game page shows, in the history and the title.
    record(client, game_id, bidder="0", bid="90", partner="alone", points="85", action="points")
    text = client.get("/history", headers=PT).get_data(as_text=True)
    assert "Ana −90 · Bruno 90 · Carla 165 · Duarte 90 · Eva 165" in text
    title = re.search(r"<title>([^<]*)</title>", page(client, game_id))
    assert title and "Ana −90 ·" in title.group(1) and "-90" not in title.group(1)


def app_client_history(client: FlaskClient) -> str:
    other = client.application.test_client()
    return other.get("/history").get_data(as_text=True)


@pytest.mark.parametrize(
    ("accept", "words"),
    [
        ("pt-PT", ["Sueca com licitação", "Quem licitou", "Fez", "Não fez", "sozinho"]),
        ("pt-BR", ["Sueca com leilão", "Quem deu o lance", "Fez", "Não fez", "sozinho"]),
        ("en", ["Bidding Sueca", "Who bid", "Made it", "Failed", "alone (sozinho)"]),
    ],
)
def test_the_players_words_in_each_language(
    client: FlaskClient, accept: str, words: list[str]
) -> None:
    game_id = start(client)
    text = page(client, game_id, {"Accept-Language": accept})
    for word in words:
        assert word in text, word


def test_a_name_twice_is_refused_by_the_new_game_form(app: Flask, client: FlaskClient) -> None:
    """As the rubber's form does: two players called Ana could not be told apart on the chips."""
    before = snapshot(app)
    form = {f"player{seat}": name for seat, name in enumerate(["Ana", "Bruno", "ana", "Diego"])}
    refused = client.post("/bidding/new", data=form, headers=PT)
    assert refused.status_code == 422
    assert errors(refused.get_data(as_text=True)) == [
        "ana está à mesa duas vezes: cada jogador precisa de um nome só seu."
    ]
    assert snapshot(app) == before


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("pt-PT", "119 é impossível: os outros ficariam com 1 ponto"),
        ("pt-BR", "119 é impossível: os outros ficariam com 1 ponto"),
        ("en", "119 is impossible: the others would have 1 point"),
    ],
)
def test_bidding_speaks_of_the_others_not_of_a_pair(
    client: FlaskClient, language: str, said: str
) -> None:
    """Bidding Sueca has no pairs: the side against the bidder is "the others", as on its page."""
    game_id = start(client)
    form = {"bidder": "0", "bid": "70", "partner": "1", "points": "119", "action": "points"}
    text = client.post(
        f"/b/{game_id}/hands", data=form, headers={"Accept-Language": language}
    ).get_data(as_text=True)
    assert said in text
    assert "dupla" not in text and "equipa" not in text and "other team" not in text


def test_a_tie_at_the_top_past_the_target_says_why_the_game_goes_on(
    app: Flask, client: FlaskClient
) -> None:
    game_id = start(client, FIVE[:4], target="61")
    answer = record(
        client, game_id, bidder="0", bid="70", partner="1", points="30", action="points"
    )
    assert answer.status_code == 302
    assert game_of(app, game_id).scores == [-70, -70, 70, 70]
    text = page(client, game_id)
    assert not game_of(app, game_id).finished
    assert "Carla e Duarte empatam com 70, atingido o objetivo de 61: o jogo continua até " in text
    english = page(client, game_id, {"Accept-Language": "en"})
    assert "Carla and Duarte are tied on 70, the target of 61 reached: the game goes on " in (
        english
    )


def test_the_scorers_page_keeps_its_hands_in_the_rubbers_queue(
    app: Flask, client: FlaskClient
) -> None:
    """bidding.js gives hands.js its pieces before hands.js runs; a follower gets neither queue."""
    game_id = start(client)
    text = page(client, game_id)
    scripts = re.findall(r'<script defer src="/static/(\w+\.js)', text)
    assert scripts[-2:] == ["bidding.js", "hands.js"]
    for piece in ("data-pending-list", "data-sent", "data-resend", "data-msg-undo-offline"):
        assert piece in text, piece
    assert 'data-msg-choose="' in text and f'href="/b/{game_id}"' in text
    seen = page(app.test_client(), game_id)
    assert "bidding.js" in seen and "hands.js" not in seen and "data-pending" not in seen


@pytest.mark.parametrize(
    ("accept", "line"),
    [
        ("pt-PT", "Camila licitou 70 sem parceiro: fez (75)"),
        ("pt-BR", "Camila deu lance de 70 sem parceiro: fez (75)"),
        ("en", "Camila bid 70 alone: made it (75)"),
    ],
)
def test_a_hand_played_alone_is_said_without_a_gender(
    client: FlaskClient, accept: str, line: str
) -> None:
    """ "sozinho" would make Camila a man: the line says the hand, not the player."""
    game_id = start(client, ["Camila", "Bruno", "Carla", "Duarte", "Eva"])
    form = {"bidder": "0", "bid": "70", "partner": "alone", "points": "75", "action": "points"}
    answer = client.post(f"/b/{game_id}/hands", data=form, headers={"Accept-Language": accept})
    assert answer.status_code == 302
    text = page(client, game_id, {"Accept-Language": accept})
    assert line in text
