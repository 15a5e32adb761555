"""A tournament's bracket, TV, paper and files (issue 26).

What each says, on real tournaments played through the API."""

from __future__ import annotations

import csv
import io
import json
import re
from html import unescape
from typing import Any
from xml.etree import ElementTree

from flask.testing import FlaskClient

from tests.api.test_tournaments import create, matches, pairs, play_round, state, win_rubber

EN = {"Accept-Language": "en"}
SVG = "{http://www.w3.org/2000/svg}"


def svg_of(client: FlaskClient, tournament: dict[str, Any], **headers: str) -> Any:
    response = client.get(f"/t/{tournament['id']}/bracket.svg", headers={**EN, **headers})
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    return response, ElementTree.fromstring(response.data)


def boxes(root: Any) -> dict[tuple[int, int, str], Any]:
    return {
        (int(g.get("data-round")), int(g.get("data-table")), g.get("data-stage")): g
        for g in root.iter(f"{SVG}g")
        if "match" in (g.get("class") or "").split()
    }


def sides(box: Any) -> list[tuple[str, str, bool]]:
    """Each side of a match's box: its label, its wins, whether it is marked the winner."""
    found = []
    for side in box.findall(f"{SVG}g"):
        texts = {t.get("class"): "".join(t.itertext()) for t in side.findall(f"{SVG}text")}
        found.append(
            (texts.get("label", ""), texts.get("wins", ""), "winner" in side.get("class").split())
        )
    return found


def test_the_bracket_of_a_knockout_of_five(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(5))
    (played,) = [m for m in matches(tournament, 1) if m["pairs"][1] is not None]
    win_rubber(client, tournament, played["rubbers"][0], 1)  # seed 5 beats seed 4
    response, root = svg_of(client, tournament)
    titles = [
        "".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "column-title"
    ]
    assert titles == ["Quarter-finals", "Semi-finals", "Final"]
    drawn = boxes(root)
    assert sorted(drawn) == [
        (1, 1, "knockout"), (1, 2, "knockout"), (1, 3, "knockout"), (1, 4, "knockout"),
        (2, 1, "knockout"), (2, 2, "knockout"), (3, 1, "knockout"),
    ]  # fmt: skip
    # Bracket of 8: 1-(8), 4-5, 2-(7), 3-(6): three byes, the fifth seed through; the one
    # match of two pairs plays at table 1, the byes take the numbers after it.
    assert sides(drawn[1, 2, "knockout"]) == [("Ana 1 & Bruno 1", "", True), ("bye", "", False)]
    assert sides(drawn[1, 1, "knockout"]) == [
        ("Ana 4 & Bruno 4", "0", False),
        ("Ana 5 & Bruno 5", "1", True),
    ]
    assert sides(drawn[2, 1, "knockout"]) == [
        ("Ana 1 & Bruno 1", "0", False),
        ("Ana 5 & Bruno 5", "0", False),
    ]
    assert sides(drawn[3, 1, "knockout"]) == [("—", "", False), ("—", "", False)]
    assert "undrawn" in drawn[3, 1, "knockout"].get("class")
    assert len(list(root.iter(f"{SVG}path"))) == 6  # four lines into the semis, two to the final
    sizes = [float(t.get("font-size")) for t in root.iter(f"{SVG}text")]
    assert min(sizes) >= 14

    # An ETag per state: 304 while it holds, a new one after a result.
    tag = response.headers["ETag"]
    again = client.get(f"/t/{tournament['id']}/bracket.svg", headers={**EN, "If-None-Match": tag})
    assert again.status_code == 304
    semi = [m for m in matches(state(client, tournament), 2) if m["pairs"] == [1, 5]][0]
    win_rubber(client, tournament, semi["rubbers"][0], 0)
    changed, root = svg_of(client, tournament, **{"If-None-Match": tag})
    assert changed.headers["ETag"] != tag
    assert sides(boxes(root)[3, 1, "knockout"])[0] == ("Ana 1 & Bruno 1", "", False)


