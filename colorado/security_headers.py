"""The Content-Security-Policy and Permissions-Policy of every answer (issue 41, item 8).

The pages load scripts and stylesheets only from the site itself (``static/``): no inline
script, no inline style, no ``style=`` attribute, no event handler attribute. So the policy
can be strict — ``script-src 'self'`` and ``style-src 'self'`` without ``'unsafe-inline'`` —
and an injected ``<script>`` or ``onerror=`` would not run even if a bug let one through.
The game page's data travels as ``<script type="application/json">`` (Django's
``json_script``), which a browser never runs. Sockets are same-origin (``connect-src
'self'``; CSP level 3 counts ``ws:``/``wss:`` to the same host as ``'self'``).

Permissions-Policy turns off the browser features the site never uses (camera,
microphone, location, payment, …), for its own pages and anything they could embed.

``tests/ops/test_security_headers.py`` renders every page template and checks both headers
and the absence of inline script and style; the browser tests fail on any policy violation
Chromium reports (``tests/browser/conftest.py``).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.utils.deprecation import MiddlewareMixin

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "usb",
    )
)


class SecurityHeadersMiddleware(MiddlewareMixin):
    """Adds both headers to every response that has not set its own (sync and async)."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
