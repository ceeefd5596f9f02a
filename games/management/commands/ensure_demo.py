"""``manage.py ensure_demo``: the demo account for a fresh local install (idempotent)."""

from __future__ import annotations

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from accounts.services import email_verified_set


class Command(BaseCommand):
    help = "Create the demo account if it does not exist and print how to sign in."

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        username = os.environ.get("DEMO_USERNAME", "demo")
        password = os.environ.get("DEMO_PASSWORD", "demo-colorado")
        user, created = user_model.objects.get_or_create(
            username=username, defaults={"email": f"{username}@example.org", "display_name": "Demo"}
        )
        if created:
            user.set_password(password)
            user.save(update_fields=["password"])
        email_verified_set(user=user)  # sign-in needs a verified address (docs/accounts.md)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo account: username {username!r}, password {password!r}"
                + ("" if created else " (already existed; password unchanged)")
            )
        )
