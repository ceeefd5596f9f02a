"""The client's address is taken once, in one place (issue 41, item 3): uvicorn's own
proxy-header handling (on by default, trusting 127.0.0.1) rewrote it from a made-up
``X-Forwarded-For`` before Django saw it, so ``TRUSTED_PROXY_COUNT=0`` protected neither
sign-up nor anonymous API reads nor the token endpoint. Tested through the run command, in
both modes, and the README's, ``manage.py serve``'s and ``dev.py run``'s commands agree."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from colorado import server_options
from colorado.client_address import real_address
from tests.ops.test_run_command import ROOT, environment, get_json, start, stop
from tests.waiting import wait_until


def test_the_address_rule() -> None:
    assert real_address("10.0.0.9", "1.2.3.4", 0) == "10.0.0.9"
    assert real_address("10.0.0.9", "6.6.6.6, 1.2.3.4", 1) == "1.2.3.4"
    assert real_address("10.0.0.9", "6.6.6.6, 1.2.3.4, 10.0.0.2", 2) == "1.2.3.4"
    assert real_address("10.0.0.9", "1.2.3.4", 2) == "10.0.0.9"  # not through the chain
    assert real_address("10.0.0.9", None, 1) == "10.0.0.9"


def _status(url: str, *, forwarded: str, body: bytes | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(url, data=body, headers=headers)  # noqa: S310
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def _wait_for_site(proc: subprocess.Popen[bytes], log: Path, port: str) -> None:
    def answers() -> bool:
        assert proc.poll() is None, log.read_text()[-3000:]
        return bool(get_json(f"http://127.0.0.1:{port}/healthz"))

    wait_until(answers, timeout=120, interval=0.3, message=lambda: log.read_text()[-3000:])


def _made_up_addresses_are_ignored(port: str) -> None:
    base = f"http://127.0.0.1:{port}"
    reads = [_status(f"{base}/api/games", forwarded=f"203.0.113.{n}") for n in range(65)]
    assert reads[:60] == [200] * 60, reads
    assert set(reads[60:]) == {429}, reads
    tries = [
        _status(
            f"{base}/api/auth/token",
            forwarded=f"198.51.100.{n}",
            body=json.dumps({"username": f"nobody{n}", "password": "wrong"}).encode(),
        )
        for n in range(23)
    ]
    assert tries[:20] == [401] * 20, tries
    assert set(tries[20:]) == {429}, tries


def _run(tmp_path: Path, extra: dict[str, str], drop: set[str]) -> None:
    environ = environment(tmp_path, extra, drop)
    proc, log = start(tmp_path, environ)
    try:
        _wait_for_site(proc, log, environ["PORT"])
        _made_up_addresses_are_ignored(environ["PORT"])
    finally:
        stop(proc, signal.SIGTERM)


def test_made_up_forwarded_addresses_are_ignored_embedded(tmp_path: Path) -> None:
    _run(tmp_path, {}, drop={"DATABASE_URL", "REDIS_URL"})


@pytest.mark.postgres
@pytest.mark.redis
def test_made_up_forwarded_addresses_are_ignored_with_services(
    tmp_path: Path, services_env: dict[str, str]
) -> None:
    _run(tmp_path, {**services_env, "WEB_WORKERS": "2"}, drop=set())


def test_readme_run_command_and_serve_use_the_same_server_options(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readme = (ROOT / "README.md").read_text()
    deployment = readme.split("## Deployment", 1)[1].split("##", 1)[0]
    command = re.search(r"`uvicorn colorado\.asgi:application[^`]*`", deployment)
    assert command is not None
    arguments = server_options.uvicorn_arguments()
    assert " ".join(arguments) in command.group(0)
    assert "--no-proxy-headers" in arguments
    # dev.py run passes the same arguments to uvicorn (and to colorado.web_workers).
    from tests.ops.test_run_command import _dev_module

    assert _dev_module().server_options().uvicorn_arguments() == arguments
    # manage.py serve builds its server with the same options.
    import uvicorn

    seen: dict[str, Any] = {}

    class Recorder:
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            seen.update(kwargs)

    class Server:
        def __init__(self, config: Any) -> None:
            pass

        async def serve(self) -> None:
            return None

    monkeypatch.setattr(uvicorn, "Config", Recorder)
    monkeypatch.setattr(uvicorn, "Server", Server)
    from django.core.management import call_command

    call_command("serve", "--no-worker")
    for key, value in server_options.UVICORN_CONFIG.items():
        assert seen[key] == value, key
    # colorado.web_workers understands every one of them.
    from colorado.web_workers import parse, uvicorn_options

    options = uvicorn_options(parse(["colorado.asgi:application", *arguments]))
    for key, value in server_options.UVICORN_CONFIG.items():
        assert options[key] == value, key