def test_the_bracket_in_portuguese_with_a_third_place(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4), third_place=True)
    play_round(client, tournament, 1)
    response = client.get(f"/t/{tournament['id']}/bracket.svg")
    root = ElementTree.fromstring(response.data)
    titles = [
        "".join(t.itertext()) for t in root.iter(f"{SVG}text") if t.get("class") == "column-title"
    ]
    assert titles == ["Meias-finais", "Final", "3.º lugar"]
    third = boxes(root)[2, 2, "third_place"]
    assert [side[0] for side in sides(third)] == [
        "Ana 4 & Bruno 4",
        "Ana 3 & Bruno 3",
    ]  # the semis in order


def test_groups_then_knockout_draw_only_the_knockout(client: FlaskClient) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(8), groups=2, advance=2)
    _, root = svg_of(client, tournament)
    drawn = boxes(root)
    # 3 rounds of groups, then semi-finals (round 4) and the final (round 5), none drawn yet.
    assert sorted(drawn) == [(4, 1, "knockout"), (4, 2, "knockout"), (5, 1, "knockout")]
    assert all("undrawn" in box.get("class") for box in drawn.values())
    for number in (1, 2, 3):
        current = play_round(client, tournament, number)
    _, root = svg_of(client, tournament)
    semis = [sides(boxes(root)[4, table, "knockout"]) for table in (1, 2)]
    labels = {
        pair["number"]: f"{pair['players'][0]} & {pair['players'][1]}" for pair in current["pairs"]
    }
    expected = [[labels[p] for p in m["pairs"]] for m in matches(state(client, tournament), 4)]
    assert [[side[0] for side in semi] for semi in semis] == expected


def test_a_swiss_has_no_bracket(client: FlaskClient) -> None:
    tournament = create(client, format="swiss", pairs=pairs(6))
    assert client.get(f"/t/{tournament['id']}/bracket.svg").status_code == 404
    assert client.get("/t/nothing-here/bracket.svg").status_code == 404


def test_the_tv_shows_the_round_in_play_and_follows_with_304(client: FlaskClient) -> None:
    tournament = create(client, format="swiss", pairs=pairs(5), best_of=3)
    first = matches(tournament, 1)
    played = [m for m in first if m["pairs"][1] is not None]
    win_rubber(client, tournament, played[0]["rubbers"][0], 0)
    page = client.get(f"/t/{tournament['id']}/tv", headers=EN)
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    tag = page.headers["ETag"]
    assert f'data-follow="{tag.removeprefix("W/").strip(chr(34))}"' in html
    assert "<title>Torneio da Tasca · Round 1 · Sueca scorekeeper</title>" in html
    # A card per table playing, its rubber's games and cross; the bye below them.
    cards = re.findall(r'<section class="table[^"]*" data-tv-card data-table="(\d+)"', html)
    assert cards == ["1", "2"]
    assert "Rubbers won: Ana 1 &amp; Bruno 1 1 – 0 Ana 3 &amp; Bruno 3" in html
    assert html.count('class="cross') == 2
    assert "Bye: Ana 5 &amp; Bruno 5" in html
    # The standings with Buchholz.
    assert '<th scope="col">Buchholz</th>' in html
    row = re.search(r'<tr data-pair="5">(.*?)</tr>', html, re.S)
    assert row is not None
    assert re.findall(r"<td>([^<]*)</td>", row.group(1)) == ["1", "1", "1", "0", "0 – 0", "0"]
    assert (
        client.get(f"/t/{tournament['id']}/tv", headers={**EN, "If-None-Match": tag}).status_code
        == 304
    )
    win_rubber(client, tournament, played[1]["rubbers"][0], 1)
    changed = client.get(f"/t/{tournament['id']}/tv", headers={**EN, "If-None-Match": tag})
    assert changed.status_code == 200 and changed.headers["ETag"] != tag


