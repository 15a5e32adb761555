"""The organizer's corrections on the page: asked first, said once done, and each one undone.

A withdrawal and a walkover are confirmed on a page of their own (as a revoke is), the page then
says what was done and offers the undo; a Swiss's last round is undrawn while none of its matches
has a hand, and a late pair is added while its last round is not drawn (issue 42, items 5, 9, 10).
"""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask import Flask
from flask.testing import FlaskClient

PASTED = "Ana e Bruno\nCarla / Duarte\nOs Primos: Eva, Filipe\nGil & Helena\n"
"""Four pairs; a Swiss's round 1 is 1-3 (table 1) and 2-4 (table 2)."""


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def start(client: FlaskClient, **fields: str) -> str:
    data = {"name": "Torneio da Tasca", "format": "swiss", "rounds": "3", "pairs": PASTED}
    response = client.post("/t/new", data={**data, **fields})
    assert response.status_code == 302, unescape(response.get_data(as_text=True))[-3000:]
    return str(response.location.rsplit("/", 1)[-1])


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def page(client: FlaskClient, tournament_id: str) -> str:
    return client.get(f"/t/{tournament_id}").get_data(as_text=True)


def state(client: FlaskClient, tournament_id: str) -> dict:
    return client.get(f"/api/v1/tournaments/{tournament_id}").get_json()


def match(client: FlaskClient, tournament_id: str, round_number: int, table: int) -> dict:
    (found,) = [
        m
        for m in state(client, tournament_id)["rounds"][round_number - 1]["matches"]
        if m["table"] == table
    ]
    return found


def notes(html: str) -> list[str]:
    return [text(note) for note in re.findall(r'<p class="note [^"]*"[^>]*>(.*?)</p>', html)]


def test_a_withdrawal_is_asked_first_then_said_marked_and_undone(en: FlaskClient) -> None:
    tournament_id = start(en)
    asked = en.post(f"/t/{tournament_id}/pairs/3/withdraw")
    assert asked.status_code == 200
    question = asked.get_data(as_text=True)
    assert "Os Primos withdraw?" in text(question)
    assert 'name="confirm" value="withdraw"' in question
    assert f'href="/t/{tournament_id}"' in question  # "No": back, nothing done
    assert [pair["withdrawn"] for pair in state(en, tournament_id)["pairs"]][2] is False

    done = en.post(f"/t/{tournament_id}/pairs/3/withdraw", data={"confirm": "withdraw"})
    assert done.status_code == 302
    shown = page(en, tournament_id)
    assert (
        "Os Primos withdraw: the matches they still had to play are won by the other pair."
        in notes(shown)
    )
    assert state(en, tournament_id)["pairs"][2]["withdrawn"] is True
    standings = text(shown.split('id="standings-heading"')[1])
    assert "Os Primos (withdrew)" in standings
    for address in ("tv", "print"):
        other = en.get(f"/t/{tournament_id}/{address}").get_data(as_text=True)
        assert "Os Primos (withdrew)" in text(other), address
    assert f'action="/t/{tournament_id}/pairs/3/reinstate"' in shown
    assert "Undo the withdrawal" in text(shown)

    undone = en.post(f"/t/{tournament_id}/pairs/3/reinstate")
    assert undone.status_code == 302
    shown = page(en, tournament_id)
    assert "Withdrawal undone: Os Primos play on." in notes(shown)
    assert "(withdrew)" not in text(shown)
    assert state(en, tournament_id)["pairs"][2]["withdrawn"] is False
    again = en.post(f"/t/{tournament_id}/pairs/3/reinstate")
    assert again.status_code == 302
    assert "Pair 3 has not withdrawn." in notes(page(en, tournament_id))


