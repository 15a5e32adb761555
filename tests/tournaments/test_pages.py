"""The organizer's phone: a tournament started from pasted lines, its tables, its decisions."""

from __future__ import annotations

import re
from html import unescape

import pytest
from flask.testing import FlaskClient

PASTED = "Ana e Bruno\nCarla / Duarte\nOs Primos: Eva, Filipe\n\nGil & Helena\n"


@pytest.fixture
def en(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def start(client: FlaskClient, **fields: str) -> str:
    data = {"name": "Torneio da Tasca", "format": "knockout", "pairs": PASTED, **fields}
    response = client.post("/t/new", data=data)
    assert response.status_code == 302, unescape(response.get_data(as_text=True))[-3000:]
    return response.location


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_pasted_lines_make_the_pairs_and_the_draw(en: FlaskClient) -> None:
    page = en.get(start(en)).get_data(as_text=True)
    words = text(page)
    # Four pairs, a bracket of 4 in seed order: 1-4, 2-3.
    assert "Ana & Bruno 0 – 0 Gil & Helena" in words
    assert "Carla & Duarte 0 – 0 Os Primos" in words
    # The organizer's phone: a QR code and a link for each table's phone, and the TV's.
    assert page.count('<div class="qr-box">') == 2
    assert page.count('class="qr"') == 3
    links = re.findall(r'href="(http://localhost/t/[^"]+/tables/[^"]+)"', page)
    assert len(links) == 2


def test_a_table_phone_opens_its_rubber_ready_to_record(
    en: FlaskClient, client: FlaskClient
) -> None:
    page = en.get(start(en)).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0]
    table = client.application.test_client()
    table.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    opened = table.get(link)
    assert opened.status_code == 302
    rubber_page = table.get(opened.location).get_data(as_text=True)
    assert "Torneio da Tasca" in text(rubber_page) and "Round 1 · Table 1" in text(rubber_page)
    assert 'class="hand-form"' in rubber_page  # ready to record
    rubber_id = opened.location.rsplit("/", 1)[-1]
    recorded = table.post(
        f"/r/{rubber_id}/hands", data={"points": "120", "all_tricks": "y", "team": "0"}
    )
    assert recorded.status_code in (302, 303), recorded.get_data(as_text=True)[-2000:]
    words = text(en.get("/t/" + page.split("/t/")[1].split("/")[0]).get_data(as_text=True))
    assert "Ana & Bruno 1 – 0 Gil & Helena" in words


@pytest.mark.parametrize(
    ("pairs", "sentence"),
    [
        ("Ana e Bruno\nCarla\nEva e Filipe\n", "Line 2:"),
        ("Ana e Bruno\nCarla e Duarte\nana e Filipe\n", "Line 3:"),
        ("Ana e Bruno\nCarla e Duarte\n", "at least 3 pairs"),
    ],
)
def test_a_bad_list_says_which_line_and_stores_nothing(
    en: FlaskClient, pairs: str, sentence: str
) -> None:
    response = en.post("/t/new", data={"name": "T", "format": "knockout", "pairs": pairs})
    assert response.status_code == 422
    assert sentence in text(response.get_data(as_text=True))
    from scorekeeper.extensions import db
    from scorekeeper.tournaments.models import Tournament

    with en.application.app_context():
        assert db.session.query(Tournament).count() == 0


def test_an_even_best_of_is_not_offered_and_swiss_rounds_are_checked(en: FlaskClient) -> None:
    response = en.post(
        "/t/new", data={"name": "T", "format": "swiss", "pairs": PASTED, "rounds": "4"}
    )
    assert response.status_code == 422
    # Swiss it is: the sentence says the real problem, the rounds are too many for 4 pairs.
    words = text(response.get_data(as_text=True))
    assert "A Swiss tournament of 4 pairs has at most 3 rounds" in words
    assert "Only a Swiss tournament" not in words


