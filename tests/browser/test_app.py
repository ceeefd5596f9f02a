"""The installable app (issue 43): Chromium finds the site installable (a manifest with our
icons, standalone, a service worker), and with the network gone a page shows the offline
page while no table is ever kept in the worker's cache."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .driver import sign_in, wait_js

pytestmark = [pytest.mark.browser, pytest.mark.postgres]

WORKER_READY = "() => navigator.serviceWorker.getRegistration('/').then(r => !!(r && r.active))"


def test_the_site_is_installable_and_shows_an_offline_page(
    asgi_server: str, new_page: Callable[..., Any], player: Callable[[str], Any]
) -> None:
    from games.tables import lifecycle

    alice, bob = player("alice"), player("bob")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    page = new_page(390, 844)
    sign_in(page, asgi_server, "alice", "pw-alice-2026")
    page.goto(f"{asgi_server}/games/{game.pk}/")
    wait_js(page, WORKER_READY)
    manifest = page.evaluate("fetch('/manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/"
    assert {"192x192", "512x512"} <= {i["sizes"] for i in manifest["icons"]}
    cdp = page.context.new_cdp_session(page)
    page.reload()
    wait_js(page, "() => document.readyState === 'complete'")
    errors = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    # A test's browser context is an incognito one, where Chromium installs nothing; every
    # other criterion (manifest, icons, display, start URL, secure origin) is met.
    assert [e["errorId"] for e in errors if e["errorId"] != "in-incognito"] == [], errors
    # Offline: a page is the offline page; the table was never cached.
    page.context.set_offline(True)
    page.goto(f"{asgi_server}/games/inbox/")
    assert "offline" in page.locator("h1").inner_text().lower()
    cached = page.evaluate(
        "caches.keys().then(ks => Promise.all(ks.map(k => caches.open(k)"
        ".then(c => c.keys())))).then(all => all.flat().map(r => new URL(r.url).pathname))"
    )
    assert "/offline/" in cached
    assert not [p for p in cached if p.startswith(("/games/", "/api/"))], cached
    page.context.set_offline(False)
