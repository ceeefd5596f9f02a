"""What one account may ask of the site's shared capacity (issue 41: one account opened 20
six-seat tables of hard bots in a few seconds and slowed every other player's bots).

Two limits, checked when a table is opened (``games.tables.lifecycle.game_create``: the new-table
page, ``POST /api/games`` and a rematch alike), counted in the database so that they hold
across server processes and restarts:

* ``TABLES_PER_HOUR`` (default 20): tables an account opened in the last hour; past it, 429
  ``too_many_tables``;
* ``BOT_TABLES_MAX`` (default 5): tables with bots an account has going (opened by it, open
  or running, with at least one seat a bot plays: its own bots, or a person's seat handed to
  a bot); past it, opening another table with bots answers 403 ``bot_table_limit``. A table
  that ends (finished or aborted) frees its place.

Bot accounts (the ladder, benchmarks' own tables) are not held: they are the site's.
The creator's row is locked first, so two tables opened at the same moment are counted
one after the other.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.errors import NotAllowed, TooManyRequests
from games.models import Game, Seat

HOUR = timedelta(hours=1)


def bot_tables(*, user: User) -> QuerySet[Game]:
    """The tables with bots ``user`` has going: opened by them, open or running, with a
    seat a bot plays."""
    with_bots = Seat.objects.exclude(bot_kind="").values("game_id")
    return Game.objects.filter(
        created_by=user,
        status__in=(Game.Status.OPEN, Game.Status.RUNNING),
        pk__in=with_bots,
    )


def table_open_check(*, creator: User, with_bots: bool) -> None:
    """Refuse a new table ``creator`` may not open now (call inside the table's transaction:
    the creator's row is locked, so tables opened at once are counted in turn)."""
    if getattr(creator, "is_bot", False):
        return
    User.objects.select_for_update().filter(pk=creator.pk).values_list("pk", flat=True).first()
    since = timezone.now() - HOUR
    per_hour = int(settings.TABLES_PER_HOUR)
    if Game.objects.filter(created_by=creator, created_at__gte=since).count() >= per_hour:
        raise TooManyRequests(
            _(
                "You have opened %(n)d tables in the last hour, the most an account may; "
                "try again later."
            )
            % {"n": per_hour},
            code="too_many_tables",
        )
    most = int(settings.BOT_TABLES_MAX)
    if with_bots and bot_tables(user=creator).count() >= most:
        raise NotAllowed(
            _(
                "You already have %(n)d tables with bots going, the most an account may; "
                "finish or abort one first."
            )
            % {"n": most},
            code="bot_table_limit",
        )
