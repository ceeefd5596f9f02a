"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")

from colorado.asgi_threads import application as pooled_asgi_application

# Django's ASGI handler, each request's thread taken from a pool (colorado/asgi_threads.py).
django_asgi_app = pooled_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from colorado.routing import websocket_urlpatterns  # noqa: E402
from colorado.socket_auth import SessionUser  # noqa: E402

if not settings.PRODUCTION:
    # Locally, serve /static/ natively under ASGI (WhiteNoise does it in production).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)
else:
    http_app = django_asgi_app


class OriginCheck:
    """Browsers' sockets (session cookie) must come from an allowed Origin, which stops other
    sites from riding a player's cookie. A handshake without Origin that authenticates with
    its own credential (a ``?ticket=`` or an ``Authorization`` header: scripts) carries no
    cookie to abuse, so it goes through; so does one with ``?token=``, only for the consumer
    to refuse it with its not-allowed code. With an Origin header, the Origin is checked."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: dict, receive: object, send: object) -> object:
        names = {name for name, _value in scope.get("headers", [])}
        query = scope.get("query_string", b"").decode("latin-1")
        in_query = any(part.startswith(("ticket=", "token=")) for part in query.split("&"))
        own_credential = b"origin" not in names and (in_query or b"authorization" in names)
        app = self.inner if own_credential else self.checked
        return await app(scope, receive, send)  # type: ignore[operator]


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": OriginCheck(SessionUser(URLRouter(websocket_urlpatterns))),
    }
)

# Everything loaded so far lives as long as the process: out of the collector's way
# (colorado/gcpolicy.py).
from colorado import gcpolicy  # noqa: E402

gcpolicy.tune()