def test_walkover_withdrawal_and_the_next_swiss_round(en: FlaskClient) -> None:
    address = start(en, format="swiss", rounds="2")
    tournament_id = address.rsplit("/", 1)[-1]
    page = en.get(address).get_data(as_text=True)
    assert "Draw round 2" not in text(page)  # round 1 is not finished
    given = en.post(
        f"/t/{tournament_id}/rounds/1/tables/1/walkover",
        data={"winner": "1", "confirm": "walkover"},
    )
    assert given.status_code == 302
    assert re.search(r"Walkover: Ana & Bruno win\b", text(en.get(address).get_data(as_text=True)))
    # Table 2: pairs 2 and 4 play their rubber.
    api = en.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    (second,) = [m for m in api["rounds"][0]["matches"] if m["table"] == 2]
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[-1]
    en.get(link)
    rubber_id = second["rubbers"][0]
    en.post(f"/r/{rubber_id}/hands", data={"points": "120", "all_tricks": "y", "team": "0"})
    refused = en.post(
        f"/t/{tournament_id}/rounds/1/tables/2/walkover",
        data={"winner": "4", "confirm": "walkover"},
    )
    assert refused.status_code == 302
    assert "it was played" in text(en.get(address).get_data(as_text=True))
    assert "Draw round 2" in text(en.get(address).get_data(as_text=True))
    drawn = en.post(f"/t/{tournament_id}/rounds")
    assert drawn.status_code == 302
    assert "Round 2" in text(en.get(address).get_data(as_text=True))
    gone = en.post(f"/t/{tournament_id}/pairs/3/withdraw", data={"confirm": "withdraw"})
    assert gone.status_code == 302
    api = en.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    assert [pair["withdrawn"] for pair in api["pairs"]] == [False, False, True, False]


def test_a_phone_without_the_edit_link_sees_no_organizer_tools(en: FlaskClient) -> None:
    address = start(en)
    other = en.application.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = other.get(address).get_data(as_text=True)
    assert 'class="qr-box"' not in page and "withdraws" not in page
    tournament_id = address.rsplit("/", 1)[-1]
    refused = other.post(f"/t/{tournament_id}/pairs/1/withdraw")
    assert refused.status_code == 403


def test_a_table_phone_goes_on_to_the_matchs_next_rubber(en: FlaskClient) -> None:
    address = start(en, best_of="3")
    page = en.get(address).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0]
    table = en.application.test_client()
    table.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    first = table.get(link).location.rsplit("/", 1)[-1]
    table.post(f"/r/{first}/hands", data={"points": "120", "all_tricks": "y", "team": "0"})
    finished = table.get(f"/r/{first}").get_data(as_text=True)
    following = re.search(r'href="/r/([^"]+)" data-follow-next', finished)
    assert following is not None, "the match's next rubber, linked for the table's phone"
    assert "Next rubber, same table" not in text(finished)  # never a rubber outside the match
    second = following.group(1)
    assert table.get(f"/r/{second}").status_code == 200
    assert 'class="hand-form"' in table.get(f"/r/{second}").get_data(as_text=True)
    table.post(f"/r/{second}/hands", data={"points": "120", "all_tricks": "y", "team": "0"})
    from scorekeeper.extensions import db
    from scorekeeper.rubbers.models import Rubber

    with en.application.app_context():
        before = db.session.query(Rubber).count()
    decided = table.post(f"/r/{second}/next")
    assert decided.status_code == 302 and "/t/" in decided.location
    with en.application.app_context():
        assert db.session.query(Rubber).count() == before


def test_the_page_leads_to_the_tv_the_paper_and_the_files(en: FlaskClient) -> None:
    page = en.get(start(en)).get_data(as_text=True)
    links = re.findall(
        r'href="(/t/[^"/]+/(?:tv|print|bracket\.svg|standings\.csv|export\.json))"', page
    )
    assert [link.rsplit("/", 1)[-1] for link in links] == [
        "tv",
        "print",
        "bracket.svg",
        "standings.csv",
        "export.json",
    ]
    for link in links:
        assert en.get(link).status_code == 200, link


def test_a_tournament_in_a_group_counts_in_its_history_and_statistics(en: FlaskClient) -> None:
    made = en.post("/groups/new", data={"name": "Tasca do Zé"})
    group_id = made.location.rsplit("/", 1)[-1]
    assert f"/t/new?group={group_id}" in en.get(f"/g/{group_id}").get_data(as_text=True)
    form = en.get(f"/t/new?group={group_id}").get_data(as_text=True)
    assert "Every match joins the history and statistics of Tasca do Zé." in text(form)
    address = start(en, group=group_id)
    page = en.get(address).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0]
    rubber_id = en.get(link).location.rsplit("/", 1)[-1]
    en.post(f"/r/{rubber_id}/hands", data={"points": "120", "all_tricks": "y", "team": "0"})
    stats = en.get(f"/api/v1/groups/{group_id}/stats").get_json()
    players = {player["name"]: player for player in stats["players"]}
    assert players["Ana"]["rubbers"] == 1 and players["Ana"]["won"] == 1
    assert players["Helena"]["rubbers"] == 1 and players["Helena"]["won"] == 0
    assert rubber_id in en.get(f"/g/{group_id}").get_data(as_text=True)


