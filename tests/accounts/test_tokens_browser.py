"""In headless Chromium on a phone-sized screen: the settings page's API tokens, revoked with
the keyboard alone."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from accounts.models import ApiToken
from accounts.services import token_create, token_user
from tests.accounts.factories import make_user
from tests.accounts.test_browser import page  # noqa: F401  (the Chromium page fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright's sync API runs an event loop in this thread; the test's own database
    reads are still plain synchronous calls (as in tests/browser/conftest.py)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def test_revoking_a_token_by_keyboard_on_a_phone(
    orm_beside_playwright: None,
    live_server: Any,
    page: Any,  # noqa: F811
) -> None:
    user = make_user()
    kept, doomed = token_create(user=user, name="laptop"), token_create(user=user, name="old bot")
    client = Client()
    client.force_login(user)
    page.set_viewport_size({"width": 360, "height": 740})
    page.context.add_cookies(
        [
            {
                "name": "sessionid",
                "value": client.cookies["sessionid"].value,
                "url": live_server.url,
            }
        ]
    )
    page.goto(f"{live_server.url}/accounts/settings/")
    section = page.get_by_role("region", name="API tokens")
    assert "old bot" in section.inner_text()
    # Nothing wider than the phone's screen (a wide table scrolls inside its own box).
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    button = page.get_by_role("button", name="Revoke token old bot")
    button.focus()
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == f"{live_server.url}/accounts/settings/"
    assert "The token “old bot” is revoked" in page.get_by_role("main").inner_text()
    assert "old bot" not in page.get_by_role("region", name="API tokens").inner_text()
    assert token_user(token=doomed) is None
    assert token_user(token=kept) == user
    assert list(ApiToken.objects.filter(user=user).values_list("name", flat=True)) == ["laptop"]
