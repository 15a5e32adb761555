"""How pages and files travel: the rubber page's ETag and 304, gzip, hashed static URLs."""

from __future__ import annotations

import gzip
import re
import time
from pathlib import Path

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from scorekeeper.web import delivery, page_cache
from tests.support.apps import fresh_app

GZIP = {"Accept-Encoding": "gzip"}


def start(client: FlaskClient) -> str:
    return str(client.post("/rubbers").location)


def record(client: FlaskClient, page: str, points: str = "75") -> None:
    answer = client.post(page + "/hands", data={"action": "points", "team": "0", "points": points})
    assert answer.status_code == 302
    client.get(page)  # the page that shows the hand's note once


def test_an_unchanged_rubber_page_answers_304(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    follower = app.test_client()  # a phone following the score from the read-only link
    first = follower.get(page)
    assert first.status_code == 200
    etag = first.headers["ETag"]
    assert etag.startswith('W/"')
    assert first.headers["Last-Modified"].endswith(" GMT")
    assert first.headers["Cache-Control"] == "private, no-cache"
    assert {"Cookie", "Accept-Language"} <= set(first.vary)
    again = follower.get(page, headers={"If-None-Match": etag})
    assert again.status_code == 304
    assert again.get_data() == b""
    assert again.headers["ETag"] == etag


def test_followers_without_a_cookie_share_one_etag(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    follower = app.test_client(use_cookies=False)
    first, second = follower.get(page), follower.get(page)
    assert first.headers["ETag"] == second.headers["ETag"]
    assert "Set-Cookie" not in first.headers  # no session made for a page with no form
    assert follower.get(page, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_two_copies_of_the_scorers_page_send_one_hand_and_say_so(client: FlaskClient) -> None:
    """Two tabs of the scoring phone hold the same kept page, write key and all.

    The same hand sent from both is stored once, and the second tab is told so."""
    page = start(client)
    first, second = (client.get(page) for _ in range(2))
    assert second.headers["ETag"] == first.headers["ETag"]
    html = first.get_data(as_text=True)
    sent = {"action": "points", "team": "0", "points": "75"}
    sent |= {"key": hidden(html, "key"), "version": hidden(html, "version")}
    for _tab in range(2):
        assert client.post(page + "/hands", data=sent).status_code == 302
    assert "Essa mão já estava registada" in client.get(page).get_data(as_text=True)
    state = client.get(page.replace("/r/", "/api/v1/rubbers/")).get_json()
    assert [hand["points"] for hand in state["hands"]] == [[75, 45]]


def test_a_new_hand_gives_the_page_a_new_etag(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    follower = app.test_client()
    before = follower.get(page).headers["ETag"]
    record(client, page)
    after = follower.get(page, headers={"If-None-Match": before})
    assert after.status_code == 200
    assert after.headers["ETag"] != before
    assert "75" in after.get_data(as_text=True)


def test_another_phone_or_language_never_gets_304_for_a_copy_it_does_not_hold(
    app: Flask, client: FlaskClient
) -> None:
    page = start(client)
    follower = app.test_client()
    etag = follower.get(page).headers["ETag"]
    assert client.get(page, headers={"If-None-Match": etag}).status_code == 200  # the scorer
    follower.get("/language/en")
    in_english = follower.get(page, headers={"If-None-Match": etag})
    assert in_english.status_code == 200
    assert '<html lang="en">' in in_english.get_data(as_text=True)


def hidden(html: str, name: str) -> str:
    found = re.search(rf'name="{name}"[^>]*value="([^"]+)"', html)
    assert found, name
    return found.group(1)


def test_two_phones_share_a_rendering_but_not_their_tokens(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    record(client, page)  # the undo form, which carries the session's CSRF token
    mine = client.get(page).get_data(as_text=True)
    edit_url = re.search(r'id="edit-url" href="([^"]+)"', client.get(page + "/share").text)
    assert edit_url
    other = app.test_client()
    other.get(edit_url.group(1))  # the edit link: this phone may record hands too
    theirs = other.get(page).get_data(as_text=True)
    with app.app_context():
        assert len(page_cache.pages().renders) == 1
    assert hidden(mine, "csrf_token") != hidden(theirs, "csrf_token")
    assert hidden(mine, "key") != hidden(theirs, "key")
    assert re.search(r'data-edit-key="([^"]+)"', theirs)
    # A phone asking again before anything changes gets its same page, as a 304 would.
    assert client.get(page).get_data(as_text=True) == mine
    reader = app.test_client().get(page).get_data(as_text=True)
    assert "data-edit-key" not in reader and 'name="key"' not in reader


def test_a_hands_note_is_shown_once_over_the_kept_page(client: FlaskClient) -> None:
    page = start(client)
    client.get(page)
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    noted = client.get(page).get_data(as_text=True)
    assert 'class="note note-hand"' in noted
    plain = client.get(page).get_data(as_text=True)
    assert 'class="note note-hand"' not in plain
    assert plain.count('class="summary"') == 1


def test_pages_scripts_and_stylesheets_are_gzipped(app: Flask, client: FlaskClient) -> None:
    page = start(client)
    for phone in (client, app.test_client()):  # the scorer's page, and a follower's
        html = phone.get(page, headers=GZIP)
        assert html.headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in html.vary
        unpacked = gzip.decompress(html.get_data()).decode()
        plain = phone.get(page).get_data(as_text=True)
        if 'name="key"' in plain:  # each copy of the scorer's page has its own write key
            unpacked = unpacked.replace(hidden(unpacked, "key"), "")
            plain = plain.replace(hidden(plain, "key"), "")
        assert unpacked == plain
    for path in ("/static/app.css", "/static/hands.js", "/sw.js", "/glossary"):
        answer = client.get(path, headers=GZIP)
        assert answer.headers["Content-Encoding"] == "gzip", path
        assert gzip.decompress(answer.get_data()) == client.get(path).get_data(), path
        answer.close()
    # A PNG is compressed already: sent as it is.
    icon = client.get("/static/icons/icon-512.png", headers=GZIP)
    assert "Content-Encoding" not in icon.headers
    assert icon.get_data().startswith(b"\x89PNG")


def test_static_urls_carry_a_hash_and_are_kept_a_year(client: FlaskClient) -> None:
    html = client.get("/").get_data(as_text=True)
    found = re.search(r'href="(/static/app\.css)\?v=([0-9a-f]{12})"', html)
    assert found, "the stylesheet's URL carries its hash"
    path, digest = found.groups()
    hashed = client.get(f"{path}?v={digest}")
    assert hashed.status_code == 200
    assert hashed.headers["Cache-Control"] == f"public, max-age={delivery.YEAR}, immutable"
    # The bare path, or an old hash, is checked again each time instead.
    for url in (path, f"{path}?v=000000000000"):
        answer = client.get(url)
        assert answer.headers["Cache-Control"] == "no-cache", url
        again = client.get(url, headers={"If-None-Match": answer.headers["ETag"]})
        assert again.status_code == 304, url


def test_a_static_file_is_known_by_its_hash(app: Flask) -> None:
    with app.test_request_context():
        static = delivery.static_file("app.css")
        assert static is not None
        assert re.fullmatch(r"[0-9a-f]{12}", static.digest)
        assert delivery.static_file("../pyproject.toml") is None
        assert delivery.static_file("no-such-file.css") is None


def test_static_files_outside_the_folder_or_missing_are_404(client: FlaskClient) -> None:
    for path in ("/static/no-such-file.css", "/static/../pyproject.toml", "/static/icons"):
        assert client.get(path).status_code == 404, path


def test_stylesheets_and_scripts_are_served_minified(client: FlaskClient) -> None:
    css = client.get("/static/app.css").get_data(as_text=True)
    assert "/*" not in css and "\n  " not in css
    script = client.get("/static/hands.js").get_data(as_text=True)
    assert not re.search(r"^\s*//", script, re.M)
    assert delivery.minified(b"a { color: red; } /* why */", "text/css") == b"a{color:red}"


def test_every_script_is_served_with_its_own_names_shortened(
    app: Flask, client: FlaskClient
) -> None:
    """Each script of static/ is ES5 that the minifier reads; its inner names are shortened.

    A script it could not read (a newer syntax) would be a 500 for that file, so each is read
    here. The top-level names, which pages and other scripts use, are kept."""
    folder = Path(app.static_folder or "")
    scripts = sorted(folder.glob("*.js"))
    assert len(scripts) >= 10
    for path in scripts:
        served = client.get(f"/static/{path.name}", headers={"Accept-Encoding": "identity"})
        assert served.status_code == 200, path.name
        assert len(served.get_data()) < len(path.read_bytes()) * 0.8, path.name
    hands = client.get("/static/hands.js", headers={"Accept-Encoding": "identity"})
    assert "withOutlook" in (folder / "hands.js").read_text()
    assert "withOutlook" not in hands.get_data(as_text=True)  # a name inside its function
    assert b"var CONFIG=" in client.get("/sw.js").get_data()  # a top-level name, kept


def test_a_script_the_minifier_cannot_read_goes_as_written(
    caplog: pytest.LogCaptureFixture,
) -> None:
    newer = b"const total = (hands) => hands.length;"
    assert delivery.minified(newer, "application/javascript") == newer
    assert "cannot read" in caplog.text


def test_the_etags_build_hash_follows_the_code(tmp_path: Path) -> None:
    """A release that changes only Python (a rule, a sentence) is a new ETag too."""
    (tmp_path / "views.py").write_text("WORDING = 1\n")
    probe = Flask("probe", root_path=str(tmp_path))
    before = page_cache.build_id(probe)
    assert page_cache.build_id(probe) == before
    (tmp_path / "views.py").write_text("WORDING = 2\n")
    assert page_cache.build_id(probe) != before


def test_a_remembered_session_is_a_copy_and_a_forged_cookie_is_never_one(
    app: Flask, client: FlaskClient
) -> None:
    page = start(client)  # the phone's session: its device, which may record hands
    cookie = client.get_cookie("session")
    assert cookie is not None
    interface = app.session_interface
    with app.test_request_context(headers={"Cookie": f"session={cookie.value}"}):
        first = interface.open_session(app, request)
        assert first is not None and "device" in first
        first["device"] = "changed in one request"
        again = interface.open_session(app, request)  # read from memory this time
        assert again is not None and again["device"] != "changed in one request"
    genuine, forged = app.test_client(), app.test_client()
    genuine.set_cookie("session", cookie.value)
    flipped = "A" if cookie.value[-2] != "A" else "B"
    forged.set_cookie("session", cookie.value[:-2] + flipped + cookie.value[-1])
    hand = {"action": "points", "team": "0", "points": "75"}
    assert genuine.post(page + "/hands", data=hand).status_code == 302
    assert forged.post(page + "/hands", data=hand).status_code == 403


def test_a_remembered_session_ends_with_the_cookies_life(tmp_path: Path) -> None:
    """A cookie verified less than an hour ago, but whose life has ended since, is a new session.

    The memory of its signature does not outlive it."""
    with fresh_app(
        tmp_path / "life.sqlite3",
        {"TESTING": True, "WTF_CSRF_ENABLED": False, "PERMANENT_SESSION_LIFETIME": 2},
    ) as app:
        started = app.test_client().post("/rubbers")
        page = str(started.location)
        found = re.search(r"session=([^;]+)", started.headers["Set-Cookie"])
        assert found  # (the test client's jar drops a cookie of a life this short at once)
        cookie = found.group(1)
        interface = app.session_interface
        with app.test_request_context(headers={"Cookie": f"session={cookie}"}):
            session = interface.open_session(app, request)
            assert session is not None and "device" in session  # verified, and remembered
            time.sleep(3.1)  # itsdangerous counts whole seconds: 3 > 2 however they fall
            session = interface.open_session(app, request)
            assert session is not None and "device" not in session
        phone = app.test_client()
        hand = {"action": "points", "team": "0", "points": "75"}
        answer = phone.post(page + "/hands", data=hand, headers={"Cookie": f"session={cookie}"})
        assert answer.status_code == 403
