"""Making, listing and removing a player's webhooks (docs/webhooks.md)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from accounts.services import email_verified
from games.errors import BadRequest, Conflict, NotAllowed, NotFound
from webhooks import events
from webhooks.addresses import UrlRefused, check_url
from webhooks.models import EVENTS, Webhook

URL_MAX = 500


def per_account() -> int:
    return int(getattr(settings, "WEBHOOKS_PER_ACCOUNT", 5))


def hook_document(hook: Webhook, *, secret: bool = False) -> dict[str, Any]:
    """A hook as its owner sees it; the secret only when it was just made."""
    doc: dict[str, Any] = {
        "id": hook.pk,
        "url": hook.url,
        "events": hook.events,
        "format": hook.format,
        "created_at": hook.created_at.isoformat(),
        "disabled": hook.disabled_at is not None,
        "disabled_at": hook.disabled_at.isoformat() if hook.disabled_at else None,
        "last_error": hook.last_error,
    }
    if secret:
        doc["secret"] = hook.secret
    return doc


def hook_create(*, user: Any, url: Any, events_wanted: Any, format: Any) -> Webhook:
    """A new hook of ``user``'s; refusals have stable codes and never repeat the URL."""
    if not email_verified(user=user):
        raise NotAllowed(
            _("Verify your e-mail address before adding webhooks."), code="email_unverified"
        )
    if not isinstance(url, str) or not url or len(url) > URL_MAX:
        raise BadRequest(_("A webhook's URL has 1 to 500 characters."), code="bad_url")
    if (
        not isinstance(events_wanted, list)
        or not events_wanted
        or not all(isinstance(e, str) and e in EVENTS for e in events_wanted)
    ):
        raise BadRequest(
            _("Choose the events among: %(events)s.") % {"events": ", ".join(EVENTS)},
            code="bad_events",
        )
    if format not in Webhook.Format.values:
        raise BadRequest(_("The format is json, discord or slack."), code="bad_format")
    try:
        check_url(url)
    except UrlRefused as exc:
        raise BadRequest(exc.message, code=exc.code) from None
    with transaction.atomic():
        # The owner's row, locked: two requests at once cannot both pass the cap.
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if Webhook.objects.filter(user=user).count() >= per_account():
            raise Conflict(
                _("You have %(n)d webhooks, the most an account may; remove one first.")
                % {"n": per_account()},
                code="too_many_webhooks",
            )
        hook = Webhook.objects.create(
            user=user,
            url=url,
            format=format,
            secret=secrets.token_hex(32),
            **{f"on_{event}": event in events_wanted for event in EVENTS},
        )
    events.owners_forget()
    return hook


def hooks_of(*, user: Any) -> list[Webhook]:
    return list(Webhook.objects.filter(user=user).order_by("id"))


def _own(user: Any, hook_id: Any) -> Webhook:
    hook = (
        Webhook.objects.filter(pk=hook_id, user=user).first() if isinstance(hook_id, int) else None
    )
    if hook is None:
        raise NotFound(_("You have no such webhook."), code="unknown_webhook")
    return hook


def hook_delete(*, user: Any, hook_id: Any) -> None:
    _own(user, hook_id).delete()
    events.owners_forget()


def hook_enable(*, user: Any, hook_id: Any) -> Webhook:
    """Turn on again a hook that was turned off after repeated failures."""
    hook = _own(user, hook_id)
    hook.disabled_at = None
    hook.failures = 0
    hook.last_error = ""
    hook.save(update_fields=["disabled_at", "failures", "last_error"])
    events.owners_forget()
    return hook
