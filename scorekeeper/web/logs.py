"""What the logs may hold: never the key of an edit link.

The key in an edit link's address lets a phone change a rubber, a group or a bidding game. The
app's own log lines (Flask's "Exception on <path>" among them) and gunicorn's access lines
(scorekeeper/gunicorn_conf.py) name the address with the key taken out; nginx's access log does
the same in deploy/nginx.conf.
"""

from __future__ import annotations

import logging
import re

from flask import Flask

EDIT_LINK = re.compile(r"(/[rgbt]/[^/?#\s]+/edit/)[^/?#\s\"]+")
"""An edit link's path, whose last part is the key that lets a phone change a rubber, a group, a
bidding game or a tournament."""
REDACTED = r"\1[redacted]"


def redacted(text: str) -> str:
    """Return ``text`` with the key of every edit link in it replaced.

    >>> redacted("GET /r/x7Fq/edit/s3cr3t-Key_1?a=b HTTP/1.1")
    'GET /r/x7Fq/edit/[redacted]?a=b HTTP/1.1'
    >>> redacted("GET /t/Tn9x/edit/s3cr3t-Key_2 HTTP/1.1")
    'GET /t/Tn9x/edit/[redacted] HTTP/1.1'
    """
    return EDIT_LINK.sub(REDACTED, text)


class NoEditKeys(logging.Filter):
    """A filter that takes edit keys out of a record.

    Out of its message, its arguments filled in, and of the traceback it carries (an exception's
    own message may name the address)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if EDIT_LINK.search(message):
            record.msg, record.args = redacted(message), None
        if record.exc_info and not record.exc_text:
            # Formatters use exc_text when it is set, rather than formatting the exception again.
            record.exc_text = redacted(logging.Formatter().formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = redacted(record.stack_info)
        return True


def init_app(app: Flask) -> None:
    """The app's logger says no edit key, whatever handler writes its lines."""
    app.logger.addFilter(NoEditKeys())
