"""Translation catalogues: compile them without GNU gettext; check and update them.

There is one catalogue root for the site (``locale/``, the strings of everything outside
``titles/``) and one per title (``titles/<package>/locale/``, the strings of that title's
folder, its rules' option words included): ``catalogue_roots()``. Each root holds
``<lang>/LC_MESSAGES/django.po`` and a ``glossary.md`` per language.

Standard library only, so ``dev.py`` can compile every ``.po`` into its ``.mo`` on a bare
machine (the ``.mo`` files are build output and not committed). The CI gate and the
update need Django and gettext's tools, so they are a script of their own:

    python3 scripts/catalogues.py compile
    python3 scripts/catalogue_check.py check | update
"""

from __future__ import annotations

import ast
import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
DOMAINS = ("django", "djangojs")


@dataclass
class Entry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def fuzzy(self) -> bool:
        return "fuzzy" in self.flags

    @property
    def translated(self) -> bool:
        return bool(self.msgstr) and all(self.msgstr.values())


def _unquote(text: str) -> str:
    value = ast.literal_eval(text)
    if not isinstance(value, str):
        raise ValueError(f"not a string: {text!r}")
    return value


def parse(path: Path) -> list[Entry]:
    """The entries of a ``.po`` file (the header is the entry whose msgid is empty)."""
    entries: list[Entry] = []
    current = Entry()
    target: tuple[str, int] | None = None
    started = False

    def finish() -> None:
        nonlocal current, started, target
        if started:
            entries.append(current)
        current, started, target = Entry(), False, None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if line.startswith("#~"):
            current.obsolete = True
            continue
        if not line:
            finish()
            continue
        if line.startswith("#,"):
            if started and target is not None and target[0] == "msgstr":
                finish()
            current.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            if started and target is not None and target[0] == "msgstr":
                finish()
            continue
        match = re.match(r"(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(\".*\")$", line)
        if match:
            keyword, index, text = match.groups()
            if keyword in {"msgctxt", "msgid"} and target is not None and target[0] == "msgstr":
                finish()
            started = True
            target = (keyword, int(index or 0))
            value = _unquote(text)
            if keyword == "msgctxt":
                current.msgctxt = value
            elif keyword == "msgid":
                current.msgid = value
            elif keyword == "msgid_plural":
                current.msgid_plural = value
            else:
                current.msgstr[target[1]] = value
            continue
        if line.startswith('"') and target is not None:
            value = _unquote(line)
            keyword, index = target
            if keyword == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif keyword == "msgid":
                current.msgid += value
            elif keyword == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgstr[index] = current.msgstr.get(index, "") + value
            continue
        raise ValueError(f"{path}: cannot read line {raw!r}")
    finish()
    return [entry for entry in entries if not entry.obsolete]


def _key(entry: Entry) -> str:
    key = entry.msgid
    if entry.msgid_plural is not None:
        key += "\0" + entry.msgid_plural
    if entry.msgctxt is not None:
        key = entry.msgctxt + "\x04" + key
    return key


def compile_po(po: Path, mo: Path) -> None:
    """Write ``mo`` from ``po`` as GNU msgfmt does (fuzzy and empty translations left out)."""
    messages: dict[bytes, bytes] = {}
    for entry in parse(po):
        if entry.fuzzy and entry.msgid:
            continue
        if not entry.translated:
            continue
        value = "\0".join(entry.msgstr[i] for i in sorted(entry.msgstr))
        messages[_key(entry).encode()] = value.encode()
    keys = sorted(messages)
    ids = b""
    strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for key in keys:
        offsets.append((len(ids), len(key), len(strs), len(messages[key])))
        ids += key + b"\0"
        strs += messages[key] + b"\0"
    count = len(keys)
    key_start = 7 * 4 + count * 16
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_offset, id_length, str_offset, str_length in offsets:
        key_table += [id_length, key_start + id_offset]
        value_table += [str_length, value_start + str_offset]
    output = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    output += struct.pack(f"{len(key_table)}i", *key_table)
    output += struct.pack(f"{len(value_table)}i", *value_table)
    mo.write_bytes(output + ids + strs)


def catalogue_roots() -> list[Path]:
    """The site's ``locale/`` and each title's ``titles/<package>/locale/``."""
    return [LOCALE, *sorted(ROOT.glob("titles/*/locale"))]


def catalogues() -> list[Path]:
    return sorted(po for root in catalogue_roots() for po in root.glob("*/LC_MESSAGES/*.po"))


def compile_all(*, quiet: bool = True) -> int:
    """Compile every catalogue whose ``.mo`` is missing or older; the number compiled."""
    done = 0
    for po in catalogues():
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        compile_po(po, mo)
        done += 1
        if not quiet:
            print(f"compiled {mo.relative_to(ROOT)}")
    return done


if __name__ == "__main__":
    if sys.argv[1:] == ["compile"]:
        compile_all(quiet=False)
        sys.exit(0)
    print("usage: python3 scripts/catalogues.py compile (check and update: catalogue_check.py)")
    sys.exit(2)
