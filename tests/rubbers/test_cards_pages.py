"""Card entry through the test client: count a pile, replay the tricks, check a melar hand.

Every number here comes from the engine; the pages only carry the cards and show its answer.
"""

from __future__ import annotations

import html as html_lib
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.rubbers.models import Hand, Rubber
from tests.support.records import FULL_RECORD

WINNERS = [1, 1, 3, 3, 3, 0, 2, 2, 3, 2]
TRICK_POINTS = [24, 6, 11, 11, 17, 16, 11, 19, 3, 2]
SEATS = ["Seat 1", "Seat 2", "Seat 3", "Seat 4"]
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def start(client: FlaskClient, **fields: str) -> str:
    """Start a rubber (seat 1, index 0, deals the first hand: index 1 leads) and return its page."""
    response = client.post("/rubbers/new", data={"first_dealer": "0", **fields})
    assert response.status_code == 302, response.get_data(as_text=True)
    return response.location


def text(response: object) -> str:
    return html_lib.unescape(response.get_data(as_text=True))  # type: ignore[attr-defined]


def errors_for(html: str, card: str) -> list[str]:
    return re.findall(rf'data-error-for="{re.escape(card)}"[^>]*>([^<]*)<', html)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}" type="hidden" value="([^"]*)"', html)
    assert found, name
    return found.group(1)


def joined(tricks: list[list[str]]) -> str:
    return "|".join(" ".join(trick) for trick in tricks)


def play(
    client: FlaskClient, page: str, cards: list[str], record: str = "", **fields: str
) -> tuple[str, str]:
    """Tap the cards one by one, as the page's buttons post them.

    Return the last page and the record it carries."""
    html = ""
    for card in cards:
        response = client.post(
            page + "/replay", data={"trump": "H", "record": record, "card": card, **fields}
        )
        assert response.status_code == 200, (card, response.get_data(as_text=True))
        html = text(response)
        record = hidden(html, "record")
    return html, record


def stored(app: Flask, page: str) -> list[Hand]:
    with app.app_context():
        rows = list(
            db.session.execute(
                db.select(Hand)
                .where(Hand.rubber_id == page.rsplit("/", 1)[-1])
                .order_by(Hand.number)
            ).scalars()
        )
        for row in rows:
            db.session.expunge(row)
        return rows


def games(app: Flask, page: str) -> tuple[int, int]:
    with app.app_context():
        rubber = db.session.get(Rubber, page.rsplit("/", 1)[-1])
        assert rubber is not None
        return rubber.games0, rubber.games1


# The way in -------------------------------------------------------------------------------


def test_the_hand_form_offers_both_ways_in(en: FlaskClient) -> None:
    page = start(en)
    html = text(en.get(page))
    assert f'href="{page}/count"' in html and "Count a pile" in html
    assert f'href="{page}/replay"' in html and "Replay the tricks" in html
    assert f"{page}/melar" not in html  # the melar check only where melar is on
    brasil = start(en, preset="brasil")
    assert f'href="{brasil}/melar"' in text(en.get(brasil))


# Count a pile -----------------------------------------------------------------------------


def grid_cards(html: str) -> list[str]:
    return re.findall(r'<label class="card-cell toggle[^"]*" data-card="([^"]+)"', html)


def points_of(html: str) -> dict[str, int]:
    return {
        card: int(points)
        for card, points in re.findall(r'value="([^"]+)" data-points="(\d+)"', html)
    }


def test_the_grid_is_the_40_cards_in_rank_order(en: FlaskClient) -> None:
    html = text(en.get(start(en) + "/count"))
    ranks = ["A", "7", "K", "J", "Q", "6", "5", "4", "3", "2"]
    assert grid_cards(html) == [rank + suit for suit in "SHCD" for rank in ranks]
    values = points_of(html)
    assert (values["AS"], values["7H"], values["KC"], values["JD"], values["QS"]) == (
        11,
        10,
        4,
        3,
        2,
    )
    assert sum(values.values()) == 120
    # The counting cards are the large ones; the blanks are small.
    assert re.search(r'class="card-cell toggle suit-S counting" data-card="AS"', html)
    assert re.search(r'class="card-cell toggle suit-S blank" data-card="6S"', html)


def test_the_azores_and_queen_over_jack_change_the_grid_and_the_values(en: FlaskClient) -> None:
    html = text(en.get(start(en, preset="acores", queen_over_jack="yes") + "/count"))
    ranks = ["A", "10", "K", "Q", "J", "6", "5", "4", "3", "2"]
    assert grid_cards(html) == [rank + suit for suit in "SHCD" for rank in ranks]
    values = points_of(html)
    assert "7H" not in values
    assert (values["10H"], values["QS"], values["JS"]) == (10, 3, 2)
    assert sum(values.values()) == 120


def test_a_pile_is_counted_by_the_server(en: FlaskClient) -> None:
    page = start(en)
    response = en.get(page + "/count?team=1&cards=AS&cards=7S&cards=KH&cards=2C")
    assert response.status_code == 200
    html = text(response)
    assert re.search(r"data-total>25<", html)
    assert re.search(r"data-other>95<", html)
    assert re.search(r'name="team" value="1" checked', html)
    for card in ("AS", "7S", "KH", "2C"):
        assert re.search(rf'value="{card}" data-points="\d+" checked', html)


def test_a_card_cannot_be_counted_twice_and_an_unknown_card_is_named(en: FlaskClient) -> None:
    page = start(en)
    response = en.get(page + "/count?cards=AS&cards=7S&cards=AS&cards=ZZ")
    assert response.status_code == 422
    html = text(response)
    assert errors_for(html, "AS") == ["A♠: A♠ is picked twice: a card counts once."]
    assert errors_for(html, "ZZ") == [
        "ZZ is not a card: type the rank then the suit, like 7H (7♥)."
    ]
    assert re.search(r"data-total>21<", html)  # each card counted once
    # "Use these points" with a problem does not leave the page.
    assert en.get(page + "/count?cards=AS&cards=AS&action=use").status_code == 422


def test_clear_starts_again(en: FlaskClient) -> None:
    html = text(en.get(start(en) + "/count?cards=AS&cards=7S&action=clear"))
    assert re.search(r"data-total>0<", html)
    assert " checked" not in html.replace('value="0" checked', "")


def test_the_counted_pile_fills_the_hand_form_for_the_person_to_confirm(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    response = en.get(page + "/count?team=1&cards=AS&cards=7S&cards=KH&cards=2C&action=use")
    assert response.status_code == 302
    assert response.location == page + "?points=25&team=1#record"
    html = text(en.get(response.location))
    assert re.search(r'name="points"[^>]*value="25"', html)
    assert re.search(r'name="team" type="radio" value="1"', html)
    assert re.search(r'checked id="team-1"|id="team-1"[^>]*checked', html)
    assert stored(app, page) == []  # nothing is stored until the person records it
    en.post(page + "/hands", data={"action": "points", "team": "1", "points": "25"})
    assert [(h.points0, h.points1, h.tricks) for h in stored(app, page)] == [(95, 25, None)]
    assert games(app, page) == (2, 0)


def test_impossible_prefill_is_ignored(en: FlaskClient) -> None:
    page = start(en)
    html = text(en.get(page + "?points=999&team=7"))
    assert re.search(r'name="points"[^>]*value=""', html)


# Replay the tricks ------------------------------------------------------------------------


def test_the_replay_starts_with_the_trump_and_knows_who_leads(en: FlaskClient) -> None:
    page = start(en)
    html = text(en.get(page + "/replay"))
    assert "Hand 1: Seat 1 deals, Seat 2 leads the first trick." in html
    assert 'name="set_trump" value="H"' in html
    html = text(en.post(page + "/replay", data={"set_trump": "H"}))
    assert 'data-trump="H"' in html
    assert "Seat 2 leads trick 1." in html
    assert len(re.findall(r'<button type="submit" name="card" value="', html)) == 40
    # A card before the trump is asked for the trump, not taken.
    response = en.post(page + "/replay", data={"card": "AS"})
    assert response.status_code == 422
    assert "Choose the trump first." in text(response)


def test_a_full_hand_trick_by_trick_then_confirmed_and_stored(app: Flask, en: FlaskClient) -> None:
    page = start(en)
    record = ""
    for number, trick in enumerate(FULL_RECORD, start=1):
        html, record = play(en, page, trick, record)
        results = re.findall(r'class="trick-result" data-winner="(\d)">([^<]*)<', html)
        assert len(results) == number
        winner, sentence = results[-1]
        assert int(winner) == WINNERS[number - 1]
        who = SEATS[WINNERS[number - 1]]
        points = TRICK_POINTS[number - 1]
        if number < 10:
            assert sentence == f"{who} wins, {points} points, and leads trick {number + 1}."
            # The next trick's status says it again, above the grid (issue 25, item 14).
            assert f'data-last-trick="{number}">{sentence}</p>' in html
        else:
            assert sentence == f"{who} wins, {points} points."
        # Cards already played are greyed out and cannot be tapped again.
        for card in trick:
            assert re.search(
                rf'value="{card}" class="card-cell[^"]* played"[^>]*disabled', html
            ) or (number == 10)
    assert record == joined(FULL_RECORD)
    assert re.search(r'data-points="0">48<.*data-points="1">72<', html, re.S)
    assert "The hand is complete" in html
    assert stored(app, page) == []

    response = en.post(page + "/replay/confirm", data={"trump": "H", "record": record})
    assert response.status_code == 200
    html = text(response)
    assert re.search(r"data-points>48 – 72<", html)
    assert "72 → 1 game" in html
    assert "Tricks (vazas): 4 – 6" in html
    key, version = hidden(html, "key"), hidden(html, "version")
    assert stored(app, page) == []

    response = en.post(
        page + "/replay/save",
        data={"trump": "H", "record": record, "key": key, "version": version},
    )
    assert response.status_code == 302 and response.location == page
    [hand] = stored(app, page)
    assert (hand.kind, hand.points0, hand.points1, hand.all_tricks) == ("played", 48, 72, False)
    assert hand.trump == "H"
    assert hand.tricks == FULL_RECORD
    assert games(app, page) == (0, 1)
    assert "72 → 1 game" in text(en.get(page))

    # The same confirmation sent again (a double tap) records nothing more.
    en.post(
        page + "/replay/save",
        data={"trump": "H", "record": record, "key": key, "version": version},
    )
    assert len(stored(app, page)) == 1


def test_the_hand_page_shows_the_stored_record_trick_by_trick(en: FlaskClient) -> None:
    page = start(en)
    save_record(en, page, joined(FULL_RECORD))
    html = text(en.get(page + "/hands/1"))
    tricks = re.findall(r'<li data-trick="(\d+)">(.*?)</li>', html, re.S)
    assert [int(number) for number, _body in tricks] == list(range(1, 11))
    for (_number, body), trick, winner, points in zip(
        tricks, FULL_RECORD, WINNERS, TRICK_POINTS, strict=True
    ):
        faces = re.findall(r'class="card suit-\w"[^>]*>([^<]+)<', body)
        assert faces == [card[:-1] + SYMBOLS[card[-1]] for card in trick]  # shown as printed
        assert f"won by {SEATS[winner]}, {points} points" in body
    assert "Seat 2 leads:" in tricks[0][1]


def save_record(client: FlaskClient, page: str, record: str, trump: str = "H") -> str:
    response = client.post(page + "/replay/confirm", data={"trump": trump, "record": record})
    assert response.status_code == 200, response.get_data(as_text=True)
    html = text(response)
    response = client.post(
        page + "/replay/save",
        data={
            "trump": trump,
            "record": record,
            "key": hidden(html, "key"),
            "version": hidden(html, "version"),
        },
    )
    assert response.status_code == 302, response.get_data(as_text=True)
    return html


def test_a_card_twice_is_refused_beside_it_and_the_tricks_are_kept(en: FlaskClient) -> None:
    page = start(en)
    _html, record = play(en, page, FULL_RECORD[0] + ["KS"])
    response = en.post(page + "/replay", data={"trump": "H", "record": record, "card": "AS"})
    assert response.status_code == 422
    html = text(response)
    assert errors_for(html, "AS") == ["A♠: A♠ was already played in trick 1."]
    assert 'data-refused="AS"' in html
    assert hidden(html, "record") == record  # nothing lost, nothing added


def test_an_unknown_card_is_refused_beside_it_and_the_tricks_are_kept(en: FlaskClient) -> None:
    page = start(en)
    _html, record = play(en, page, FULL_RECORD[0])
    # Typed cards: the good ones go in, the first bad one stops and is named.
    response = en.post(
        page + "/replay",
        data={"trump": "H", "record": record, "action": "type", "typed": "ks 3s ZZ QS"},
    )
    assert response.status_code == 422
    html = text(response)
    assert errors_for(html, "ZZ") == [
        "ZZ: ZZ is not a card: type the rank then the suit, like 7H (7♥)."
    ]
    assert hidden(html, "record") == joined([FULL_RECORD[0], ["KS", "3S"]])
    # A card of another deck (the 10 outside the Azores) is refused too.
    response = en.post(page + "/replay", data={"trump": "H", "record": record, "card": "10S"})
    assert errors_for(text(response), "10S") == ["10♠: 10♠ is not in this deck."]
    assert hidden(text(response), "record") == record


def test_a_record_sent_with_a_problem_shows_it_beside_the_card(en: FlaskClient) -> None:
    page = start(en)
    record = joined([FULL_RECORD[0], ["KS", "3S", "AS", "4S"]])
    response = en.post(page + "/replay", data={"trump": "H", "record": record})
    html = text(response)
    assert errors_for(html, "AS") == ["A♠: A♠ was already played in trick 1."]
    assert hidden(html, "record") == record
    response = en.post(page + "/replay/confirm", data={"trump": "H", "record": record})
    assert response.status_code == 422
    assert "Correct the cards marked in red first." in text(response)


# Seat 2 (index 1) leads spades; seat 3 (index 2) trumps instead of following: it has no spades,
# or it is a revoke. When seat 3 later plays a spade, the record proves the revoke.
REVOKE_TRICKS = [["AS", "2H", "7S", "JS"], ["3S", "KS", "QS", "4S"]]


def test_a_card_the_record_proves_illegal_is_flagged_at_once(en: FlaskClient) -> None:
    page = start(en)
    html, record = play(en, page, REVOKE_TRICKS[0] + ["3S"])
    # Seat 3 won trick 1 with the 2 of hearts and leads trick 2 with a spade: flagged before
    # the trick is even finished, the card kept where it was played.
    assert record == joined([REVOKE_TRICKS[0], ["3S"]])
    [note] = errors_for(html, "3S")
    assert note == (
        "3♠: Seat 3 may not hold spades: they did not follow it in trick 1. "
        "This card proves a revoke (renúncia)."
    )
    assert "data-flagged" in html and "Finish this trick to record it." in html
    assert "did not follow spades here: a revoke (renúncia), proven in trick 2." in html


def test_a_proven_revoke_stops_the_hand_and_is_recorded_against_the_team(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    html, record = play(en, page, [card for trick in REVOKE_TRICKS for card in trick])
    revoke = (
        "Revoke (renúncia) by Nós: Seat 3 did not follow spades in trick 1, "
        "and played spades in trick 2."
    )
    assert re.search(r"data-revoke>([^<]*)<", html).group(1) == revoke  # type: ignore[union-attr]
    assert 'name="card" value=' not in html  # the hand stopped: no more cards to tap
    response = en.post(page + "/replay", data={"trump": "H", "record": record, "card": "5S"})
    assert response.status_code == 422
    assert "The hand stops at the revoke: record it, or correct the tricks." in text(response)

    confirm = save_record(en, page, record)
    assert revoke in confirm
    assert "Revoke (renúncia) by Nós: Eles mark 2 games" in re.sub(r"<[^>]+>", "", confirm)
    [hand] = stored(app, page)
    assert (hand.kind, hand.team, hand.points0) == ("revoke", 0, None)
    assert hand.tricks == REVOKE_TRICKS
    assert games(app, page) == (0, 2)
    assert revoke in text(en.get(page + "/hands/1"))


def test_the_turned_card_played_by_another_seat_is_refused(en: FlaskClient) -> None:
    page = start(en)
    # Seat 1 (index 0) deals and turned the 7 of hearts: seat 4 (index 3) cannot play it.
    record = joined(FULL_RECORD[:4])
    response = en.post(
        page + "/replay",
        data={"trump": "H", "trump_card": "7H", "record": record, "card": "7H"},
    )
    assert response.status_code == 422
    html = text(response)
    assert errors_for(html, "7H") == [
        "7♥: The turned card 7♥ belongs to the dealer, but another seat played it."
    ]
    assert hidden(html, "record") == record
    # A turned card of another suit than trump is named beside the turned card.
    html = text(en.post(page + "/replay", data={"trump": "H", "trump_card": "7S"}))
    assert 'id="trump-card-error">The turned card 7♠ is not of the trump suit.<' in html
    # The turned card alone sets the trump.
    html = text(en.post(page + "/replay", data={"trump_card": "KC", "action": "trump"}))
    assert 'data-trump="C"' in html


def test_a_trick_is_corrected_before_the_hand_is_saved(en: FlaskClient) -> None:
    page = start(en)
    html, record = play(en, page, ["AS", "2S", "7S", "QS"] + ["KS"])
    assert "Seat 2 wins, 23 points, and leads trick 2." in html
    # Tap the wrong card in trick 1, then the right one.
    html = text(en.post(page + "/replay", data={"trump": "H", "record": record, "pick": "1.4"}))
    assert hidden(html, "replace") == "1.4"
    assert "Tap the card that goes in place of Q♠." in html
    response = en.post(
        page + "/replay", data={"trump": "H", "record": record, "replace": "1.4", "card": "JS"}
    )
    html = text(response)
    assert hidden(html, "record") == joined([FULL_RECORD[0], ["KS"]])
    assert hidden(html, "replace") == ""
    assert "Seat 2 wins, 24 points, and leads trick 2." in html
    record = hidden(html, "record")
    # A replacement the engine refuses keeps the record and says why, beside the card.
    response = en.post(
        page + "/replay", data={"trump": "H", "record": record, "replace": "1.2", "card": "AS"}
    )
    assert response.status_code == 422
    assert errors_for(text(response), "AS") == ["A♠: A♠ was already played in this trick."]
    assert hidden(text(response), "record") == record
    # Undo takes the last card back; cancel leaves a correction.
    html = text(en.post(page + "/replay", data={"trump": "H", "record": record, "action": "undo"}))
    assert hidden(html, "record") == joined([FULL_RECORD[0]])
    html = text(
        en.post(
            page + "/replay",
            data={"trump": "H", "record": record, "replace": "1.1", "action": "cancel"},
        )
    )
    assert hidden(html, "replace") == "" and hidden(html, "record") == record


def test_changing_the_trump_keeps_the_tricks_and_the_engine_decides_again(en: FlaskClient) -> None:
    page = start(en)
    _html, record = play(en, page, FULL_RECORD[0] + FULL_RECORD[1] + FULL_RECORD[2])
    html = text(en.post(page + "/replay", data={"trump": "H", "record": record, "set_trump": "C"}))
    assert hidden(html, "record") == record
    assert 'data-trump="C"' in html
    # With clubs as trump the ace of clubs takes trick 3.
    assert re.findall(r'data-winner="(\d)"', html) == ["1", "1", "0"]


def test_an_unfinished_record_cannot_be_confirmed(app: Flask, en: FlaskClient) -> None:
    page = start(en)
    record = joined(FULL_RECORD[:3])
    response = en.post(page + "/replay/confirm", data={"trump": "H", "record": record})
    assert response.status_code == 422
    assert "3 tricks are in: a hand is recorded from all 10, or up to a revoke." in text(response)
    response = en.post(page + "/replay/save", data={"trump": "H", "record": record, "key": "k"})
    assert response.status_code == 422
    assert hidden(text(response), "record") == record
    assert stored(app, page) == []


def test_a_stale_confirmation_keeps_the_tricks(app: Flask, en: FlaskClient) -> None:
    page = start(en)
    record = joined(FULL_RECORD)
    html = text(en.post(page + "/replay/confirm", data={"trump": "H", "record": record}))
    en.post(page + "/hands", data={"action": "tie"})  # another phone records a hand meanwhile
    response = en.post(
        page + "/replay/save",
        data={
            "trump": "H",
            "record": record,
            "key": hidden(html, "key"),
            "version": hidden(html, "version"),
        },
    )
    assert response.status_code == 409
    html = text(response)
    assert "Someone else recorded a hand meanwhile" in html
    assert hidden(html, "record") == record
    assert [h.kind for h in stored(app, page)] == ["tie"]
    # The next hand is led by the next seat: the same cards now tell another story.
    assert "Seat 3 wins, 24 points, and leads trick 2." in html


def test_the_api_scores_the_same_cards_the_pages_show(app: Flask, en: FlaskClient) -> None:
    created = en.post("/api/v1/rubbers", json={"first_dealer": 0})
    assert created.status_code == 201
    body = created.get_json()
    headers = {"X-Edit-Key": body["edit_key"]}
    url = f"/api/v1/rubbers/{body['id']}/hands"
    wrong = en.post(
        url, json={"trump": "H", "tricks": FULL_RECORD, "points": [50, 70]}, headers=headers
    )
    assert wrong.status_code == 422
    assert "48" in wrong.get_json()["error"] and "50" in wrong.get_json()["error"]
    assert en.get(f"/api/v1/rubbers/{body['id']}").get_json()["hands"] == []
    response = en.post(url, json={"trump": "H", "tricks": FULL_RECORD}, headers=headers)
    assert response.status_code == 201
    [hand] = response.get_json()["hands"]
    assert hand["points"] == [48, 72] and hand["tricks"] == FULL_RECORD
    # The hand page (even read-only) shows the record the API stored, trick by trick.
    html = text(
        app.test_client().get(f"/r/{body['id']}/hands/1", headers={"Accept-Language": "en"})
    )
    assert len(re.findall(r'<li data-trick="\d+">', html)) == 10
    assert "won by Seat 2, 24 points" in html


# Melar ------------------------------------------------------------------------------------

LOW_HAND = ["2S", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "KH", "QD"]  # 6 points
HIGH_HAND = ["AS", "3S", "4S", "5S", "6S", "2H", "3H", "4H", "5H", "6H"]  # 11 points


def melar_url(page: str, cards: list[str]) -> str:
    return page + "/melar?check=1&" + "&".join(f"cards={card}" for card in cards)


def test_melar_under_10_points_may_spoil_the_deal(app: Flask, en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    html = text(en.get(page + "/melar"))
    assert "Seat 2 leads: tap their 10 cards." in html
    response = en.get(melar_url(page, LOW_HAND))
    assert response.status_code == 200
    html = text(response)
    assert "6 points: Seat 2 may spoil the deal (melar)." in html
    assert 'data-may-spoil="yes"' in html
    # The Melou button is in the grid's own form: it sends the cards, checked again.
    action = re.search(r'<form method="post" action="([^"]+)"[^>]*id="melar-cards"', html)
    assert action and action.group(1) == page + "/melar"
    response = en.post(
        page + "/melar",
        data={
            "action": "spoil",
            "cards": LOW_HAND,
            "key": hidden_input(html, "key"),
            "version": hidden_input(html, "version"),
        },
    )
    assert response.status_code == 302
    assert [h.kind for h in stored(app, page)] == ["spoiled"]


def hidden_input(html: str, name: str) -> str:
    found = re.search(rf'type="hidden" name="{name}" value="([^"]*)"', html)
    assert found, name
    return found.group(1)


def test_melar_with_10_points_or_more_must_play(en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    html = text(en.get(melar_url(page, HIGH_HAND)))
    assert "11 points: 10 or more, so Seat 2 must play the hand." in html
    assert 'data-may-spoil="no"' in html
    assert 'value="spoiled"' not in html


def test_melar_needs_10_different_cards_and_the_setting(en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    response = en.get(melar_url(page, LOW_HAND[:9]))
    assert response.status_code == 422
    assert "A hand has 10 cards: 9 are picked." in text(response)
    response = en.get(melar_url(page, [*LOW_HAND[:9], "2S"]))
    assert response.status_code == 422
    assert errors_for(text(response), "2S") == ["2♠: 2♠ is picked twice: a card counts once."]
    assert en.get(start(en) + "/melar").status_code == 404


# Who may use these pages ------------------------------------------------------------------


def test_a_read_only_device_gets_403_and_an_unknown_rubber_404(app: Flask, en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    other = app.test_client()
    assert other.get(page + "/replay").status_code == 403
    for path in ("/count", "/melar"):  # calculators: open to a follower, recording nothing
        assert other.get(page + path).status_code == 200, path
    for path in ("/replay", "/replay/confirm", "/replay/save"):
        response = other.post(page + path, data={"trump": "H", "record": joined(FULL_RECORD)})
        assert response.status_code == 403, path
    assert stored(app, page) == []
    assert en.get("/r/no-such-rubber/count").status_code == 404


def test_a_finished_rubber_takes_no_more_cards(en: FlaskClient) -> None:
    page = start(en)
    for _ in range(2):
        en.post(page + "/hands", data={"action": "points", "team": "0", "points": "95"})
    response = en.get(page + "/replay")
    assert response.status_code == 302 and response.location == page


@pytest.mark.parametrize("accept", ["pt-PT", "pt-BR", "en"])
def test_the_card_pages_render_in_every_locale(client: FlaskClient, accept: str) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    page = start(client, preset="brasil")
    pages = [
        client.get(page + "/count?cards=AS&cards=AS"),
        client.get(melar_url(page, LOW_HAND)),
        client.get(page + "/replay"),
        client.post(
            page + "/replay", data={"trump": "H", "record": joined(REVOKE_TRICKS[:1]), "card": "3S"}
        ),
        client.post(
            page + "/replay", data={"trump": "H", "record": joined(FULL_RECORD[:1]), "card": "AS"}
        ),
        client.post(page + "/replay/confirm", data={"trump": "H", "record": joined(FULL_RECORD)}),
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert f'<html lang="{accept}">' in html
        assert "%(" not in html
    if accept == "pt-PT":
        html = text(pages[3])
        assert "não assistiu" in html and "renúncia" in html
        assert "Registar a mão" in text(pages[5])
    if accept == "pt-BR":
        assert "Registrar a mão" in text(pages[5])


def test_tricks_entered_for_a_hand_that_is_no_longer_next_are_shown_again(
    app: Flask, en: FlaskClient
) -> None:
    page = start(en)
    version = hidden(text(en.post(page + "/replay", data={"set_trump": "H"})), "version")
    en.post(page + "/hands", data={"action": "tie"})  # another phone, while the cards go in
    response = en.post(
        page + "/replay/confirm",
        data={"trump": "H", "record": joined(FULL_RECORD), "version": version},
    )
    assert response.status_code == 409
    html = text(response)
    assert "Someone else recorded a hand meanwhile" in html
    assert hidden(html, "record") == joined(FULL_RECORD)
    assert hidden(html, "version") != version
    assert [h.kind for h in stored(app, page)] == ["tie"]


def test_the_card_pages_load_their_deferred_script_and_nothing_inline(en: FlaskClient) -> None:
    page = start(en, preset="brasil")
    for response in (
        en.get(page + "/count"),
        en.get(page + "/melar"),
        en.get(page + "/replay"),
        en.post(page + "/replay", data={"set_trump": "H"}),
    ):
        html = re.sub(
            r"(/static/\w+\.js)\?v=[0-9a-f]{12}\b", r"\1", response.get_data(as_text=True)
        )
        scripts = re.findall(r"<script[^>]*>", html)
        # Every page's app.js (the offline worker), then the card pages' own.
        assert scripts == [
            '<script defer src="/static/app.js" data-sw="/sw.js">',
            '<script src="/static/cards.js" defer>',
        ], scripts
        assert "</script>" in html and re.search(r"<script[^>]*></script>", html)
        assert "<style" not in html and " style=" not in html and " on" + "click=" not in html
        assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    script = en.get("/static/cards.js")
    assert script.status_code == 200
    script.close()


def test_a_whole_hand_typed_at_once_is_kept_and_more_is_said(en: FlaskClient) -> None:
    page = start(en)
    whole = " ".join(card for trick in FULL_RECORD for card in trick)
    response = en.post(
        page + "/replay", data={"trump": "H", "record": "", "action": "type", "typed": whole}
    )
    assert hidden(text(response), "record") == joined(FULL_RECORD)
    response = en.post(
        page + "/replay",
        data={"trump": "H", "record": "", "action": "type", "typed": whole + " 2H"},
    )
    html = text(response)
    assert "the ones typed after the 40th were left out" in html
    assert hidden(html, "record") == joined(FULL_RECORD)


def test_editing_a_hand_recorded_by_cards_says_its_record_goes(app: Flask, en: FlaskClient) -> None:
    page = start(en)
    save_record(en, page, joined(FULL_RECORD))
    en.post(page + "/hands", data={"action": "points", "team": "0", "points": "70"})
    warning = "This hand was recorded card by card"
    assert warning in text(en.get(page + "/hands/1/edit"))
    assert warning not in text(en.get(page + "/hands/2/edit"))
