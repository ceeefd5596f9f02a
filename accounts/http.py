"""The type of a request whose user has signed in, for the type checker.

Django types ``HttpRequest.user`` as ``User | AnonymousUser``. Behind ``login_required``, or
an API route whose ``auth`` is ``colorado.api.signed_in`` (which sets ``request.user`` to
the token's or the session's user), it is always a ``User``: such a view takes an
``AuthenticatedHttpRequest`` (django-stubs' documented pattern). Django builds plain
``HttpRequest`` objects; this class is never instantiated."""

from __future__ import annotations

from django.http import HttpRequest

from accounts.models import User


class AuthenticatedHttpRequest(HttpRequest):
    user: User
