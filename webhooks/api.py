"""Webhooks in the JSON API: ``GET`` / ``POST /api/me/webhooks``, ``DELETE
/api/me/webhooks/{id}`` (docs/api.md, "Webhooks"; docs/webhooks.md)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status

from colorado.throttling import UserRateThrottle, caller
from games.api.kit import errors, signed_in
from webhooks import services

router = Router(tags=["webhooks"])

Json = dict[str, Any]


class HookIn(Schema):
    url: str = Field(max_length=2000)
    events: list[str] = Field(max_length=8)
    format: str = Field(default="json", max_length=16)


@router.get("/me/webhooks", auth=signed_in, response=list[Json], summary="My webhooks")
def list_hooks(request: HttpRequest) -> list[Json]:
    return [services.hook_document(h) for h in services.hooks_of(user=caller(request))]


@router.post(
    "/me/webhooks",
    auth=signed_in,
    response={201: Json},
    throttle=[UserRateThrottle("30/h", scope="webhooks")],
    openapi_extra=errors(409),
    summary="Add a webhook (its secret is in this answer only)",
)
def create_hook(request: HttpRequest, payload: HookIn) -> Status[Json]:
    hook = services.hook_create(
        user=caller(request), url=payload.url, events_wanted=payload.events, format=payload.format
    )
    return Status(201, services.hook_document(hook, secret=True))


@router.delete(
    "/me/webhooks/{hook_id}", auth=signed_in, response={204: None}, summary="Remove a webhook"
)
def delete_hook(request: HttpRequest, hook_id: int) -> Status[None]:
    services.hook_delete(user=caller(request), hook_id=hook_id)
    return Status(204, None)


@router.post(
    "/me/webhooks/{hook_id}/enable",
    auth=signed_in,
    response=Json,
    summary="Turn on again a webhook turned off after repeated failures",
)
def enable_hook(request: HttpRequest, hook_id: int) -> Json:
    return services.hook_document(services.hook_enable(user=caller(request), hook_id=hook_id))
