"""API rate limits: per address for anonymous callers, per user for signed-in ones.

ninja's own throttles tell the two apart by ``request.auth``, which an endpoint that also
admits anonymous callers (``optional_auth``) sets to ``True`` for them: every anonymous
caller of such an endpoint was counted in one shared bucket under the key of ``"True"``,
and none by address. These classes ask who the caller is instead.

A limit set on one endpoint takes a ``scope`` of its own (``UserRateThrottle("30/min",
scope="chat")``): with the default scope it would share its count with the site-wide limit
of the same kind, and every other call of the caller would use up the endpoint's allowance.

Anonymous limits (the token endpoint's guard against password guessing included) are
counted in the shared cache, so they hold across server processes. Signed-in callers'
limits are fair-use limits, not a defence against guessing, and are counted in each
server process's memory instead of with two Redis round trips per throttle per call: a
caller spread over N processes may reach up to N times the rate.

Addresses are ``client_address``: ninja's own ``get_ident`` took the whole
``X-Forwarded-For`` header when no proxy count was set, so a password guesser who sent a
new made-up header with each try was never throttled. The address is decided once, before
Django, by ``colorado.client_address``.
"""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.http import HttpRequest
from ninja.throttling import SimpleRateThrottle

local_counts = LocMemCache("colorado-throttles", {"OPTIONS": {"MAX_ENTRIES": 100_000}})


def caller(request: HttpRequest) -> Any:
    """The signed-in user making ``request`` (bearer token or session), or ``None``."""
    for candidate in (getattr(request, "auth", None), getattr(request, "user", None)):
        if getattr(candidate, "is_authenticated", False) and getattr(candidate, "pk", None):
            return candidate
    return None


def client_address(request: HttpRequest) -> str | None:
    """The address a request came from: ``REMOTE_ADDR``, which the outermost layer of the
    application has already made the real client's (``colorado.client_address``: the one
    place that reads ``X-Forwarded-For``, by ``TRUSTED_PROXY_COUNT``)."""
    return request.META.get("REMOTE_ADDR")


class _ScopedRateThrottle(SimpleRateThrottle):
    def __init__(self, rate: str, *, scope: str | None = None) -> None:
        if scope is not None:
            self.scope = scope
        super().__init__(rate)

    def get_ident(self, request: HttpRequest) -> str | None:
        return client_address(request)


class AnonymousRateThrottle(_ScopedRateThrottle):
    """Anonymous callers, per address, in the shared cache; signed-in callers pass."""

    scope = "anon"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        if caller(request) is not None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class UserRateThrottle(_ScopedRateThrottle):
    """Signed-in callers, per user, in this process's memory; anonymous callers pass."""

    scope = "user"
    cache = local_counts

    def get_cache_key(self, request: HttpRequest) -> str | None:
        user = caller(request)
        if user is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": user.pk}


class AddressRateThrottle(_ScopedRateThrottle):
    """Every caller, signed in or not, per address, in the shared cache (the password guard
    of ``POST /api/auth/token``: a session must not lift it)."""

    scope = "address"

    def get_cache_key(self, request: HttpRequest) -> str | None:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}
