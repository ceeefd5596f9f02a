"""Web Push from the settings page: subscribe this browser (JSON, from
``static/js/push_settings.js``), remove a device (a form), and the service worker itself,
served from the site's root so that its scope is the whole site (``static/js/sw.js``)."""

from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from notifications import push

SERVICE_WORKER = Path(settings.BASE_DIR) / "static" / "js" / "sw.js"


def _error(code: str, message: str, status: int = 400) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message}}, status=status)


@require_POST
def subscribe(request: HttpRequest) -> JsonResponse:
    """``{"endpoint", "keys": {"p256dh", "auth"}, "events": [...], "label"}`` → the device."""
    if not request.user.is_authenticated:
        return _error("not_signed_in", _("Sign in first."), 401)
    try:
        data = json.loads(request.body or b"{}")
        keys = data["keys"]
        sub = push.subscription_save(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=keys["p256dh"],
            auth=keys["auth"],
            events=[e for e in data.get("events", []) if isinstance(e, str)],
            label=str(data.get("label", "")),
        )
    except push.SubscriptionError as exc:
        return _error(exc.code, str(exc))
    except (ValueError, KeyError, TypeError, AttributeError):
        return _error("bad_subscription", _("The browser's subscription is not valid."))
    return JsonResponse({"id": sub.pk, "events": sub.events}, status=201)


@login_required
@require_POST
def remove(request: HttpRequest, subscription_id: int) -> HttpResponse:
    if push.subscription_remove(user=request.user, subscription_id=subscription_id):  # type: ignore[arg-type]
        messages.success(request, _("That device gets no more notifications."))
    return redirect("settings")


@require_POST
def unsubscribe_endpoint(request: HttpRequest) -> JsonResponse:
    """The page's "turn off on this device": forget this browser's endpoint."""
    if not request.user.is_authenticated:
        return _error("not_signed_in", _("Sign in first."), 401)
    try:
        endpoint = str(json.loads(request.body or b"{}")["endpoint"])
    except (ValueError, KeyError, TypeError):
        return _error("bad_subscription", _("The browser's subscription is not valid."))
    gone = push.PushSubscription.objects.filter(user=request.user, endpoint=endpoint).delete()[0]
    return JsonResponse({"removed": bool(gone)})


@require_GET
@never_cache
def service_worker(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        SERVICE_WORKER.read_bytes(), content_type="application/javascript; charset=utf-8"
    )
    response["Service-Worker-Allowed"] = "/"
    return response
