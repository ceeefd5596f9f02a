"""Check that every translation keeps its source's placeholders.

For each entry of each given .po file, the multiset of placeholders in the msgid
(msgid_plural for msgstr[1..]) must equal that of the msgstr: printf-style
(%(name)s, %(n)d, %(x).1f, %s, %d, %%), brace-style ({name}), HTML tags and
entities. Empty translations are reported too. Exit status 1 on any problem.

    python locale/check_placeholders.py locale/*/LC_MESSAGES/django.po
"""

from __future__ import annotations

import re
import sys
from collections import Counter

import polib

TOKEN = re.compile(
    r"%\([A-Za-z_][A-Za-z0-9_]*\)[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]"  # %(name)s, %(x).1f
    r"|%%"  # escaped percent
    r"|%[-#0 +]*\d*(?:\.\d+)?[sdifrxXeEgGc]"  # %s, %d
    r"|\{[A-Za-z_][A-Za-z0-9_]*\}"  # {name}
    r"|</?[A-Za-z][^<>]*>"  # HTML tags
    r"|&(?:[A-Za-z]+|#\d+|#x[0-9A-Fa-f]+);"  # HTML entities
)


def tokens(text: str) -> Counter[str]:
    return Counter(TOKEN.findall(text))


def check(path: str) -> list[str]:
    problems = []
    for entry in polib.pofile(path):
        if entry.obsolete:
            continue
        pairs = []
        if entry.msgid_plural:
            for i, text in sorted(entry.msgstr_plural.items()):
                pairs.append((f"msgstr[{i}]", entry.msgid if i == 0 else entry.msgid_plural, text))
        else:
            pairs.append(("msgstr", entry.msgid, entry.msgstr))
        for name, source, text in pairs:
            if not text:
                problems.append(f"{path}: {entry.msgid!r}: {name} is empty")
                continue
            want, got = tokens(source), tokens(text)
            if want != got:
                problems.append(
                    f"{path}: {entry.msgid!r}: {name} has {sorted(got.elements())},"
                    f" the source {sorted(want.elements())}"
                )
        if "fuzzy" in entry.flags:
            problems.append(f"{path}: {entry.msgid!r}: fuzzy")
    return problems


def main(paths: list[str]) -> int:
    problems = [p for path in paths for p in check(path)]
    for p in problems:
        print(p)
    print(f"{len(problems)} problem(s) in {len(paths)} file(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
