"""The events webhooks are told of, recorded as owed deliveries (docs/webhooks.md).

Each event is written as one ``WebhookDelivery`` per hook that takes it, under a key unique
per hook (``my_turn:<game>:<version>:<seat>``, ``invitation:<id>``, ``game_over:<game>``,
``tournament_round:<tournament>:<round>``), in the transaction that made the event, so it is
owed exactly when the event happened and never twice; the deliveries are queued after
commit and the sweep queues again any whose task was lost.

``my_turn_owed`` and ``game_over_owed`` run in every move's transaction (durable effects
named in ``games.moves.effects``). Most players have no webhook, so each
process keeps the set of accounts that have one for each event (read again every
``WEBHOOKS_OWNERS_SECONDS``, and at once in the process that adds or removes a hook): a
move of players without webhooks costs no query.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.models import Game, Invitation, Seat
from games.moves.result import Advance, MoveResult
from games.titles import web_title
from webhooks import task_names
from webhooks.models import Webhook, WebhookDelivery

_owners: dict[str, tuple[float, frozenset[int]]] = {}


def owners_forget() -> None:
    _owners.clear()


def owners(event: str) -> frozenset[int]:
    """The accounts with a working hook for ``event`` (cached in this process)."""
    now = time.monotonic()
    cached = _owners.get(event)
    if cached is not None and cached[0] > now:
        return cached[1]
    found = frozenset(
        Webhook.objects.filter(disabled_at__isnull=True, **{f"on_{event}": True})
        .values_list("user_id", flat=True)
        .distinct()
    )
    ttl = float(getattr(settings, "WEBHOOKS_OWNERS_SECONDS", 30))
    _owners[event] = (now + ttl, found)
    return found


def site_link(path: str) -> str:
    return f"{settings.SITE_URL.rstrip('/')}{path}"


def emit(
    *, event: str, key: str, user_ids: Iterable[int], body: Callable[[], dict[str, Any]]
) -> int:
    """Owe ``event`` to every working hook of ``user_ids`` that takes it; ``body()`` gives
    the public fields of the payload, called in each owner's language. Returns how many
    deliveries were owed (an event owed already is not owed again)."""
    wanted = set(user_ids) & owners(event)
    if not wanted:
        return 0
    hooks = list(
        Webhook.objects.filter(
            user_id__in=wanted, disabled_at__isnull=True, **{f"on_{event}": True}
        ).select_related("user")
    )
    now = timezone.now()
    bodies: dict[str, dict[str, Any]] = {}
    rows = []
    for hook in hooks:
        language = hook.user.language or settings.LANGUAGE_CODE
        if language not in bodies:
            with translation.override(language):
                bodies[language] = body()
        rows.append(
            WebhookDelivery(
                hook=hook,
                key=key,
                event=event,
                event_id=uuid.uuid4(),
                body={"event": event, "occurred_at": now.isoformat(), **bodies[language]},
                next_attempt_at=now,
            )
        )
    WebhookDelivery.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        WebhookDelivery.objects.filter(hook__in=hooks, key=key, attempts=0).values_list(
            "pk", flat=True
        )
    )

    def queue() -> None:
        for delivery_id in ids:
            task_names.deliver_queue(delivery_id)

    transaction.on_commit(queue, robust=True)
    return len(ids)


def _game_body(game: Game, text: str) -> dict[str, Any]:
    return {
        "text": text,
        "url": site_link(reverse("games:game", args=[game.pk])),
        "game": {"id": game.pk, "title": str(web_title(game.title).name)},
    }


def my_turn_owed(advance: Advance) -> None:
    """``my_turn`` for each person newly due (as the "your turn" mail)."""
    game = advance.game
    if game.status != Game.Status.RUNNING:
        return
    mover = getattr(advance.move, "seat", None)
    due = {s for s in advance.to_act if s not in advance.previous_to_act or s == mover}
    if not due or not owners("my_turn"):
        return
    hooked = owners("my_turn")
    for seat in advance.seats:
        if seat.seat in due and not seat.bot_kind and seat.user_id in hooked:
            number = seat.seat
            emit(
                event="my_turn",
                key=f"my_turn:{game.pk}:{game.version}:{number}",
                user_ids=[seat.user_id],
                body=lambda: _game_body(
                    game, _("Your turn at table %(id)s (%(title)s).") % _words(game)
                ),
            )


def _words(game: Game) -> dict[str, Any]:
    return {"id": game.pk, "title": web_title(game.title).name}


def game_over_owed(result: MoveResult) -> None:
    """``game_over`` for each player with a hook, in the finishing move's transaction."""
    game = result.game
    hooked = owners("game_over")
    if not hooked:
        return
    players = Seat.objects.filter(game=game, user_id__in=hooked).values_list("user_id", flat=True)
    emit(
        event="game_over",
        key=f"game_over:{game.pk}",
        user_ids=list(players),
        body=lambda: _game_body(game, _("Table %(id)s (%(title)s) is over.") % _words(game)),
    )


def on_game_created(sender: Any, *, instance: Game, created: bool, **kwargs: Any) -> None:
    """``invitation`` for each person invited to a new table (the invitations are written
    after the table's row, in the same transaction: they are read once it commits)."""
    if not created or not owners("invitation"):
        return
    game_id = int(instance.pk)

    def owe() -> None:
        hooked = owners("invitation")
        invitations = Invitation.objects.filter(game_id=game_id, user_id__in=hooked)
        for invitation in invitations.select_related("game", "invited_by"):
            invitation_owe(invitation)

    transaction.on_commit(owe, robust=True)


def invitation_owe(invitation: Invitation) -> int:
    game = invitation.game
    inviter = invitation.invited_by.shown_name if invitation.invited_by else ""

    def body() -> dict[str, Any]:
        text = _("%(name)s invites you to table %(id)s (%(title)s).") % {
            "name": inviter,
            **_words(game),
        }
        return _game_body(game, text)

    with transaction.atomic():
        return emit(
            event="invitation",
            key=f"invitation:{invitation.pk}",
            user_ids=[invitation.user_id],
            body=body,
        )


def connect() -> None:
    post_save.connect(on_game_created, sender=Game, dispatch_uid="webhooks-invitation")
