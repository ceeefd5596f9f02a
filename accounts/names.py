"""Names people are told apart by (issue 15, impersonation).

A person's display name may not read as another account's username or display name, and a
new username may not read as an existing account's username or display name, once case,
accents and spacing are set aside (``name_key``: casefold, NFKD without combining marks,
single spaces). Bots all wear their level as display name ("Random bot"); at a table two bots
of the same level are told apart by their seat (``games.views.seat_names``).

The check reads every account's two names: a settings change or a sign-up is rare, and an
index of the keys would need both names of every user kept in step for the same answer.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from accounts.models import User


def name_key(name: str) -> str:
    """The form of a name two people must not share: case, accents and spacing ignored."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.split())


def name_taken(name: str, *, exclude_user_id: int | None = None) -> bool:
    """Whether another account's username or display name reads as ``name``."""
    key = name_key(name)
    if not key:
        return False
    rows = User.objects.values_list("pk", "username", "display_name")
    if exclude_user_id is not None:
        rows = rows.exclude(pk=exclude_user_id)
    return any(
        name_key(username) == key or (display and name_key(display) == key)
        for _pk, username, display in rows.iterator()
    )


def display_name_problem(user: User, name: str) -> str | None:
    """Why ``user`` may not be shown as ``name`` (None when they may). Their own username,
    in any case or accent, is fine."""
    if not name or name_key(name) == name_key(user.username):
        return None
    if name_taken(name, exclude_user_id=user.pk):
        return _("That name is someone else's; choose another so that players can tell you apart.")
    return None
