"""One guard for what a request carries before any view reads it.

PostgreSQL refuses a NUL in text (and a string holding a lone surrogate such as the JSON
escape ``\\ud800`` cannot even be encoded for it): a username in a path, a ``?player=`` in a
query, a chat text or a ``client_id`` holding one made the first query fail with a 500, for
anonymous callers too. SQLite stores them, so the same request behaved differently in
embedded mode. Rather than a check at each of the thirty places a string reaches a query,
this middleware looks at the path, the query string, the cookies, the form fields and the
JSON body (decoded and walked, keys included) and refuses the request with 400
``bad_characters`` before any view runs. A body longer than ``MAX_REQUEST_BODY_BYTES``
answers 413 ``too_large`` without being parsed (Django's own limit answered 400, and a
JSON body read by ninja was only held to it through ``Content-Length``).

Under ``/api/`` the answers are the API's ``{"code", "message"}``; pages get a short
plain-text page with the same status. Messages never echo the request.
"""

from __future__ import annotations

import json
import re
from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext as _

# A NUL, or a lone UTF-16 surrogate (only a JSON escape can produce one).
REFUSED = re.compile("[\x00\ud800-\udfff]")
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _refused(text: str) -> bool:
    return REFUSED.search(text) is not None


def refused_in_json(value: Any) -> bool:
    """Whether a decoded JSON value holds a refused character in any string or key (walked
    with a stack, not recursion: nesting depth is the client's choice)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _refused(item):
                return True
        elif isinstance(item, dict):
            for key, child in item.items():
                if _refused(key):
                    return True
                stack.append(child)
        elif isinstance(item, list):
            stack.extend(item)
    return False


def _is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _answer(request: HttpRequest, status: int, code: str, message: str) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"code": code, "message": message}, status=status)
    return HttpResponse(message, status=status, content_type="text/plain; charset=utf-8")


def _too_large(request: HttpRequest) -> HttpResponse:
    limit = settings.MAX_REQUEST_BODY_BYTES
    return _answer(
        request,
        413,
        "too_large",
        _("The request body is too large; the limit is %(kib)d KiB.") % {"kib": limit // 1024},
    )


def _bad_characters(request: HttpRequest) -> HttpResponse:
    return _answer(
        request,
        400,
        "bad_characters",
        _("The request holds characters that cannot be stored (such as a NUL byte)."),
    )


def _too_many_fields(request: HttpRequest) -> HttpResponse:
    return _answer(
        request,
        400,
        "bad_request",
        _("The request has too many fields or query parameters."),
    )


def _declared_length(request: HttpRequest) -> int:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def check(request: HttpRequest) -> HttpResponse | None:
    """The refusal for ``request``, or ``None`` to let it through."""
    try:
        return _check(request)
    except TooManyFieldsSent:
        # Over DATA_UPLOAD_MAX_NUMBER_FIELDS (1,000) in the query or a form: Django's own
        # answer was its HTML 400 page, under /api/ too.
        return _too_many_fields(request)


def _check(request: HttpRequest) -> HttpResponse | None:
    limit = settings.MAX_REQUEST_BODY_BYTES
    if _declared_length(request) > limit:
        return _too_large(request)
    if _refused(request.path_info) or any(
        _refused(key) or any(_refused(value) for value in values)
        for key, values in request.GET.lists()
    ):
        return _bad_characters(request)
    if any(_refused(key) or _refused(value) for key, value in request.COOKIES.items()):
        return _bad_characters(request)
    if request.method not in BODY_METHODS:
        return None
    try:
        body = request.body
    except RequestDataTooBig:
        return _too_large(request)
    if len(body) > limit:
        return _too_large(request)
    if not body:
        return None
    content_type = request.content_type or ""
    if content_type in FORM_TYPES:
        try:
            fields = list(request.POST.lists())
        except MultiPartParserError:
            return None  # Django answers a broken form as it always did
        if any(_refused(key) or any(_refused(value) for value in values) for key, values in fields):
            return _bad_characters(request)
        return None
    if _is_api(request) or content_type.endswith("json"):
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None  # not JSON: the view answers it as malformed
        if refused_in_json(data):
            return _bad_characters(request)
    return None


class InputGuardMiddleware:
    """Runs ``check`` before the rest of the stack (sync and async alike)."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: Callable[[HttpRequest], Any]) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return check(request) or self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        refusal = check(request)
        if refusal is not None:
            return refusal
        response: Awaitable[HttpResponse] = self.get_response(request)
        return await response
