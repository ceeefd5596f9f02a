"""The webhooks page (``/accounts/settings/webhooks/``): a player's hooks, a form to add
one (its secret is shown once, in the answer to that form), and buttons to remove a hook
or turn one on again."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import GameError
from webhooks import services
from webhooks.forms import HookForm


def _page(request: HttpRequest, form: HookForm, *, status: int = 200, **extra: Any) -> HttpResponse:
    return render(
        request,
        "webhooks/webhooks.html",
        {
            "form": form,
            "hooks": services.hooks_of(user=request.user),
            "per_account": services.per_account(),
            **extra,
        },
        status=status,
    )


@login_required
def webhooks_page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _page(request, HookForm())
    form = HookForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    try:
        hook = services.hook_create(
            user=request.user,
            url=form.cleaned_data["url"],
            events_wanted=list(form.cleaned_data["events"]),
            format=form.cleaned_data["format"],
        )
    except GameError as exc:
        on_url = exc.code in ("bad_url", "unresolvable_url", "private_address")
        form.add_error("url" if on_url else None, exc.message)
        return _page(request, form, status=exc.status)
    # The secret, this once: the page is not a redirect, so it is in this answer only.
    return _page(request, HookForm(), new_hook=hook, status=201)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, hook_id: int) -> HttpResponse:
    try:
        services.hook_delete(user=request.user, hook_id=hook_id)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The webhook is removed."))
    return redirect("webhooks")


@login_required
@require_POST
def webhook_enable(request: HttpRequest, hook_id: int) -> HttpResponse:
    try:
        services.hook_enable(user=request.user, hook_id=hook_id)
    except GameError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The webhook is on again."))
    return redirect("webhooks")
