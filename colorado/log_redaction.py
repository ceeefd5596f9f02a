"""Secrets never reach the logs through a URL (issue 43, trial item 12): a bearer token sent
by mistake as ``?token=`` on the socket is refused, and uvicorn's lines (its access log, and
its "WebSocket … [accepted]" lines on ``uvicorn.error``) show it as ``[redacted]``, as they do
a socket ticket and any ``key``, ``password`` or ``access_token`` parameter.

``install()`` runs when the ASGI application loads (``colorado/asgi.py``), after uvicorn has
configured its loggers, in every worker process."""

from __future__ import annotations

import logging
import re

SECRET = re.compile(
    r"([?&;](?:token|access_token|ticket|key|password|secret)=)[^&;\s\"']*", re.IGNORECASE
)
LOGGERS = ("uvicorn.access", "uvicorn.error", "django.request", "django.server")


def redact(text: str) -> str:
    return SECRET.sub(r"\1[redacted]", text)


class RedactSecrets(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        return True


def install() -> None:
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, RedactSecrets) for f in logger.filters):
            logger.addFilter(RedactSecrets())
