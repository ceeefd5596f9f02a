"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os
from collections.abc import Awaitable, Callable
from urllib.parse import parse_qs

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")

from colorado.asgi_threads import application as pooled_asgi_application

# Django's ASGI handler, each request's thread taken from a pool (colorado/asgi_threads.py).
django_asgi_app = pooled_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.handlers.asgi import ASGIHandler  # noqa: E402

from colorado.client_address import ClientAddress  # noqa: E402
from colorado.routing import websocket_urlpatterns  # noqa: E402
from colorado.socket_auth import SessionUser  # noqa: E402

if not settings.PRODUCTION:
    # Locally, serve /static/ natively under ASGI (WhiteNoise does it in production).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app: ASGIHandler = ASGIStaticFilesHandler(django_asgi_app)
else:
    http_app = django_asgi_app


class OriginCheck:
    """Browsers' sockets (session cookie) must come from an allowed Origin, which stops other
    sites from riding a player's cookie. A handshake that carries a cookie is a browser's
    and is always checked, whatever its query string says (an empty ``?ticket=`` used to
    let a cookie handshake skip the check). One without a cookie and without Origin that
    authenticates with its own credential (a non-empty ``?ticket=``, an ``Authorization``
    header: scripts) goes through; so does one with ``?token=``, only for the consumer to
    refuse it with its not-allowed code. Any other is checked."""

    def __init__(self, inner: Callable[..., Awaitable[object]]) -> None:
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: dict, receive: object, send: object) -> object:
        app = self.inner if own_credential(scope) else self.checked
        return await app(scope, receive, send)


def own_credential(scope: dict) -> bool:
    """Whether a handshake is a script's: no cookie, no Origin, and a credential of its own."""
    names = {name for name, _value in scope.get("headers", [])}
    if b"cookie" in names or b"origin" in names:
        return False
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"), keep_blank_values=True)
    ticket = any(value.strip() for value in query.get("ticket", []))
    return ticket or "token" in query or b"authorization" in names


# Outermost: the real client address, decided once for Django, the sockets and uvicorn's
# access log alike (colorado/client_address.py; uvicorn runs with --no-proxy-headers).
application = ClientAddress(
    ProtocolTypeRouter(
        {
            "http": http_app,
            "websocket": OriginCheck(SessionUser(URLRouter(websocket_urlpatterns))),
        }
    )
)

# Secrets in URLs (a mistaken ?token=, a socket ticket) never reach the logs.
from colorado import log_redaction  # noqa: E402

log_redaction.install()

# Everything loaded so far lives as long as the process: out of the collector's way
# (colorado/gcpolicy.py).
from colorado import gcpolicy  # noqa: E402

gcpolicy.tune()
