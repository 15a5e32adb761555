"""A wheel that works: `pip wheel .` from a clean copy of the checkout, served in Portuguese.

The copy has no compiled catalogues; the wheel is installed into a fresh venv, with its
dependencies, and served from another folder.

The copy holds what a clone would: the files git tracks or would (not the ignored .mo files,
nor .venv). The venv takes the wheel's dependencies from the package index (pip's cache first).
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import requests

from tests.support.servers import ROOT, Gunicorn, need_program

BUILD_TIMEOUT = 600


def clean_copy(target: Path) -> Path:
    """The checkout as a fresh clone of it would be, working-tree changes included."""
    need_program("git", "git")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    for name in filter(None, listed.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            (target / name).write_bytes(source.read_bytes())
            (target / name).chmod(source.stat().st_mode)
    assert not list(target.rglob("*.mo")), "a clean copy has no compiled catalogue"
    return target


def run(command: list[str], **options: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        command, capture_output=True, text=True, timeout=BUILD_TIMEOUT, check=False, **options
    )
    assert done.returncode == 0, f"{command}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def test_a_wheel_from_a_clean_clone_serves_portuguese_from_anywhere(tmp_path: Path) -> None:
    checkout = clean_copy(tmp_path / "clone")
    dist = tmp_path / "dist"
    run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(dist), str(checkout)])
    (wheel,) = dist.glob("sueca_scorekeeper-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for locale in ("pt_PT", "pt_BR", "en"):
        assert f"scorekeeper/translations/{locale}/LC_MESSAGES/messages.mo" in names
    for needed in (
        "scorekeeper/templates/base.html",
        "scorekeeper/templates/rubbers/show.html",
        "scorekeeper/static/app.css",
        "scorekeeper/static/sw.js",
        "scorekeeper/static/icons/icon.svg",
        "scorekeeper/migrations/env.py",
        "scorekeeper/gunicorn_conf.py",
    ):
        assert needed in names, needed

    venv = tmp_path / "venv"
    # A venv without a pip of its own (ensurepip alone took 8 s), which the suite's pip fills
    # (--python), its bytecode left to the first imports: the venv and the install took 41 s,
    # now 16 (the test, 59 s alone, now 46).
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = str(venv / "bin" / "python")
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            python,
            "install",
            "-q",
            "--no-compile",
            str(wheel),
        ]
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONPATH", "VIRTUAL_ENV", "DATABASE_URL", "PROXY_COUNT")
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'wheel.sqlite3'}",
        SECRET_KEY="wheel",
        WEB_CONCURRENCY="1",
    )
    where = run(
        [python, "-c", "import scorekeeper, sys; print(scorekeeper.__file__)"],
        cwd=elsewhere,
        env=env,
    ).stdout.strip()
    assert where.startswith(str(venv)), where
    run(
        [str(venv / "bin" / "flask"), "--app", "scorekeeper", "db", "upgrade"],
        cwd=elsewhere,
        env=env,
    )

    command = [
        str(venv / "bin" / "gunicorn"),
        "--config",
        "python:scorekeeper.gunicorn_conf",
        "scorekeeper:create_app()",
    ]
    server = Gunicorn(env=env, log=tmp_path / "gunicorn.log", command=command, cwd=elsewhere)
    server.start()
    try:
        with requests.Session() as phone:
            phone.trust_env = False
            home = phone.get(server.url + "/", headers={"Accept-Language": "pt-PT"}, timeout=10)
            assert home.status_code == 200
            assert 'lang="pt-PT"' in home.text and "Nova partida" in home.text, home.text[:1500]
            brazil = phone.get(server.url + "/", headers={"Accept-Language": "pt-BR"}, timeout=10)
            assert 'lang="pt-BR"' in brazil.text
            english = phone.get(server.url + "/", headers={"Accept-Language": "en"}, timeout=10)
            assert "New rubber" in english.text
            started = phone.post(
                server.url + "/api/v1/rubbers", json={}, headers={"Accept-Language": "pt-PT"}
            ).json()
            page = phone.get(started["edit_url"], headers={"Accept-Language": "pt-PT"}, timeout=10)
            assert page.status_code == 200 and "Registar" in page.text
            stylesheet = phone.get(f"{server.url}/static/app.css", timeout=10)
            assert (
                stylesheet.status_code == 200 and "text/css" in stylesheet.headers["Content-Type"]
            )
            assert phone.get(f"{server.url}/sw.js", timeout=10).status_code == 200
    finally:
        server.stop()
