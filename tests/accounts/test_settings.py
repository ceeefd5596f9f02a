"""Profile settings: the page and GET/PUT /api/me/settings. Bad values change nothing."""

from __future__ import annotations

import datetime
import json
import zoneinfo
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def user() -> User:
    return make_user("calamity", display_name="Jane")


@pytest.fixture
def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def _put(client: Client, body: Any) -> Any:
    return client.put(
        "/api/me/settings",
        body if isinstance(body, str) else json.dumps(body),
        content_type="application/json",
    )


def test_get_my_settings(signed_in: Client) -> None:
    data = signed_in.get("/api/me/settings").json()
    assert data == {
        "email_notifications": "each_turn",
        "reminder_hours": 12,
        "vacation_days": 10.0,
        "away_until": None,
        "display_name": "Jane",
        "time_zone": "UTC",
        "language": "",
    }


def test_settings_need_sign_in(client: Client) -> None:
    response = client.get("/api/me/settings")
    assert response.status_code == 401
    assert response.json()["code"] == "not_signed_in"
    assert client.get("/accounts/settings/").status_code == 302


def test_put_changes_what_is_sent_and_nothing_else(signed_in: Client, user: User) -> None:
    away = (timezone.now() + datetime.timedelta(days=3)).replace(microsecond=0)
    response = _put(
        signed_in,
        {
            "email_notifications": "digest",
            "reminder_hours": 4,
            "time_zone": "America/Denver",
            "away_until": away.isoformat(),
        },
    )
    assert response.status_code == 200, response.content
    assert response.json()["time_zone"] == "America/Denver"
    user.refresh_from_db()
    assert user.email_notifications == "digest"
    assert user.reminder_hours == 4
    assert user.away_until == away
    assert user.display_name == "Jane"
    # Time away is vacation taken in advance: three days are charged (docs/clocks.md) …
    assert 6.9 < user.vacation_days < 7.1
    # … and refunded when the player comes back early.
    assert _put(signed_in, {"away_until": None}).json()["away_until"] is None
    user.refresh_from_db()
    assert user.vacation_days > 9.9


def test_time_away_beyond_the_vacation_left_is_refused(signed_in: Client, user: User) -> None:
    away = timezone.now() + datetime.timedelta(days=20)
    response = _put(signed_in, {"away_until": away.isoformat(), "reminder_hours": 2})
    assert response.status_code == 400
    assert response.json()["field"] == "away_until"
    assert "vacation days" in response.json()["message"]
    user.refresh_from_db()
    assert user.away_until is None
    assert user.reminder_hours != 2
    assert user.vacation_days == 10


def test_a_time_without_offset_is_read_in_my_time_zone(signed_in: Client, user: User) -> None:
    day = (timezone.now() + datetime.timedelta(days=5)).date()
    response = _put(
        signed_in, {"time_zone": "Asia/Tokyo", "away_until": f"{day.isoformat()}T09:00:00"}
    )
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.away_until == datetime.datetime(
        day.year, day.month, day.day, 0, 0, tzinfo=datetime.UTC
    )


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({"time_zone": "Mars/Olympus"}, "time_zone", "time zone"),
        ({"language": "xx"}, "language", "language"),
        ({"email_notifications": "hourly"}, "email_notifications", "each_turn"),
        ({"reminder_hours": 500}, "reminder_hours", "between 0"),
        ({"reminder_hours": -1}, "reminder_hours", "between 0"),
        ({"display_name": "x" * 61}, "display_name", "60"),
        ({"away_until": "2001-01-01T00:00:00Z"}, "away_until", "future"),
        ({"away_until": "2999-01-01T00:00:00Z"}, "away_until", "30"),
    ],
)
def test_bad_values_get_a_clear_400_and_change_nothing(
    signed_in: Client, user: User, body: dict[str, Any], field: str, words: str
) -> None:
    before = signed_in.get("/api/me/settings").json()
    response = _put(signed_in, {"display_name": "Martha", **body})
    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "invalid_setting"
    assert data["field"] == field
    assert words in data["message"]
    assert signed_in.get("/api/me/settings").json() == before


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "[]",
        '{"reminder_hours": "soon"}',
        '{"reminder_hours": 2.5}',
        '{"favourite_colour": "red"}',
        '{"display_name": null}',
        '{"vacation_days": 99}',
    ],
)
def test_malformed_or_read_only_bodies_are_400_not_500(signed_in: Client, body: str) -> None:
    before = signed_in.get("/api/me/settings").json()
    response = _put(signed_in, body)
    assert response.status_code == 400
    assert response.json()["message"]
    assert signed_in.get("/api/me/settings").json() == before


def test_sending_back_what_was_read_is_accepted(signed_in: Client) -> None:
    data = signed_in.get("/api/me/settings").json()
    response = _put(signed_in, {**data, "reminder_hours": 6})
    assert response.status_code == 200
    assert response.json() == {**data, "reminder_hours": 6}


def test_settings_page_saves_and_shows_errors(signed_in: Client, user: User) -> None:
    page = signed_in.get("/accounts/settings/").content.decode()
    assert 'value="Jane"' in page
    assert "Europe/Berlin" in page
    form = {
        "display_name": "  Calamity   Jane ",
        "time_zone": "Europe/Berlin",
        "language": "en",
        "email_notifications": "off",
        "reminder_hours": "0",
        "away_until": "",
    }
    response = signed_in.post("/accounts/settings/", form)
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.display_name, user.time_zone, user.language) == (
        "Calamity Jane",
        "Europe/Berlin",
        "en",
    )
    assert (user.email_notifications, user.reminder_hours) == ("off", 0)

    response = signed_in.post(
        "/accounts/settings/", {**form, "time_zone": "Nowhere/Land", "display_name": "Changed"}
    )
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Calamity Jane"

    response = signed_in.post(
        "/accounts/settings/", {**form, "away_until": "2001-05-01T10:00", "display_name": "X"}
    )
    assert "must be in the future" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == "Calamity Jane"


def test_times_on_pages_are_in_my_time_zone(signed_in: Client, user: User) -> None:
    away = (timezone.now() + datetime.timedelta(days=30)).replace(second=0, microsecond=0)
    user.time_zone = "Pacific/Auckland"
    user.away_until = away
    user.save()
    local = away.astimezone(zoneinfo.ZoneInfo("Pacific/Auckland"))
    page = signed_in.get("/accounts/settings/").content.decode()
    assert f'value="{local:%Y-%m-%dT%H:%M}"' in page


def test_the_confirmation_is_in_the_language_just_chosen(signed_in: Client, user: User) -> None:
    """Issue 43, trial item 2: switching to French confirms in French."""
    form = {
        "display_name": "",
        "time_zone": "UTC",
        "language": "fr",
        "email_notifications": "each_turn",
        "reminder_hours": "12",
        "away_until": "",
    }
    page = signed_in.post("/accounts/settings/", form, follow=True).content.decode()
    assert "Your settings are saved." not in page
    assert "Vos réglages sont enregistrés." in page or 'lang="fr"' in page
    assert 'lang="fr"' in page


def test_a_new_account_shows_whole_vacation_days(signed_in: Client, user: User) -> None:
    """Issue 43, trial item 5: "Vacation days left this year: 10", not 10.1."""
    User.objects.filter(pk=user.pk).update(vacation_days=10.1)
    page = signed_in.get("/accounts/settings/").content.decode()
    assert "Vacation days left this year: 10." in page
    assert "10.1" not in page
