"""A group's backup restored from its page: the API's import, sentences for bad files.

Any refusal stores nothing and is a sentence in the page's language, never a 500 (issue 25,
item 9); the browser's round trip is tests/browser/test_group_share.py."""

from __future__ import annotations

import io
import json
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import given
from hypothesis import strategies as st

from tests.groups.test_groups import en, start_group, text  # noqa: F401  the fixture
from tests.support.fuzzing import fuzzed


def restore(client: FlaskClient, group_id: str, data: bytes | None) -> str:
    """Send ``data`` as the backup file; return the group page it comes back to, as text."""
    files = {"backup": (io.BytesIO(data), "backup.json")} if data is not None else {}
    answer = client.post(f"/g/{group_id}/restore", data=files, content_type="multipart/form-data")
    assert answer.status_code == 302, answer.status_code
    assert answer.location.endswith(f"/g/{group_id}")
    return text(client.get(answer.location).get_data(as_text=True))


def count(client: FlaskClient, group_id: str) -> int:
    rubbers: int = client.get(f"/api/v1/groups/{group_id}").get_json()["rubbers"]
    return rubbers


@pytest.mark.parametrize(
    ("data", "sentence"),
    [
        (None, "Choose the backup file to restore."),
        (b"\x89PNG\r\n\x1a\n", "This file is not a group's backup"),
        (b"[1, 2", "This file is not a group's backup"),
        (
            json.dumps({"rubbers": [{"hands": [{"points": [61, 59]}, {"points": [200, 0]}]}]}).encode(),
            "The backup was not restored:",
        ),
        (b'{"rubbers": "all of them"}', "The backup was not restored:"),
    ],
)  # fmt: skip
def test_a_bad_file_gets_a_sentence_and_stores_nothing(
    en: FlaskClient,  # noqa: F811  the fixture
    data: bytes | None,
    sentence: str,
) -> None:
    group_id = start_group(en)
    page = restore(en, group_id, data)
    assert sentence in page
    assert count(en, group_id) == 0


def test_the_refusal_names_the_place_in_the_page_s_language(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "pt-PT"
    group_id = start_group(client)
    hands = [{"kind": "played", "points": [61, 59]}, {"kind": "played", "points": [200, 0]}]
    page = restore(client, group_id, json.dumps({"rubbers": [{"hands": hands}]}).encode())
    assert "A cópia de segurança não foi reposta:" in page
    assert page.count("rubbers[0].hands[1]") == 1, page
    assert count(client, group_id) == 0


def test_a_backup_restored_twice_adds_its_rubbers_once(app: Flask, en: FlaskClient) -> None:  # noqa: F811
    source = start_group(en, "Tasca")
    key = re.search(r'id="edit-url" href="[^"]+/edit/([^"]+)"', en.get(f"/g/{source}").text)
    assert key
    for players in (["Ana", "Rui", "Eva", "Zé"], ["Rui", "Ana", "Zé", "Eva"]):
        made = en.post(
            "/api/v1/rubbers",
            json={"players": players, "group": source},
            headers={"X-Group-Key": key.group(1)},
        )
        assert made.status_code == 201
    backup = en.get(f"/api/v1/groups/{source}/export.json").get_data()
    target = start_group(en, "Café")
    assert "Backup restored: 2 rubbers added, 0 already here." in restore(en, target, backup)
    assert "Backup restored: 0 rubbers added, 2 already here." in restore(en, target, backup)
    assert count(en, target) == 2


def test_only_a_phone_that_may_edit_the_group_restores(app: Flask, en: FlaskClient) -> None:  # noqa: F811
    group_id = start_group(en)
    stranger = app.test_client()
    answer = stranger.post(
        f"/g/{group_id}/restore",
        data={"backup": (io.BytesIO(b'{"rubbers": []}'), "backup.json")},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 403
    shown = stranger.get(f"/g/{group_id}").get_data(as_text=True)
    assert "/restore" not in shown and "export.json" not in shown and "sheet.csv" in shown


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
KEYS = st.sampled_from(["rubbers", "hands", "points", "kind", "teams", "players", "revoke"])
BACKUPS = st.one_of(
    st.binary(max_size=64),
    JSON.map(lambda value: json.dumps(value).encode()),
    st.fixed_dictionaries(
        {"rubbers": st.lists(st.dictionaries(KEYS, JSON, max_size=4), max_size=3)}
    ).map(lambda value: json.dumps(value).encode()),
)


def test_no_file_makes_the_restore_fail_badly(en: FlaskClient) -> None:  # noqa: F811
    group_id = start_group(en)

    @fuzzed
    @given(data=BACKUPS)
    def fuzz(data: bytes) -> None:
        before = count(en, group_id)
        page = restore(en, group_id, data)  # a redirect to a page that says what happened
        if "Backup restored" not in page:
            said = ("Choose the backup", "not a group's backup", "The backup was not restored")
            assert any(sentence in page for sentence in said), page
            assert count(en, group_id) == before

    fuzz()
