"""The interface's languages: complete catalogues, the locale a phone gets, the game's own words.

The catalogues are compiled to .mo by ``make install``/``make test`` (or
``pybabel compile -d scorekeeper/translations``); the page tests read the compiled files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.i18n import LOCALE_COOKIE, LOCALES

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
CATALOGUES = ("pt_PT", "pt_BR", "en")
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
"""What ``make messages`` extracts: babel's defaults (``_``, ``gettext``, ``ngettext``...)
plus ``-k _l -k lazy_gettext``."""

PLACEHOLDER = re.compile(r"%(?:\((\w+)\))?[#0 +-]*\d*(?:\.\d+)?[diouxXeEfFgGcrsa%]")


def po_path(locale: str) -> Path:
    return TRANSLATIONS / locale / "LC_MESSAGES" / "messages.po"


def load_po(locale: str) -> Catalog:
    with po_path(locale).open("rb") as source:
        return read_po(source, locale=locale)


def extracted() -> dict[str | tuple[str, ...], list[str]]:
    """Every msgid in the source, as ``make messages`` finds it, with where it is used."""
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config, "babel.cfg")
    found: dict[str | tuple[str, ...], list[str]] = {}
    for filename, lineno, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        assert context is None, f"{filename}:{lineno}: message contexts are not used here"
        msgid = message if isinstance(message, str) else tuple(message)
        found.setdefault(msgid, []).append(f"{filename}:{lineno}")
    return found


def placeholders(text: str) -> list[str]:
    """The %-format directives of a string, e.g. ``['%(team)s', '%(num)s']`` (``%%`` left out)."""
    return sorted(m.group(0) for m in PLACEHOLDER.finditer(text) if m.group(0) != "%%")


def translation_problem(message: Message, num_plurals: int) -> str | None:
    """What is wrong with one catalogue entry, or None."""
    if message.fuzzy:
        return "fuzzy"
    ids = [message.id] if isinstance(message.id, str) else list(message.id)
    strings = [message.string] if isinstance(message.string, str) else list(message.string or ())
    if isinstance(message.id, tuple) and len(strings) != num_plurals:
        return f"{len(strings)} plural forms, the catalogue has {num_plurals}"
    if not strings or not all(s.strip() for s in strings):
        return "untranslated"
    wanted = sorted(set().union(*(placeholders(i) for i in ids)))
    for string in strings:
        if sorted(set(placeholders(string))) != wanted:
            return f"placeholders {wanted} became {sorted(set(placeholders(string)))}: {string!r}"
        names = {name for name in PLACEHOLDER.findall(string) if name}
        try:  # Jinja's newstyle gettext always applies %, with or without variables
            string % dict.fromkeys(names, 1)
        except (ValueError, TypeError, KeyError) as error:
            return f"does not format ({error}): {string!r}"
    return None


def test_every_message_in_the_source_is_translated_in_every_catalogue() -> None:
    source = extracted()
    assert len(source) > 100, "extraction found almost nothing: check babel.cfg"
    problems = []
    for locale in CATALOGUES:
        catalogue = load_po(locale)
        for msgid, where in sorted(source.items(), key=lambda item: str(item[0])):
            key = msgid if isinstance(msgid, str) else msgid[0]
            message = catalogue.get(key)
            if message is None:
                problems.append(f"{locale}: {msgid!r} is missing ({where[0]}); run make messages")
                continue
            if isinstance(msgid, tuple) != isinstance(message.id, tuple):
                problems.append(f"{locale}: {msgid!r} changed between singular and plural")
                continue
            problem = translation_problem(message, catalogue.num_plurals)
            if problem:
                problems.append(f"{locale}: {msgid!r} ({where[0]}): {problem}")
    assert not problems, "\n".join(problems)


def plain(value: object) -> object:
    """A message's id or string in one shape, whether read from a .po or a .mo."""
    return tuple(value) if isinstance(value, (list, tuple)) else value