def test_the_tv_of_a_knockout_shows_its_bracket(client: FlaskClient) -> None:
    tournament = create(client, format="knockout", pairs=pairs(4))
    play_round(client, tournament, 1)
    html = client.get(f"/t/{tournament['id']}/tv").get_data(as_text=True)
    assert "Ronda 2" in html and "Eliminatória" in html
    assert html.count('<g class="match"') == 3  # both semis and the final, drawn
    assert "standings-table" not in html
    current = play_round(client, tournament, 2)
    html = client.get(f"/t/{tournament['id']}/tv", headers=EN).get_data(as_text=True)
    assert current["winner"] == 1
    assert '<p class="champion">Won by Ana 1 &amp; Bruno 1</p>' in html


def test_the_paper_has_the_draw_the_sheets_the_bracket_and_the_standings(
    client: FlaskClient,
) -> None:
    body = [{"name": "Os Primos", "players": ["Ana", "Bruno"]}, *pairs(4)[1:]]
    tournament = create(client, format="knockout", pairs=body)
    html = client.get(f"/t/{tournament['id']}/print", headers=EN).get_data(as_text=True)
    draw = re.search(r'<section class="draw".*?</section>', html, re.S)
    assert draw is not None
    rows = re.findall(r'<tr data-pair="(\d)"><td>(\d)</td><td>([^<]*)</td><td>([^<]*)</td>', html)
    assert rows[0] == ("1", "1", "Os Primos", "Ana &amp; Bruno")
    assert rows[3] == ("4", "4", "", "Ana 4 &amp; Bruno 4")
    sheet = re.search(r'<section class="sheet"[^>]*data-round="1">(.*?)</section>', html, re.S)
    assert sheet is not None
    tables = re.findall(
        r'<tr data-table="(\d)">\s*<td>\d</td>\s*<td>([^<]*)</td>\s*<td>([^<]*)</td>\s*'
        r'<td class="result">([^<]*)</td>',
        sheet.group(1),
    )
    assert tables == [
        ("1", "Os Primos", "Ana 4 &amp; Bruno 4", "____ – ____"),
        ("2", "Ana 2 &amp; Bruno 2", "Ana 3 &amp; Bruno 3", "____ – ____"),
    ]
    assert '<section class="bracket-page"' in html and 'class="bracket"' in html
    assert '<h2 id="standings-heading">Standings</h2>' in html
    assert "@page" in client.get("/static/tournaments.css").get_data(as_text=True)
    play_round(client, tournament, 1)
    play_round(client, tournament, 2)
    html = client.get(f"/t/{tournament['id']}/print", headers=EN).get_data(as_text=True)
    assert "Final standings" in html
    assert len(re.findall(r'<section class="sheet"', html)) == 2
    # Played rounds print their results, never blanks (win_rubber is a bandeira, 4-0).
    assert "____" not in html
    results = re.findall(r'<td class="result">(.*?)</td>', html, re.S)
    assert [text(cell) for cell in results] == ["4 – 0", "4 – 0", "4 – 0"]


def test_the_paper_prints_a_walkover_and_leaves_no_table_to_a_bye(client: FlaskClient) -> None:
    tournament = create(client, format="swiss", pairs=pairs(5), rounds=2)
    (played, _other) = [m for m in matches(tournament, 1) if m["pairs"][1] is not None]
    given = client.post(
        f"/api/v1/tournaments/{tournament['id']}/rounds/1/matches/{played['table']}/walkover",
        json={"winner": played["pairs"][1]},
        headers={"X-Edit-Key": tournament["edit_key"], **EN},
    )
    assert given.status_code == 200, given.get_json()
    html = client.get(f"/t/{tournament['id']}/print", headers=EN).get_data(as_text=True)
    rows = re.findall(r'<tr data-table="\d">(.*?)</tr>', html, re.S)
    cells = [[text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)] for row in rows]
    winner = f"Ana {played['pairs'][1]} & Bruno {played['pairs'][1]}"
    assert cells[0][3] == f"Walkover: {winner} win"
    assert cells[1][3] == "____ – ____"
    assert cells[2][0] == "" and cells[2][3] == "bye"  # no table for a bye


