"""Muting an inviter from their profile page (``games.tables.invitations``): the button posts here
and goes back to the profile with a message."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.http import AuthenticatedHttpRequest
from accounts.models import User
from games.tables.invitations import mute_set


def _toggle(request: AuthenticatedHttpRequest, username: str, *, on: bool) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    mute_set(user=request.user, muted=player, on=on)
    if on:
        messages.success(request, _("You take no more invitations from this player."))
    else:
        messages.success(request, _("You take invitations from this player again."))
    return redirect("profile", username=player.username)


@login_required
@require_POST
def mute(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return _toggle(request, username, on=True)


@login_required
@require_POST
def unmute(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    return _toggle(request, username, on=False)
