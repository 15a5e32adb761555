"""nginx's own answers, through .ci/proxy: the same headers as the app's, the truth, no keys.

What nginx answers by itself (a body too large, a request it cannot read, gunicorn down) carries
the app's security headers and says what the app would, in the reader's language; a body over
256 KiB is refused by nginx itself, every time, outside a group's import; and nginx's error log
never holds an edit key (issue 24, items 4, 9 and 12)."""

from __future__ import annotations

import json
import re
import socket
import ssl
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from scorekeeper import gunicorn_conf
from scorekeeper.web.security import DOCUMENT_ONLY, HEADERS
from tests.support.servers import Stack, behind_proxy, proxy

BIG = 300 * 1024
"""Over the app's 256 KiB for any request but a group's import."""
APPS_HEADERS = {**dict(HEADERS), "Strict-Transport-Security": "max-age=31536000"}
"""What every answer over https carries (scorekeeper/web/security.py), nginx's own included."""
EDIT_KEY = re.compile(r"/[rgbt]/[^/\s\"]+/edit/([^/?\s\"]+)")


@pytest.fixture
def stack(tmp_path: Path) -> Iterator[Stack]:
    with behind_proxy(tmp_path) as running:
        yield running


def _padded(body: object, size: int) -> bytes:
    """``body`` as JSON, padded with white space to ``size`` bytes: still the same JSON."""
    text = json.dumps(body).encode()
    return text + b" " * (size - len(text))


def _same_headers_as_the_app(answer: requests.Response, static: bool = False) -> None:
    """The app's headers; a static file's without a document's (scorekeeper/web/security.py)."""
    for name, value in APPS_HEADERS.items():
        expected = None if static and name.lower() in DOCUMENT_ONLY else value
        assert answer.headers.get(name) == expected, (answer.status_code, answer.url, name)


def _raw(stack: Stack, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send ``request`` as it is over TLS (HTTP/1.1) and read nginx's whole answer."""
    tls = ssl.create_default_context(cafile=stack.front.cert)
    with (
        socket.create_connection(("127.0.0.1", stack.front.port), timeout=10) as raw,
        tls.wrap_socket(raw, server_hostname="127.0.0.1") as sock,
    ):
        sock.sendall(request)
        received = b""
        while chunk := sock.recv(65536):
            received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().title()] = value.strip()
    return int(lines[0].split()[1]), headers, body


def test_a_body_over_256_kib_is_413_from_nginx_every_time(
    stack: Stack, capsys: pytest.CaptureFixture[str]
) -> None:
    with stack.front.session() as phone:
        rubber = phone.post(f"{stack.url}/api/v1/rubbers", json={}, timeout=10).json()
        hands = f"{stack.url}/api/v1/rubbers/{rubber['id']}/hands"
        big = _padded({"points": [60, 60]}, BIG)
        edit = {"X-Edit-Key": rubber["edit_key"], "Content-Type": "application/json"}
        statuses = [
            phone.post(hands, data=big, headers=edit, timeout=10).status_code for _ in range(20)
        ]
        refused = phone.post(hands, data=big, headers=edit, timeout=10)
        page = phone.post(f"{stack.url}/r/{rubber['id']}", data=big, timeout=10)
        english = phone.post(hands, data=big, headers={**edit, "Accept-Language": "en"}, timeout=10)
        # Just under the limit still reaches the app, which takes it.
        fits = phone.post(
            hands, data=_padded({"points": [60, 60]}, 256 * 1024), headers=edit, timeout=10
        )
        # A group's import may be larger: nginx passes it, the app imports it.
        group = phone.post(f"{stack.url}/api/v1/groups", json={"name": "T"}, timeout=10).json()
        keyed = {"X-Group-Key": group["edit_key"], "Content-Type": "application/json"}
        exported = phone.get(group["export_url"], timeout=10).json()
        imported = phone.post(
            f"{stack.url}/api/v1/groups/{group['id']}/import",
            data=_padded(exported, 2 * 1024 * 1024),
            headers=keyed,
            timeout=30,
        )
        too_big_import = phone.post(
            f"{stack.url}/api/v1/groups/{group['id']}/import",
            data=_padded(exported, 16 * 1024 * 1024 + 1),
            headers=keyed,
            timeout=30,
        )
        # And the backup restored from the group's page, by the phone that opened its edit link.
        phone.get(group["edit_url"], timeout=10)
        shown = phone.get(f"{stack.url}/g/{group['id']}", timeout=10).text
        token = re.search(r'name="csrf_token" value="([^"]+)"', shown)
        assert token, shown[:300]
        restored = phone.post(
            f"{stack.url}/g/{group['id']}/restore",
            data={"csrf_token": token.group(1)},
            files={"backup": ("backup.json", _padded(exported, 2 * 1024 * 1024))},
            headers={"Referer": f"{stack.url}/g/{group['id']}"},
            timeout=30,
        )

    with capsys.disabled():
        print(
            f"\n[hardening] 20 hand POSTs of {BIG // 1024} KiB through nginx: "
            f"{statuses.count(413)} answered 413, {statuses.count(502)} 502"
        )
    assert statuses == [413] * 20, statuses
    assert refused.headers["Content-Type"] == "application/json"
    assert refused.json() == {
        "error": "O pedido é demasiado grande.",
        "field": None,
        "code": "http_413",
    }
    assert english.json()["error"] == "The request is too large."
    assert page.status_code == 413 and page.headers["Content-Type"] == "text/html; charset=utf-8"
    assert '<html lang="pt-PT">' in page.text
    assert "<h1>Demasiado grande</h1>" in page.text and "O pedido é demasiado grande." in page.text
    for answer in (refused, page):
        _same_headers_as_the_app(answer)
    assert fits.status_code == 201, fits.text[:300]
    assert imported.status_code == 200, imported.text[:300]
    assert too_big_import.status_code == 413
    assert too_big_import.json()["code"] == "http_413"
    assert restored.status_code == 200, restored.text[:300]  # after its redirect
    assert "Cópia de segurança reposta" in restored.text, restored.text[:2000]
    for server in stack.servers:
        server.stop()  # flushes gunicorn's log
    served = "".join(server.log.read_text() for server in stack.servers)
    assert '" 413 ' not in served, "nginx should have refused every body too large itself"


