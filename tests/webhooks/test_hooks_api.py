"""Adding, listing and removing webhooks: the secret shown once, the caps, and the refusal of
private addresses (server-side request forgery) unless WEBHOOKS_ALLOW_PRIVATE."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from accounts.services import token_create
from tests.accounts.factories import make_user
from webhooks import addresses

pytestmark = pytest.mark.django_db

PUBLIC = "https://93.184.216.34/hooks/abc"


def _post(user: Any, body: Any) -> Any:
    return Client().post(
        "/api/me/webhooks",
        json.dumps(body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {token_create(user=user)}"},
    )


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("https://127.0.0.1/hook", "private_address"),
        ("https://127.8.9.10:8443/hook", "private_address"),
        ("https://localhost/hook", "private_address"),
        ("https://10.1.2.3/hook", "private_address"),
        ("https://192.168.0.7/hook", "private_address"),
        ("https://172.20.0.1/hook", "private_address"),
        ("https://169.254.169.254/latest/meta-data", "private_address"),
        ("https://100.64.0.1/hook", "private_address"),
        ("https://0.0.0.0/hook", "private_address"),
        ("https://[::1]/hook", "private_address"),
        ("https://[::ffff:127.0.0.1]/hook", "private_address"),
        ("https://[fe80::1]/hook", "private_address"),
        ("https://[fd00::1]/hook", "private_address"),
        ("http://93.184.216.34/hook", "bad_url"),
        ("ftp://93.184.216.34/hook", "bad_url"),
        ("https://user:pw@93.184.216.34/hook", "bad_url"),
        ("not a url", "bad_url"),
    ],
)
def test_private_and_odd_urls_are_refused(settings: Any, url: str, code: str) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    answer = _post(make_user(), {"url": url, "events": ["my_turn"], "format": "json"})
    assert answer.status_code == 400
    assert answer.json()["code"] == code
    assert url not in answer.json()["message"]


def test_a_name_that_resolves_privately_later_is_not_posted_to(
    settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """DNS rebinding: the check runs again at each delivery, on the address used."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34"])
    assert addresses.check_url("https://hooks.example.org/x").address == "93.184.216.34"
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34", "10.0.0.1"])
    with pytest.raises(addresses.UrlRefused) as refused:
        addresses.check_url("https://hooks.example.org/x")
    assert refused.value.code == "private_address"


def test_the_secret_is_shown_once_and_hooks_are_their_owners(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    alice, bob = make_user(), make_user()
    made = _post(alice, {"url": PUBLIC, "events": ["my_turn", "game_over"], "format": "slack"})
    assert made.status_code == 201
    hook = made.json()
    assert len(hook["secret"]) == 64
    assert hook["events"] == ["my_turn", "game_over"]
    headers = {"Authorization": f"Bearer {token_create(user=alice)}"}
    listed = Client().get("/api/me/webhooks", headers=headers).json()
    assert [h["id"] for h in listed] == [hook["id"]]
    assert "secret" not in listed[0]
    bob_headers = {"Authorization": f"Bearer {token_create(user=bob)}"}
    assert Client().get("/api/me/webhooks", headers=bob_headers).json() == []
    theirs = Client().delete(f"/api/me/webhooks/{hook['id']}", headers=bob_headers)
    assert theirs.status_code == 404
    assert theirs.json()["code"] == "unknown_webhook"
    assert Client().delete(f"/api/me/webhooks/{hook['id']}", headers=headers).status_code == 204
    assert Client().get("/api/me/webhooks", headers=headers).json() == []


def test_caps_events_formats_and_verified_accounts(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    settings.WEBHOOKS_PER_ACCOUNT = 2
    alice = make_user()
    for _ in range(2):
        assert _post(alice, {"url": PUBLIC, "events": ["my_turn"]}).status_code == 201
    third = _post(alice, {"url": PUBLIC, "events": ["my_turn"]})
    assert third.status_code == 409
    assert third.json()["code"] == "too_many_webhooks"
    bob = make_user()
    assert _post(bob, {"url": PUBLIC, "events": []}).json()["code"] == "bad_events"
    assert _post(bob, {"url": PUBLIC, "events": ["everything"]}).json()["code"] == "bad_events"
    odd_format = _post(bob, {"url": PUBLIC, "events": ["my_turn"], "format": "xml"})
    assert odd_format.json()["code"] == "bad_format"
    carol = make_user(verified=False)
    unverified = _post(carol, {"url": PUBLIC, "events": ["my_turn"]})
    assert unverified.status_code == 403
    assert unverified.json()["code"] == "email_unverified"


def test_the_page_adds_a_hook_and_shows_its_secret_once(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    alice = make_user()
    client = Client()
    client.force_login(alice)
    assert client.get("/accounts/settings/webhooks/").status_code == 200
    refused = client.post(
        "/accounts/settings/webhooks/",
        {"url": "https://10.0.0.1/x", "events": ["my_turn"], "format": "json"},
    )
    assert refused.status_code == 400
    assert "private, loopback or link-local" in refused.content.decode()
    made = client.post(
        "/accounts/settings/webhooks/",
        {"url": PUBLIC, "events": ["my_turn", "invitation"], "format": "discord"},
    )
    assert made.status_code == 201
    from webhooks.models import Webhook

    hook = Webhook.objects.get(user=alice)
    assert hook.secret in made.content.decode()
    again = client.get("/accounts/settings/webhooks/").content.decode()
    assert hook.secret not in again
    assert PUBLIC in again
    client.post(f"/accounts/settings/webhooks/{hook.pk}/delete/")
    assert not Webhook.objects.filter(user=alice).exists()