@pytest.mark.parametrize("locale", CATALOGUES)
def test_the_compiled_catalogue_matches_the_po_file(locale: str) -> None:
    """The app reads the .mo: a stale or missing one serves untranslated text."""
    mo = po_path(locale).with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: run make install (or pybabel compile)"
    with mo.open("rb") as compiled_file:
        compiled = {plain(m.id): plain(m.string) for m in read_mo(compiled_file) if m.id}
    written = {plain(m.id): plain(m.string) for m in load_po(locale) if m.id and not m.fuzzy}
    assert compiled == written, f"{mo} is out of date: run make install (or pybabel compile)"


@pytest.mark.parametrize("locale", ("pt_PT", "pt_BR"))
def test_the_portuguese_catalogues_count_games_like_portuguese(locale: str) -> None:
    """Two plural forms, singular for 1: "1 jogo", "2 jogos" (pt-BR also says "0 jogo")."""
    catalogue = load_po(locale)
    assert catalogue.num_plurals == 2
    message = catalogue.get("%(points)s → %(num)s game")
    assert message is not None
    assert tuple(message.string) == ("%(points)s → %(num)s jogo", "%(points)s → %(num)s jogos")
    assert catalogue.get("+ %(num)s from the tie").string[1] == "+ %(num)s dos empates"


def test_english_is_the_source_text() -> None:
    for message in load_po("en"):
        if message.id:
            assert message.string == message.id, message.id


# The locale a phone gets ----------------------------------------------------------------

LANG = re.compile(r'<html lang="([^"]+)"')
KNOWN = {
    "pt-PT": "Marcador de Sueca",  # "Sueca scorekeeper" the European way
    "pt-BR": "Placar de Sueca",
    "en": "Sueca scorekeeper",
}


def home(client: FlaskClient, accept: str | None = None) -> tuple[str, str]:
    headers = {"Accept-Language": accept} if accept is not None else {}
    response = client.get("/", headers=headers)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    found = LANG.search(html)
    assert found, html
    return found.group(1), html


def test_without_accept_language_the_home_page_is_european_portuguese(client: FlaskClient) -> None:
    lang, html = home(client)
    assert lang == "pt-PT"
    assert KNOWN["pt-PT"] in html
    assert "Nova partida: Nós contra Eles" in html
    assert KNOWN["en"] not in html and KNOWN["pt-BR"] not in html


@pytest.mark.parametrize(
    ("accept", "lang"),
    [
        ("pt", "pt-PT"),
        ("pt-PT", "pt-PT"),
        ("pt-BR", "pt-BR"),
        ("pt-BR,pt;q=0.9,en;q=0.8", "pt-BR"),
        ("en", "en"),
        ("en-GB,en;q=0.9", "en"),
        ("fr", "pt-PT"),
        ("fr-FR,fr;q=0.9", "pt-PT"),
    ],
)
def test_accept_language_picks_the_locale(client: FlaskClient, accept: str, lang: str) -> None:
    got, html = home(client, accept)
    assert got == lang
    assert KNOWN[lang] in html
    for other, text in KNOWN.items():
        if other != lang:
            assert text not in html


def switch_language(app: Flask, client: FlaskClient, locale: str) -> None:
    """Press the language switch, whatever shape the route has (a link or a form)."""
    rule = next(app.url_map.iter_rules("web.language"))
    with app.test_request_context():
        from flask import url_for

        url = url_for("web.language", locale=locale, next="/")
    method = "POST" if "POST" in (rule.methods or ()) else "GET"
    response = client.open(url, method=method, data={"locale": locale, "next": "/"})
    assert response.status_code in (302, 303), response.get_data(as_text=True)


def test_the_language_switch_wins_over_accept_language(app: Flask, client: FlaskClient) -> None:
    switch_language(app, client, "pt_BR")
    cookie = client.get_cookie(LOCALE_COOKIE)
    assert cookie is not None and cookie.value == "pt_BR"
    for accept in ("en", "pt-PT", None):
        lang, html = home(client, accept)
        assert lang == "pt-BR"
        assert KNOWN["pt-BR"] in html
    switch_language(app, client, "en")
    assert home(client, "pt-PT")[0] == "en"


