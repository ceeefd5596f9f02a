"""Throttles count by the real client address: ``REMOTE_ADDR``, or behind
``TRUSTED_PROXY_COUNT`` proxies of our own the address they forwarded. A made-up
``X-Forwarded-For`` must not give a password guesser a fresh allowance per request."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _random_address() -> str:
    return ".".join(str(random.randint(1, 254)) for _ in range(4))  # noqa: S311


def _guess(client: Client, *, forwarded: str) -> int:
    # A new name each time: only the address counts, not a lockout of one account.
    body = {"username": f"nobody{uuid.uuid4().hex[:8]}", "password": "guess"}
    return client.post(
        "/api/auth/token",
        body,
        content_type="application/json",
        headers={"X-Forwarded-For": forwarded},
    ).status_code


def test_a_made_up_forwarded_address_does_not_escape_the_token_throttle() -> None:
    client = Client(REMOTE_ADDR="192.0.2.10")
    codes = [_guess(client, forwarded=_random_address()) for _ in range(60)]
    assert 429 in codes[:59], codes
    assert codes[:20] == [401] * 20
    assert codes[20] == 429


def _guess_through_the_site(*, peer: str, forwarded: str) -> int:
    """A guess as the site serves it: the outermost layer of the ASGI application decides
    the client's address (``colorado.client_address.ClientAddress``), then Django answers
    with that address as ``REMOTE_ADDR``."""
    from asgiref.sync import async_to_sync

    from colorado.client_address import ClientAddress

    seen: dict[str, Any] = {}

    async def inner(scope: dict[str, Any], receive: Any, send: Any) -> None:
        seen["client"] = scope["client"]

    scope = {
        "type": "http",
        "headers": [(b"x-forwarded-for", forwarded.encode())],
        "client": (peer, 4321),
    }
    async_to_sync(ClientAddress(inner))(scope, None, None)
    return _guess(Client(REMOTE_ADDR=seen["client"][0]), forwarded=forwarded)


def test_behind_a_trusted_proxy_the_forwarded_address_counts(settings: Any) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.0.2"  # our proxy, the same for every client
    # Each client's own address counts: sixty clients are not one.
    codes = [
        _guess_through_the_site(peer=proxy, forwarded=f"198.51.100.1, {_random_address()}")
        for _ in range(60)
    ]
    assert 429 not in codes, codes
    # One client is held to its allowance, whatever it writes left of what the proxy saw.
    codes = [
        _guess_through_the_site(peer=proxy, forwarded=f"{_random_address()}, 203.0.113.7")
        for _ in range(21)
    ]
    assert codes[:20] == [401] * 20
    assert codes[20] == 429


def test_sign_in_page_counts_by_the_real_address_too(settings: Any) -> None:
    """allauth's failed sign-in limit (10 a minute per address) ignores a made-up header."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "xff"}
    }
    client = Client(REMOTE_ADDR="192.0.2.77")
    users = [make_user(f"rustler{uuid.uuid4().hex[:6]}") for _ in range(12)]
    pages = [
        client.post(
            "/accounts/login/",
            {"login": user.username, "password": "wrong"},
            headers={"X-Forwarded-For": _random_address()},
        ).content.decode()
        for user in users
    ]
    assert all("did not match" in page for page in pages[:10])
    assert "Too many failed sign-in attempts" in pages[10]


def test_trusted_proxy_count_is_applied_once() -> None:
    """One variable sets the proxy count, applied once before Django
    (colorado.client_address): ninja and allauth trust no proxy of their own, since
    ``REMOTE_ADDR`` is already the client's."""
    script = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.TRUSTED_PROXY_COUNT, s.ALLAUTH_TRUSTED_PROXY_COUNT, s.NINJA_NUM_PROXIES)"
    )
    for value, expected in ((None, "0 0 0"), ("2", "2 0 0")):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "colorado.settings"}
        env.pop("TRUSTED_PROXY_COUNT", None)
        if value is not None:
            env["TRUSTED_PROXY_COUNT"] = value
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == expected.split()
