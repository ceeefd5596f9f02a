"""Where a webhook may point: refusing server-side request forgery (docs/webhooks.md).

A URL is taken only if it is ``https`` (``http`` too when ``WEBHOOKS_ALLOW_PRIVATE``), has
no user name or password, and its host resolves only to public addresses: a private,
loopback, link-local, shared, reserved, multicast or unspecified address (IPv4, IPv6, or
IPv4 inside IPv6) is refused, unless ``WEBHOOKS_ALLOW_PRIVATE=1`` (tests, local
development). The check runs when the hook is made and again before each delivery, and the
delivery connects to the very address that was checked (``PinnedHTTPConnection``), so a
name that resolves elsewhere the second time (DNS rebinding) gains nothing. Redirects are
not followed.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _


class UrlRefused(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query
    address: str  # the checked address the delivery connects to


def _allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE", False))


def is_public(address: str) -> bool:
    ip: Any = ipaddress.ip_address(address.split("%", 1)[0])
    mapped = getattr(ip, "ipv4_mapped", None) or getattr(ip, "sixtofour", None)
    if mapped is not None:
        ip = mapped
    return bool(
        ip.is_global
        and not (
            ip.is_private
            or ip.is_loopback
            or ip.is_link_local
            or ip.is_multicast
            or ip.is_reserved
            or ip.is_unspecified
        )
    )


def resolve(host: str, port: int) -> list[str]:
    """Every address ``host`` resolves to (a literal address is its own)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return sorted({str(info[4][0]) for info in infos})


def check_url(url: str) -> Target:
    """The place to send to, or ``UrlRefused`` with a stable code and a sentence that does
    not repeat the URL."""
    allow_private = _allow_private()
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise UrlRefused("bad_url", _("That is not a URL.")) from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes:
        raise UrlRefused("bad_url", _("A webhook's URL starts with https://."))
    if not parts.hostname:
        raise UrlRefused("bad_url", _("That is not a URL."))
    if parts.username or parts.password:
        raise UrlRefused("bad_url", _("A webhook's URL may not hold a user name or password."))
    port = port or (443 if parts.scheme == "https" else 80)
    try:
        addresses = resolve(parts.hostname, port)
    except (OSError, UnicodeError):
        raise UrlRefused("unresolvable_url", _("That URL's host name does not resolve.")) from None
    if not addresses:
        raise UrlRefused("unresolvable_url", _("That URL's host name does not resolve."))
    if not allow_private and not all(is_public(a) for a in addresses):
        raise UrlRefused(
            "private_address",
            _("That URL leads to a private, loopback or link-local address; it is refused."),
        )
    path = parts.path or "/"
    if parts.query:
        path = f"{path}?{parts.query}"
    return Target(parts.scheme, parts.hostname, port, path, addresses[0])


class PinnedHTTPConnection(http.client.HTTPConnection):
    """An HTTP connection to ``address`` (already checked), for ``host``."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class PinnedHTTPSConnection(http.client.HTTPSConnection):
    """An HTTPS connection to ``address`` (already checked), verifying ``host``'s
    certificate (SNI and the name check use the host, not the address)."""

    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def connection(target: Target, timeout: float) -> http.client.HTTPConnection:
    if target.scheme == "https":
        return PinnedHTTPSConnection(target, timeout)
    return PinnedHTTPConnection(target, timeout)
