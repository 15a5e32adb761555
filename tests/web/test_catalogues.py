"""The catalogues as GNU gettext reads them: every entry well formed, its placeholders kept.

Git merges the `.po` files by union (.gitattributes), which can leave an entry with two
translations; Babel reads such a file without a word and keeps the first, so the check is
GNU msgfmt's."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.support.servers import ROOT, need_program

CATALOGUES = sorted((ROOT / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"))


def test_there_is_a_catalogue_per_interface_language() -> None:
    assert [path.parent.parent.name for path in CATALOGUES] == ["en", "pt_BR", "pt_PT"]


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda path: path.parent.parent.name)
def test_msgfmt_reads_the_catalogue_without_an_error(catalogue: Path, tmp_path: Path) -> None:
    msgfmt = need_program("msgfmt", "gettext")
    checked = subprocess.run(
        [
            msgfmt,
            "--check-format",
            "--check-domain",
            "-o",
            str(tmp_path / "messages.mo"),
            catalogue,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr


def test_a_second_translation_of_one_entry_is_an_error(tmp_path: Path) -> None:
    """What a union merge leaves when both sides translated an entry again."""
    msgfmt = need_program("msgfmt", "gettext")
    merged = tmp_path / "merged.po"
    merged.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgid "Played: card points"\nmsgstr "Jogada até o fim: pontos das cartas"\n'
        'msgstr "Jogada normal (pontos)"\n',
        encoding="utf-8",
    )
    checked = subprocess.run(
        [msgfmt, "--check-format", "-o", str(tmp_path / "merged.mo"), merged],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode != 0


PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


@pytest.mark.parametrize("catalogue", CATALOGUES, ids=lambda path: path.parent.parent.name)
def test_no_translation_says_a_placeholder_more_often_than_its_original(catalogue: Path) -> None:
    """Two translations run together (a union merge's other leftover) repeat their placeholders."""
    with catalogue.open("rb") as file:
        messages = [message for message in read_po(file) if message.id]
    assert messages
    doubled = []
    for message in messages:
        originals = message.id if isinstance(message.id, tuple) else (message.id,)
        translations = message.string if isinstance(message.string, tuple) else (message.string,)
        for original, translation in zip(originals, translations, strict=False):
            if translation and len(PLACEHOLDER.findall(translation)) > len(
                PLACEHOLDER.findall(original)
            ):
                doubled.append(original)
    assert doubled == []


@pytest.mark.pure
def test_each_portuguese_quotes_as_its_readers_do() -> None:
    """pt-PT quotes with «…», pt-BR with “…”: the other country's marks read as foreign."""
    marks = {"pt_PT": "“”", "pt_BR": "«»"}
    for catalogue in CATALOGUES:
        foreign = marks.get(catalogue.parent.parent.name)
        if foreign is None:
            continue
        with catalogue.open("rb") as file:
            said = [
                str(message.string)
                for message in read_po(file)
                if message.id and any(mark in str(message.string) for mark in foreign)
            ]
        assert said == [], f"{catalogue.parent.parent.name}: {said}"
