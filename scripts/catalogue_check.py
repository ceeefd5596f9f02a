"""The catalogue gate (``python3 scripts/catalogue_check.py check``) and the update
(``python3 scripts/catalogue_check.py update``), for the site's catalogue and each title's.

``check`` runs the site's ``makemessages`` into a scratch copy of the sources and then, for
every catalogue root and language (``catalogues.catalogue_roots()``):

- the catalogue holds every message its sources mark, and no message they no longer mark;
- every message is translated, none is fuzzy, ``msgfmt --check`` passes without a warning;
- the placeholders (``%(name)s``, ``%s``, ``{name}``, HTML tags) of each translation are
  those of its source;
- no translation is the English text itself, unless the language's glossary lists it under
  "Same as English" (the title's glossary or the site's) or it is placeholders only;
- no source references (``#:`` lines), so that adding a string changes a few lines;
- every title has a catalogue for every language the site offers;
- no translatable string is marked inside an f-string's braces, where ``makemessages``
  cannot see it (the page would show it in English whatever the catalogue says).

``update`` runs the site's ``makemessages`` in place for every language: new messages are
added untranslated (never pre-filled by fuzzy matching), gone ones removed.
"""

from __future__ import annotations

import ast
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from catalogues import ROOT, Entry, _key, catalogue_roots, parse  # the script's sibling

DOMAINS = ("django", "djangojs")
PLACEHOLDER = re.compile(r"%\([^)]+\)[sdif]|%[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}|</?[a-zA-Z][^>]*>")
#: A glossary's "Same as English" section, or a paragraph that starts with those words.
SAME_AS_ENGLISH = re.compile(
    r"(?ims)^#+ *same as english[^\n]*\n(.*?)(?=^#+ |\Z)|^same as english(.*?)(?=\n\n|\Z)"
)
LISTED = re.compile(r"`([^`]+)`")
SCRATCH_IGNORED = (".venv", ".git", "node_modules", "*.mo", "__pycache__", ".*_cache", "var")


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def languages() -> list[str]:
    """The site's languages besides English (the folders of ``locale/``)."""
    return sorted(p.name for p in (ROOT / "locale").iterdir() if p.is_dir())


def same_as_english(root: Path, language: str) -> set[str]:
    """The messages the glossaries list as deliberately the same as English: the
    language's glossary in ``root`` and the site's."""
    out: set[str] = set()
    for glossary in {root / language / "glossary.md", ROOT / "locale" / language / "glossary.md"}:
        if glossary.is_file():
            for sections in SAME_AS_ENGLISH.findall(glossary.read_text(encoding="utf-8")):
                for section in sections:
                    out.update(LISTED.findall(section))
    return out


def placeholders_only(text: str) -> bool:
    return not re.search(r"[^\W\d_]", PLACEHOLDER.sub("", text))


def entry_problems(po: Path, entry: Entry, same: set[str]) -> list[str]:
    found: list[str] = []
    name = entry.msgid[:60]
    if entry.fuzzy:
        found.append(f"{po}: fuzzy: {name!r}")
    if not entry.translated:
        return [*found, f"{po}: untranslated: {name!r}"]
    wanted = placeholders(entry.msgid if entry.msgid_plural is None else entry.msgid_plural)
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
        source = entry.msgid if index == 0 or entry.msgid_plural is None else entry.msgid_plural
        if text == source and not placeholders_only(text) and source not in same:
            found.append(
                f"{po}: the translation is the English text (list it under 'Same as "
                f"English' in the glossary if that is deliberate): {name!r}"
            )
    return found


def catalogue_problems(po: Path, wanted: set[str], same: set[str]) -> list[str]:
    problems: list[str] = []
    entries = [e for e in parse(po) if e.msgid]
    have = {_key(e) for e in entries}
    problems += [f"{po}: not in the catalogue: {k[:60]!r}" for k in sorted(wanted - have)]
    problems += [f"{po}: no longer in the sources: {k[:60]!r}" for k in sorted(have - wanted)]
    if any(line.startswith("#:") for line in po.read_text(encoding="utf-8").splitlines()):
        problems.append(f"{po}: source references (#: lines); run the update to drop them")
    for entry in entries:
        problems += entry_problems(po, entry, same)
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
    return problems


