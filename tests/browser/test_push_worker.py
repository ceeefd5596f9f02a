"""The service worker in Chromium (issue 43): the settings page registers it, a Web Push
message delivered to it (through Chromium's debugging protocol, which stands in for the
push service a browser would poll) shows the notification the server wrote, with the
table's address to open on a click."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]


def test_a_push_shows_its_notification(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    player("alice")
    page = new_page(390, 844)
    page.context.grant_permissions(["notifications"], origin=asgi_server)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    cdp = page.context.new_cdp_session(page)
    registrations: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda e: registrations.extend(r["registrationId"] for r in e["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    page.goto(f"{asgi_server}/accounts/settings/")
    # The page offers to subscribe this device, and its worker is running.
    page.wait_for_selector("#push-on:not([hidden])")
    wait_js(page, "() => navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))")
    assert registrations
    payload = {
        "title": "Your turn",
        "body": "Colorado County, table 7: make your move",
        "url": "/games/7/",
        "tag": "game-7",
    }
    cdp.send(
        "ServiceWorker.deliverPushMessage",
        {
            "origin": asgi_server + "/",
            "registrationId": registrations[-1],
            "data": json.dumps(payload),
        },
    )
    shown = wait_js(
        page,
        "() => navigator.serviceWorker.getRegistration('/').then(r => r.getNotifications())"
        ".then(ns => ns.map(n => ({title: n.title, body: n.body, tag: n.tag, url: n.data.url})))"
        ".then(ns => ns.length ? ns : null)",
    )
    assert shown == [
        {"title": "Your turn", "body": payload["body"], "tag": "game-7", "url": "/games/7/"}
    ]
