"""Names people are told apart by (issue 15, impersonation; issue 41, spoofing).

A person's display name may not read as another account's username or display name, and a
new username may not read as an existing account's username or display name. "Reads as"
is decided twice: once with case, accents and spacing set aside (``name_key``: casefold,
NFKD without combining marks, no spaces), and once by Unicode's confusable skeletons
(UTS #39, ICU's own implementation through PyICU: ``skeleton``), which fold look-alikes from
other scripts onto one form (Cyrillic ``а`` and Latin ``a``, ``rn`` and ``m``, ``0`` and
``O``). A display name is also refused when it

* holds an invisible or bidirectional character (``hidden_characters``: format controls
  such as zero-width spaces and joiners, right-to-left overrides and isolates, soft
  hyphens; other controls; private-use and unassigned code points; the blank letters that
  render as nothing);
* mixes scripts confusably (ICU's restriction level "moderately restrictive": Latin with
  one other script, except Cyrillic, Greek and Cherokee, whose letters pass for Latin ones;
  the Japanese and Chinese scripts together with Latin are fine);
* reads as a bot's name, in any of the site's languages ("Search bot", "Bot glouton").

Before any of it the name is normalised (``normalise``: NFKC, single spaces), and it is
stored that way: full-width ``Ｔｏｍ`` is ``Tom``.

The check reads every account's two names: a settings change or a sign-up is rare, and an
index of the keys would need both names of every user kept in step for the same answer.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable, Iterable

import icu
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.models import User

# Where the kinds of bot account the site runs come from: ``games``
# registers its answer when it starts (``games.apps.GamesConfig.ready``), since the accounts
# sit below the games and do not import them.
_bot_kind_sources: list[Callable[[], Iterable[str]]] = []


def bot_kinds_register(source: Callable[[], Iterable[str]]) -> None:
    """Name the bot kinds (``source()``) whose account names nobody else may take."""
    if source not in _bot_kind_sources:
        _bot_kind_sources.append(source)
        bot_names.cache_clear()


#: Categories that never belong in a name: format controls (zero-width characters, bidi
#: overrides and isolates, soft hyphen), other controls, line and paragraph separators,
#: private use, surrogates and unassigned code points.
HIDDEN_CATEGORIES = frozenset({"Cf", "Cc", "Zl", "Zp", "Co", "Cs", "Cn"})
#: Letters and symbols that render as nothing (Hangul fillers, the braille blank, the
#: Mongolian vowel separator, the combining grapheme joiner) and the variation selectors.
HIDDEN_CHARACTERS = frozenset(
    "\u115f\u1160\u3164\uffa0\u2800\u180e\u034f"
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))
)


def _checker() -> icu.SpoofChecker:
    checker = icu.SpoofChecker()
    checker.setRestrictionLevel(icu.URestrictionLevel.MODERATELY_RESTRICTIVE)
    checker.setChecks(
        icu.USpoofChecks.RESTRICTION_LEVEL
        | icu.USpoofChecks.INVISIBLE
        | icu.USpoofChecks.MIXED_NUMBERS
    )
    return checker


#: ICU's spoof checker: configured once, then only read (thread-safe).
CHECKER = _checker()


def normalise(name: str) -> str:
    """A name as it is stored and compared: NFKC, single spaces, no space at the ends."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def hidden_characters(name: str) -> bool:
    """Whether ``name`` holds a character that is invisible or reorders the text."""
    return any(unicodedata.category(c) in HIDDEN_CATEGORIES or c in HIDDEN_CHARACTERS for c in name)


def mixes_scripts(name: str) -> bool:
    """Whether ``name`` mixes scripts as look-alikes do (ICU's restriction level), or hides
    a mark (a combining mark repeated on one letter) or mixes digit systems."""
    return bool(CHECKER.check(name))


def name_key(name: str) -> str:
    """The form of a name two people must not share: case, accents and spacing ignored."""
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(bare.split())


def skeleton(name: str) -> str:
    """Unicode's confusable skeleton (UTS #39) of ``name``, case and spacing aside: two
    names with one skeleton look alike."""
    folded = "".join(normalise(name).casefold().split())
    return "".join(str(CHECKER.getSkeleton(0, folded)).split())


def _keys(name: str) -> tuple[str, str]:
    return "".join(name_key(name).split()), skeleton(name)


def _same(a: tuple[str, str], b: tuple[str, str]) -> bool:
    return bool(a[0]) and (a[0] == b[0] or a[1] == b[1])


def name_taken(name: str, *, exclude_user_id: int | None = None) -> bool:
    """Whether another account's username or display name reads as ``name``."""
    keys = _keys(name)
    if not keys[0]:
        return False
    rows = User.objects.values_list("pk", "username", "display_name")
    if exclude_user_id is not None:
        rows = rows.exclude(pk=exclude_user_id)
    return any(
        _same(keys, _keys(username)) or (display and _same(keys, _keys(display)))
        for _pk, username, display in rows.iterator()
    )


@functools.cache
def bot_names() -> frozenset[tuple[str, str]]:
    """The keys of every name a bot wears, in every language of the site: ``<Kind> bot``
    for each registered bot kind (``bot_kinds_register``; ``games.bots.players.bot_account``), as
    the reader sees it."""
    kinds = {kind for source in _bot_kind_sources for kind in source()}
    names = set()
    for kind in kinds:
        base = f"{kind.capitalize()} bot"
        names.add(_keys(base))
        for code, _language in settings.LANGUAGES:
            with translation.override(code):
                names.add(_keys(_(base)))
    return frozenset(names)


def is_a_bot_name(name: str) -> bool:
    """Whether ``name`` reads as a bot's, its letter aside ("Search bot B": ``User.shown_name``)."""
    candidates = [name]
    words = name.split()
    if len(words) > 1 and len(words[-1]) <= 2:
        candidates.append(" ".join(words[:-1]))
    return any(_same(_keys(c), bot) for c in candidates for bot in bot_names())


def display_name_problem(user: User, name: str) -> str | None:
    """Why ``user`` may not be shown as ``name`` (None when they may). Their own username,
    in any case or accent, is fine."""
    if not name:
        return None
    if hidden_characters(name):
        return _("A name cannot hold invisible or text-direction characters.")
    name = normalise(name)
    if _same(_keys(name), _keys(user.username)) and not mixes_scripts(name):
        return None
    if mixes_scripts(name):
        return _("That name mixes letters of different scripts that look alike; write it in one.")
    if is_a_bot_name(name):
        return _("That name is a bot's; choose another so that players can tell you apart.")
    if name_taken(name, exclude_user_id=user.pk):
        return _("That name is someone else's; choose another so that players can tell you apart.")
    return None
