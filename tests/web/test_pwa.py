"""The installable app: manifest, icons, service worker, and what the rubber page gives its JS."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web import pwa
from tests.support.apps import held_key

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.parametrize(
    ("accept", "name", "lang"),
    [
        ("pt-PT", "Marcador de Sueca", "pt-PT"),
        ("pt-BR", "Placar de Sueca", "pt-BR"),
        ("en", "Sueca scorekeeper", "en"),
    ],
)
def test_the_manifest_makes_the_app_installable(
    client: FlaskClient, accept: str, name: str, lang: str
) -> None:
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": accept})
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = json.loads(response.get_data(as_text=True))
    assert manifest["name"] == name
    assert manifest["lang"] == lang
    assert manifest["short_name"] and len(manifest["short_name"]) <= 12
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"])
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])
    sizes = {icon["sizes"] for icon in manifest["icons"] if icon["type"] == "image/png"}
    assert {"192x192", "512x512"} <= sizes
    assert any(icon.get("purpose") == "maskable" for icon in manifest["icons"])
    for icon in manifest["icons"]:
        served = client.get(icon["src"])
        assert served.status_code == 200, icon
        assert served.mimetype == icon["type"]
        served.close()
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert png_size(STATIC / icon["src"].removeprefix("/static/")) == (side, side)


def unhashed(html: str) -> str:
    """The page with each static URL's hash taken off (``/static/app.js?v=3f9c…``)."""
    assert re.search(r"/static/[\w/.-]+\?v=[0-9a-f]{12}\b", html), "static URLs carry a hash"
    return re.sub(r"(/static/[\w/.-]+)\?v=[0-9a-f]{12}\b", r"\1", html)


def test_the_icons_are_small() -> None:
    for name in ("icon-192.png", "icon-512.png", "icon.svg"):
        assert (STATIC / "icons" / name).stat().st_size < 8 * 1024, name


def test_every_page_links_the_manifest_the_icons_and_the_worker(client: FlaskClient) -> None:
    # Static files are linked under their hash (scorekeeper/delivery.py).
    html = unhashed(client.get("/").get_data(as_text=True))
    assert (
        '<link rel="manifest" href="/manifest.webmanifest" crossorigin="use-credentials">' in html
    )
    assert '<meta name="theme-color" content="#0b6b3a"' in html
    assert 'rel="apple-touch-icon" href="/static/icons/icon-192.png"' in html
    assert '<script defer src="/static/app.js" data-sw="/sw.js"></script>' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_the_service_worker_is_served_from_the_root_with_its_shell(client: FlaskClient) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.headers["Cache-Control"] == "no-cache"
    assert "default-src 'self'" in response.headers["Content-Security-Policy"]
    script = response.get_data(as_text=True)
    assert pwa.CONFIG_LINE not in script
    found = re.search(r"var CONFIG ?= ?(\{.*?\});", script)  # minified: maybe no spaces
    assert found, "the worker's shell was not filled in"
    config = json.loads(found.group(1))
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert "/manifest.webmanifest" in config["shell"]
    # Each file under the very address the pages name (its hash): a page of another release
    # names other addresses, which the worker fetches rather than answer with its own copy.
    page = client.get("/").get_data(as_text=True)
    for name in ("app.css", "app.js"):
        named = re.search(rf'"(/static/{re.escape(name)}\?v=[^"]+)"', page)
        assert named and named.group(1) in config["shell"], name
    assert all("?v=" in address for address in config["shell"] if address.startswith("/static/"))
    for path in config["shell"]:
        served = client.get(path)
        assert served.status_code == 200, path
        served.close()
    # The worker never answers for a write or the API (its names shortened when minified).
    assert re.search(r'\b\w+\.method!=="GET"', script.replace(" ", "")), script


def test_the_workers_version_follows_the_shell(app: Flask, tmp_path: Path) -> None:
    """A changed stylesheet is a new worker, so phones fetch the new shell."""
    with app.test_request_context():
        before = pwa.shell_version()
    app.static_folder = str(tmp_path)
    for name in (*pwa.SHELL, "sw.js"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes((STATIC / name).read_bytes())
    with app.test_request_context():
        assert pwa.shell_version() == before
        (tmp_path / "app.css").write_text("body { color: red; }")
        assert pwa.shell_version() != before


def test_the_static_scripts_are_few_small_and_deferred(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    html = unhashed(client.get(page).get_data(as_text=True))
    scripts = re.findall(r"<script[^>]*>", html)
    assert scripts == [
        '<script defer src="/static/app.js" data-sw="/sw.js">',
        '<script defer src="/static/hands.js">',
    ]
    assert re.search(r"<script[^>]*>\s*[^<\s]", html) is None, "no inline script"
    assert " style=" not in html and "<style" not in html
    # Small as a phone gets them: minified (web/delivery.py), before gzip. The sources keep
    # their comments, which the phone never downloads.
    for name in ("app.js", "hands.js", "sw.js"):
        served = client.get(f"/static/{name}", headers={"Accept-Encoding": "identity"})
        assert served.status_code == 200, name
        assert len(served.get_data()) < 11 * 1024, name


def edit_key_attribute(html: str) -> str | None:
    found = re.search(r'data-edit-key="([^"]+)"', html)
    return found.group(1) if found else None


def test_only_a_phone_that_may_edit_gets_the_edit_key(app: Flask, client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    rubber_id = page.rsplit("/", 1)[-1]
    key = held_key(app, client, rubber_id)
    html = client.get(page).get_data(as_text=True)
    assert edit_key_attribute(html) == key
    assert f'data-api="/api/v1/rubbers/{rubber_id}/hands"' in html
    assert "ainda não enviada" in html  # the pending list's words, ready for the script

    reader = app.test_client()
    html = reader.get(page).get_data(as_text=True)
    assert edit_key_attribute(html) is None
    assert key not in html
    assert "hands.js" not in html and "data-pending" not in html


def test_the_hand_form_is_in_the_sheet_with_undo(client: FlaskClient) -> None:
    page = client.post("/rubbers").location
    client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    html = client.get(page).get_data(as_text=True)
    sheet = html[html.index('class="record thumb-sheet"') :]
    sheet = sheet[: sheet.index("</section>")]
    for control in ('name="points"', 'value="tie"', 'value="revoke-1"', "Anular a última mão"):
        assert control in sheet, control
    assert 'form="undo-form"' in sheet and 'id="undo-form"' in sheet


def test_every_cross_on_a_page_has_its_own_pencil(client: FlaskClient) -> None:
    for _ in range(3):
        page = client.post("/rubbers").location
        client.post(page + "/hands", data={"action": "points", "team": "0", "points": "75"})
    html = client.get("/history").get_data(as_text=True)
    ids = re.findall(r'<filter id="([^"]+)"', html)
    used = re.findall(r'filter="url\(#([^)]+)\)"', html)
    assert len(ids) == 3 and len(set(ids)) == 3
    assert used == ids
    assert "feTurbulence" in html and "feDisplacementMap" in html
