"""The app's configuration.

Defaults, then instance/config.py or a test's mapping, then the environment."""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

ROOT = Path(__file__).resolve().parent.parent
"""The checkout: templates/, static/ and migrations/ sit beside the package."""


def asset_folder(name: str) -> str:
    """Return a top-level folder of the checkout, or the copy an installed wheel carries.

    An installed wheel's site-packages may hold another project's ``static/`` beside the package."""
    beside = ROOT / name
    in_checkout = (ROOT / "pyproject.toml").is_file() and beside.is_dir()
    return str(beside if in_checkout else Path(__file__).parent / name)


def secret_key(app: Flask) -> str:
    """SECRET_KEY from the environment, else instance/config.py, else one generated once."""
    from_env = os.environ.get("SECRET_KEY")
    if from_env:
        return from_env
    configured = app.config.get("SECRET_KEY")
    if configured:
        return str(configured)
    key_file = Path(app.instance_path) / "secret_key"
    if not key_file.exists():
        fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(secrets.token_hex(32))
    return key_file.read_text().strip()


def configure(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Fill ``app.config``: the defaults, instance/config.py or the test's mapping, the environment.

    The test's mapping stands in for instance/config.py; then DATABASE_URL, PROXY_COUNT,
    TRUSTED_HOSTS, the RATELIMIT_ settings (ENABLED, STORAGE_URI, FACTOR, KEY_PREFIX) and SECRET_KEY come from the
    environment (where a test's mapping does not set them). The engine's options follow the
    database's URL (:func:`engine_options`)."""
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        SQLALCHEMY_DATABASE_URI="sqlite:///"
        + os.path.join(app.instance_path, "scorekeeper.sqlite3"),
        # The CSRF token lives as long as the session: a rubber page stays usable all evening.
        WTF_CSRF_TIME_LIMIT=None,
        # Checked by web.guard, for the methods that write only.
        WTF_CSRF_CHECK_DEFAULT=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PERMANENT_SESSION_LIFETIME=400 * 24 * 3600,
        # The cookie is signed again only when the session changes (every write does), not on
        # each page: a phone that only looks keeps its session 400 days after its last write.
        SESSION_REFRESH_EACH_REQUEST=False,
        MAX_CONTENT_LENGTH=256 * 1024,
        BABEL_DEFAULT_LOCALE="pt_PT",
        BABEL_TRANSLATION_DIRECTORIES=str(Path(__file__).parent / "translations"),
        HISTORY_PAGE_SIZE=20,
        # Proxies in front whose X-Forwarded-For/-Proto/-Host/-Prefix are believed (web/proxy.py).
        PROXY_COUNT=0,
        # On https only: Strict-Transport-Security's max-age (0: no header), and the session
        # cookie's name prefix (empty: the plain name), which browsers hold to Secure, Path=/
        # and no Domain (docs/decisions/security.md, "Headers and cookies").
        HSTS_MAX_AGE=365 * 24 * 3600,
        SESSION_COOKIE_HTTPS_PREFIX="__Host-",
        # Rate limits on creations (web/limits.py): on unless RATELIMIT_ENABLED=0; counters in
        # this process unless RATELIMIT_STORAGE_URI names a storage servers share (Redis).
        RATELIMIT_ENABLED=True,
        RATELIMIT_STORAGE_URI="memory://",
        RATELIMIT_KEY_PREFIX="scorekeeper",
        # That storage out of reach, each process counts in memory meanwhile, with a warning in
        # the log (Flask-Limiter's "falling back to in-memory storage"), and goes back to it
        # once it answers again: a creation is never a 500 for it.
        RATELIMIT_IN_MEMORY_FALLBACK_ENABLED=True,
        # How many times the documented limits a client may create: 1 in production; the
        # system tests, whose one address creates hundreds, raise it (and keep Redis counting).
        RATELIMIT_FACTOR=1,
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.from_mapping(test_config)
    if os.environ.get("DATABASE_URL") and not (test_config or {}).get("SQLALCHEMY_DATABASE_URI"):
        app.config["SQLALCHEMY_DATABASE_URI"] = os.environ["DATABASE_URL"]
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = engine_options(
        str(app.config["SQLALCHEMY_DATABASE_URI"]), app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {})
    )
    if os.environ.get("PROXY_COUNT", "").strip():
        app.config["PROXY_COUNT"] = os.environ["PROXY_COUNT"].strip()
    app.config["PROXY_COUNT"] = proxy_count(app.config["PROXY_COUNT"])
    if os.environ.get("TRUSTED_HOSTS", "").strip():
        app.config["TRUSTED_HOSTS"] = os.environ["TRUSTED_HOSTS"]
    if isinstance(app.config.get("TRUSTED_HOSTS"), str):
        app.config["TRUSTED_HOSTS"] = trusted_hosts(app.config["TRUSTED_HOSTS"])
    for name in (
        "RATELIMIT_ENABLED",
        "RATELIMIT_STORAGE_URI",
        "RATELIMIT_FACTOR",
        "RATELIMIT_KEY_PREFIX",
    ):
        if os.environ.get(name, "").strip() and name not in (test_config or {}):
            app.config[name] = os.environ[name].strip()
    app.config["RATELIMIT_ENABLED"] = switch(app.config["RATELIMIT_ENABLED"])
    app.config["RATELIMIT_FACTOR"] = limit_factor(app.config["RATELIMIT_FACTOR"])
    app.config["SECRET_KEY"] = secret_key(app)


def engine_options(url: str, configured: dict[str, Any]) -> dict[str, Any]:
    """SQLAlchemy's engine options: a database server's pooled connections are tried first.

    A connection the pool kept across a server's restart is dead; ``pool_pre_ping`` finds it
    at checkout, for one round trip, and opens a new one, so no request after the restart
    fails. An SQLite file has no server to restart: its connections are not tried
    (docs/decisions/serving.md, "The databases"). Options configured win.

    >>> engine_options("postgresql+psycopg://db/scorekeeper", {})
    {'pool_pre_ping': True}
    >>> engine_options("sqlite:///scorekeeper.sqlite3", {})
    {}
    """
    if url.startswith("sqlite"):
        return dict(configured)
    return {"pool_pre_ping": True, **configured}


def proxy_count(value: object) -> int:
    """PROXY_COUNT as a number of proxies; anything else stops the start with the reason.

    >>> proxy_count("1")
    1
    """
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or int(text) > 10:
        raise ValueError(f"PROXY_COUNT must be a whole number from 0 to 10, not {value!r}")
    return int(text)


def trusted_hosts(value: str) -> list[str] | None:
    """TRUSTED_HOSTS, comma-separated, as Flask's list of the hosts a request may name.

    Empty, any host is taken (None). A name starting with a dot takes its subdomains too.

    >>> trusted_hosts("sueca.example, .sueca.example")
    ['sueca.example', '.sueca.example']
    """
    hosts = [host.strip() for host in value.split(",") if host.strip()]
    return hosts or None


def limit_factor(value: object) -> int:
    """RATELIMIT_FACTOR as a whole number from 1 to 100,000.

    >>> limit_factor("50")
    50
    """
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= 100_000:
        raise ValueError(f"RATELIMIT_FACTOR must be a whole number from 1 to 100000, not {value!r}")
    return int(text)


def switch(value: object) -> bool:
    """A setting that is on or off: ``0``, ``false``, ``no`` or ``off`` turn it off.

    >>> switch("0"), switch("1"), switch(True)
    (False, True, True)
    """
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("0", "false", "no", "off"):
        return False
    if text in ("1", "true", "yes", "on"):
        return True
    raise ValueError(f"RATELIMIT_ENABLED must be 0 or 1, not {value!r}")
