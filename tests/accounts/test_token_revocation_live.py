"""A token revoked or expired here stops working in another server process too: at its
expiry even while that process remembers it, and within ``API_TOKEN_CACHE_SECONDS`` of a
revocation (docs/accounts.md, API tokens)."""

from __future__ import annotations

import datetime
import json
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
from tests.waiting import wait_until

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
]

#: How long the other process remembers a checked token: for the expiry, longer than the
#: test may wait (so an answer that changed was not the memory running out); for the
#: revocation, short.
REMEMBERS = 120
FORGETS = 2


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
    with (
        live_server(
            database_name=name,
            channel_prefix=channel_prefix(worker_id),
            env={"API_TOKEN_CACHE_SECONDS": str(REMEMBERS)},
        ) as remembers,
        live_server(
            database_name=name,
            channel_prefix=channel_prefix(worker_id),
            env={"API_TOKEN_CACHE_SECONDS": str(FORGETS)},
        ) as forgets,
    ):
        ApiToken.objects.filter(name="expiring").update(
            expires_at=timezone.now() + datetime.timedelta(seconds=1.5)
        )
        assert _status(remembers, expiring) == 200  # remembered there now
        assert _status(forgets, revoked) == 200
        ApiToken.objects.exclude(name="expiring").delete()  # revoked here
        # Expired while still remembered: refused at its expiry, long before the memory ends.
        wait_until(lambda: _status(remembers, expiring) == 401, timeout=REMEMBERS / 4)
        # Revoked: refused once the other process's memory of it ends.
        wait_until(lambda: _status(forgets, revoked) == 401, timeout=30)
