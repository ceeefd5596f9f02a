"""Players can be told apart (issue 15, bug 4): a display name may not read as another
account's username or display name, case and accents aside, in the settings page, the API
and sign-up; the table shows the username beside a display name that differs from it; bots
are named by their level, and a second bot account of a level by a letter (issue 43)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from accounts.models import User
from games.tables import lifecycle
from games.tables.chat import chat_post
from tests.accounts.factories import make_user

pytestmark = pytest.mark.django_db

FORM = {
    "time_zone": "UTC",
    "language": "",
    "email_notifications": "off",
    "reminder_hours": "0",
    "away_until": "",
}
PASSWORD = "a-long-passphrase-2026"


def signed_in(user: User) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.mark.parametrize("name", ["alice", "ALICE", "Álice", "  alicé ", "Daisy", "DAISŸ"])
def test_a_display_name_that_reads_as_someone_else_is_refused(name: str) -> None:
    make_user("alice")
    make_user("carol", display_name="Daisy")
    bob = make_user("bob")
    response = signed_in(bob).post("/accounts/settings/", {**FORM, "display_name": name})
    assert response.status_code == 200
    assert "someone else" in response.content.decode()
    bob.refresh_from_db()
    assert bob.display_name == ""
    api = signed_in(bob).put(
        "/api/me/settings", json.dumps({"display_name": name}), content_type="application/json"
    )
    assert api.status_code == 400
    assert api.json()["code"] == "invalid_setting"
    assert api.json()["field"] == "display_name"
    bob.refresh_from_db()
    assert bob.display_name == ""


def test_my_own_username_in_other_letters_and_a_free_name_are_fine() -> None:
    make_user("alice")
    bob = make_user("bob")
    for name in ("Bób", "Bob the Builder"):
        response = signed_in(bob).post("/accounts/settings/", {**FORM, "display_name": name})
        assert response.status_code == 302
        bob.refresh_from_db()
        assert bob.display_name == name


def test_sign_up_refuses_a_username_that_reads_as_someone_s_display_name() -> None:
    make_user("carol", display_name="Daisy")
    response = Client().post(
        "/accounts/signup/",
        {
            "username": "dáisy",
            "email": "daisy@example.org",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
    )
    assert response.status_code == 200
    assert "already someone" in response.content.decode()
    assert not User.objects.filter(email="daisy@example.org").exists()


def test_the_table_shows_the_username_beside_a_display_name_that_differs() -> None:
    alice = make_user("alice")
    # A name taken before the check existed: the page still tells the two apart.
    bob = make_user("bob", display_name="alice")
    game = lifecycle.game_create(creator=alice, players=2, invite=["bob"], open_seats=False)
    lifecycle.game_join(game_id=game.pk, user=bob)
    chat_post(game_id=game.pk, user=bob, text="I am alice")
    html = signed_in(alice).get(f"/games/{game.pk}/").content.decode()
    seat = game.seats.get(user=bob).seat
    row = re.search(rf'<tr class="[^"]*" data-seat="{seat}">.*?</tr>', html, re.S)
    assert row
    assert "@bob" in row.group(0)
    mine = re.search(rf'<tr class="[^"]*" data-seat="{1 - seat}">.*?</tr>', html, re.S)
    assert mine
    assert "@" not in mine.group(0)
    chat = re.search(r'<ol class="chat-list".*?</ol>', html, re.S)
    assert chat
    assert "@bob" in chat.group(0)


def test_bots_are_named_by_level_and_two_of_a_level_by_a_letter(eager_tasks: None) -> None:
    alice = make_user("alice")
    game = lifecycle.game_create(creator=alice, players=3, bots=["greedy", "greedy"])
    names = {s.seat: s.user.shown_name for s in game.seats.select_related("user")}
    assert sorted(names.values()) == ["Greedy bot", "Greedy bot B", "alice"]
    html = signed_in(alice).get(f"/games/{game.pk}/").content.decode()
    assert "Greedy bot B" in html
    # A letter, not a number, which would read as a seat; no seat suffix is needed.
    assert not re.search(r"Greedy bot \d", html)
    assert "(seat " not in html
