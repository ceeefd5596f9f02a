"""Allowances shared by the pages and the API, so that neither is a way around the other.

A limit on a write is spelled once here and used by every surface that offers the write:
the page's form and the API's endpoint count in the same bucket (``colorado.throttling``:
per signed-in user, in the process's memory). Limits that must hold across processes and
restarts (tables opened, invitations sent) are counted in the database instead
(``games.tables.capacity``, ``games.tables.invitations``).
"""

from __future__ import annotations

from django.http import HttpRequest

from colorado.throttling import UserRateThrottle

#: Chat lines a player may say a minute, at every table together.
CHAT_RATE = "30/min"

chat_throttle = UserRateThrottle(CHAT_RATE, scope="chat")


def chat_allowed(request: HttpRequest) -> bool:
    """Whether the signed-in caller of ``request`` may say one more chat line now (and
    count it). The API's chat endpoint uses the same throttle (``games.api.tables``)."""
    return bool(chat_throttle.allow_request(request))


#: Saves of private notes (``games.tables.notes.NOTE_RATE``), the page's and the API's together.
note_throttle = UserRateThrottle("120/min", scope="notes")


def note_allowed(request: HttpRequest) -> bool:
    """Whether the signed-in caller may save a note once more now (and count it)."""
    return bool(note_throttle.allow_request(request))