def test_the_standings_as_csv_in_the_readers_language(client: FlaskClient) -> None:
    tournament = create(client, format="swiss", pairs=pairs(4), rounds=2)
    play_round(client, tournament, 1)
    response = client.get(f"/t/{tournament['id']}/standings.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    lines = list(csv.reader(io.StringIO(response.get_data(as_text=True))))
    assert lines[0] == [
        "Posição", "Dupla", "Jogadores", "Encontros jogados", "Encontros ganhos",
        "Encontros perdidos", "Jogos ganhos", "Jogos perdidos", "Buchholz",
    ]  # fmt: skip
    current = state(client, tournament)
    expected = [
        [
            str(row["rank"]), f"Ana {row['pair']} & Bruno {row['pair']}",
            f"Ana {row['pair']} & Bruno {row['pair']}", str(row["played"]), str(row["won"]),
            str(row["lost"]), str(row["games_won"]), str(row["games_lost"]), str(row["buchholz"]),
        ]
        for row in current["standings"]
    ]  # fmt: skip
    assert lines[1:] == expected
    assert lines[1][4] == "1" and lines[1][6] == "4"
    english = client.get(f"/t/{tournament['id']}/standings.csv", headers=EN)
    assert english.get_data(as_text=True).splitlines()[0] == (
        "Rank,Pair,Players,Matches played,Matches won,Matches lost,Games won,Games lost,Buchholz"
    )
    brazil = client.get(
        f"/t/{tournament['id']}/standings.csv", headers={"Accept-Language": "pt-BR"}
    )
    assert (
        brazil.get_data(as_text=True)
        .splitlines()[0]
        .startswith("Posição,Dupla,Jogadores,Confrontos jogados,Confrontos vencidos")
    )


def test_the_export_is_the_api_state_and_every_rubber(client: FlaskClient) -> None:
    tournament = create(client, format="round_robin", pairs=pairs(3))
    (played,) = [m for m in matches(tournament, 1) if m["pairs"][1] is not None]
    win_rubber(client, tournament, played["rubbers"][0], 0)
    response = client.get(f"/t/{tournament['id']}/export.json", headers=EN)
    assert response.status_code == 200 and response.mimetype == "application/json"
    exported = json.loads(response.data)
    current = state(client, tournament)
    assert {key: exported[key] for key in current} == current
    by_place = {(m["round"], m["table"]): m["rubbers"] for m in exported["match_rubbers"]}
    rubbers = by_place[1, played["table"]]
    assert [rubber["id"] for rubber in rubbers] == played["rubbers"]
    assert rubbers[0]["games"] == [4, 0] and rubbers[0]["finished"]
    assert rubbers[0]["hands"][0]["points"] == [120, 0]
    assert rubbers[0]["tournament"] == {
        "id": tournament["id"],
        "round": 1,
        "table": played["table"],
    }
    tag = response.headers["ETag"]
    again = client.get(f"/t/{tournament['id']}/export.json", headers={**EN, "If-None-Match": tag})
    assert again.status_code == 304


def test_the_standings_csv_defuses_formulas(client: FlaskClient) -> None:
    body = [{"name": "=HYPERLINK(1)", "players": ["+Ana", "Bruno"]}, *pairs(3)[1:]]
    tournament = create(client, format="round_robin", pairs=body)
    lines = list(csv.reader(io.StringIO(client.get(f"/t/{tournament['id']}/standings.csv").text)))
    (row,) = [line for line in lines[1:] if "HYPERLINK" in line[1]]
    assert row[1:3] == ["'=HYPERLINK(1)", "'+Ana & Bruno"]


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())
