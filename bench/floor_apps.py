"""Trivial servers for ``bench/http_floor.py --app``: how fast this machine answers HTTP at all.

- ``bench.floor_apps:bare`` — an ASGI callable with no framework: the ceiling of any Python
  server on uvicorn here.
- ``bench.floor_apps:django`` — Django with one view returning a small JSON body, no
  middleware, no database, no cache: the least a Django request costs.

Benchmark tooling only; nothing in the site imports this module.
"""

from __future__ import annotations

from typing import Any

BODY = b'{"ok": true}'


async def bare(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    while (await receive()).get("more_body"):
        pass
    headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(BODY))]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": BODY})


def _django_app() -> Any:
    from django.conf import settings
    from django.core.asgi import get_asgi_application
    from django.http import HttpRequest, JsonResponse
    from django.urls import path

    def hello(request: HttpRequest, **_: str) -> JsonResponse:
        return JsonResponse({"ok": True})

    settings.configure(
        DEBUG=False,
        ALLOWED_HOSTS=["*"],
        SECRET_KEY="bench-floor-only",  # noqa: S106 (answers one constant, holds no secret)
        ROOT_URLCONF=__name__,
        MIDDLEWARE=[],
        INSTALLED_APPS=[],
        DATABASES={},
        USE_I18N=False,
    )
    globals()["urlpatterns"] = [path("<path:anything>", hello), path("", hello)]
    return get_asgi_application()


def __getattr__(name: str) -> Any:  # build the Django app only when uvicorn asks for it
    if name == "django":
        app = _django_app()
        globals()["django"] = app
        return app
    raise AttributeError(name)