def test_a_group_the_phone_may_not_change_is_refused(en: FlaskClient) -> None:
    made = en.post("/groups/new", data={"name": "Tasca do Zé"})
    group_id = made.location.rsplit("/", 1)[-1]
    other = en.application.test_client()
    data = {"name": "T", "format": "knockout", "pairs": PASTED, "group": group_id}
    assert other.post("/t/new", data=data).status_code == 403


def test_the_page_follows_the_tournament_with_its_etag(en: FlaskClient) -> None:
    address = start(en)
    follower = en.application.test_client()
    follower.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    page = follower.get(address)
    html = page.get_data(as_text=True)
    tag = re.search(r'<main data-follow="([^"]+)"', html)
    assert tag is not None
    # The round in play, each table's rubber with its cross; the bracket drawn as a bracket.
    assert html.count('class="tables-in-play"') == 1 and html.count('class="cross') >= 2
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="bracket"' in html
    unchanged = follower.get(address, headers={"If-None-Match": f'"{tag.group(1)}"'})
    assert unchanged.status_code == 304
    organizer = en.get(address).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', organizer)[0]
    rubber_id = en.get(link).location.rsplit("/", 1)[-1]
    en.post(f"/r/{rubber_id}/hands", data={"points": "80", "team": "0"})
    changed = follower.get(address, headers={"If-None-Match": f'"{tag.group(1)}"'})
    assert changed.status_code == 200
    assert "Ana & Bruno 1 – 0 Gil & Helena" in text(changed.get_data(as_text=True))


def test_the_draw_is_shown_and_kept(en: FlaskClient) -> None:
    address = start(en, draw="random")
    first = text(en.get(address).get_data(as_text=True))
    assert "The draw: seeds drawn at random" in first
    drawn = r"(\w+ & \w+|Os Primos \(Eva & Filipe\)) · line (\d) of the list"
    seeds = re.findall(drawn, first)
    assert sorted(line for _pair, line in seeds) == ["1", "2", "3", "4"]
    again = text(en.get(address).get_data(as_text=True))
    assert re.findall(drawn, again) == seeds  # kept, not drawn again


def test_the_form_asks_the_rules_as_a_rubbers_with_the_presets_values(en: FlaskClient) -> None:
    form = en.get("/t/new").get_data(as_text=True)
    assert re.search(r'<input[^>]+id="games_to_win"[^>]+value="4"', form)
    assert "as the preset says: the next hand is worth one more game" in text(form)


def test_a_decided_matchs_table_starts_no_rubber_outside_the_tournament(
    en: FlaskClient,
) -> None:
    """A best-of-3 match's "next rubber" is the match's own; once decided, there is none."""
    from scorekeeper.extensions import db
    from scorekeeper.rubbers.models import Rubber

    address = start(en, best_of="3")
    tournament_id = address.rsplit("/", 1)[-1]
    page = en.get(address).get_data(as_text=True)
    en.get(re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0])
    api = en.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    (first,) = [m for m in api["rounds"][0]["matches"] if m["table"] == 1]
    bandeira = {"points": "120", "all_tricks": "y", "team": "0"}
    en.post(f"/r/{first['rubbers'][0]}/hands", data=bandeira)
    onward = en.post(f"/r/{first['rubbers'][0]}/next")
    api = en.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    (first,) = [m for m in api["rounds"][0]["matches"] if m["table"] == 1]
    assert onward.location == f"/r/{first['rubbers'][1]}"  # the match's second rubber
    en.post(f"/r/{first['rubbers'][1]}/hands", data=bandeira)
    with en.application.app_context():
        before = db.session.query(Rubber).count()
    refused = en.post(f"/r/{first['rubbers'][1]}/next")
    assert refused.location == address
    with en.application.app_context():
        assert db.session.query(Rubber).count() == before
        assert db.session.query(Rubber).filter(Rubber.tournament_id.is_(None)).count() == 0
    assert "This match is decided: the tournament's page shows what comes next." in text(
        en.get(address).get_data(as_text=True)
    )