def test_nginxs_own_answers_carry_the_apps_headers(stack: Stack) -> None:
    with stack.front.session() as phone:
        ordinary = phone.get(f"{stack.url}/", timeout=10)
        static = phone.get(f"{stack.url}/static/app.css", timeout=10)
        missing = phone.get(f"{stack.url}/static/no-such-file.css", timeout=10)
        too_large = phone.post(f"{stack.url}/api/v1/rubbers", data=b"x" * BIG, timeout=10)
    _same_headers_as_the_app(ordinary)  # once each: nginx adds none the app has set
    _same_headers_as_the_app(static, static=True)
    assert missing.status_code == 404
    _same_headers_as_the_app(missing)  # an error page: a document, with every header
    _same_headers_as_the_app(too_large)
    assert too_large.status_code == 413

    for request in (
        b"NOT A REQUEST\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: ../../etc\r\n\r\n",
    ):
        status, headers, _ = _raw(stack, request)
        assert status == 400, request
        for name, value in APPS_HEADERS.items():
            assert headers.get(name.title()) == value, (request, name)

    stack.servers[0].stop()
    with stack.front.session() as phone:
        down = phone.get(f"{stack.url}/", timeout=10)
        api_down = phone.post(f"{stack.url}/api/v1/rubbers", json={}, timeout=10)
    for answer in (down, api_down):
        assert answer.status_code == 502
        _same_headers_as_the_app(answer)
        assert answer.headers["Retry-After"] == "10"
    # The truth, as the app says it of a database out of reach.
    assert api_down.json()["code"] == "unavailable"
    assert "tente outra vez daqui a pouco" in api_down.json()["error"]
    assert '<html lang="pt-PT">' in down.text and "O servidor não está a responder" in down.text


def _stalled_post(stack: Stack, path: str, referer: str) -> int:
    """POST 40 KB to ``path`` with ``referer``, stalling a second halfway: the answer's status.

    A body that large is kept in a file by nginx, which logs a warning naming the request."""
    body = b"x" * 40_000
    tls = ssl.create_default_context(cafile=stack.front.cert)
    with (
        socket.create_connection(("127.0.0.1", stack.front.port), timeout=10) as raw,
        tls.wrap_socket(raw, server_hostname="127.0.0.1") as sock,
    ):
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nReferer: {referer}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
            "Connection: close\r\n\r\n".encode()
        )
        sock.sendall(body[:20_000])
        time.sleep(1.0)
        sock.sendall(body[20_000:])
        answer = b""
        while chunk := sock.recv(65536):
            answer += chunk
    return int(answer.split(b" ", 2)[1])


