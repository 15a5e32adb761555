"""`make serve`: the real gunicorn with the project's settings, its access log read back.

The commands are the ones the Makefile runs (``make -n``), so the test serves what the README
tells an operator to run; edit links pass through it and their keys never reach the log.
"""

from __future__ import annotations

import os
import re
import runpy
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

from scorekeeper import gunicorn_conf
from tests.support.records import FULL_RECORD
from tests.support.servers import ROOT, Gunicorn, as_from_a_terminal, free_port, need_program

CONF = ROOT / "scorekeeper" / "gunicorn_conf.py"


def make_dry_run(*arguments: str) -> list[str]:
    """The commands `make` would run, one per line, without running them."""
    need_program("make", "make")
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=30,
        check=True,
    )
    return [line for line in done.stdout.splitlines() if line.strip()]


def test_make_run_installs_only_what_serving_needs() -> None:
    fresh = ["VENV=/nonexistent-venv"]
    run = "\n".join(make_dry_run("run", *fresh))
    serve = "\n".join(make_dry_run("serve", *fresh))
    test = "\n".join(make_dry_run("test", *fresh))
    for serving in (run, serve):
        assert "pip install --quiet -e ." in serving
        assert "[test" not in serving and "bench" not in serving
    assert "pip install --quiet -e '.[test,bench]'" in test
    assert "pybabel compile" in run  # the catalogues, before the first page


