"""What every mail and push is built from: the links (one-click unsubscribe, the table) and
the words they may use (the game's title, what is due, a sender's name as a mail shows it,
the players, a deadline in the reader's zone). Nothing here holds hidden information: it
reads the game's public facts only."""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.names import name_key
from games.clocks.arithmetic import zone
from games.engine import get_rules
from games.models import Game, Seat
from games.store.state_cache import engine_for, load_state
from games.titles import web_title
from notifications.models import Notification

log = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "notifications.unsubscribe"
Kind = Notification.Kind

# --- links --------------------------------------------------------------------------------


def unsubscribe_token(*, user: User) -> str:
    """A signed token naming ``user``; it never expires (links in old mails keep working)
    and is the same in every mail."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user.pk})


def user_for_token(token: str) -> User | None:
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("u"), int):
        return None
    return User.objects.filter(pk=data["u"]).first()


def unsubscribe_url(*, user: User) -> str:
    path = reverse("notifications:unsubscribe", args=[unsubscribe_token(user=user)])
    return f"{settings.SITE_URL}{path}"


def game_url(game: Game) -> str:
    """The table's page, absolute (mails are read outside the site)."""
    return f"{settings.SITE_URL}{reverse('games:game', args=[game.pk])}"


def notifications_off(*, user: User) -> None:
    """Switch off every mail for ``user`` (the unsubscribe link)."""
    User.objects.filter(pk=user.pk).update(email_notifications=User.EmailNotifications.OFF)


# --- what a mail may say ------------------------------------------------------------------


def game_title(game: Game) -> str:
    try:
        name = str(get_rules(game.title).name or game.title)
    except KeyError:
        name = game.title
    return _("%(name)s, table %(id)s") % {"name": name, "id": game.pk}


def what_is_needed(game: Game) -> str:
    """What a "your turn" mail says the player must do, in the title's words, from the
    PUBLIC view (the spectators'), never a seat's: a mail must not carry a hand."""
    try:
        view = engine_for(game).view(load_state(game), None)
        words = web_title(game.title).needed_words(view)
    except Exception:  # a mail must not fail because of a snapshot problem
        log.exception("public view of game %s unavailable for a mail", game.pk)
        words = None
    return words or _("make your move")


def mail_name(user: User) -> str:
    """How a mail names a person: their username beside any display name ("Alice Ames
    (@alice)"), so that a display name cannot pass for someone else in a mail; a bot by
    its name, which is the site's."""
    if user.is_bot:
        return user.shown_name
    shown = user.shown_name
    if name_key(shown) == name_key(user.username):
        return user.username
    return _("%(name)s (@%(username)s)") % {"name": shown, "username": user.username}


def subject_name(user: User) -> str:
    """How a subject line names a person: ``@username`` only (a display name is the
    user's free text and never reaches a subject), to be quoted by the subject's sentence;
    a bot by its name."""
    return user.shown_name if user.is_bot else f"@{user.username}"


def players_of(game: Game) -> list[str]:
    seats = Seat.objects.filter(game=game).select_related("user").order_by("seat", "id")
    return [mail_name(s.user) for s in seats]


def local_deadline(deadline: datetime | None, user: User) -> datetime | None:
    if deadline is None:
        return None
    return deadline.astimezone(zone(user.time_zone))


def reminder_key(seat: Seat) -> str:
    """The key a reminder is sent under: one per seat and clock run."""
    started = seat.clock_started_at.isoformat() if seat.clock_started_at else "-"
    return f"reminder:{seat.pk}:{started}"
