"""Content-Security-Policy and Permissions-Policy on every page (issue 41, item 8): every
page template is rendered, each answer carries both headers, and no page holds an inline
script, an inline style, a ``style=`` attribute or an event handler attribute, so the
strict policy (``script-src 'self'``, ``style-src 'self'``) holds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.test import Client, RequestFactory

from accounts.models import User
from colorado.outage import unavailable_response
from games.models import Game
from games.records.ratings import ratings_apply
from games.tables import lifecycle
from notifications.mail_parts import unsubscribe_token
from tests.accounts.factories import finished_game, make_user

pytestmark = [pytest.mark.django_db]

ROOT = Path(settings.BASE_DIR)
INLINE_SCRIPT = re.compile(
    r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I
)
INLINE_STYLE = re.compile(r"<style\b|\sstyle\s*=", re.I)
HANDLER = re.compile(r"<[^>]+\son[a-z]+\s*=", re.I)


def page_templates() -> set[str]:
    """Every full-page template of the site (partials start with ``_``; mails are mails)."""
    names = set()
    folders = [ROOT / "templates", *(ROOT / "titles").glob("*/templates")]
    for folder in folders:
        for path in folder.rglob("*.html"):
            name = path.relative_to(folder).as_posix()
            if path.name.startswith("_") or name.startswith(("emails/", "allauth/elements/")):
                continue
            names.add(name)
    return names


def web_titles_slugs() -> list[str]:
    """Every title with pages (from the registry: no title is named here)."""
    from games.titles import web_titles

    return [t.slug for t in web_titles()]


def _inline(html: str) -> list[str]:
    return [
        match.group(0)[:80]
        for pattern in (INLINE_SCRIPT, INLINE_STYLE, HANDLER)
        for match in pattern.finditer(html)
    ]


def _check(response: object, path: str, seen: set[str]) -> None:
    csp = response["Content-Security-Policy"]  # type: ignore[index]
    assert "script-src 'self'" in csp, path
    assert "style-src 'self'" in csp, path
    assert "unsafe-inline" not in csp, path
    assert "camera=()" in response["Permissions-Policy"], path  # type: ignore[index]
    html = response.content.decode()  # type: ignore[attr-defined]
    assert not _inline(html), (path, _inline(html))
    seen.update(t.name for t in getattr(response, "templates", []) if t.name)


def test_every_page_template_has_the_policies_and_no_inline_code() -> None:
    alice, bob = make_user("alice"), make_user("bob")
    User.objects.filter(pk=alice.pk).update(is_staff=True, is_superuser=True)
    finished = finished_game([alice, bob], [30, 20])
    ratings_apply(game=finished)
    Game.objects.filter(pk=finished.pk).update(state=None)
    running = lifecycle.game_create(creator=alice, players=2)
    lifecycle.game_join(game_id=running.pk, user=bob)
    private = lifecycle.game_create(creator=bob, players=3, open_seats=False)
    carol = make_user("carol")
    anonymous, signed_in, outsider = Client(), Client(), Client()
    signed_in.force_login(alice)
    outsider.force_login(carol)
    seen: set[str] = set()
    anonymous_paths = [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/accounts/password/reset/done/",
        "/accounts/confirm-email/",
        "/how-to-play/",
        *(f"/how-to-play/{slug}/" for slug in web_titles_slugs()),
        "/offline/",
        "/bots/",
        "/leaderboard/",
        f"/users/{alice.username}/",
        f"/games/{finished.pk}/",
        f"/notifications/unsubscribe/{unsubscribe_token(user=alice)}/",
        "/notifications/unsubscribe/not-a-token/",
        "/api/docs",
    ]
    for path in anonymous_paths:
        response = anonymous.get(path)
        assert response.status_code in (200, 404), (path, response.status_code)
        _check(response, path, seen)
    signed_in_paths = [
        "/",
        "/games/",
        "/games/new/",
        "/games/inbox/",
        f"/games/{running.pk}/",
        f"/games/{finished.pk}/",
        f"/games/{finished.pk}/verify/",
        "/accounts/settings/",
        "/accounts/email/",
        "/accounts/password/change/",
        "/accounts/logout/",
        "/admin/",
    ]
    for path in signed_in_paths:
        response = signed_in.get(path)
        assert response.status_code == 200, (path, response.status_code)
        _check(response, path, seen)
    refused = outsider.get(f"/games/{private.pk}/")
    assert refused.status_code == 403
    _check(refused, "private table", seen)
    outage = unavailable_response(RequestFactory().get("/"))
    assert not _inline(outage.content.decode())
    seen.add("503.html")
    missing = page_templates() - seen - {"base.html", "allauth/layouts/base.html"}
    assert not missing, f"page templates no test rendered: {sorted(missing)}"
    assert EmailAddress.objects.filter(user=alice).exists()


def test_api_and_error_answers_carry_the_policies_too() -> None:
    for path in ("/api/games", "/api/no-such-thing", "/healthz"):
        response = Client().get(path)
        assert "script-src 'self'" in response["Content-Security-Policy"], path
        assert response["Permissions-Policy"], path
