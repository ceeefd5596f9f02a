"""Finding English left over on a translated page.

A page rendered in English is compared with the same page in another language: a piece of
visible text (a text node, or a ``title``/``aria-label``/``placeholder``/``alt`` value)
that is identical in both, and holds a word once proper names, usernames and the words the
catalogues and glossaries deliberately keep as in English are taken out, is English left
over. It catches messages missing from a catalogue as well as strings never marked for
translation. Used by the site's language tests and the titles' conformance suite.
"""

from __future__ import annotations

import re
import zoneinfo
from html.parser import HTMLParser

from django.conf import settings

from games.engine import get_rules, title_slugs
from scripts.catalogues import catalogue_roots, parse

LANGUAGES = ["fr", "de", "es", "ja"]
#: The site's own proper names; the titles' names come from the registry, and each
#: glossary's "Same as English" and "Proper names" sections add the rest.
PROPER_NAMES = ["OpenSkill", "OpenAPI", "API", "JSON", "E-mail"]
GLOSSARY_NAMES = re.compile(r"(?ims)^#+ *(?:same as english|proper names)[^\n]*\n(.*?)(?=^#+ |\Z)")
ATTRIBUTES = {"title", "aria-label", "placeholder", "alt"}


class _VisibleText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self._skip += 1
        for name, value in attrs:
            if name in ATTRIBUTES and value:
                self.texts.append(" ".join(value.split()))

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"} and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.texts.append(text)


def visible_texts(html: str) -> list[str]:
    parser = _VisibleText()
    parser.feed(html)
    return parser.texts


def kept_as_english(language: str) -> set[str]:
    """The messages a translator kept identical to English on purpose (e.g. "Bot"), and
    the names the glossaries keep as they are."""
    kept: set[str] = set()
    for root in catalogue_roots():
        glossary = root / language / "glossary.md"
        if glossary.is_file():
            for section in GLOSSARY_NAMES.findall(glossary.read_text(encoding="utf-8")):
                kept.update(re.findall(r"`([^`]+)`", section))
    for po in (po for root in catalogue_roots() for po in (root / language).glob("*/*.po")):
        for entry in parse(po):
            if entry.msgid and entry.msgstr.get(0) == entry.msgid:
                kept.add(entry.msgid)
    return kept


def kept_patterns(language: str) -> list[re.Pattern[str]]:
    """The kept messages with placeholders and words of their own, as patterns of the text
    they render to (one of placeholders only would match any text)."""
    patterns = []
    for msgid in kept_as_english(language):
        parts = re.split(r"%\([^)]+\)[sdif]|%[sdif]|\{[A-Za-z_]+\}", msgid)
        if len(parts) > 1 and re.search(r"[A-Za-z]{2,}", "".join(parts)):
            patterns.append(re.compile(".+?".join(re.escape(part) for part in parts)))
    return patterns


def english_left(english: str, translated: str, *, language: str, names: list[str]) -> list[str]:
    patterns = kept_patterns(language)
    allowed = sorted(
        [*PROPER_NAMES, *names, settings.SITE_NAME, settings.SITE_SHORT_NAME]
        + [get_rules(slug).name for slug in title_slugs()]
        + [name for _code, name in settings.LANGUAGES]
        + sorted(kept_as_english(language)),
        key=len,
        reverse=True,
    )
    english_texts = set(visible_texts(english))
    zones = {name.replace("_", " ") for name in zoneinfo.available_timezones()}
    left = []
    for text in visible_texts(translated):
        if text not in english_texts or text in zones or any(p.fullmatch(text) for p in patterns):
            continue
        rest = text
        for word in allowed:
            if word:
                rest = rest.replace(word, " ")
        rest = re.sub(r"[A-Za-z_]+/[A-Za-z_/+-]+", " ", rest)  # a time zone's name
        if re.search(r"[A-Za-z]{2,}", rest):
            left.append(text)
    return sorted(set(left))