def test_the_withdrawal_is_said_in_the_players_words(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-PT"
    tournament_id = start(client)
    asked = text(client.post(f"/t/{tournament_id}/pairs/3/withdraw").get_data(as_text=True))
    assert "Os Primos desistem?" in asked and "Sim, desistem" in asked
    client.post(f"/t/{tournament_id}/pairs/3/withdraw", data={"confirm": "withdraw"})
    shown = page(client, tournament_id)
    assert "Os Primos desistem: os encontros que lhes faltam são ganhos pela outra dupla." in notes(
        shown
    )
    assert "Os Primos (desistiram)" in text(shown)
    assert "Anular a desistência" in text(shown)
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    assert "Anular a desistência" in text(page(client, tournament_id))


def test_a_walkover_is_asked_first_then_said_and_undone(en: FlaskClient) -> None:
    tournament_id = start(en)
    walkover = f"/t/{tournament_id}/rounds/1/tables/1/walkover"
    asked = en.post(walkover, data={"winner": "1"})
    assert asked.status_code == 200
    question = asked.get_data(as_text=True)
    assert "Round 1 · Table 1: Os Primos did not come?" in text(question)
    assert 'name="confirm" value="walkover"' in question and 'name="winner" value="1"' in question
    assert match(en, tournament_id, 1, 1)["walkover"] is False

    en.post(walkover, data={"winner": "1", "confirm": "walkover"})
    shown = page(en, tournament_id)
    assert "Walkover at table 1 of round 1: Ana & Bruno win." in notes(shown)
    assert match(en, tournament_id, 1, 1)["walkover"] is True
    assert f'action="{walkover}/undo"' in shown and "Undo the walkover" in text(shown)

    assert en.post(f"{walkover}/undo").status_code == 302
    shown = page(en, tournament_id)
    assert "Walkover undone: the match at table 1 of round 1 is in play again." in notes(shown)
    assert match(en, tournament_id, 1, 1)["walkover"] is False
    assert "Undo the walkover" not in text(shown)
    en.post(f"{walkover}/undo")
    assert "There is no walkover at this match to undo." in notes(page(en, tournament_id))


def test_a_walkover_is_said_w_o_in_brazil(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-BR"
    tournament_id = start(client)
    walkover = f"/t/{tournament_id}/rounds/1/tables/1/walkover"
    client.post(walkover, data={"winner": "1", "confirm": "walkover"})
    shown = page(client, tournament_id)
    assert "W.O. na mesa 1 da rodada 1: vencem Ana & Bruno." in notes(shown)
    assert "Anular o W.O." in text(shown)


def walk_over_round(client: FlaskClient, tournament_id: str, number: int) -> None:
    for found in state(client, tournament_id)["rounds"][number - 1]["matches"]:
        if found["pairs"][1] is not None and not found["winner"]:
            client.post(
                f"/t/{tournament_id}/rounds/{number}/tables/{found['table']}/walkover",
                data={"winner": str(found["pairs"][0]), "confirm": "walkover"},
            )


def test_the_last_swiss_round_is_undrawn_while_none_of_its_matches_has_a_hand(
    en: FlaskClient,
) -> None:
    tournament_id = start(en)
    assert "Undo the draw of round" not in text(page(en, tournament_id))
    walk_over_round(en, tournament_id, 1)
    en.post(f"/t/{tournament_id}/rounds")
    shown = page(en, tournament_id)
    assert "Undo the draw of round 2" in text(shown)
    assert f'action="/t/{tournament_id}/rounds/2/undraw"' in shown

    en.post(f"/t/{tournament_id}/rounds/1/undraw")
    assert "Only the last round drawn, round 2, can be undrawn." in notes(page(en, tournament_id))
    assert en.post(f"/t/{tournament_id}/rounds/2/undraw").status_code == 302
    shown = page(en, tournament_id)
    assert "Round 2 undrawn: correct what you need, then draw it again." in notes(shown)
    assert len(state(en, tournament_id)["rounds"]) == 1
    assert "Draw round 2" in text(shown)

    # Drawn again, a hand at table 1: the round stays, and the page no longer offers to undraw.
    en.post(f"/t/{tournament_id}/rounds")
    shown = page(en, tournament_id)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', shown)[0]
    table = en.application.test_client()
    rubber_id = table.get(link).location.rsplit("/", 1)[-1]
    recorded = table.post(f"/r/{rubber_id}/hands", data={"points": "70", "team": "0"})
    assert recorded.status_code == 302, text(recorded.get_data(as_text=True))[-1500:]
    assert "Undo the draw of round" not in text(page(en, tournament_id))
    en.post(f"/t/{tournament_id}/rounds/2/undraw")
    assert "Round 2 has a match with a hand already: it can no longer be undrawn." in notes(
        page(en, tournament_id)
    )
    assert len(state(en, tournament_id)["rounds"]) == 2


def test_a_late_pair_joins_a_swiss_from_the_organizers_page(en: FlaskClient) -> None:
    tournament_id = start(en)
    shown = page(en, tournament_id)
    assert f'action="/t/{tournament_id}/pairs"' in shown and "A late pair" in text(shown)
    refused = en.post(f"/t/{tournament_id}/pairs", data={"player0": "Rui", "player1": "ana"})
    assert refused.status_code == 302
    assert "ana is in two pairs: a player plays in one pair only." in notes(page(en, tournament_id))
    assert len(state(en, tournament_id)["pairs"]) == 4

    added = en.post(
        f"/t/{tournament_id}/pairs", data={"player0": "Rui", "player1": "Sara", "name": ""}
    )
    assert added.status_code == 302
    shown = page(en, tournament_id)
    assert "Rui & Sara join the tournament: they are drawn from the next round." in notes(shown)
    pairs = state(en, tournament_id)["pairs"]
    assert pairs[-1]["number"] == 5 and pairs[-1]["players"] == ["Rui", "Sara"]
    named = en.post(
        f"/t/{tournament_id}/pairs",
        data={"player0": "Tó", "player1": "Zé", "name": "Os Atrasados"},
    )
    assert named.status_code == 302
    assert state(en, tournament_id)["pairs"][-1]["name"] == "Os Atrasados"

    for number in (1, 2):
        walk_over_round(en, tournament_id, number)
        en.post(f"/t/{tournament_id}/rounds")
    assert len(state(en, tournament_id)["rounds"]) == 3
    shown = page(en, tournament_id)
    assert "A late pair" not in text(shown)
    en.post(f"/t/{tournament_id}/pairs", data={"player0": "Vera", "player1": "Xana"})
    assert "Only a Swiss tournament takes a late pair, before its last round is drawn." in notes(
        page(en, tournament_id)
    )


def test_a_knockout_offers_neither_a_late_pair_nor_an_undraw(en: FlaskClient) -> None:
    tournament_id = start(en, format="knockout", rounds="")
    shown = text(page(en, tournament_id))
    assert "A late pair" not in shown and "Undo the draw" not in shown


def test_the_tables_phone_sees_no_corrections(en: FlaskClient) -> None:
    tournament_id = start(en)
    en.post(f"/t/{tournament_id}/pairs/3/withdraw", data={"confirm": "withdraw"})
    other = en.application.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    shown = other.get(f"/t/{tournament_id}").get_data(as_text=True)
    assert "Os Primos (withdrew)" in text(shown)
    assert "Undo the withdrawal" not in text(shown) and "A late pair" not in text(shown)
    for address in (
        "pairs/3/reinstate",
        "pairs",
        "rounds/1/undraw",
        "rounds/1/tables/2/walkover/undo",
    ):
        assert other.post(f"/t/{tournament_id}/{address}").status_code == 403, address


# A rubber kept on paper (issue 42, item 11) -----------------------------------------------------


def paper_box(html: str, table: int) -> str:
    """The match's item on the organizer's page, from its table up to the next match."""
    item = html.split(f'<li data-table="{table}">', 1)[1].split("</li>", 1)[0]
    return item


def test_a_table_that_kept_paper_gives_its_games_from_the_page(en: FlaskClient) -> None:
    tournament_id = start(en)
    box = paper_box(page(en, tournament_id), 1)
    assert "The table kept the score on paper" in text(box)
    assert "Games of Ana & Bruno" in text(box) and "Games of Os Primos" in text(box)
    done = en.post(
        f"/t/{tournament_id}/rounds/1/tables/1/result", data={"games0": "1", "games1": "4"}
    )
    assert done.status_code == 302
    shown = page(en, tournament_id)
    assert (
        "Round 1 · Table 1: the rubber kept on paper counts, Ana & Bruno 1 – 4 Os Primos."
        in notes(shown)
    )
    decided = match(en, tournament_id, 1, 1)
    assert (decided["wins"], decided["winner"]) == ([0, 1], 3)
    # Decided: the page offers no paper, no walkover, no table link for it any more.
    assert "The table kept the score on paper" not in text(paper_box(shown, 1))
    rubber = en.get(f"/api/v1/rubbers/{decided['rubbers'][0]}").get_json()
    assert (rubber["paper_games"], rubber["hands"]) == ([1, 4], [])
    # The rubber's own page says it was kept on paper, and draws its cross.
    rubber_page = text(en.get(f"/r/{rubber['id']}").get_data(as_text=True))
    assert "Kept on paper: the games were given without their hands." in rubber_page
    # The organizer takes it back from the tournament's page: the match is in play again.
    assert "Take back the result kept on paper (1 – 4)" in text(paper_box(shown, 1))
    taken = en.post(f"/t/{tournament_id}/rounds/1/tables/1/result/undo")
    assert taken.status_code == 302
    shown = page(en, tournament_id)
    assert (
        "Round 1 · Table 1: the result kept on paper is taken back, the rubber is in play again."
        in notes(shown)
    )
    assert match(en, tournament_id, 1, 1)["winner"] is None
    assert "The table kept the score on paper" in text(paper_box(shown, 1))
    again = en.post(f"/t/{tournament_id}/rounds/1/tables/1/result/undo")
    assert again.status_code == 302
    assert "No rubber of this match was kept on paper." in notes(page(en, tournament_id))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"games0": "4", "games1": "4"}, "A rubber kept on paper ends with one team on 4 games"),
        ({"games0": "3", "games1": "1"}, "A rubber kept on paper ends with one team on 4 games"),
        ({"games0": "", "games1": "4"}, "Type the games each pair made on the paper."),
        ({"games0": "quatro", "games1": "1"}, "Type the games each pair made on the paper."),
        ({"games0": "100", "games1": "1"}, "Type a whole number from 0 to 99."),
    ],
)
def test_games_no_rubber_ends_with_are_said_and_nothing_is_stored(
    en: FlaskClient, data: dict[str, str], said: str
) -> None:
    tournament_id = start(en)
    refused = en.post(f"/t/{tournament_id}/rounds/1/tables/1/result", data=data)
    assert refused.status_code == 302
    shown = notes(page(en, tournament_id))
    assert any(note.startswith(said) for note in shown), shown
    unplayed = match(en, tournament_id, 1, 1)
    assert (unplayed["wins"], unplayed["winner"]) == ([0, 0], None)
    rubber = en.get(f"/api/v1/rubbers/{unplayed['rubbers'][0]}").get_json()
    assert (rubber["paper_games"], rubber["finished"]) == (None, False)


