"""The mail each entrant gets when a round starts (docs/tournaments.md, TR-R-6): their table
or their bye, and the tournament's page, in their language. It goes through the outbox
(``notifications.outbox``: stored in the round's transaction, sent by a task, sent again by
the sweep if that task is lost) to players whose mail setting is "each turn" or "daily
digest"; a round is paired once, so its mail is written once."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User
from notifications.outbox import outbox_add, subject_line
from notifications.turn_mails import wants_mail
from tournaments.models import Tournament
from webhooks.events import site_link


def round_mails(t: Tournament, number: int, tables: dict[int, int | None]) -> int:
    """``tables``: each entrant's user id and their table (None: a bye)."""
    sent = 0
    page = site_link(reverse("tournaments:detail", args=[t.pk]))
    for user in User.objects.filter(pk__in=list(tables)):
        if not wants_mail(user, digest_too=True):
            continue
        game_id = tables[user.pk]
        with translation.override(user.language or settings.LANGUAGE_CODE):
            subject = _("Round %(round)s of %(name)s has started") % {
                "round": number,
                "name": t.name,
            }
            if game_id is None:
                where = _("You have a bye this round.")
            else:
                where = _("Your table: %(url)s") % {
                    "url": site_link(reverse("games:game", args=[game_id]))
                }
            body = "\n\n".join(
                [
                    subject + ".",
                    where,
                    _("Standings and every table: %(url)s") % {"url": page},
                ]
            )
        outbox_add(
            EmailMessage(subject_line(subject), body, to=[user.email]), template="tournament_round"
        )
        sent += 1
    return sent
