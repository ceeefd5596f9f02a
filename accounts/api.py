"""Auth and user endpoints of the JSON API."""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Router, Schema
from ninja.throttling import AnonRateThrottle

from accounts import services
from colorado.api import ApiError

router = Router(tags=["users"])


class TokenRequest(Schema):
    username: str
    password: str


class TokenResponse(Schema):
    token: str


@router.post(
    "/auth/token",
    auth=None,
    response={200: TokenResponse},
    throttle=[AnonRateThrottle("20/min")],
    summary="Exchange a username and password for an API token",
)
def token_create(request: HttpRequest, payload: TokenRequest) -> dict[str, str]:
    user = authenticate(request, username=payload.username, password=payload.password)
    if user is None or not user.is_active:
        raise ApiError(401, "bad_credentials", _("That username and password did not match."))
    return {"token": services.token_create(user=user, name="api")}