def test_settings_default_to_the_loopback_address_and_port_8000(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("HOST", "PORT", "WEB_CONCURRENCY"):
        monkeypatch.delenv(name, raising=False)
    settings = runpy.run_path(str(CONF))
    assert settings["bind"] == "127.0.0.1:8000"
    assert settings["workers"] == 2
    assert settings["accesslog"] == "-"
    monkeypatch.setenv("HOST", "0.0.0.0")
    monkeypatch.setenv("PORT", "9123")
    monkeypatch.setenv("WEB_CONCURRENCY", "5")
    settings = runpy.run_path(str(CONF))
    assert (settings["bind"], settings["workers"]) == ("0.0.0.0:9123", 5)


@pytest.mark.parametrize(
    ("line", "shown"),
    [
        ("GET /r/abc/edit/KEY-1_x HTTP/1.1", "GET /r/abc/edit/[redacted] HTTP/1.1"),
        ("/g/abc/edit/KEY?next=/", "/g/abc/edit/[redacted]?next=/"),
        ("GET /b/abc/edit/KEY-1_x HTTP/1.1", "GET /b/abc/edit/[redacted] HTTP/1.1"),
        ("https://x.example/prefix/r/a/edit/KEY", "https://x.example/prefix/r/a/edit/[redacted]"),
        ("/r/abc/hands", "/r/abc/hands"),
        ("/r/abc/hands/3/edit", "/r/abc/hands/3/edit"),
    ],
)
def test_edit_keys_are_redacted(line: str, shown: str) -> None:
    assert gunicorn_conf.redacted(line) == shown


def test_make_serve_logs_every_request_and_no_edit_key(tmp_path: Path) -> None:
    bin_dir = str(Path(sys.executable).parent)
    commands = make_dry_run("-o", "install", "serve", f"BIN={bin_dir}")
    assert len(commands) == 2 and "gunicorn" in commands[1], commands
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'served.sqlite3'}",
        # make serve's consumer of the analyses works beside the database, not in instance/.
        "ANALYSIS_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
        "SECRET_KEY": "serving-test",
        "WEB_CONCURRENCY": "3",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("PROXY_COUNT", None)
    upgrade = subprocess.run(
        shlex.split(commands[0]), cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert upgrade.returncode == 0, upgrade.stderr[-3000:]

    # The recipe's own settings (ANALYSIS_WORKER=1 ...) go before the command, as the shell reads them.
    command = shlex.split(commands[1])
    while command and "=" in command[0] and not command[0].startswith(("/", ".")):
        name, value = command.pop(0).split("=", 1)
        env[name] = value
    log = tmp_path / "gunicorn.log"
    server = Gunicorn(env=env, log=log, command=command)
    server.start()
    try:
        with requests.Session() as phone:
            rubber = phone.post(f"{server.url}/api/v1/rubbers", json={}, timeout=10).json()
            group = phone.post(
                f"{server.url}/api/v1/groups", json={"name": "Tasca"}, timeout=10
            ).json()
            game = phone.post(
                f"{server.url}/api/v1/bidding", json={"players": ["A", "B", "C", "D"]}, timeout=10
            ).json()
            for made in (rubber, group, game):
                assert made["edit_url"].startswith(server.url + "/")
                opened = phone.get(made["edit_url"], allow_redirects=False, timeout=10)
                assert opened.status_code == 302, opened.text[:300]
            # A page opened from an edit link names it as its referrer.
            page = phone.get(
                f"{server.url}/r/{rubber['id']}",
                headers={"Referer": rubber["edit_url"]},
                timeout=10,
            )
            assert page.status_code == 200
    finally:
        server.stop()

    text = log.read_text()
    assert f"Listening at: http://127.0.0.1:{server.port}" in text
    assert "Using worker: gthread" in text
    assert len(re.findall(r"Booting worker with pid", text)) == 3, text[-3000:]
    assert re.search(r'"POST /api/v1/rubbers HTTP/1\.1" 201', text), text[-3000:]
    for made, letter in ((rubber, "r"), (group, "g"), (game, "b")):
        line = f'"GET /{letter}/{made["id"]}/edit/[redacted] HTTP/1.1" 302'
        assert line in text, text[-3000:]
        assert made["edit_key"] not in text
    assert f'"{server.url}/r/{rubber["id"]}/edit/[redacted]"' in text  # the referrer


def test_make_run_analyses_beside_the_development_server(tmp_path: Path) -> None:
    """The README's `make run` analyses too (issue 25, item 1).

    Its recipe starts a consumer beside the development server, a hand is analysed end to end,
    and Ctrl-C stops both."""
    bin_dir = str(Path(sys.executable).parent)
    commands = make_dry_run("-o", "install", "run", f"BIN={bin_dir}")
    assert len(commands) == 2 and "db upgrade" in commands[0], commands
    served = shlex.split(commands[1])
    assert served[1:4] == ["-m", "scorekeeper.background.beside", f"{bin_dir}/flask"], served
    assert served[4:] == ["--app", "scorekeeper", "run", "--host", "127.0.0.1", "--port", "5000"]
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}",
        "ANALYSIS_QUEUE_URL": f"sqlite:///{tmp_path / 'queue.sqlite3'}",
        "SECRET_KEY": "run-test",
    }
    upgrade = subprocess.run(
        shlex.split(commands[0]), cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert upgrade.returncode == 0, upgrade.stderr[-3000:]
    port = free_port()  # the recipe's 5000 may be taken on a shared machine
    server = Gunicorn(
        env=env,
        log=tmp_path / "run.log",
        port=port,
        command=as_from_a_terminal([*served[:-1], str(port)]),
    )
    server.start()
    assert server.process is not None
    try:
        analysis = requests.post(
            f"{server.url}/api/v1/analysis",
            json={"trump": "H", "leader": 1, "tricks": FULL_RECORD},
            timeout=10,
        )
        assert analysis.status_code == 202, analysis.text
        status_url = analysis.json()["status_url"]
        end = time.monotonic() + 60
        status: dict[str, object] = {}
        while time.monotonic() < end and status.get("status") not in ("done", "failed"):
            time.sleep(0.2)
            status = requests.get(status_url, timeout=10).json()
        assert status.get("status") == "done", (status, server.log.read_text()[-3000:])
    finally:
        os.killpg(server.process.pid, signal.SIGINT)  # Ctrl-C, to make's whole group
        server.process.wait(timeout=40)
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # nothing of it left running, the consumer neither
        os.killpg(server.process.pid, 0)


def test_gunicorns_error_lines_hold_no_edit_key(capsys: pytest.CaptureFixture[str]) -> None:
    """gunicorn's own "Error handling request <path>" line and its traceback, as a worker logs them."""
    from gunicorn.config import Config

    config = Config()
    config.set("errorlog", "-")
    logger = gunicorn_conf.RedactingLogger(config)
    key = "s3cr3t-EditKey_0123456789abcdef"
    try:
        raise OSError(f"reset while answering /g/abc/edit/{key}")
    except OSError:
        logger.exception("Error handling request %s", f"/r/abc/edit/{key}?x=1")
    written = capsys.readouterr().err
    assert "Error handling request /r/abc/edit/[redacted]?x=1" in written, written
    assert "OSError: reset while answering /g/abc/edit/[redacted]" in written, written
    assert key not in written
