"""Writes and checks for accounts: API tokens (stored as SHA-256 digests only, expiring,
revocable), socket tickets, and the profile settings a player changes on the settings page
or through ``/api/me/settings``."""

from __future__ import annotations

import datetime
import functools
import hashlib
import secrets
import threading
import time
import zoneinfo
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import ApiToken, User
from accounts.names import display_name_problem, hidden_characters, normalise


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_issue(*, user: User, name: str = "") -> tuple[str, ApiToken]:
    """Create an API token for ``user``, good for ``API_TOKEN_DAYS``; the clear token is
    returned once (with its row) and never stored."""
    token = secrets.token_urlsafe(32)
    days = datetime.timedelta(days=getattr(settings, "API_TOKEN_DAYS", 90))
    row = ApiToken.objects.create(
        user=user,
        name=name[:60],
        key_digest=_digest(token),
        expires_at=(timezone.now() + days).replace(microsecond=0),
    )
    return token, row


def token_create(*, user: User, name: str = "") -> str:
    """Create an API token for ``user``; the clear token is returned once and never stored."""
    return token_issue(user=user, name=name)[0]


def token_list(*, user: User) -> list[ApiToken]:
    """``user``'s tokens, newest first, expired ones included (so the owner sees why a
    script stopped); the rows hold digests only."""
    return list(ApiToken.objects.filter(user=user).order_by("-created_at", "-pk"))


def token_revoke(*, user: User, token_id: int) -> ApiToken | None:
    """Delete ``user``'s token ``token_id``; ``None`` if ``user`` has no such token (another
    player's id is no different from an unknown one). The delete clears this process's token
    cache at once (``token_cache_clear``); other processes stop accepting the token within
    ``API_TOKEN_CACHE_SECONDS``."""
    row = ApiToken.objects.filter(user=user, pk=token_id).first() if 0 < token_id < 2**62 else None
    if row is not None:
        row.delete()
    return row


# Bearer tokens are checked on every API call: a process remembers, for
# ``API_TOKEN_CACHE_SECONDS``, which user a token digest belongs to, that user's row and the
# token's expiry, so a busy script costs no query per call. Any save or delete of a user or a
# token in this process forgets everything at once; other processes notice within that time
# (a revoked token or a deactivated user keeps working there for at most that long). The
# expiry is checked on every call, remembered or not.
_token_cache: dict[str, tuple[float, datetime.datetime, tuple[str, ...], tuple[Any, ...]]] = {}
_token_cache_lock = threading.Lock()
TOKEN_CACHE_MAX = 10_000


def token_cache_clear(**_kwargs: Any) -> None:
    """Forget every remembered token (receiver of User/ApiToken saves and deletes)."""
    with _token_cache_lock:
        _token_cache.clear()


def token_user(*, token: str) -> User | None:
    """The active user an unexpired bearer token belongs to, or ``None``. A fresh ``User``
    each call."""
    if not token or len(token) > 200:
        return None
    digest = _digest(token)
    ttl = float(getattr(settings, "API_TOKEN_CACHE_SECONDS", 0))
    now_mono = time.monotonic()
    now = timezone.now()
    hit = _token_cache.get(digest)
    if hit is not None and hit[0] > now_mono:
        if hit[1] <= now:
            return None
        return User.from_db("default", hit[2], hit[3])
    row = (
        ApiToken.objects.select_related("user")
        .filter(key_digest=digest, user__is_active=True, expires_at__gt=now)
        .first()
    )
    if row is None:
        return None
    if row.last_used_at is None or (now - row.last_used_at).total_seconds() > 300:
        ApiToken.objects.filter(pk=row.pk).update(last_used_at=now)
    user = row.user
    if ttl > 0:
        names = tuple(f.attname for f in User._meta.concrete_fields)
        values = tuple(getattr(user, name) for name in names)
        with _token_cache_lock:
            if len(_token_cache) >= TOKEN_CACHE_MAX:
                _token_cache.clear()
            _token_cache[digest] = (now_mono + ttl, row.expires_at, names, values)
    return user


# --- Password exchange (POST /api/auth/token) ---------------------------------------------


class TooManyAttempts(Exception):
    """Too many recent failed sign-ins for this account; nothing was checked."""


