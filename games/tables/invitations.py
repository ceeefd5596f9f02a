"""Invitations without spam (issue 41, item 5): one account invited any username, with no
cap, and its display name went into the mail's subject; ten such mails left in a tenth of
a second.

Checked when a table is opened with invitations (``games.tables.lifecycle.game_create``: the page,
the API and a rematch), counted in the database so that they hold across processes:

* ``INVITATIONS_PER_HOUR`` (default 30): invitations an account sent in the last hour;
* ``INVITATIONS_PER_INVITEE`` (default 5): invitations an account sent one person in the
  last day;

past either, 429 ``too_many_invitations``. And an invitee may mute an inviter
(``mute_set``: the profile page's button, ``/api/me/mutes``): a table that invites someone
who muted its creator is refused with 403 ``invitation_muted``, naming nobody, and no mail
leaves. What a mail says of its sender is ``notifications.mail_parts.mail_name``.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import NotAllowed, TooManyRequests
from games.models import Invitation, InvitationMute

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)


def invitations_check(*, inviter: User, invitees: Sequence[User]) -> None:
    """Refuse invitations ``inviter`` may not send now (inside the table's transaction,
    after ``games.tables.capacity.table_open_check`` locked the inviter's row)."""
    if not invitees or getattr(inviter, "is_bot", False):
        return
    if InvitationMute.objects.filter(muted=inviter, user__in=list(invitees)).exists():
        raise NotAllowed(
            _("One of the people invited does not take invitations from you."),
            code="invitation_muted",
        )
    now = timezone.now()
    sent = Invitation.objects.filter(invited_by=inviter)
    too_many = TooManyRequests(
        _("You have sent as many invitations as an account may for now; try again later."),
        code="too_many_invitations",
    )
    if sent.filter(created_at__gte=now - HOUR).count() + len(invitees) > int(
        settings.INVITATIONS_PER_HOUR
    ):
        raise too_many
    per_invitee = int(settings.INVITATIONS_PER_INVITEE)
    recent = sent.filter(created_at__gte=now - DAY, user__in=list(invitees))
    counts: dict[int, int] = {}
    for user_id in recent.values_list("user_id", flat=True):
        counts[user_id] = counts.get(user_id, 0) + 1
    if any(count >= per_invitee for count in counts.values()):
        raise too_many


def mute_set(*, user: User, muted: User, on: bool) -> None:
    """``user`` takes no more invitations from ``muted`` (``on``), or takes them again."""
    if on:
        if muted.pk == user.pk:
            return
        try:
            with transaction.atomic():
                InvitationMute.objects.create(user=user, muted=muted)
        except IntegrityError:
            pass  # already muted
    else:
        InvitationMute.objects.filter(user=user, muted=muted).delete()


def mutes_of(*, user: User) -> list[User]:
    """The accounts ``user`` muted, by username."""
    ids = InvitationMute.objects.filter(user=user).values("muted_id")
    return list(User.objects.filter(pk__in=ids).order_by("username"))


def is_muted(*, user: User, muted: User) -> bool:
    return InvitationMute.objects.filter(user=user, muted=muted).exists()
