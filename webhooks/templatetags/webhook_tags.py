"""``{% webhooks_notice user %}``: on the settings page, the link to the webhooks page and a
notice when one of the player's hooks was turned off after repeated failures."""

from __future__ import annotations

from typing import Any

from django import template

from webhooks.models import Webhook

register = template.Library()


@register.inclusion_tag("webhooks/_settings_notice.html")
def webhooks_notice(user: Any) -> dict[str, Any]:
    off = Webhook.objects.filter(user=user, disabled_at__isnull=False).count() if user else 0
    return {"off": off}
