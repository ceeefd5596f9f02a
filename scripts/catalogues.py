"""Translation catalogues: compile them without GNU gettext, and check them for CI.

Standard library only, so ``dev.py`` can compile ``locale/*/LC_MESSAGES/*.po`` into ``.mo``
files on a bare machine (the ``.mo`` files are build output and not committed).

``python3 scripts/catalogues.py check`` is the CI gate: every catalogue holds every message
the sources mark (``makemessages`` run into a scratch copy finds nothing new), every message
is translated and none is fuzzy, ``msgfmt --check --statistics`` passes without a warning,
and the placeholders (``%(name)s``, ``%s``, ``{name}``, HTML tags) of each translation are
those of its source.
"""

from __future__ import annotations

import ast
import re
import shutil
import struct
import subprocess
import sys
import tempfile
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


def catalogues() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


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


PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}|</?[a-zA-Z][^>]*>")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def problems_in(po: Path) -> list[str]:
    found: list[str] = []
    for entry in parse(po):
        if not entry.msgid:
            continue
        name = entry.msgid[:60]
        if entry.fuzzy:
            found.append(f"{po}: fuzzy: {name!r}")
        if not entry.translated:
            found.append(f"{po}: untranslated: {name!r}")
            continue
        sources = [entry.msgid] if entry.msgid_plural is None else [entry.msgid_plural]
        wanted = placeholders(sources[0])
        singular = placeholders(entry.msgid)
        for index, text in entry.msgstr.items():
            got = placeholders(text)
            # A plural form may leave out the count (e.g. "one game" for n == 1).
            allowed = (wanted, singular, [p for p in wanted if "count" not in p])
            if entry.msgid_plural is None and got != wanted:
                found.append(f"{po}: placeholders {got} != {wanted}: {name!r}")
            elif entry.msgid_plural is not None and got not in allowed:
                missing = set(wanted) - set(got) - {p for p in wanted if "count" in p}
                if missing or set(got) - set(wanted):
                    found.append(f"{po}: placeholders of form {index} {got}: {name!r}")
    return found


def _source_messages(domain: str) -> set[str]:
    """The msgids ``makemessages`` finds in the sources today (run in a scratch copy)."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "src"
        shutil.copytree(
            ROOT,
            copy,
            ignore=shutil.ignore_patterns(
                ".venv", ".git", "node_modules", "*.mo", "__pycache__", ".*_cache", "var"
            ),
        )
        (copy / "locale").mkdir(exist_ok=True)
        command = [
            sys.executable,
            "manage.py",
            "makemessages",
            "-l",
            "xx",
            "-d",
            domain,
            "--ignore=tests",
            "--ignore=bench",
            "--ignore=.venv",
            "-v0",
        ]
        env = {"DATA_DIR": str(Path(scratch) / "data"), "PATH": "/usr/bin:/bin"}
        subprocess.run(command, cwd=copy, check=True, env=env)
        po = copy / "locale" / "xx" / "LC_MESSAGES" / f"{domain}.po"
        if not po.exists():
            return set()
        return {_key(entry) for entry in parse(po) if entry.msgid}


def check() -> int:
    problems: list[str] = []
    languages = sorted(path.name for path in LOCALE.glob("*") if path.is_dir())
    if not languages:
        problems.append("no catalogues under locale/")
    for domain in DOMAINS:
        wanted = _source_messages(domain)
        for language in languages:
            po = LOCALE / language / "LC_MESSAGES" / f"{domain}.po"
            if not po.exists():
                if wanted:
                    problems.append(f"{po}: missing ({len(wanted)} messages to translate)")
                continue
            have = {_key(entry) for entry in parse(po) if entry.msgid}
            for key in sorted(wanted - have):
                problems.append(f"{po}: not in the catalogue: {key[:60]!r}")
            problems += problems_in(po)
            result = subprocess.run(
                ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)],
                capture_output=True,
                text=True,
            )
            report = (result.stdout + result.stderr).strip()
            print(f"{po.relative_to(ROOT)}: {report}")
            if result.returncode or "untranslated" in report or "fuzzy" in report:
                problems.append(f"{po}: msgfmt: {report}")
            elif "warning" in report.lower():
                problems.append(f"{po}: msgfmt warning: {report}")
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in {len(languages)} language(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["check"]:
        sys.exit(check())
    if sys.argv[1:] == ["compile"]:
        compile_all(quiet=False)
        sys.exit(0)
    print("usage: python3 scripts/catalogues.py check | compile")
    sys.exit(2)
