"""gunicorn's settings for serving the app for real (``make serve``).

See docs/decisions/serving.md, "The servers". The address and the workers come from the environment,
the access log is on, with the edit keys of edit links taken out of it.

    gunicorn --config python:scorekeeper.gunicorn_conf 'scorekeeper:create_app()'
"""

from __future__ import annotations

import os
import subprocess
from typing import TYPE_CHECKING, Any, cast

from gunicorn.glogging import Logger

from scorekeeper.web.logs import NoEditKeys, redacted

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict  # types-gunicorn's, not gunicorn's


class RedactingLogger(Logger):
    """gunicorn's logger, whose lines never carry an edit key.

    Not in an access line's request line, path, referrer, nor any header or environment value a
    log format may name; nor in an error line ("Error handling request <path>") or its
    traceback."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        if not any(isinstance(kept, NoEditKeys) for kept in self.error_log.filters):
            self.error_log.addFilter(NoEditKeys())

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> _AtomsDict:
        atoms = super().atoms(resp, req, environ, request_time)
        safe = {
            name: redacted(value) if isinstance(value, str) else value
            for name, value in atoms.items()
        }
        return cast("_AtomsDict", safe)


bind = f"{os.environ.get('HOST', '127.0.0.1')}:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
worker_class = "gthread"
threads = 4
timeout = 30
# Longer than nginx keeps an idle connection to us (deploy/nginx.conf, keepalive_timeout 60s), so
# nginx always closes one first: with gunicorn's 2 s, a POST sent on a connection gunicorn was
# closing was lost, a 502 (nginx sends no POST twice).
keepalive = 75
accesslog = "-"
errorlog = "-"
logger_class = RedactingLogger
# Forwarded headers are the app's to trust or not (PROXY_COUNT, werkzeug's ProxyFix): gunicorn
# would otherwise take X-Forwarded-Proto from any client on 127.0.0.1.
forwarded_allow_ips = ""
secure_scheme_headers: dict[str, str] = {}
# gunicorn 25's control socket sits at one path per user: a second server on the machine (the
# "more than one app server" setup) would take it over from the first. Nothing here uses it.
control_socket_disable = True


# ANALYSIS_WORKER=1 (`make serve` sets it): the master also runs the analyses' consumer
# (scorekeeper/worker.py) beside its web workers, started when it is ready, stopped with it.
_consumer: list[subprocess.Popen[bytes]] = []


def when_ready(server: Any) -> None:
    if os.environ.get("ANALYSIS_WORKER", "").strip() == "1":
        from scorekeeper.background.consumer import command

        _consumer.append(subprocess.Popen(command()))


def on_exit(server: Any) -> None:
    from scorekeeper.background.consumer import stop

    for consumer in _consumer:
        stop(consumer)