def _account_failure_rates(*, by_address: bool = False) -> dict[str, str]:
    """The per-account part of allauth's ``login_failed`` limit (``5/5m/key``), and with
    ``by_address`` its per-address part too (``10/m/ip``; for the API the address part is
    the address throttle's job, ``colorado.throttling``)."""
    from allauth.account import app_settings

    rates = (app_settings.RATE_LIMITS.get("login_failed") or "").split(",")
    kept = [r.strip() for r in rates if r.strip() and (by_address or r.strip().endswith("/key"))]
    return {"login_failed": ",".join(kept)}


def password_check(
    *, request: HttpRequest, username: str, password: str, by_address: bool = False
) -> User | None:
    """The active user with these credentials, or ``None``; ``TooManyAttempts`` while the
    account is locked, even with the right password, whatever the caller's address.

    Failures are counted with allauth's rate-limit machinery under the same cache key as
    the sign-in form's (``<site domain>:<login, lower case>``, in the shared cache), so
    guesses on the form and here add up: neither channel is a way around the other. A
    success takes its own attempt back, as allauth's sign-in does, so a script that signs in
    often is never locked out, and a guesser cannot reset the count with one good login.
    ``by_address``: the sign-in form's per-address limit counts too (the admin's sign-in,
    which has no throttle of its own)."""
    from allauth.core.internal import ratelimit
    from django.contrib.auth import authenticate
    from django.contrib.sites.shortcuts import get_current_site

    key = f"{get_current_site(request).domain}:{username.lower()}"
    usage = ratelimit.consume(
        request,
        app="allauth.account",
        action="login_failed",
        config=_account_failure_rates(by_address=by_address),
        key=key,
    )
    if usage is None:
        raise TooManyAttempts
    user = authenticate(request, username=username, password=password)
    if user is None or not user.is_active:
        return None
    usage.rollback()
    return user


def email_verified(*, user: User) -> bool:
    """Whether ``user`` has a verified e-mail address: the site's sign-in requires one
    (``ACCOUNT_EMAIL_VERIFICATION = "mandatory"``), and so does getting an API token. The
    demo account and admin-made players get theirs from ``email_verified_set``."""
    from allauth.account.models import EmailAddress

    return EmailAddress.objects.filter(user=user, verified=True).exists()


# --- Socket tickets --------------------------------------------------------------------------

#: How long a socket ticket is good for: enough to open the socket right after asking.
SOCKET_TICKET_SECONDS = 60


def _ticket_key(ticket: str) -> str:
    return f"socket-ticket:{_digest(ticket)}"


def socket_ticket_create(*, user: User, seconds: int = SOCKET_TICKET_SECONDS) -> str:
    """A single-use ticket for one socket handshake of ``user`` (``/ws/games/<id>/?ticket=``).

    A URL ends up in access logs, so it may carry only this: a secret that is worthless a
    minute later or once used, never a long-lived API token. Only its digest is kept, in
    the shared cache, so any server process can redeem it."""
    ticket = secrets.token_urlsafe(32)
    cache.set(_ticket_key(ticket), user.pk, timeout=seconds)
    return ticket


def socket_ticket_user(*, ticket: str) -> User | None:
    """The active user a ticket was made for, or ``None``; the ticket is used up either way.
    Of two handshakes with one ticket only the one whose delete removed it gets the user."""
    if not ticket or len(ticket) > 200:
        return None
    key = _ticket_key(ticket)
    user_id = cache.get(key)
    if user_id is None or not cache.delete(key):
        return None
    return User.objects.filter(pk=user_id, is_active=True).first()


# --- Profile settings ----------------------------------------------------------------------

SETTINGS_FIELDS = (
    "display_name",
    "time_zone",
    "language",
    "email_notifications",
    "reminder_hours",
    "away_until",
)
REMINDER_HOURS_MAX = 72
AWAY_MAX_DAYS = 30  # the clock rules' longest absence (games.clocks.arithmetic.VACATION_DAYS_MAX)


