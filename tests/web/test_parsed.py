"""The Cookie and Accept-Encoding headers, parsed once per distinct header and worker."""

from __future__ import annotations

import pytest
from flask import Flask
from werkzeug.http import parse_accept_header

from scorekeeper.web import parsed


def test_the_same_headers_share_one_parse_and_read_as_werkzeug_reads_them(app: Flask) -> None:
    headers = {"Cookie": "lang=pt_BR; a=1; a=2", "Accept-Encoding": "br;q=0, gzip;q=0.5"}
    with app.test_request_context(headers=headers) as first:
        cookies, encodings = first.request.cookies, first.request.accept_encodings
    with app.test_request_context(headers=headers) as second:
        assert second.request.cookies is cookies
        assert second.request.accept_encodings is encodings
    assert isinstance(first.request, parsed.Request)
    assert cookies.get("lang") == "pt_BR" and cookies.getlist("a") == ["1", "2"]
    assert encodings == parse_accept_header(headers["Accept-Encoding"])
    assert encodings["gzip"] == 0.5
    with app.test_request_context(headers={"Cookie": "lang=en"}) as other:
        assert other.request.cookies is not cookies and other.request.cookies["lang"] == "en"
        assert "gzip" not in other.request.accept_encodings


def test_a_parse_cannot_be_changed_by_the_request_that_read_it(app: Flask) -> None:
    with app.test_request_context(headers={"Cookie": "lang=en"}) as context:
        with pytest.raises(TypeError):
            context.request.cookies["lang"] = "pt_PT"  # type: ignore[index]
        assert context.request.cookies["lang"] == "en"
