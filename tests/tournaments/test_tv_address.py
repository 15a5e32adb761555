"""A tournament's TV: its short address and QR code, and the language the organizer chose for it.

Issue 42, item 13: /tv/<code> opens a tournament's TV as it opens a group's; the TV speaks the
tournament's language whatever the TV's browser does (docs/decisions/tournaments.md, "The TV's
address and language")."""

from __future__ import annotations

import re
from html import unescape
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.extensions import db
from scorekeeper.groups.models import TV_CODE_LENGTH
from scorekeeper.tournaments.models import Tournament
from scorekeeper.tournaments.wording import LANGUAGE_NAMES
from scorekeeper.web.i18n import LOCALES
from tests.api.test_api import conforms, openapi  # noqa: F401  the fixture
from tests.support.apps import fresh_app

PASTED = "Ana e Bruno\nCarla / Duarte\nOs Primos: Eva, Filipe\nGil & Helena\n"
PAIRS = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in range(1, 5)]


def text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def organizer(client: FlaskClient, language: str) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    return client


def start(client: FlaskClient, **fields: str) -> str:
    """Start a knockout from the form; return the tournament's id."""
    data = {"name": "Torneio da Tasca", "format": "knockout", "pairs": PASTED, **fields}
    response = client.post("/t/new", data=data)
    assert response.status_code == 302, text(response.get_data(as_text=True))[-2000:]
    return str(response.location.rsplit("/", 1)[-1])


def stored(app: Flask, tournament_id: str) -> Tournament:
    with app.app_context():
        found = db.session.get(Tournament, tournament_id)
        assert found is not None
        db.session.expunge(found)
        return found


def count(app: Flask) -> int:
    with app.app_context():
        return db.session.query(Tournament).count()


def tv_of(client: FlaskClient, tournament_id: str, language: str) -> Any:
    """The tournament's TV as a TV whose browser speaks ``language`` reads it."""
    return client.get(f"/t/{tournament_id}/tv", headers={"Accept-Language": language})


def html_lang(page: str) -> str:
    found = re.search(r'<html[^>]* lang="([^"]+)"', page)
    assert found is not None
    return found.group(1)


# The short address ------------------------------------------------------------------------------


def test_the_short_address_opens_the_tournament_s_tv(app: Flask, client: FlaskClient) -> None:
    tournament_id = start(organizer(client, "en"))
    code = stored(app, tournament_id).tv_code
    assert len(code) == TV_CODE_LENGTH
    opened = client.get(f"/tv/{code.upper()}")  # a TV's remote types capitals as well
    assert opened.status_code == 302
    assert opened.location == f"/t/{tournament_id}/tv"
    tv = client.get(opened.location)
    assert tv.status_code == 200
    assert "Torneio da Tasca" in text(tv.get_data(as_text=True))
    wrong = "".join("b" if letter != "b" else "c" for letter in code)
    assert client.get(f"/tv/{wrong}").status_code == 404
    assert client.get(f"/tv/{code}x").status_code == 404


def test_a_group_s_short_address_still_opens_the_group_s_tv(client: FlaskClient) -> None:
    group = client.post("/api/v1/groups", json={"name": "Tasca do Zé"}).get_json()
    page = client.get(f"/g/{group['id']}").get_data(as_text=True)
    (code,) = re.findall(r'class="tv-address">[^<]*<wbr>/tv/([a-z]+)<', page)
    opened = client.get(f"/tv/{code}")
    assert opened.status_code == 302
    assert opened.location == f"/g/{group['id']}/display"