class SettingsError(ValueError):
    """A settings value a person must correct; ``field`` names it, ``message`` says how."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@functools.cache
def time_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones())


def _clean_setting(*, user: User, field: str, value: Any) -> Any:
    if field == "display_name":
        if not isinstance(value, str):
            raise SettingsError(field, _("The display name must be text."))
        if hidden_characters(value):
            raise SettingsError(
                field, _("A name cannot hold invisible or text-direction characters.")
            )
        value = normalise(value)  # NFKC, single spaces (accounts.names)
        if len(value) > 60:
            raise SettingsError(field, _("The display name can be at most 60 characters."))
        return value
    if field == "time_zone":
        if not isinstance(value, str) or value not in time_zone_names():
            raise SettingsError(
                field, _("Choose a time zone from the list, for example Europe/Berlin or UTC.")
            )
        return value
    if field == "language":
        codes = [code for code, _name in settings.LANGUAGES]
        if value is None:
            value = ""
        if not isinstance(value, str) or (value and value not in codes):
            raise SettingsError(
                field,
                _("The language must be one of %(codes)s, or empty for your browser's.")
                % {"codes": ", ".join(codes)},
            )
        return value
    if field == "email_notifications":
        choices = [choice for choice, _label in User.EmailNotifications.choices]
        if value not in choices:
            raise SettingsError(
                field,
                _("E-mail notifications must be one of %(choices)s.")
                % {"choices": ", ".join(choices)},
            )
        return value
    if field == "reminder_hours":
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettingsError(field, _("The reminder must be a whole number of hours."))
        if not 0 <= value <= REMINDER_HOURS_MAX:
            raise SettingsError(
                field,
                _("The reminder must be between 0 (none) and %(max)s hours before a deadline.")
                % {"max": REMINDER_HOURS_MAX},
            )
        return value
    if field == "away_until":
        if value is None:
            return None
        if not isinstance(value, datetime.datetime):
            raise SettingsError(field, _("“Away until” must be a date and time, or empty."))
        if timezone.is_naive(value):
            value = timezone.make_aware(value, zoneinfo.ZoneInfo(user.time_zone or "UTC"))
        now = timezone.now()
        if value <= now:
            raise SettingsError(field, _("“Away until” must be in the future, or empty."))
        if value > now + datetime.timedelta(days=AWAY_MAX_DAYS):
            raise SettingsError(
                field,
                _("“Away until” can be at most %(days)s days ahead.") % {"days": AWAY_MAX_DAYS},
            )
        return value
    raise SettingsError(field, _("%(field)s is not a setting you can change.") % {"field": field})


def user_settings_check(*, user: User, changes: Mapping[str, Any]) -> dict[str, Any]:
    """Check every value in ``changes`` (a subset of ``SETTINGS_FIELDS``); return them
    normalised, or raise ``SettingsError`` for the first bad one. Writes nothing. The time
    zone is checked first, so a naive ``away_until`` is read in the zone being set."""
    cleaned: dict[str, Any] = {}
    probe = User(time_zone=user.time_zone)
    for field in sorted(changes, key=lambda f: (f != "time_zone", f)):
        cleaned[field] = _clean_setting(user=probe, field=field, value=changes[field])
        if field == "time_zone":
            probe.time_zone = cleaned[field]
    if cleaned.get("display_name") and cleaned["display_name"] != user.display_name:
        problem = display_name_problem(user, cleaned["display_name"])
        if problem:
            raise SettingsError("display_name", problem)
    return cleaned


def user_settings_update(*, user: User, changes: Mapping[str, Any]) -> User:
    """Check ``changes`` (see ``user_settings_check``), then save them all, or nothing.

    Not ``away_until``: vacation taken in advance goes through the clock rules, which pause
    the player's clocks in every game (``players.settings.settings_update``)."""
    if "away_until" in changes:
        raise ValueError("away_until is changed by players.settings.settings_update")
    cleaned = user_settings_check(user=user, changes=changes)
    user_settings_save(user=user, cleaned=cleaned)
    return user


def user_settings_save(*, user: User, cleaned: Mapping[str, Any]) -> None:
    """Save settings already checked by ``user_settings_check``, other than ``away_until``."""
    if cleaned:
        for field, value in cleaned.items():
            setattr(user, field, value)
        user.save(update_fields=list(cleaned))


def email_verified_set(*, user: User) -> None:
    """Record ``user.email`` as verified and primary, for accounts made outside sign-up
    (the demo account, admin-created players): sign-in requires a verified address."""
    from allauth.account.models import EmailAddress

    if not user.email:
        return
    address = EmailAddress.objects.filter(user=user, email__iexact=user.email).first()
    if address is None:
        EmailAddress.objects.create(user=user, email=user.email, primary=True, verified=True)
    elif not (address.verified and address.primary):
        address.verified = address.primary = True
        address.save(update_fields=["verified", "primary"])
