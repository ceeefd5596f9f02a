"""The settings page's Web Push section: this user's devices and what the page's script
needs (the site's public VAPID key, the addresses to post to)."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import push, push_wire

register = template.Library()


@register.inclusion_tag("notifications/_push_settings.html", takes_context=True)
def push_settings(context: dict[str, Any]) -> dict[str, Any]:
    user = context["user"]
    return {
        "devices": push.devices(user),
        "public_key": push_wire.public_key(),
        "events": push.EVENT_LABELS,
        "csrf_token": context.get("csrf_token"),
    }
