"""The OpenAPI document lists the refusals answered before any view.

415 on every operation that takes a body, 429 (with Retry-After) on every rate-limited one; and each
is answered as listed, in the error shape, its sentence in the reader's language (api/openapi.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from scorekeeper.api.errors import Error
from scorekeeper.api.openapi import document
from scorekeeper.web.limits import LIMITS
from tests.support.apps import fresh_app

PLACEHOLDER = re.compile(r"<(?:[a-z]+:)?(\w+)>")


def operations() -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, item in document()["paths"].items():
        for method, operation in item.items():
            yield method, path, operation


def test_every_operation_with_a_body_lists_415_and_answers_it(app: Flask) -> None:
    client = app.test_client()
    with_body = [(m, p, o) for m, p, o in operations() if "requestBody" in o]
    assert len(with_body) >= 10
    for method, path, operation in with_body:
        assert "415" in operation["responses"], (method, path)
        url = re.sub(r"\{\w+\}", "1", path)
        answer = client.open(
            url, method=method.upper(), data='{"a": 1}', content_type="text/plain",
            headers={"Accept-Language": "en"},
        )  # fmt: skip
        assert answer.status_code == 415, (method, path, answer.status_code)
        body = Error.model_validate(answer.get_json())
        assert body.code == "not_json" and "application/json" in body.error
    for method, path, operation in operations():
        if "requestBody" not in operation:
            assert "415" not in operation["responses"], (method, path)


def test_every_limited_operation_lists_429(app: Flask) -> None:
    """Read from the app's own routes: a limited endpoint the document left out fails here."""
    limited = set()
    for rule in app.url_map.iter_rules():
        if rule.endpoint in LIMITS and rule.rule.startswith("/api/"):
            limited.add(("post", PLACEHOLDER.sub(r"{\1}", rule.rule)))
    # rubbers, groups, bidding games, imports, analyses, tournaments
    assert len(limited) == 6, limited
    for method, path, operation in operations():
        responses = operation["responses"]
        if (method, path) in limited:
            assert responses["429"]["content"]["application/json"]["schema"] == {
                "$ref": "#/components/schemas/Error"
            }
            assert responses["429"]["headers"]["Retry-After"]["schema"]["type"] == "integer"
        else:
            assert "429" not in responses, (method, path)


@pytest.mark.parametrize(
    ("language", "words"), [("pt-PT", "espere um minuto"), ("pt-BR", "minuto"), ("en", "minute")]
)
def test_the_429_answers_a_sentence_in_the_readers_language(
    tmp_path: Path, language: str, words: str
) -> None:
    config = {"TESTING": True, "SECRET_KEY": "x", "RATELIMIT_ENABLED": True}
    with fresh_app(tmp_path / "limited.sqlite3", config) as app:
        client = app.test_client()
        headers = {"Accept-Language": language}
        answers = []
        for _ in range(11):
            answers.append(client.post("/api/v1/groups", json={"name": "T"}, headers=headers))
        refused = answers[-1]
        assert [a.status_code for a in answers] == [201] * 10 + [429]
        body = Error.model_validate(refused.get_json())
        assert body.code == "rate_limited" and words in body.error
        assert int(refused.headers["Retry-After"]) >= 1