def makemessages(cwd: Path, languages: list[str], domain: str) -> None:
    command = [sys.executable, "manage.py", "makemessages", "-d", domain, "-v0"]
    for language in languages:
        command += ["-l", language]
    env = {"DATA_DIR": str(cwd / "var"), "PATH": "/usr/bin:/bin"}
    subprocess.run(command, cwd=cwd, check=True, env=env)


def source_messages(domain: str) -> dict[Path, set[str]]:
    """The msgids each catalogue root's sources mark today (``makemessages`` run in a
    scratch copy), by root (relative to the repository)."""
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "src"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(*SCRATCH_IGNORED))
        for root in catalogue_roots():
            (copy / root.relative_to(ROOT)).mkdir(parents=True, exist_ok=True)
        makemessages(copy, ["xx"], domain)
        out: dict[Path, set[str]] = {}
        for root in catalogue_roots():
            rel = root.relative_to(ROOT)
            po = copy / rel / "xx" / "LC_MESSAGES" / f"{domain}.po"
            out[rel] = {_key(e) for e in parse(po) if e.msgid} if po.exists() else set()
        return out


MARKERS = {"_", "gettext", "gettext_lazy", "gettext_noop", "pgettext", "ngettext", "ngettext_lazy"}
SOURCE_IGNORED = {".venv", "tests", "bench", "build", "node_modules", "migrations", "var"}


def hidden_marks() -> list[str]:
    """Translatable strings marked inside an f-string's braces: ``xgettext`` does not look
    there, so they never reach a catalogue."""
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        if SOURCE_IGNORED & set(rel.parts):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                if (
                    isinstance(inner, ast.Call)
                    and isinstance(inner.func, ast.Name)
                    and inner.func.id in MARKERS
                ):
                    found.append(
                        f"{rel}:{inner.lineno}: {inner.func.id}() inside an f-string is not "
                        "seen by makemessages; translate into a variable first"
                    )
    return found


def check() -> int:
    problems: list[str] = hidden_marks()
    langs = languages()
    if not langs:
        problems.append("no catalogues under locale/")
    for package in sorted(p.name for p in (ROOT / "titles").iterdir() if (p / "engine").is_dir()):
        for language in langs:
            if not (ROOT / "titles" / package / "locale" / language).is_dir():
                problems.append(f"titles/{package}/locale/{language}/: missing")
    for domain in DOMAINS:
        for rel, wanted in source_messages(domain).items():
            root = ROOT / rel
            for language in langs:
                po = root / language / "LC_MESSAGES" / f"{domain}.po"
                if not po.exists():
                    if wanted:
                        problems.append(f"{po}: missing ({len(wanted)} messages to translate)")
                    continue
                problems += catalogue_problems(po, wanted, same_as_english(root, language))
    for problem in problems:
        print(problem)
    print(f"{len(problems)} problem(s) in {len(langs)} language(s)")
    return 1 if problems else 0


def header(po: Path) -> str:
    """The header entry of ``po``: its text up to the first blank line."""
    return po.read_text(encoding="utf-8").split("\n\n", 1)[0]


def adopt_site_header(po: Path, language: str) -> bool:
    """Give a catalogue ``makemessages`` has just created (its header a fuzzy template)
    the site catalogue's header for ``language`` (language, plural forms); True if done."""
    text = po.read_text(encoding="utf-8")
    head, _, rest = text.partition("\n\n")
    if "#, fuzzy" not in head:
        return False
    site = header(ROOT / "locale" / language / "LC_MESSAGES" / po.name)
    po.write_text(site + "\n\n" + rest, encoding="utf-8")
    return True


def update() -> int:
    for root in catalogue_roots():
        for language in languages():
            (root / language / "LC_MESSAGES").mkdir(parents=True, exist_ok=True)
    for domain in DOMAINS:
        makemessages(ROOT, languages(), domain)
    for root in catalogue_roots()[1:]:
        for language in languages():
            for po in (root / language / "LC_MESSAGES").glob("*.po"):
                if adopt_site_header(po, language):
                    print(f"{po.relative_to(ROOT)}: new, with the site's header for {language}")
    print("updated; translate the new entries (msgattrib --untranslated), then run check")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["check"]:
        sys.exit(check())
    if sys.argv[1:] == ["update"]:
        sys.exit(update())
    print("usage: python3 scripts/catalogue_check.py check | update")
    sys.exit(2)
