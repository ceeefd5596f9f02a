"""What every router of the JSON API shares: the error it raises (``ApiError``), the error
shape and each endpoint's own error statuses (``Error``, ``errors``), and the ways to sign
in (``signed_in``, ``optional_auth``).

The apps' routers (``players.api``, ``games.api.tables``, ``games.api.clock``) import this
module; the site's API (``colorado.api``) imports them and mounts them, so nothing here
imports a router or the API object.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Schema
from ninja.errors import HttpError
from ninja.security import HttpBearer, SessionAuth
from ninja.types import DictStrAny
from ninja.utils import check_csrf

from accounts.services import token_user
from games.errors import GameError, error_body


class ApiError(HttpError):
    """An error with a stable ``code`` and a sentence for a person. An endpoint's own
    refusals (bad parameters, unknown user); a service's ``GameError`` needs no wrapping
    (``on_game_error``), unless the answer adds the caller's document (``ApiError.of``)."""

    def __init__(self, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(status_code, message)
        self.code = code
        self.message = message
        self.extra = extra

    @classmethod
    def of(cls, exc: GameError, *, current: dict[str, Any] | None = None) -> ApiError:
        """``exc`` answered as on every surface (``games.errors.error_body``)."""
        return cls(exc.status, **error_body(exc, current=current))


class BearerAuth(HttpBearer):
    def authenticate(self, request: HttpRequest, token: str) -> Any:
        user = token_user(token=token)
        if user is not None:
            request.user = user
        return user


class SessionCsrfAuth(SessionAuth):
    """The session cookie, with Django's CSRF check once there is a signed-in session.

    ninja checks CSRF before it looks at the session, so an anonymous write (a script that
    has not signed in) was told 403 "CSRF check Failed" instead of 401 ``not_signed_in``.
    Without a signed-in session there is nothing for a forged request to borrow, so the
    check applies only with one, and a miss answers 403 ``csrf_failed``."""

    def _get_key(self, request: HttpRequest) -> str | None:
        if not request.user.is_authenticated:
            return None
        if not getattr(request, "_ninja_csrf_exempt", False) and check_csrf(request):
            raise ApiError(
                403,
                "csrf_failed",
                _("The CSRF token is missing or wrong; reload the page and try again."),
            )
        return request.COOKIES.get(self.param_name)


bearer_auth = BearerAuth()
session_auth = SessionCsrfAuth()
# Endpoints that a signed-out visitor may also call use ``optional_auth``.
signed_in = [bearer_auth, session_auth]


def anonymous(request: HttpRequest) -> bool:
    return True


optional_auth = [bearer_auth, session_auth, anonymous]

STATUS_CODES = {
    400: "bad_request",
    401: "not_signed_in",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "too_large",
    422: "illegal_action",
    429: "throttled",
    503: "unavailable",
}


class Error(Schema):
    """Every error answer: a stable code for programs, a sentence for people; some errors
    add fields (a stale version's ``current`` document)."""

    code: str
    message: str


ERROR_REF = {"$ref": "#/components/schemas/Error"}
ERRORS_KEY = "x-error-statuses"
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def errors(*statuses: int) -> DictStrAny:
    """``openapi_extra`` for an endpoint's own error statuses (409, 422, a 401 of an
    endpoint that admits anonymous callers), beside those ``Api`` adds to all."""
    return {ERRORS_KEY: list(statuses)}
