"""In headless Chromium: sign up, follow the verification e-mail, sign in, see my profile."""

from __future__ import annotations

import os
import re
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from django.core import mail

# The verification mail leaves through the outbox task; run it eagerly, in the server thread.


@pytest.fixture(autouse=True)
def _eager(eager_tasks: None) -> None:
    """Celery runs eagerly here (the root conftest's ``eager_tasks``)."""


pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture
def page(settings: Any) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    # The verification mail is captured in django.core.mail.outbox (same process as the
    # live server thread).
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
            ],
        )
        try:
            context = browser.new_context()
            yield context.new_page()
        finally:
            browser.close()


def test_sign_up_verify_sign_in_and_see_my_profile(live_server: Any, page: Any) -> None:
    name = f"belle{uuid.uuid4().hex[:6]}"
    email = f"{name}@example.org"
    password = "Younger-Gang-1874"
    base = live_server.url

    page.goto(f"{base}/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(name)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_label("Password (again)").fill(password)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url(f"{base}/accounts/confirm-email/")
    assert "Verify Your Email Address" in page.content()

    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [email]
    link = re.search(r"https?://\S+/accounts/confirm-email/\S+", mail.outbox[0].body)
    assert link, mail.outbox[0].body
    page.goto(link.group(0))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_load_state()

    # Start afresh: sign out if the confirmation signed us in, then sign in by e-mail.
    if page.get_by_role("button", name="Sign out").count():
        page.get_by_role("button", name="Sign out").click()
        page.wait_for_load_state()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username or e-mail").fill(email)
    page.get_by_label("Password", exact=True).fill(password)
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url(f"{base}/")
    assert f"Signed in as {name}" in page.inner_text("header")

    page.get_by_role("link", name=f"Signed in as {name}").click()
    page.wait_for_url(f"{base}/users/{name}/")
    assert page.get_by_role("heading", level=1).inner_text().strip() == name
    assert "No rated games yet." in page.content()
