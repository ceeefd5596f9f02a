"""Mails a player gets: "your turn", reminders, the digest, "game finished"; what they say,
what they must never say, their headers and links, and that none is sent twice."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.models import User
from games import moves
from games.engine import get_rules
from games.live.seen_marks import seat_mark_seen
from games.models import Game, Seat
from games.selectors import documents
from games.store.state_cache import load_state
from games.tables import lifecycle
from notifications import mail_parts, mails, turn_mails
from notifications.models import Notification
from tests.play import play_randomly

pytestmark = pytest.mark.django_db(transaction=True)


def _seat(game: Game, user: User) -> Seat:
    return Seat.objects.get(game=game, user=user)


def _mails_to(outbox, user: User):
    return [m for m in outbox if m.to == [user.email]]


def test_each_player_due_gets_one_your_turn_mail(person, two_player_game, mailoutbox):
    alice = person("alice", time_zone="America/New_York")
    bob = person("bob", time_zone="Asia/Tokyo")
    game = two_player_game(alice, bob)
    assert len(mailoutbox) == 2  # both bid at once
    message = _mails_to(mailoutbox, alice)[0]
    title = f"Colorado County, table {game.pk}"
    assert message.subject == f"[Colorado County online] Your turn: {title}"
    assert f"It is your turn in {title}: make your sealed bid of cowboys." in message.body
    deadline = _seat(game, alice).deadline.astimezone(
        __import__("zoneinfo").ZoneInfo("America/New_York")
    )
    shown = deadline.strftime("%A %-d %B %Y, %H:%M")
    assert f"Deadline: {shown} (America/New_York)." in message.body
    link = mail_parts.game_url(game)
    assert link == f"{settings.SITE_URL}/games/{game.pk}/"
    assert link in message.body
    html, kind = message.alternatives[0]
    assert kind == "text/html"
    assert link in html
    assert title in html
    assert shown in html
    assert "Players: alice, bob" in message.body or "Players: bob, alice" in message.body


def test_a_turn_mail_waits_for_the_grace_period_and_not_for_a_player_who_looked(
    person, mailoutbox, settings
):
    """docs/clocks.md, "Mails": "your turn" mails leave after a grace period, and not at all if the
    player has seen the table meanwhile; the pending mail lives on the seat, so a restart
    loses none, and the sweep takes each once."""
    settings.TURN_EMAIL_DELAY_SECONDS = 120
    alice, bob = person("alice"), person("bob")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    game.refresh_from_db()
    assert mailoutbox == []  # both are due (simultaneous bid), the grace period runs
    started = timezone.now()
    assert turn_mails.turn_mails_queue(now=started + timedelta(seconds=60)) == 0
    assert mailoutbox == []
    seat_mark_seen(game_id=game.pk, user=alice, version=game.version)
    assert turn_mails.turn_mails_queue(now=started + timedelta(seconds=121)) == 2
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]  # Alice had looked
    assert turn_mails.turn_mails_queue(now=started + timedelta(hours=1)) == 0  # taken once
    assert len(mailoutbox) == 1


def test_a_turn_mail_whose_task_was_lost_is_queued_again_after_its_lease(person, mailoutbox):
    """The sweep took the pending mail and queued its task, and the task was lost (worker
    killed, Redis restarted): the mail is still owed. The seat keeps it, leased, and a sweep
    after the lease takes it again; once a task has run, it is gone for good."""
    alice, bob = person("alice"), person("bob")
    game = lifecycle.game_create(creator=alice, players=2, options={"flags": "random"})
    lifecycle.game_join(game_id=game.pk, user=bob)
    due = timezone.now() + timedelta(seconds=settings.TURN_EMAIL_DELAY_SECONDS + 1)
    assert len(turn_mails.turn_mails_claim(now=due)) == 2  # queued, then lost: nothing sent
    assert turn_mails.turn_mails_claim(now=due + timedelta(minutes=1)) == []  # leased
    later = due + turn_mails.TURN_MAIL_LEASE + timedelta(seconds=1)
    assert turn_mails.turn_mails_queue(now=later) == 2
    assert sorted(m.to[0] for m in mailoutbox) == ["alice@example.org", "bob@example.org"]
    assert turn_mails.turn_mails_queue(now=later + turn_mails.TURN_MAIL_LEASE * 2) == 0
    assert len(mailoutbox) == 2


def test_every_mail_has_one_click_unsubscribe_headers(person, two_player_game, mailoutbox):
    alice, bob = person("alice"), person("bob")
    two_player_game(alice, bob)
    message = _mails_to(mailoutbox, alice)[0]
    url = mail_parts.unsubscribe_url(user=alice)
    assert message.extra_headers["List-Unsubscribe"] == f"<{url}>"
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert url in message.body
    assert url.replace("&", "&amp;") in message.alternatives[0][0]


def test_a_mail_holds_no_hidden_information(person, two_player_game, mailoutbox):
    alice, bob = person("alice"), person("bob")
    game = two_player_game(alice, bob)
    message = _mails_to(mailoutbox, alice)[0]
    engine = get_rules(game.title)
    state = load_state(game)
    for seat in (0, 1):
        hand = engine.view(state, seat)["hand"]
        assert hand  # the players do hold cowboys
    text = message.body + message.alternatives[0][0]
    assert game.seed not in text
    # Take away what may carry digits (table number, dates, links); nothing else may.
    text = message.body
    text = text.replace(f"table {game.pk}", "")
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"Deadline: .*", "", text)
    assert re.findall(r"\d+", text) == []


def test_no_turn_mail_once_the_player_has_seen_the_table(person, two_player_game, mailoutbox):
    alice, bob = person("alice"), person("bob")
    game = two_player_game(alice, bob)
    seat = _seat(game, alice)
    Notification.objects.all().delete()
    mailoutbox.clear()
    seat_mark_seen(game_id=game.pk, user=alice, version=game.version)
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is False
    assert mailoutbox == []
    # Bob has not looked: his goes out, once however often the task runs.
    bob_seat = _seat(game, bob)
    assert turn_mails.turn_mail_send(seat_id=bob_seat.pk, version=game.version) is True
    assert turn_mails.turn_mail_send(seat_id=bob_seat.pk, version=game.version) is False
    assert [m.to for m in mailoutbox] == [["bob@example.org"]]
    assert Notification.objects.get(key=f"turn:{bob_seat.pk}:{game.version}").sent_at


def test_no_turn_mail_after_the_player_moved(person, two_player_game, mailoutbox):
    alice, bob = person("alice"), person("bob")
    game = two_player_game(alice, bob)
    Notification.objects.all().delete()
    doc = documents.game_document(game=game, user=alice)
    bid = next(a for a in doc["legal_actions"] if a["type"] == "bid")
    moves.action_submit(game_id=game.pk, user=alice, action=bid, version=doc["version"])
    mailoutbox.clear()
    assert turn_mails.turn_mail_send(seat_id=_seat(game, alice).pk, version=1) is False
    assert mailoutbox == []


def test_players_who_chose_digest_or_off_get_no_turn_mail(person, two_player_game, mailoutbox):
    alice = person("alice", email_notifications="digest")
    bob = person("bob", email_notifications="off")
    two_player_game(alice, bob)
    assert mailoutbox == []


def test_the_digest_lists_every_game_due_least_time_left_first(person, two_player_game, mailoutbox):
    alice = person("alice", email_notifications="digest", time_zone="Europe/Paris")
    bob, carol = person("bob"), person("carol")
    first = two_player_game(alice, bob)
    second = two_player_game(alice, carol)
    Seat.objects.filter(game=second, user=alice).update(
        deadline=timezone.now() + timedelta(hours=5)
    )
    mailoutbox.clear()
    now = timezone.now()
    assert mails.digest_send(user_id=alice.pk, now=now) is True
    assert mails.digest_send(user_id=alice.pk, now=now) is False  # once a day
    (message,) = mailoutbox
    assert message.subject == "[Colorado County online] Your turn in 2 games"
    body = message.body
    assert body.index(f"table {second.pk}") < body.index(f"table {first.pk}")
    assert "4 h 59 min left" in body or "5 h 0 min left" in body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_the_digest_goes_out_at_seven_in_the_morning_of_the_reader(person):
    paris = person("paris", email_notifications="digest", time_zone="Europe/Paris")
    person("tokyo", email_notifications="digest", time_zone="Asia/Tokyo")
    person("someone", email_notifications="each_turn", time_zone="Europe/Paris")
    six_utc = timezone.datetime(2026, 12, 1, 6, 30, tzinfo=timezone.get_fixed_timezone(0))
    assert [u.pk for u in mails.digest_readers(now=six_utc)] == [paris.pk]


def test_no_digest_without_a_game_due(person, mailoutbox):
    alice = person("alice", email_notifications="digest")
    assert mails.digest_send(user_id=alice.pk) is False
    assert mailoutbox == []


def test_a_reminder_comes_reminder_hours_before_the_deadline_once(
    person, two_player_game, mailoutbox
):
    alice = person("alice", reminder_hours=6)
    bob = person("bob", reminder_hours=0)
    game = two_player_game(alice, bob)
    now = timezone.now()
    assert turn_mails.reminders_due(now=now) == []
    soon = now + timedelta(hours=5)
    Seat.objects.filter(game=game).update(deadline=soon)
    due = turn_mails.reminders_due(now=now)
    assert [s.user_id for s in due] == [alice.pk]  # bob wants none
    mailoutbox.clear()
    assert turn_mails.reminder_send(seat_id=due[0].pk, now=now) is True
    (message,) = mailoutbox
    assert "Reminder: your move in" in message.subject
    assert "4 h 59 min left" in message.body or "5 h 0 min left" in message.body
    assert "a day of your vacation (10.0 days left) is used first" in message.body
    assert turn_mails.reminders_due(now=now) == []
    assert turn_mails.reminder_send(seat_id=due[0].pk, now=now) is False
    assert len(mailoutbox) == 1


def test_game_finished_mail_gives_the_result(person, mailoutbox):
    alice = person("alice")
    game = lifecycle.game_create(creator=alice, players=2, bots=["greedy"])
    game = play_randomly(game, [alice], seed=5)
    assert game.status == Game.Status.FINISHED
    (message,) = [m for m in mailoutbox if "] Game over" in m.subject]
    seat = _seat(game, alice)
    if seat.final_rank == 1:
        assert f"You won with {seat.final_score} points!" in message.body
        assert "You finished #1" not in message.body
    else:
        assert f"You finished #{seat.final_rank} with {seat.final_score} points." in message.body
    for row in Seat.objects.filter(game=game):
        assert f"{row.final_rank}. {row.user.shown_name}: {row.final_score}" in message.body
    assert mails.finished_mail_send(seat_id=seat.pk) is False
    assert len([m for m in mailoutbox if "] Game over" in m.subject]) == 1
    # No turn mail after the end, even if a late task runs.
    assert turn_mails.turn_mail_send(seat_id=seat.pk, version=game.version) is False


def test_bots_get_no_mail(person, mailoutbox):
    alice = person("alice")
    lifecycle.game_create(creator=alice, players=2, bots=["greedy"], options={"flags": "random"})
    assert {tuple(m.to) for m in mailoutbox} <= {("alice@example.org",)}


def test_a_mail_in_french_says_so_in_its_html(person, mailoutbox):
    """Issue 43, trial item 4: a French turn mail's HTML said lang="en"."""
    alice = person("alice", language="fr")
    lifecycle.game_create(creator=alice, players=2, bots=["greedy"])
    turn_mails.turn_mails_queue(now=timezone.now() + timedelta(hours=1))
    message = next(m for m in mailoutbox if m.to == [alice.email])
    html, _kind = message.alternatives[0]
    assert '<html lang="fr">' in html