def test_the_organizers_own_link_runs_it_from_another_phone(en: FlaskClient) -> None:
    address = start(en)
    tournament_id = address.rsplit("/", 1)[-1]
    shown = en.get(address)
    assert "no-store" in shown.headers["Cache-Control"]
    page = shown.get_data(as_text=True)
    assert "The organizer's link" in text(page)
    # Twice on the first page: offered to keep on top, and folded at the foot.
    (link,) = set(re.findall(rf'href="http://localhost(/t/{tournament_id}/edit/[^"]+)"', page))
    helper = en.application.test_client()
    helper.environ_base["HTTP_ACCEPT_LANGUAGE"] = "en"
    assert "The organizer's link" not in text(helper.get(address).get_data(as_text=True))
    assert helper.get(link).status_code == 302
    helped = helper.get(address).get_data(as_text=True)
    assert helped.count('class="qr-box"') == 2 and link in helped
    api = helper.post(f"/api/v1/tournaments/{tournament_id}/pairs/4/withdraw")
    assert api.status_code == 403  # the API asks for the key itself
    key = link.rsplit("/", 1)[-1]
    given = helper.post(
        f"/api/v1/tournaments/{tournament_id}/pairs/4/withdraw", headers={"X-Edit-Key": key}
    )
    assert given.status_code == 200, given.get_json()


FIVE = PASTED + "Inês e Jorge\n"


def in_play(html: str) -> str:
    """The words of the page's "At the tables now", empty when it has none."""
    found = re.search(r'<ul class="tables-in-play">(.*?)</ul>', html, re.S)
    return text(found.group(1)) if found else ""


def record_bandeira(client: FlaskClient, link: str) -> None:
    """Open a table's link on ``client`` and win its rubber for the first pair in one hand."""
    rubber_id = client.get(link).location.rsplit("/", 1)[-1]
    recorded = client.post(
        f"/r/{rubber_id}/hands", data={"points": "120", "all_tricks": "y", "team": "0"}
    )
    assert recorded.status_code in (302, 303)


def test_a_round_robin_shows_its_current_round_at_the_tables(en: FlaskClient) -> None:
    address = start(en, format="round_robin", pairs=FIVE)
    tournament_id = address.rsplit("/", 1)[-1]
    page = en.get(address).get_data(as_text=True)
    # Round 1's two matches only, labelled with their round; one QR code for each.
    tables = in_play(page)
    assert tables.count("Round 1 · Table") == 2 and "Round 2" not in tables, tables
    assert page.count('class="qr-box"') == 2
    # The rounds in order, round 1 first.
    headings = re.findall(r'<h2 id="round-(\d+)"', page)
    assert headings == ["1", "2", "3", "4", "5"]
    tv = en.get(f"/t/{tournament_id}/tv").get_data(as_text=True)
    assert set(re.findall(r'data-round="(\d+)"', tv)) == {"1"}
    assert "Round 1 · Table 1" in text(tv) and "Round 5" not in text(tv)
    links = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)
    assert len(links) == 2
    record_bandeira(en, links[0])
    # A table whose match is decided sees nothing more until the round moves on.
    page = en.get(address).get_data(as_text=True)
    assert in_play(page).count("Round 1 · Table") == 1 and "Round 2" not in in_play(page)
    assert page.count('class="qr-box"') == 1
    record_bandeira(en, links[1])
    page = en.get(address).get_data(as_text=True)
    tables = in_play(page)
    assert tables.count("Round 2 · Table") == 2 and "Round 1" not in tables, tables
    assert page.count('class="qr-box"') == 2
    tv = en.get(f"/t/{tournament_id}/tv").get_data(as_text=True)
    assert set(re.findall(r'data-round="(\d+)"', tv)) == {"2"}


def test_a_pair_is_plural_and_a_winner_is_said_as_winners(client: FlaskClient) -> None:
    """European Portuguese, the default: "Os Primos desistem", "Vencedores: ..."."""
    address = start(
        client, format="knockout", pairs="Ana e Bruno\nOs Primos: Eva, Filipe\nGil e Helena\n"
    )
    tournament_id = address.rsplit("/", 1)[-1]
    words = text(client.get(address).get_data(as_text=True))
    assert "Os Primos desistem" in words and "Os Primos desiste " not in words
    # Seed 1 rests; 2 (Os Primos) meets 3, who does not come; then the final.
    client.post(
        f"/t/{tournament_id}/rounds/1/tables/1/walkover",
        data={"winner": "2", "confirm": "walkover"},
    )
    words = text(client.get(address).get_data(as_text=True))
    assert "Falta de comparência: ganham Os Primos" in words
    client.post(
        f"/t/{tournament_id}/rounds/2/tables/1/walkover",
        data={"winner": "2", "confirm": "walkover"},
    )
    page = client.get(address).get_data(as_text=True)
    assert re.search(r'<p class="status">\s*Vencedores: Os Primos\s*</p>', page), text(page)
    tv = client.get(f"/t/{tournament_id}/tv").get_data(as_text=True)
    assert "Vencedores: Os Primos" in text(tv) and "Ganho por" not in text(tv)


