"""Issue 15, bugs 9 and 11: the site's small words and files — the API docs work without
internet, /favicon.ico exists, the move log downloads as a file, the new-table form's
errors read as sentences, mails greet with the site's name, and embedded mode's broker
URL names a host (no kombu "No hostname" warning)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core import mail
from django.test import Client, TestCase

from games.web.forms import NewTableForm

pytestmark = pytest.mark.django_db


def test_the_api_docs_load_swagger_ui_from_our_own_static_files() -> None:
    page = Client().get("/api/docs").content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert assets, page
    for url in assets:
        assert not url.startswith(("http:", "https:", "//")), url
    scripts = [u for u in assets if u.endswith(".js")]
    assert any("swagger-ui-bundle" in u for u in scripts)
    for url in scripts:
        assert finders.find(
            url.removeprefix(settings.STATIC_URL).lstrip("/").removeprefix("static/")
        )
    schema = Client().get("/api/openapi.json").json()
    assert "docs/api.md" in schema["info"]["description"]


def test_favicon_is_served() -> None:
    response = Client().get("/favicon.ico")
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert b"<svg" in response.content


def test_the_form_says_at_least_one_minute_and_counts_in_words() -> None:
    form = NewTableForm(
        {
            "players": "2",
            "clock": "custom",
            "initial_hours": "0.001",
            "increment_hours": "0",
            "max_hours": "1",
            "bots": "0",
            "on_timeout": "bot",
            "bot_kind": "random",
        }
    )
    assert not form.is_valid()
    text = " ".join(form.errors["initial_hours"])
    assert "0.0166" not in text
    assert "at least one minute" in text
    form = NewTableForm(
        {
            "players": "2",
            "clock": "normal",
            "bots": "1",
            "invite": "",
            "on_timeout": "bot",
            "bot_kind": "random",
        }
    )
    form.is_valid()
    from accounts.models import User

    User.objects.create_user(username="zed", password="a-long-password-42")
    form = NewTableForm(
        {
            "players": "2",
            "clock": "normal",
            "bots": "1",
            "invite": "zed",
            "on_timeout": "bot",
            "bot_kind": "random",
        }
    )
    assert not form.is_valid()
    text = " ".join(form.non_field_errors())
    assert "1 bots" not in text
    assert "You, 1 bot and 1 invited player do not fit at 2 seats." in text


def test_account_mails_greet_with_the_site_name_not_the_host(eager_tasks: None) -> None:
    client = Client(REMOTE_ADDR="10.9.8.7")
    name = f"ann{uuid.uuid4().hex[:6]}"
    password = "open-range-1887"
    with TestCase.captureOnCommitCallbacks(execute=True):
        client.post(
            "/accounts/signup/",
            {
                "username": name,
                "email": f"{name}@example.org",
                "password1": password,
                "password2": password,
            },
            HTTP_HOST="127.0.0.1",
        )
    (message,) = mail.outbox
    assert f"Hello from {settings.SITE_NAME}!" in message.body
    assert "Hello from 127.0.0.1" not in message.body


def test_embedded_mode_broker_url_names_a_host() -> None:
    from colorado import settings as site_settings

    with open(site_settings.__file__) as f:
        source = f.read()
    (url,) = re.findall(r'CELERY_BROKER_URL = "(memory://[^"]*)"', source)
    import logging

    from kombu import Connection

    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger = logging.getLogger("kombu.connection")
    logger.addHandler(handler)
    try:
        Connection(url)._info()
    finally:
        logger.removeHandler(handler)
    assert not [r for r in records if "No hostname" in r.getMessage()]


@pytest.mark.django_db(transaction=True)
def test_the_move_log_downloads_as_a_named_file(eager_tasks: None) -> None:
    from accounts.models import User
    from games.tables import lifecycle
    from tests.play import play_randomly

    alice = User.objects.create_user(username="alice", password="a-long-password-42")
    game = lifecycle.game_create(creator=alice, players=2, bots=["random"])
    game = play_randomly(game, [alice], seed=2)
    client = Client()
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/download/" download' in page
    # The final valuations' parts are labelled, not "2·2·0·0".
    assert not re.search(r"\d·\d·\d·\d", page)
    breakdown = re.search(r'<span class="breakdown">(.*?)</span>', page)
    assert breakdown is not None
    assert re.fullmatch(r"border \d+<br>lakes \d+<br>doubles \d+<br>area \d+", breakdown.group(1))
    response = client.get(f"/games/{game.pk}/download/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="{game.title}-table-{game.pk}.json"'
    )
    assert response.json()["seed"] == game.seed
    running = lifecycle.game_create(creator=alice, players=2, bots=["random"])
    assert client.get(f"/games/{running.pk}/download/").status_code == 409
