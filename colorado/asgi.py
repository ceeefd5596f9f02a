"""ASGI entry point: HTTP through Django, WebSockets through Channels."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from colorado.routing import websocket_urlpatterns  # noqa: E402

if not settings.PRODUCTION:
    # Locally, serve /static/ natively under ASGI (WhiteNoise does it in production).
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    http_app = ASGIStaticFilesHandler(django_asgi_app)
else:
    http_app = django_asgi_app


class OriginCheck:
    """Browsers' sockets (session cookie) must come from an allowed Origin, which stops other
    sites from riding a player's cookie. Scripts that authenticate with ``?token=`` carry no
    cookie to abuse and often send no Origin header, so for them a missing Origin is fine."""

    def __init__(self, inner: object) -> None:
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope: dict, receive: object, send: object) -> object:
        has_origin = any(name == b"origin" for name, _value in scope.get("headers", []))
        query = scope.get("query_string", b"").decode("latin-1")
        token_only = not has_origin and any(part.startswith("token=") for part in query.split("&"))
        app = self.inner if token_only else self.checked
        return await app(scope, receive, send)  # type: ignore[operator]


application = ProtocolTypeRouter(
    {
        "http": http_app,
        "websocket": OriginCheck(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)