def test_a_new_code_is_none_a_tournament_has(
    app: Flask, client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The groups draw the codes, and ask the tournaments whether one is theirs."""
    from scorekeeper.groups import store as group_store

    tournament_id = start(organizer(client, "en"))
    code = stored(app, tournament_id).tv_code
    with app.test_request_context():
        page = group_store.tv_page(code.upper())
        assert page is not None
        assert (page.endpoint, page.values) == ("tournaments.tv", {"tournament_id": tournament_id})
        drawn = iter([code, "bcdefghjkm"])
        monkeypatch.setattr(group_store, "tv_code", lambda: next(drawn))
        assert group_store.new_tv_code() == "bcdefghjkm"


def test_the_short_address_is_limited_as_a_group_s(tmp_path: Any) -> None:
    config = {"TESTING": True, "SECRET_KEY": "limits", "WTF_CSRF_ENABLED": False}
    with fresh_app(tmp_path / "limits.sqlite3", {**config, "RATELIMIT_ENABLED": True}) as app:
        client = app.test_client()
        created = client.post(
            "/api/v1/tournaments", json={"name": "T", "format": "knockout", "pairs": PAIRS}
        )
        code = created.get_json()["tv_url"].rsplit("/", 1)[-1]
        answers = [client.get(f"/tv/{code}").status_code for _ in range(11)]
        assert answers == [302] * 10 + [429]


def test_the_organizer_s_page_shows_the_short_address_and_its_qr_code(
    app: Flask, client: FlaskClient
) -> None:
    tournament_id = start(organizer(client, "en"))
    code = stored(app, tournament_id).tv_code
    page = client.get(f"/t/{tournament_id}").get_data(as_text=True)
    assert re.search(rf'<span class="tv-address">localhost<wbr>/tv/{code}</span>', page)
    box = page.split('class="tv-link"', 1)[1].split("</details>", 1)[0]
    assert "<title>QR code of the TV&#39;s link</title>" in box or (
        "<title>QR code of the TV's link</title>" in box
    )
    assert "On the TV, type this address or scan the code:" in text(box)
    assert 'name="tv_language"' in box  # the organizer may change its language
    # A follower's page (another phone, no grant) shows the address and the code, not the form.
    follower = app.test_client()
    seen = follower.get(f"/t/{tournament_id}", headers={"Accept-Language": "pt-PT"})
    followed = seen.get_data(as_text=True)
    assert f"localhost<wbr>/tv/{code}" in followed
    box = followed.split('class="tv-link"', 1)[1].split("</details>", 1)[0]
    assert "<title>Código QR da ligação da televisão</title>" in box
    assert "Televisão do café:" in text(followed)
    assert 'name="tv_language"' not in box


# Its language -----------------------------------------------------------------------------------


def test_an_english_tv_shows_a_portuguese_tournament_in_portuguese(
    app: Flask, client: FlaskClient
) -> None:
    tournament_id = start(organizer(client, "pt-PT"))
    assert stored(app, tournament_id).tv_language == "pt_PT"  # the organizer's own, by default
    tv = app.test_client()
    page = tv_of(tv, tournament_id, "en").get_data(as_text=True)
    assert html_lang(page) == "pt-PT"
    assert "Ronda 1 · Mesa 1" in text(page)
    assert "Round 1" not in text(page) and "Table 1" not in text(page)
    # A TV that chose English with the language switch is no different: the organizer chose.
    tv.set_cookie("lang", "en")
    assert html_lang(tv_of(tv, tournament_id, "en").get_data(as_text=True)) == "pt-PT"


def test_the_tv_is_kept_in_its_language_not_its_first_reader_s(
    app: Flask, client: FlaskClient
) -> None:
    """The TV's page is built once per version: its first reader's browser must not set it."""
    tournament_id = start(organizer(client, "en"), tv_language="pt_BR")
    english = tv_of(app.test_client(), tournament_id, "en")
    portuguese = tv_of(app.test_client(), tournament_id, "pt-PT")
    assert html_lang(english.get_data(as_text=True)) == "pt-BR"
    assert html_lang(portuguese.get_data(as_text=True)) == "pt-BR"
    assert english.headers["ETag"] == portuguese.headers["ETag"]
    again = app.test_client().get(
        f"/t/{tournament_id}/tv",
        headers={"Accept-Language": "en", "If-None-Match": english.headers["ETag"]},
    )
    assert again.status_code == 304


def test_a_tv_without_a_language_speaks_its_browser_s(app: Flask, client: FlaskClient) -> None:
    created = client.post(
        "/api/v1/tournaments", json={"name": "T", "format": "knockout", "pairs": PAIRS}
    ).get_json()
    assert created["tv_language"] is None
    english = tv_of(app.test_client(), created["id"], "en").get_data(as_text=True)
    portuguese = tv_of(app.test_client(), created["id"], "pt-BR").get_data(as_text=True)
    assert (html_lang(english), html_lang(portuguese)) == ("en", "pt-BR")
    assert "Round 1" in text(english) and "Rodada 1" in text(portuguese)


def test_the_form_offers_the_organizer_s_language_first(client: FlaskClient) -> None:
    page = client.get("/t/new", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    select = page.split('name="tv_language"', 1)[1].split("</select>", 1)[0]
    assert re.search(r'<option selected value="pt_BR">|<option value="pt_BR" selected', select)
    assert [name for _, name in re.findall(r'value="([^"]+)"[^>]*>([^<]+)<', select)] == list(
        LOCALES.values()
    )


@pytest.mark.parametrize("language", ["pt_PT", "pt_BR", "en"])
def test_the_form_takes_the_tv_s_language(app: Flask, client: FlaskClient, language: str) -> None:
    tournament_id = start(organizer(client, "en"), tv_language=language)
    assert stored(app, tournament_id).tv_language == language
    state = client.get(f"/api/v1/tournaments/{tournament_id}").get_json()
    assert state["tv_language"] == language


@pytest.mark.parametrize("language", ["de", "", "pt-PT", "PT_PT"])
def test_the_form_refuses_another_language_and_stores_nothing(
    app: Flask, client: FlaskClient, language: str
) -> None:
    data = {"name": "T", "format": "knockout", "pairs": PASTED, "tv_language": language}
    response = organizer(client, "en").post("/t/new", data=data)
    assert response.status_code == 422
    assert "Choose the TV's language from the list." in text(response.get_data(as_text=True))
    assert count(app) == 0


def test_the_organizer_changes_the_tv_s_language(app: Flask, client: FlaskClient) -> None:
    tournament_id = start(organizer(client, "en"), tv_language="pt_PT")
    before = tv_of(app.test_client(), tournament_id, "en")
    changed = client.post(f"/t/{tournament_id}/tv-language", data={"tv_language": "en"})
    assert changed.status_code == 302
    said = text(client.get(f"/t/{tournament_id}").get_data(as_text=True))
    assert "The TV now shows the tournament in English." in said
    assert stored(app, tournament_id).tv_language == "en"
    # The TV following with its ETag gets the page again, in English now.
    after = app.test_client().get(
        f"/t/{tournament_id}/tv",
        headers={"Accept-Language": "pt-PT", "If-None-Match": before.headers["ETag"]},
    )
    assert after.status_code == 200
    assert html_lang(after.get_data(as_text=True)) == "en"
    refused = client.post(f"/t/{tournament_id}/tv-language", data={"tv_language": "fr"})
    assert refused.status_code == 302
    assert "Choose the TV's language from the list." in text(
        client.get(f"/t/{tournament_id}").get_data(as_text=True)
    )
    assert stored(app, tournament_id).tv_language == "en"


def test_only_the_organizer_changes_the_tv_s_language(app: Flask, client: FlaskClient) -> None:
    tournament_id = start(organizer(client, "en"), tv_language="pt_PT")
    stranger = app.test_client()
    refused = stranger.post(f"/t/{tournament_id}/tv-language", data={"tv_language": "en"})
    assert refused.status_code == 403
    assert stored(app, tournament_id).tv_language == "pt_PT"


def test_the_change_of_language_needs_the_csrf_token(tmp_path: Any) -> None:
    with fresh_app(tmp_path / "csrf.sqlite3", {"TESTING": True, "SECRET_KEY": "csrf"}) as app:
        client = app.test_client()
        page = client.get("/t/new").get_data(as_text=True)
        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token is not None
        data = {"name": "T", "format": "knockout", "pairs": PASTED, "csrf_token": token.group(1)}
        created = client.post("/t/new", data={**data, "tv_language": "pt_PT"})
        assert created.status_code == 302
        tournament_id = created.location.rsplit("/", 1)[-1]
        refused = client.post(f"/t/{tournament_id}/tv-language", data={"tv_language": "en"})
        assert refused.status_code == 400
        assert stored(app, tournament_id).tv_language == "pt_PT"


def test_every_tv_language_is_named_in_a_sentence() -> None:
    assert set(LANGUAGE_NAMES) == set(LOCALES)


# The API ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["pt_PT", "pt_BR", "en", None])
def test_the_api_takes_the_tv_s_language_and_gives_the_short_address(
    app: Flask,
    client: FlaskClient,
    openapi: dict[str, Any],  # noqa: F811
    language: str | None,
) -> None:
    body = {"name": "T", "format": "knockout", "pairs": PAIRS, "tv_language": language}
    created = client.post("/api/v1/tournaments", json=body)
    assert created.status_code == 201, created.get_json()
    state = created.get_json()
    conforms(state, "CreatedTournament", openapi)
    code = stored(app, state["id"]).tv_code
    assert state["tv_url"] == f"http://localhost/tv/{code}"
    assert state["tv_language"] == language
    read = client.get(f"/api/v1/tournaments/{state['id']}").get_json()
    conforms(read, "TournamentState", openapi)
    assert (read["tv_url"], read["tv_language"]) == (state["tv_url"], language)
    assert client.get(state["tv_url"]).location == f"/t/{state['id']}/tv"


@pytest.mark.parametrize("language", ["de", "", "pt-BR", "EN", 3, True, ["en"]])
def test_the_api_refuses_another_language_with_a_sentence_and_stores_nothing(
    app: Flask, client: FlaskClient, language: Any
) -> None:
    body = {"name": "T", "format": "knockout", "pairs": PAIRS, "tv_language": language}
    response = client.post("/api/v1/tournaments", json=body, headers={"Accept-Language": "en"})
    assert response.status_code == 422, response.get_json()
    answer = response.get_json()
    assert (answer["code"], answer["field"]) == ("tv_language", "tv_language")
    assert answer["error"] == (
        "The TV's language must be one of pt_PT, pt_BR, en, or null for each TV's own."
    )
    assert count(app) == 0


def test_the_document_says_the_tv_s_languages(openapi: dict[str, Any]) -> None:  # noqa: F811
    schemas = openapi["components"]["schemas"]
    given = schemas["NewTournament"]["properties"]["tv_language"]
    assert {"enum": ["pt_PT", "pt_BR", "en"], "type": "string"} in given["anyOf"]
    assert given["description"]
    state = schemas["TournamentState"]
    assert {"tv_url", "tv_language"} <= set(state["required"])
