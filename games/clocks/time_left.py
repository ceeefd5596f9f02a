"""A deadline as the time left before it, in words ("2 d 3 h left"): the clock's tag on the
pages, and the mails and pushes that name a deadline."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _


def time_left_text(deadline: datetime | None, now: datetime) -> str:
    if deadline is None:
        return _("no deadline")
    seconds = (deadline - now).total_seconds()
    if seconds <= 0:
        return _("the deadline has passed")
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    if days:
        return _("%(days)d d %(hours)d h left") % {"days": days, "hours": hours}
    if hours:
        return _("%(hours)d h %(minutes)d min left") % {"hours": hours, "minutes": rest // 60}
    return _("%(minutes)d min left") % {"minutes": max(1, rest // 60)}
