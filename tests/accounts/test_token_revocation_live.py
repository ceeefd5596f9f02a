"""A token revoked or expired here stops working in another server process too: at its
expiry even while that process remembers it, and within ``API_TOKEN_CACHE_SECONDS`` of a
revocation (docs/accounts.md, API tokens)."""

from __future__ import annotations

import datetime
import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import ApiToken
from accounts.services import token_create
from tests.accounts.factories import make_user
from tests.fixtures import channel_prefix
from tests.games.live import live_server

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]

CACHE_SECONDS = 3  # the other process remembers a checked token this long


def _status(base: str, token: str) -> int:
    request = urllib.request.Request(  # noqa: S310
        f"{base}/api/me/settings", headers={"Authorization": f"Bearer {token}"}
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
            json.loads(response.read())
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


def test_revoked_and_expired_tokens_stop_in_another_process(
    django_db_blocker: Any, worker_id: str
) -> None:
    user = make_user()
    expiring, revoked = token_create(user=user, name="expiring"), token_create(user=user)
    with django_db_blocker.unblock():
        name = connection.settings_dict["NAME"]
    with live_server(
        database_name=name,
        channel_prefix=channel_prefix(worker_id),
        env={"API_TOKEN_CACHE_SECONDS": str(CACHE_SECONDS)},
    ) as base:
        ApiToken.objects.filter(name="expiring").update(
            expires_at=timezone.now() + datetime.timedelta(seconds=1.5)
        )
        checked = time.monotonic()
        assert _status(base, expiring) == 200  # remembered there for CACHE_SECONDS
        assert _status(base, revoked) == 200
        ApiToken.objects.exclude(name="expiring").delete()  # revoked here
        time.sleep(max(0.0, checked + 1.7 - time.monotonic()))
        assert time.monotonic() < checked + CACHE_SECONDS  # still remembered, yet expired:
        assert _status(base, expiring) == 401
        time.sleep(max(0.0, checked + CACHE_SECONDS + 0.3 - time.monotonic()))
        assert _status(base, revoked) == 401