def test_no_edit_key_reaches_nginxs_error_log(stack: Stack) -> None:
    with stack.front.session() as phone:
        rubber = phone.post(f"{stack.url}/api/v1/rubbers", json={}, timeout=10).json()
        group = phone.post(f"{stack.url}/api/v1/groups", json={"name": "T"}, timeout=10).json()
        game = phone.post(
            f"{stack.url}/api/v1/bidding", json={"players": ["A", "B", "C", "D"]}, timeout=10
        ).json()
    made = (rubber, group, game)
    keys = [one["edit_key"] for one in made]
    edit_path = rubber["edit_url"].removeprefix(stack.url)
    # A client that stalls halfway through its body: at the edit link, and with it as Referer.
    assert _stalled_post(stack, edit_path, group["edit_url"]) == 405
    assert _stalled_post(stack, f"/api/v1/rubbers/{rubber['id']}/hands", game["edit_url"]) in (
        400,
        403,
        415,
    )

    stack.servers[0].stop()  # gunicorn down: nginx logs an error for each request
    with stack.front.session() as phone:
        for one in made:
            assert phone.get(one["edit_url"], timeout=10).status_code == 502
            referred = phone.get(one["url"], headers={"Referer": one["edit_url"]}, timeout=10)
            assert referred.status_code == 502
        written = phone.post(
            f"{stack.url}/api/v1/rubbers/{rubber['id']}/hands",
            json={"points": [60, 60]},
            headers={"X-Edit-Key": rubber["edit_key"], "X-Group-Key": group["edit_key"]},
            timeout=10,
        )
        assert written.status_code == 502
        # Still logged: a request naming no key.
        assert phone.get(f"{stack.url}/r/{rubber['id']}", timeout=10).status_code == 502

    errors = stack.front.error_log.read_text()
    assert f"/r/{rubber['id']} HTTP" in errors, errors[-2000:]  # the log works
    for key in keys:
        assert key not in errors, [line for line in errors.splitlines() if key in line]
    assert not EDIT_KEY.findall(errors), errors[-2000:]
    logged = stack.front.access_log.read_text()
    for key in keys:
        assert key not in logged


def _nginx_upstream_keepalive() -> float:
    conf = (Path(__file__).parents[2] / "deploy" / "nginx.conf").read_text()
    upstream = re.search(r"^upstream scorekeeper \{(.*?)^\}", conf, re.M | re.S)
    assert upstream, "no upstream block"
    found = re.search(r"keepalive_timeout (\d+)s;", upstream.group(1))
    assert found, "the upstream's keepalive_timeout is nginx's default; name it"
    return float(found.group(1))


def test_gunicorn_keeps_an_idle_connection_longer_than_nginx_does(stack: Stack) -> None:
    """nginx must close an idle connection to gunicorn first.

    A POST it sends on one gunicorn is closing is lost, and nginx never sends a POST twice (a
    502, item 9). gunicorn's setting is read from the running server: after 3 s idle (its default kept 2) the
    same connection still answers."""
    assert gunicorn_conf.keepalive > _nginx_upstream_keepalive()
    gunicorn = stack.servers[0]
    request = b"GET /api/v1/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", gunicorn.port), timeout=10) as sock:
        for _ in range(2):
            sock.sendall(request)
            head = sock.recv(65536)
            assert head.startswith(b"HTTP/1.1 200"), head[:100]
            length = int(re.search(rb"Content-Length: (\d+)", head, re.I).group(1))  # type: ignore[union-attr]
            received = len(head.partition(b"\r\n\r\n")[2])
            while received < length:
                received += len(sock.recv(65536))
            time.sleep(3.0)


def test_the_https_redirect_names_the_sites_own_host(tmp_path: Path) -> None:
    """Rendered with its name (render-nginx --name), plain http goes to that name.

    Whatever Host a client sends; with none (any name), to the Host asked for (item 11)."""
    nowhere = "127.0.0.1:9"  # nothing is passed on: the redirect is nginx's own answer
    with proxy(tmp_path / "named", ["--name", "localhost", nowhere]) as named:
        with requests.Session() as client:
            client.trust_env = False
            moved = client.get(
                f"{named.http_url}/r/x?y=1",
                headers={"Host": "evil.example"},
                allow_redirects=False,
                timeout=10,
            )
    https_port = named.url.rsplit(":", 1)[1]
    assert moved.status_code == 301
    assert moved.headers["Location"] == f"https://localhost:{https_port}/r/x?y=1"