def test_a_rubber_with_a_hand_is_not_given_on_paper(en: FlaskClient) -> None:
    tournament_id = start(en)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page(en, tournament_id))[0]
    table = en.application.test_client()
    rubber_id = table.get(link).location.rsplit("/", 1)[-1]
    assert rubber_id == match(en, tournament_id, 1, 1)["rubbers"][0]
    recorded = table.post(f"/r/{rubber_id}/hands", data={"points": "70", "team": "0"})
    assert recorded.status_code == 302
    assert "The table kept the score on paper" not in text(paper_box(page(en, tournament_id), 1))
    refused = en.post(
        f"/t/{tournament_id}/rounds/1/tables/1/result", data={"games0": "4", "games1": "0"}
    )
    assert refused.status_code == 302
    assert (
        "The rubber in play at this match has hands already: its result is in them, not on paper."
        in notes(page(en, tournament_id))
    )
    assert match(en, tournament_id, 1, 1)["winner"] is None


def test_only_the_organizer_gives_a_result_kept_on_paper(en: FlaskClient, app: Flask) -> None:
    tournament_id = start(en)
    stranger = app.test_client()
    assert "The table kept the score on paper" not in stranger.get(f"/t/{tournament_id}").get_data(
        as_text=True
    )
    refused = stranger.post(
        f"/t/{tournament_id}/rounds/1/tables/1/result", data={"games0": "4", "games1": "0"}
    )
    assert refused.status_code == 403
    assert match(en, tournament_id, 1, 1)["winner"] is None
