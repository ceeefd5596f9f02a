"""One-click unsubscribe from the links in every mail.

``GET`` shows a confirmation page (mail scanners follow links; a GET changes nothing);
``POST`` switches the player's mails off. The POST needs no CSRF token: the signed token in
the URL is the authorisation, and mail clients send RFC 8058 one-click requests
(``List-Unsubscribe=One-Click``) without cookies.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from notifications.mail_parts import notifications_off, user_for_token


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    user = user_for_token(token)
    if user is None:
        return render(request, "notifications/unsubscribe.html", {"invalid": True}, status=404)
    if request.method == "POST":
        notifications_off(user=user)
        return render(request, "notifications/unsubscribe.html", {"done": True, "who": user})
    return render(request, "notifications/unsubscribe.html", {"who": user, "token": token})
