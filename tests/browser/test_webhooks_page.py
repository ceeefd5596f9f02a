"""The webhooks page in Chromium: add a hook (its secret shown once), see it listed, and the
settings page's notice once it is turned off (docs/webhooks.md). With SCREENSHOT_DIR set,
the page is saved at desktop and phone widths."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

SHOTS = os.environ.get("SCREENSHOT_DIR")


def test_a_player_adds_a_webhook_and_sees_its_secret_once(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from django.utils import timezone

    from webhooks.models import Webhook

    player("dora")
    page = new_page()
    sign_in(page, asgi_server, "dora", "pw-dora-2026")
    page.goto(f"{asgi_server}/accounts/settings/")
    page.click("text=Manage webhooks")
    page.fill("#id_url", "https://93.184.216.34/api/webhooks/123/abc")
    page.check("input[name=events][value=my_turn]")
    page.check("input[name=events][value=game_over]")
    page.select_option("#id_format", "discord")
    page.click("form.stack button[type=submit]")
    secret = page.locator("#new-secret code").inner_text()
    hook = Webhook.objects.get(user__username="dora")
    assert secret == hook.secret
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/webhooks-desktop.png", full_page=True)
    Webhook.objects.filter(pk=hook.pk).update(disabled_at=timezone.now(), last_error="HTTP 404")
    phone = new_page(390, 844)
    sign_in(phone, asgi_server, "dora", "pw-dora-2026")
    phone.goto(f"{asgi_server}/accounts/settings/webhooks/")
    assert hook.secret not in phone.content()
    assert "turned off after repeated failures" in phone.locator(".hook-list").inner_text()
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/webhooks-phone.png", full_page=True)
    phone.goto(f"{asgi_server}/accounts/settings/")
    assert "1 of your webhooks was turned off" in phone.locator("#webhooks-h + p").inner_text()
