"""Writes and checks for accounts. API tokens are stored as SHA-256 digests only."""

from __future__ import annotations

import hashlib
import secrets

from django.utils import timezone

from accounts.models import ApiToken, User


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_create(*, user: User, name: str = "") -> str:
    """Create an API token for ``user``; the clear token is returned once and never stored."""
    token = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, name=name[:60], key_digest=_digest(token))
    return token


def token_user(*, token: str) -> User | None:
    """The active user a bearer token belongs to, or ``None``."""
    if not token or len(token) > 200:
        return None
    row = (
        ApiToken.objects.select_related("user")
        .filter(key_digest=_digest(token), user__is_active=True)
        .first()
    )
    if row is None:
        return None
    now = timezone.now()
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 300:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    return row.user