def test_an_unknown_locale_in_the_cookie_is_ignored(client: FlaskClient) -> None:
    client.set_cookie(LOCALE_COOKIE, "fr_FR")
    assert home(client, "pt-BR")[0] == "pt-BR"
    assert home(client)[0] == "pt-PT"


def test_every_locale_the_switch_offers_has_a_catalogue() -> None:
    assert set(LOCALES) == set(CATALOGUES)


# The game's own words -------------------------------------------------------------------


def visible_text(html: str) -> str:
    """The page's text, without tags and attributes (the SVG has a class named "pente")."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def pente_rubber(client: FlaskClient) -> str:
    """A rubber won 4-0 by Nós: two hands of 95 points, 2 games (capote) each."""
    response = client.post("/rubbers")
    assert response.status_code == 302, response.get_data(as_text=True)
    page = response.location
    for _ in range(2):
        response = client.post(
            page + "/hands", data={"action": "points", "team": "0", "points": "95"}
        )
        assert response.status_code == 302, response.get_data(as_text=True)
    return page


@pytest.mark.parametrize(
    ("accept", "name", "not_name"),
    [("pt-PT", "pente", "gato"), ("pt-BR", "gato", "pente"), ("en", "pente", "gato")],
)
def test_a_4_0_rubber_is_a_pente_in_portugal_and_a_gato_in_brazil(
    client: FlaskClient, accept: str, name: str, not_name: str
) -> None:
    page = pente_rubber(client)
    html = client.get(page, headers={"Accept-Language": accept}).get_data(as_text=True)
    assert LANG.search(html) and LANG.search(html).group(1) == accept  # type: ignore[union-attr]
    text = visible_text(html)
    assert "4 – 0" in text
    assert re.search(rf"\b{name}\b", text), text
    assert not re.search(rf"\b{not_name}\b", text), text
    if accept == "pt-PT":
        assert "Vencedores da partida: Nós" in text
        assert "95 → 2 jogos (capote)" in text
    if accept == "pt-BR":
        assert "Vencedores da partida: Nós" in text


def test_the_history_names_the_pente_in_the_phones_language(client: FlaskClient) -> None:
    pente_rubber(client)
    portuguese = visible_text(client.get("/history").get_data(as_text=True))
    brazilian = visible_text(
        client.get("/history", headers={"Accept-Language": "pt-BR"}).get_data(as_text=True)
    )
    assert re.search(r"\bpente\b", portuguese) and not re.search(r"\bgato\b", portuguese)
    assert re.search(r"\bgato\b", brazilian) and not re.search(r"\bpente\b", brazilian)


@pytest.mark.parametrize("accept", ["pt-PT", "pt-BR", "en"])
def test_the_table_pages_render_in_every_locale(client: FlaskClient, accept: str) -> None:
    """Every translated template string formats (newstyle gettext applies % to all of them)."""
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    response = client.post("/rubbers")
    page = response.location
    client.post(page + "/hands", data={"action": "tie"})
    client.post(page + "/hands", data={"action": "points", "team": "1", "points": "70"})
    client.post(page + "/hands", data={"action": "revoke-0", "confirm": "revoke-0"})
    for path in ("/", "/rubbers/new", page, page + "/hands/1", page + "/hands/2/edit", "/history"):
        response = client.get(path)
        assert response.status_code == 200, path
        html = response.get_data(as_text=True)
        assert LANG.search(html).group(1) == accept  # type: ignore[union-attr]
        assert "%(" not in html, path


def test_an_unknown_hand_action_is_refused_in_portuguese(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    response = client.post(page + "/hands", data={"action": "nonsense"})
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Escolha o que aconteceu na mão." in html and "must be one of" not in html


def test_european_portuguese_says_one_word_for_each_thing() -> None:
    """pt-PT says ligação (not link) and carta voltada (not virada), everywhere."""
    for message in load_po("pt_PT"):
        strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
        for string in strings:
            assert not re.search(r"\blinks?\b|virad", string or "", re.I), (message.id, string)
