"""Issue 43, trial item 12: a bearer token sent by mistake as ``?token=`` on the socket is
refused, and the server's log shows it redacted (``colorado/log_redaction.py``)."""

from __future__ import annotations

import logging
import signal
import urllib.request
from pathlib import Path

import pytest

from colorado.log_redaction import RedactSecrets, redact
from tests.ops.test_client_address import _wait_for_site
from tests.ops.test_run_command import environment, start, stop

SECRET = "tok-abcdefghijklmnop"


def test_secrets_in_urls_are_redacted() -> None:
    assert redact(f"/ws/games/1/?token={SECRET}") == "/ws/games/1/?token=[redacted]"
    assert redact(f"/x/?a=1&ticket={SECRET}&b=2") == "/x/?a=1&ticket=[redacted]&b=2"
    assert redact("/games/1/?version=3") == "/games/1/?version=3"
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s"',
        ("127.0.0.1", "GET", f"/api/games?token={SECRET}"),
        None,
    )
    RedactSecrets().filter(record)
    assert SECRET not in record.getMessage()


def test_the_servers_log_never_shows_a_token_from_a_url(tmp_path: Path) -> None:
    environ = environment(tmp_path, {"LOG_LEVEL": "INFO"}, drop={"DATABASE_URL", "REDIS_URL"})
    proc, log = start(tmp_path, environ)
    try:
        _wait_for_site(proc, log, environ["PORT"])
        base = f"127.0.0.1:{environ['PORT']}"
        with urllib.request.urlopen(f"http://{base}/healthz?token={SECRET}", timeout=10):
            pass
        websockets = pytest.importorskip("websockets.sync.client")
        url = f"ws://{base}/ws/games/1/?token={SECRET}"
        # Refused, however it says so.
        with pytest.raises(Exception), websockets.connect(url, open_timeout=10) as ws:  # noqa: B017, PT011
            ws.recv(timeout=10)
    finally:
        stop(proc, signal.SIGTERM)
    text = log.read_text()
    assert "healthz" in text, "the access log is on"
    assert SECRET not in text
    assert "token=[redacted]" in text
