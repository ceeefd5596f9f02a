"""Each language, everywhere a player reads: the pages and the mails come out in the reader's
language with no English left in the visible text.

The check compares a page rendered in English with the same page in the other language:
a piece of visible text (a text node, or a ``title``/``aria-label``/``placeholder``/``alt``
value) that is identical in both, and holds a word once proper names, usernames and the
words the catalogue deliberately keeps as in English are taken out, is English left over.
It catches messages missing from a catalogue as well as strings never marked for
translation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core import mail as django_mail
from django.test import Client
from django.utils import timezone

from accounts.models import User
from games.engine import get_rules, title_slugs
from games.models import Game
from games.tables import lifecycle
from notifications import turn_mails
from scripts.catalogues import LOCALE, catalogue_roots, parse
from tests.i18n.english_left import LANGUAGES, PROPER_NAMES, english_left

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def eager(settings: Any) -> Iterator[None]:
    from colorado.celery import app as celery_app

    settings.CELERY_TASK_ALWAYS_EAGER = True
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture
def readers(eager: None) -> Callable[[str], User]:
    def make(language: str) -> User:
        return User.objects.create_user(
            username=f"reader-{language}",
            email=f"reader-{language}@example.org",
            password="a-long-password-42",
            language=language,
            time_zone="Europe/Paris",
        )

    return make


def _client(user: User | None = None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _page(user: User | None, path: str, language: str | None = None) -> str:
    headers = {"HTTP_ACCEPT_LANGUAGE": language} if language else {}
    response = _client(user).get(path, **headers)
    assert response.status_code == 200, (path, response.status_code)
    return response.content.decode()


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_visitor_reads_the_welcome_and_rules_pages_in_the_browsers_language(
    language: str,
) -> None:
    for path in ["/", "/how-to-play/"]:  # each title's own rules page: tests/conformance
        english = _page(None, path, "en")
        translated = _page(None, path, language)
        assert f'<html lang="{language}" dir="ltr">' in translated
        assert english_left(english, translated, language=language, names=[]) == [], path


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_player_reads_the_lobby_game_page_and_settings_in_their_language(
    language: str, readers: Callable[[str], User]
) -> None:
    reader, english_reader = readers(language), readers("en")
    games = {}
    for user in (reader, english_reader):
        games[user.pk] = lifecycle.game_create(creator=user, players=2, bots=["greedy"])
        lifecycle.game_create(creator=user, players=3)  # a table still waiting
    names = [reader.username, english_reader.username]
    for path in ["/", "/accounts/settings/", "/leaderboard/", "/games/new/"]:
        english = _page(english_reader, path)
        translated = _page(reader, path)
        assert f'<html lang="{language}"' in translated
        assert english_left(english, translated, language=language, names=names) == [], path
    english = _page(english_reader, f"/users/{english_reader.username}/")
    translated = _page(reader, f"/users/{reader.username}/")
    assert english_left(english, translated, language=language, names=names) == []
    english = _page(english_reader, f"/games/{games[english_reader.pk].pk}/")
    translated = _page(reader, f"/games/{games[reader.pk].pk}/")
    assert english_left(english, translated, language=language, names=names) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_turn_mail_is_written_in_the_recipients_language(
    language: str, readers: Callable[[str], User]
) -> None:
    reader, english_reader = readers(language), readers("en")
    game = lifecycle.game_create(
        creator=reader, players=2, options={"flags": "random"}, invite=[english_reader.username]
    )
    lifecycle.game_join(game_id=game.pk, user=english_reader)
    game.refresh_from_db()
    assert game.status == Game.Status.RUNNING
    django_mail.outbox.clear()
    turn_mails.turn_mails_queue(
        now=timezone.now() + timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS)
    )
    by_reader = {message.to[0]: message for message in django_mail.outbox}
    theirs, english = by_reader[reader.email], by_reader[english_reader.email]
    assert theirs.subject != english.subject
    names = [reader.username, english_reader.username]
    html_theirs, html_english = theirs.alternatives[0][0], english.alternatives[0][0]
    assert english_left(html_english, html_theirs, language=language, names=names) == []
    text_lines = set(english.body.splitlines())
    left = [
        line
        for line in theirs.body.splitlines()
        if line in text_lines and re.search(r"[A-Za-z]{3,}", _strip(line, names))
    ]
    assert left == []


def _strip(line: str, names: list[str]) -> str:
    titles = [get_rules(slug).name for slug in title_slugs()]
    for word in [*PROPER_NAMES, *titles, *names, settings.SITE_SHORT_NAME, settings.SITE_NAME]:
        line = line.replace(word, " ")
    return re.sub(r"https?://\S+", " ", line)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_apis_error_messages_follow_the_callers_language(language: str) -> None:
    english = _client().post(
        "/api/auth/token", "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    translated = _client().post(
        "/api/auth/token", "{}", content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert english.status_code == translated.status_code
    assert english.json()["code"] == translated.json()["code"]
    assert english.json()["message"] != translated.json()["message"]


def test_the_footer_switcher_sets_the_language_and_stores_it_on_the_account(
    readers: Callable[[str], User],
) -> None:
    visitor = Client()
    response = visitor.post("/language/", {"language": "de", "next": "/how-to-play/"})
    assert response.status_code == 302
    assert response["Location"] == "/how-to-play/"
    assert '<html lang="de"' in visitor.get("/how-to-play/").content.decode()

    player = readers("en")
    client = _client(player)
    client.post("/language/", {"language": "ja", "next": "/"})
    player.refresh_from_db()
    assert player.language == "ja"
    assert '<html lang="ja"' in client.get("/").content.decode()
    # An unknown language changes nothing.
    client.post("/language/", {"language": "xx", "next": "/"})
    player.refresh_from_db()
    assert player.language == "ja"


def test_a_visitors_times_follow_the_time_zone_their_browser_reported() -> None:
    from django.contrib.auth.models import AnonymousUser
    from django.http import HttpRequest, HttpResponse
    from django.test import RequestFactory

    from accounts.middleware import UserPreferencesMiddleware

    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    for cookie in ["tz=Asia/Tokyo", "tz=Not/AZone"]:
        request = RequestFactory().get("/", HTTP_COOKIE=cookie)
        request.user = AnonymousUser()
        UserPreferencesMiddleware(view)(request)
    assert seen == ["Asia/Tokyo", "UTC"]


def test_every_catalogue_is_compiled_and_complete() -> None:
    """The same gate ``.ci/run`` runs, kept here so a bare ``pytest`` notices too."""
    languages = sorted(path.name for path in Path(LOCALE).iterdir() if path.is_dir())
    assert languages == sorted(LANGUAGES)
    for root in catalogue_roots():
        for language in languages:
            po = root / language / "LC_MESSAGES" / "django.po"
            entries = [entry for entry in parse(po) if entry.msgid]
            assert entries, po
            assert all(entry.translated and not entry.fuzzy for entry in entries), po
            assert po.with_suffix(".mo").exists(), po


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_account_mail_is_written_in_the_account_holders_language(
    language: str, readers: Callable[[str], User]
) -> None:
    """A password reset asked from an English browser still reaches a French player in
    French: the mail follows the account, not whoever typed the address."""
    from allauth.account.models import EmailAddress

    from notifications.models import OutboxMail

    reader, english_reader = readers(language), readers("en")
    for user in (reader, english_reader):
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
        response = Client().post(
            "/accounts/password/reset/", {"email": user.email}, HTTP_ACCEPT_LANGUAGE="en"
        )
        assert response.status_code == 302
    theirs = OutboxMail.objects.get(to=reader.email)
    english = OutboxMail.objects.get(to=english_reader.email)
    assert theirs.subject != english.subject
    names = [reader.username, english_reader.username]
    lines = set(english.body_text.splitlines())
    left = [
        line
        for line in theirs.body_text.splitlines()
        if line in lines and re.search(r"[A-Za-z]{3,}", _strip(line, names))
    ]
    assert left == []


def test_a_mail_is_written_in_the_recipients_language_whatever_the_sender_speaks(
    readers: Callable[[str], User],
) -> None:
    """A Celery worker (or a request) running in one language sends a turn mail to a player
    of another: subject and body are in the player's language."""
    from django.utils import translation

    french, english = readers("fr"), readers("en")
    game = lifecycle.game_create(
        creator=french, players=2, options={"flags": "random"}, invite=[english.username]
    )
    django_mail.outbox.clear()
    with translation.override("ja"):
        lifecycle.game_join(game_id=game.pk, user=english)
        turn_mails.turn_mails_queue(
            now=timezone.now() + timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS)
        )
    by_reader = {message.to[0]: message for message in django_mail.outbox}
    assert by_reader[english.email].subject.startswith("[Colorado County online] Your turn: ")
    assert by_reader[french.email].subject.startswith("[Colorado County online] À vous de jouer")
    assert "make your sealed bid of cowboys" in by_reader[english.email].body
