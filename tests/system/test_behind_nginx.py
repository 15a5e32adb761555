"""The documented proxy for real: deploy/nginx.conf's nginx in front of `make serve`'s gunicorn.

The nginx has TLS and a certificate of its own; the gunicorn runs with `PROXY_COUNT=1 make serve`;
both are driven over https with requests."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.servers import Stack, behind_proxy

EDIT_PATH = re.compile(r"/[rgbt]/[^/]+/edit/([^/?\s\"]+)")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with behind_proxy(tmp_path) as running:
        yield running


def test_links_cookies_and_headers_name_the_https_address(stack: Stack) -> None:
    with stack.front.session() as phone:
        # A phone's own X-Forwarded-Host and -Prefix never reach a link: nginx sets its own.
        lies = {"X-Forwarded-Host": "evil.example", "X-Forwarded-Prefix": "/evil"}
        created = phone.post(f"{stack.url}/api/v1/rubbers", json={}, headers=lies, timeout=10)
        assert created.status_code == 201, created.text[:300]
        rubber = created.json()
        assert rubber["url"] == f"{stack.url}/r/{rubber['id']}"
        assert rubber["edit_url"].startswith(f"{stack.url}/r/{rubber['id']}/edit/")
        assert created.headers["Location"].startswith(stack.url + "/")

        page = phone.get(rubber["edit_url"], timeout=10)
        assert page.status_code == 200 and page.url == rubber["url"]
        assert page.history[0].status_code == 302
        shared = phone.get(rubber["url"] + "/share", timeout=10)  # the links to pass on
        assert shared.status_code == 200
        links = shared.text
        assert f'href="{rubber["url"]}"' in links and f'href="{rubber["edit_url"]}"' in links
        html = page.text
        for text in (html, links):
            assert "evil" not in text and "http://" not in text.replace("http://www.w3.org", "")
        assert page.headers["Strict-Transport-Security"] == "max-age=31536000"
        cookies = {cookie.name: cookie for cookie in phone.cookies}
        assert "session" not in cookies
        session = cookies["__Host-session"]
        assert session.secure and session.path == "/" and not session.domain_specified

        # The static files come from nginx, kept for a year under their hash, and gzipped.
        stylesheet = re.search(r'href="(/static/app\.css\?v=[0-9a-f]+)"', html)
        assert stylesheet, html[:2000]
        static = phone.get(stack.url + stylesheet.group(1), timeout=10)
        assert static.status_code == 200
        assert static.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert static.headers["Content-Encoding"] == "gzip"
        for answer in (page, static):  # the app's headers, and nginx's own for its files
            for name in (
                "Strict-Transport-Security",
                "X-Content-Type-Options",
                "Cross-Origin-Resource-Policy",
            ):
                assert name in answer.headers, (answer.url, name)
        for name in ("Content-Security-Policy", "Permissions-Policy", "Cross-Origin-Opener-Policy"):
            assert name in page.headers, name
            assert name not in static.headers, name  # a document's only (security.py)
        assert page.headers["Cache-Control"] == "no-store"  # it shows the edit link
        served = "".join(server.log.read_text() for server in stack.servers)
        assert "/static/app.css" not in served  # nginx answered it alone

    # Plain http is sent to https.
    with stack.front.session() as phone:
        plain = phone.get(f"{stack.front.http_url}/r/x", allow_redirects=False, timeout=10)
    assert plain.status_code == 301
    assert plain.headers["Location"] == f"https://127.0.0.1:{stack.url.rsplit(':', 1)[1]}/r/x"


def test_edit_keys_stay_out_of_nginxs_log(stack: Stack) -> None:
    with stack.front.session() as phone:
        rubber = phone.post(f"{stack.url}/api/v1/rubbers", json={}, timeout=10).json()
        group = phone.post(f"{stack.url}/api/v1/groups", json={"name": "T"}, timeout=10).json()
        game = phone.post(
            f"{stack.url}/api/v1/bidding", json={"players": ["A", "B", "C", "D"]}, timeout=10
        ).json()
        pairs = [{"players": [f"Ana {n}", f"Bruno {n}"]} for n in (1, 2, 3)]
        tournament = phone.post(
            f"{stack.url}/api/v1/tournaments",
            json={"name": "T", "format": "knockout", "pairs": pairs},
            timeout=10,
        ).json()
        for made in (rubber, group, game, tournament):
            assert phone.get(made["edit_url"], timeout=10).status_code == 200
        phone.get(rubber["url"], headers={"Referer": rubber["edit_url"]}, timeout=10)
    for server in stack.servers:
        server.stop()  # flushes gunicorn's log
    logged = stack.front.access_log.read_text()
    assert logged.count("/edit/[redacted]") == 5, logged
    for made in (rubber, group, game, tournament):
        assert made["edit_key"] not in logged
    assert not EDIT_PATH.findall(logged.replace("[redacted]", ""))
    gunicorn = "".join(server.log.read_text() for server in stack.servers)
    for made in (rubber, group, game, tournament):
        assert made["edit_key"] not in gunicorn