def test_a_pair_is_plural_in_english_too(en: FlaskClient) -> None:
    page = en.get(start(en)).get_data(as_text=True)
    assert "Os Primos withdraw" in text(page) and "Os Primos withdraws" not in text(page)


def test_a_best_of_one_matchs_rubber_is_not_numbered_in_a_sitting(client: FlaskClient) -> None:
    address = start(client)
    page = client.get(address).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0]
    rubber_page = client.get(client.get(link).location).get_data(as_text=True)
    assert "Ronda 1 · Mesa 1" in text(rubber_page)
    assert "partida da sessão" not in text(rubber_page)
    best_of_three = start(client, best_of="3")
    page = client.get(best_of_three).get_data(as_text=True)
    link = re.findall(r'href="http://localhost(/t/[^"]+/tables/[^"]+)"', page)[0]
    rubber_page = client.get(client.get(link).location).get_data(as_text=True)
    assert "1.ª partida" in text(rubber_page)  # a match of three numbers its rubbers


def test_the_new_tournament_form_says_duplas_in_its_legend_and_its_help(
    client: FlaskClient,
) -> None:
    form = client.get("/t/new").get_data(as_text=True)
    assert re.search(r"<legend>\s*Duplas\s*</legend>", form)
    assert "Duplas, uma por linha" in text(form) and "Pares" not in text(form)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "Line 2: Carla is named twice in the same pair"),
        ("pt-PT", "Linha 2: Carla está duas vezes na mesma dupla"),
        ("pt-BR", "Linha 2: Carla está duas vezes na mesma dupla"),
    ],
)
def test_a_player_twice_in_one_pair_is_told_so(
    client: FlaskClient, language: str, sentence: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    response = client.post(
        "/t/new",
        data={"name": "T", "format": "knockout", "pairs": "Ana e Bruno\nCarla e carla\nEva e Gil"},
    )
    assert response.status_code == 422
    assert sentence in text(response.get_data(as_text=True))


@pytest.mark.parametrize(
    ("language", "sentence"),
    [
        ("en", "A Swiss tournament of 10 pairs has at most 9 rounds"),
        ("pt-PT", "Um torneio suíço de 10 duplas tem no máximo 9 rondas"),
        ("pt-BR", "Um torneio suíço de 10 duplas tem no máximo 9 rodadas"),
    ],
)
def test_a_swiss_of_too_many_rounds_is_told_the_most_it_can_have(
    client: FlaskClient, language: str, sentence: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    ten = "\n".join(f"Ana {n} e Bruno {n}" for n in range(1, 11))
    response = client.post(
        "/t/new", data={"name": "T", "format": "swiss", "pairs": ten, "rounds": "10"}
    )
    assert response.status_code == 422
    words = text(response.get_data(as_text=True))
    assert sentence in words and "Só um torneio suíço" not in words


def test_between_swiss_rounds_the_page_has_no_empty_tables_heading(en: FlaskClient) -> None:
    """Every match of round 1 decided, round 2 not drawn: nothing is at the tables."""
    tournament_id = start(en, format="swiss", rounds="2").rsplit("/", 1)[-1]
    current = en.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    for match in current["rounds"][0]["matches"]:
        if match["pairs"][1] is None:
            continue
        link = re.findall(
            rf'<li data-table="{match["table"]}">.*?href="http://localhost(/t/[^"]+/tables/[^"]+)"',
            en.get(f"/t/{tournament_id}").get_data(as_text=True),
            re.S,
        )[0]
        record_bandeira(en.application.test_client(), link)
    page = en.get(f"/t/{tournament_id}").get_data(as_text=True)
    assert "Draw round 2" in text(page)
    assert "At the tables now" not in text(page)


def test_a_bye_takes_no_table_number(en: FlaskClient) -> None:
    """Five pairs: two tables play, and the bye is said without a table of its own."""
    tournament_id = start(en, format="swiss", rounds="2", pairs=FIVE).rsplit("/", 1)[-1]
    page = en.get(f"/t/{tournament_id}").get_data(as_text=True)
    round_one = text(page.split('id="round-1"', 1)[1].split("</section>", 1)[0])
    assert "Table 1" in round_one and "Table 2" in round_one
    assert "Table 3" not in round_one
    assert re.search(r"Bye: [^·]+", round_one)
