"""The group page's share and backup, on a phone (issue 25, items 9 and 19).

The links come with QR codes a camera reads and copy buttons, the edit link's code folded
behind its disclosure; the share sheet's title names the players; a backup downloaded from
one group and restored into a new one gives the same rubbers."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .conftest import PHONE
from .test_share import read_qr, sharing_phone  # noqa: F401  the fixture

REVEAL = "Mostrar o código para quem vai registar"


def new_group(phone: Any, live_server: str, name: str) -> str:
    phone.goto(live_server + "/groups/new")
    phone.get_by_label("Nome do grupo").fill(name)
    phone.get_by_role("button", name="Criar o grupo").tap()
    expect(phone.get_by_role("heading", level=1)).to_have_text(name)
    return str(phone.url)


def test_the_group_s_links_have_qr_codes_and_copy_and_the_edit_code_is_folded(
    live_server: str,
    sharing_phone: Any,  # noqa: F811  the fixture
) -> None:
    phone = sharing_phone
    group_url = new_group(phone, live_server, "Tasca do Zé")
    follow, edit = phone.locator("[data-share-link]").all()
    follow_qr = follow.get_by_role("img", name="Código QR da ligação para o grupo")
    expect(follow_qr).to_be_visible()
    assert read_qr(phone, follow_qr) == [group_url]

    # The edit link's code is there only once asked for, under words that say whose it is.
    edit_qr = edit.get_by_role("img", name="Código QR da ligação para começar partidas no grupo")
    expect(edit_qr).to_be_hidden()
    edit_url = edit.locator(".link a").get_attribute("href")
    assert edit_url and edit_url.startswith(group_url + "/edit/")
    edit.get_by_text(REVEAL).tap()
    expect(edit_qr).to_be_visible()
    assert read_qr(phone, edit_qr) == [edit_url]

    edit.get_by_role("button", name="Copiar a ligação").tap()
    expect(edit.get_by_role("status")).to_have_text("Ligação copiada.")
    assert phone.evaluate("() => navigator.clipboard.readText()") == edit_url
    follow.get_by_role("button", name="Partilhar…").tap()
    assert phone.evaluate("() => window.shared") == [
        {"title": "Sueca: Tasca do Zé", "url": group_url}
    ]


def test_the_rubber_s_share_title_names_the_players_and_folds_the_edit_code(
    live_server: str,
    sharing_phone: Any,  # noqa: F811  the fixture
) -> None:
    phone = sharing_phone
    phone.goto(live_server + "/rubbers/new")
    for seat, name in enumerate(["Ana", "Carla", "Bruno", "Duarte"]):
        phone.locator(f"#player{seat}").fill(name)
    phone.get_by_role("button", name="Começar a partida").tap()
    expect(phone).to_have_url(re.compile(r"/r/[^/]+$"))
    rubber_url = phone.url
    phone.goto(rubber_url + "/share")
    follow, edit = phone.locator("[data-share-link]").all()
    expect(follow.get_by_role("img")).to_be_visible()
    expect(edit.get_by_role("img")).to_be_hidden()
    edit.get_by_text(REVEAL).tap()
    expect(edit.get_by_role("img")).to_be_visible()
    follow.get_by_role("button", name="Partilhar…").tap()
    assert phone.evaluate("() => window.shared") == [
        {"title": "Sueca: Ana e Bruno 0 – 0 Carla e Duarte", "url": rubber_url}
    ]


def test_a_backup_restored_into_a_new_group_gives_the_same_rubbers(
    live_server: str, phone: Any, tmp_path: Path
) -> None:
    group_url = new_group(phone, live_server, "Tasca do Zé")
    group_id = group_url.rsplit("/", 1)[-1]
    key = phone.locator("#edit-url").get_attribute("href").rsplit("/", 1)[-1]
    made = phone.request.post(
        live_server + "/api/v1/rubbers",
        data=json.dumps({"players": ["Ana", "Carla", "Bruno", "Duarte"], "group": group_id}),
        headers={"Content-Type": "application/json", "X-Group-Key": key},
    )
    assert made.status == 201, made.text()
    rubber = made.json()
    for points in ([75, 45], [30, 90], [100, 20]):
        played = phone.request.post(
            f"{live_server}/api/v1/rubbers/{rubber['id']}/hands",
            data=json.dumps({"points": points}),
            headers={"Content-Type": "application/json", "X-Edit-Key": rubber["edit_key"]},
        )
        assert played.status == 201, played.text()
    phone.reload()

    expect(phone.get_by_role("link", name="Descarregar a folha (CSV)")).to_be_visible()
    with phone.expect_download() as waiting:
        phone.get_by_role("link", name="Descarregar uma cópia de segurança").tap()
    backup = tmp_path / "backup.json"
    waiting.value.save_as(backup)

    # A file that is not a backup: a sentence, nothing stored, no 500.
    other_url = new_group(phone, live_server, "Café Central")
    other_id = other_url.rsplit("/", 1)[-1]
    wrong = tmp_path / "notes.json"
    wrong.write_text('{"rubbers": [{"hands": [{"points": [200, 0]}]}]}')
    phone.get_by_label("Ficheiro da cópia de segurança a repor").set_input_files(wrong)
    phone.get_by_role("button", name="Repor a cópia de segurança").tap()
    expect(phone.get_by_text("A cópia de segurança não foi reposta")).to_be_visible()
    assert phone.request.get(f"{live_server}/api/v1/groups/{other_id}").json()["rubbers"] == 0
    not_json = tmp_path / "photo.json"
    not_json.write_bytes(b"\x89PNG\r\n")
    phone.get_by_label("Ficheiro da cópia de segurança a repor").set_input_files(not_json)
    phone.get_by_role("button", name="Repor a cópia de segurança").tap()
    expect(phone.get_by_text("Este ficheiro não é uma cópia de segurança")).to_be_visible()

    phone.get_by_label("Ficheiro da cópia de segurança a repor").set_input_files(backup)
    phone.get_by_role("button", name="Repor a cópia de segurança").tap()
    expect(phone.get_by_text("Cópia de segurança reposta: 1 partida acrescentada")).to_be_visible()

    def rubbers(group: str) -> list[Any]:
        exported = phone.request.get(f"{live_server}/api/v1/groups/{group}/export.json").json()
        return [
            (r["teams"], r["players"], r["games"], [h["points"] for h in r["hands"]])
            for r in exported["rubbers"]
        ]

    assert rubbers(other_id) == rubbers(group_id)
    assert rubbers(group_id)[0][3] == [[75, 45], [30, 90], [100, 20]]


def test_the_share_and_backup_fit_a_small_phone(live_server: str, browser: Any) -> None:
    context = browser.new_context(**{**PHONE, "viewport": {"width": 360, "height": 640}})
    try:
        phone = context.new_page()
        new_group(phone, live_server, "Associação Recreativa de São Sebastião")
        phone.locator(".share-link details summary").tap()
        for element in (
            phone.get_by_role("img", name="Código QR da ligação para o grupo"),
            phone.get_by_role("img", name="Código QR da ligação para começar partidas no grupo"),
            phone.get_by_role("button", name="Repor a cópia de segurança"),
            phone.get_by_label("Ficheiro da cópia de segurança a repor"),
        ):
            element.scroll_into_view_if_needed()
            box = element.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert phone.evaluate("() => document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
