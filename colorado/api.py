"""The JSON API (django-ninja): ``/api/…``, schema at ``/api/openapi.json``, docs at ``/api/docs``.

Conventions (docs/api.md, the contract): errors are ``{"code", "message"}`` with a fitting status
(a service's ``games.errors.GameError`` answers ``games.errors.error_body``, as on the pages);
auth is ``Authorization: Bearer <token>`` or the session cookie with CSRF. Apps add routers in
``<app>/api.py``; endpoints stay thin and call services/selectors.

The schema lists each operation's error answers with the ``Error`` shape (``Api``): the ones
every operation can give are added here, and an endpoint declares its own particular ones
with ``openapi_extra=errors(409, 422)``.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Any

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from ninja import NinjaAPI
from ninja.errors import (
    AuthenticationError,
    AuthorizationError,
    HttpError,
    Throttled,
    ValidationError,
)
from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation
from ninja.types import DictStrAny

from colorado.throttling import AnonymousRateThrottle, UserRateThrottle
from games.api.clock import router as clock_router
from games.api.kit import (
    BODY_METHODS,
    ERROR_REF,
    ERRORS_KEY,
    STATUS_CODES,
    ApiError,
    Error,
    anonymous,
    signed_in,
)
from games.api.notes import router as notes_router
from games.api.tables import router as games_router
from games.errors import GameError, error_body
from players.api import router as players_router
from tournaments.api import router as tournaments_router
from tournaments.api_ladder import router as ladder_router
from webhooks.api import router as webhooks_router


class _ErrorsInSchema(OpenAPISchema):
    def operation_details(self, operation: Operation) -> DictStrAny:
        details = super().operation_details(operation)
        statuses = {400, 429, 503, *details.pop(ERRORS_KEY, ())}
        if BODY_METHODS & set(operation.methods):
            statuses.add(413)
        if "{" in operation.path:
            statuses.add(404)
        callbacks = list(operation.auth_callbacks)
        if anonymous not in callbacks:
            statuses.add(401)  # not signed in, or (the token endpoint) bad credentials
            if callbacks:
                statuses.add(403)  # CSRF, not a player, not your seat
        self.schemas["Error"] = Error.model_json_schema(ref_template="#/components/schemas/{model}")
        responses = details.setdefault("responses", {})
        for status in sorted(statuses):
            code = STATUS_CODES.get(status, "error")
            responses.setdefault(
                status,
                {
                    "description": f"{HTTPStatus(status).phrase}: {code} or a particular code",
                    "content": {"application/json": {"schema": ERROR_REF}},
                },
            )
        return details


class Api(NinjaAPI):
    """The site's API: the schema also lists the error answers (``_ErrorsInSchema``)."""

    def get_openapi_schema(
        self, *, path_prefix: str | None = None, path_params: DictStrAny | None = None
    ) -> OpenAPISchema:
        if path_prefix is None:
            path_prefix = self.get_root_path(path_params or {})
        return _ErrorsInSchema(self, path_prefix)


api = Api(
    title=f"{settings.SITE_NAME} API",
    version="1",
    description=(
        "Everything the web page can do. The conventions (errors, versions, the live "
        "socket, pagination) are in `docs/api.md` in the project's repository."
    ),
    urls_namespace="api",
    auth=signed_in,
    throttle=[AnonymousRateThrottle("60/min"), UserRateThrottle("600/min")],
    openapi_url="/openapi.json",
    docs_url="/docs",
)


def error_response(
    request: HttpRequest, status: int, code: str, message: str, **extra: Any
) -> HttpResponse:
    return api.create_response(request, {"code": code, "message": message, **extra}, status=status)


@api.exception_handler(ApiError)
def on_api_error(request: HttpRequest, exc: ApiError) -> HttpResponse:
    return error_response(request, exc.status_code, exc.code, exc.message, **exc.extra)


@api.exception_handler(GameError)
def on_game_error(request: HttpRequest, exc: GameError) -> HttpResponse:
    return error_response(request, exc.status, **error_body(exc))


#: Where a field sits in a request (ninja's first part of an error's location).
_PLACES = frozenset({"body", "payload", "query", "path", "header", "cookie", "form", "file"})


def _field_named(error: dict[str, Any]) -> str | None:
    """The schema field an error is about: the first part of its location after the
    place, a name of ours. An unknown key sent (``extra_forbidden``) and anything deeper
    (keys inside an object the client chose) are not named: errors never repeat what was
    sent."""
    if error.get("type") == "extra_forbidden":
        return None
    parts = [part for part in error.get("loc", ()) if part not in _PLACES]
    return str(parts[0]) if parts and isinstance(parts[0], str) else None


@api.exception_handler(ValidationError)
def on_validation_error(request: HttpRequest, exc: ValidationError) -> HttpResponse:
    fields = sorted({name for error in exc.errors if (name := _field_named(error))})
    message = _("The request is malformed: check %(fields)s.") % {
        "fields": ", ".join(fields) or _("the JSON body")
    }
    return error_response(request, 400, "bad_request", message)


@api.exception_handler(AuthenticationError)
def on_authentication_error(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return error_response(
        request, 401, "not_signed_in", _("Sign in, or send a valid token as Authorization: Bearer.")
    )


@api.exception_handler(AuthorizationError)
def on_authorization_error(request: HttpRequest, exc: AuthorizationError) -> HttpResponse:
    return error_response(request, 403, "forbidden", _("You are not allowed to do that."))


@api.exception_handler(Throttled)
def on_throttled(request: HttpRequest, exc: Throttled) -> HttpResponse:
    return error_response(request, 429, "throttled", _("Too many requests; slow down a little."))


@api.exception_handler(Http404)
def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
    return error_response(request, 404, "not_found", _("There is nothing here."))


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    """ninja's own refusals (a body it cannot parse, …): our sentence for the status, not
    ninja's text (which may quote what was sent)."""
    status = exc.status_code
    return error_response(
        request, status, STATUS_CODES.get(status, "error"), status_sentence(status)
    )


def status_sentence(status: int) -> str:
    """Our sentence for an error status without a message of its own."""
    sentences = {
        400: _("The request is malformed."),
        401: _("Sign in, or send a valid token as Authorization: Bearer."),
        403: _("You are not allowed to do that."),
        404: _("There is nothing here."),
        405: _("This address does not take that method."),
        413: _("The request body is too large."),
        429: _("Too many requests; slow down a little."),
    }
    return sentences.get(status, _("The request could not be served."))


@csrf_exempt
def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    """Any path under ``/api/`` that no endpoint serves: the API's JSON 404, not the
    site's HTML page."""
    return error_response(request, 404, "not_found", _("There is nothing here."))


api.add_router("/", players_router)
api.add_router("/", games_router)
api.add_router("/", clock_router)
api.add_router("/", notes_router)
api.add_router("/", webhooks_router)
api.add_router("/", tournaments_router)
api.add_router("/", ladder_router)
