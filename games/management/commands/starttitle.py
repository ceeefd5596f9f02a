"""``python manage.py starttitle <package>``: a new title's folder, working from the start.

It writes ``titles/<package>/`` from the title template (``games/management/title_template``:
*Sample picks*, a small game where every seat picks a number in secret each round, with
one option, a medium bot, the search bot's hooks, a board, a rules page, its strings
translated in the site's five languages, and its tests) under the new names, and adds the
package to the one list of titles (``titles.TITLE_PACKAGES``). The slug is the package
name with hyphens; the name is the package name in words unless ``--name`` says otherwise.
The new title passes the conformance suite, the linters and the catalogue check as it is;
then make it your game (``docs/architecture.md``, "How to add a game").
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.engine import get_rules, title_slugs

TEMPLATE = Path(__file__).resolve().parents[1] / "title_template"
SUFFIX = "-tpl"
#: The template's own names, replaced by the new title's.
PACKAGE, SLUG, NAME, CLASS = "sample_picks", "sample-picks", "Sample picks", "SamplePicks"
PACKAGE_RE = re.compile(r"^[a-z][a-z0-9]*(_[a-z0-9]+)*$")


def class_prefix(package: str) -> str:
    return "".join(part.capitalize() for part in package.split("_"))


def squashed(slug: str) -> str:
    """A slug with its separators and digits' look-alikes taken out, for comparing slugs
    a reader could take for one another."""
    return re.sub(r"[-_]", "", slug.lower()).replace("0", "o").replace("1", "l")


def render(text: str, package: str, name: str) -> str:
    slug = package.replace("_", "-")
    for old, new in ((CLASS, class_prefix(package)), (PACKAGE, package), (SLUG, slug)):
        text = text.replace(old, new)
    return text.replace(NAME, name)


def add_to_the_list(listing: Path, package: str) -> None:
    """Add ``package`` as the last entry of ``TITLE_PACKAGES`` (one line)."""
    text = listing.read_text(encoding="utf-8")
    found = re.search(r"TITLE_PACKAGES: tuple\[str, \.\.\.\] = \(\n(.*?)\)", text, re.S)
    if found is None:
        raise CommandError(f"{listing} has no TITLE_PACKAGES tuple to add the title to.")
    end = found.end(1)
    listing.write_text(f'{text[:end]}    "{package}",\n{text[end:]}', encoding="utf-8")


class Command(BaseCommand):
    help = "Write a new title's folder titles/<package>/ from the template and list it."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("package", help="the title's package, e.g. my_game")
        parser.add_argument("--name", help="the title's name (default: the package in words)")

    def handle(self, *args: Any, **options: Any) -> None:
        package = str(options["package"])
        if not PACKAGE_RE.match(package):
            raise CommandError(
                "A title's package is lower-case letters, digits and single underscores, "
                "starting with a letter (e.g. my_game)."
            )
        root = Path(settings.BASE_DIR)
        target = root / "titles" / package
        if target.exists():
            raise CommandError(f"titles/{package}/ exists already.")
        slug = package.replace("_", "-")
        for other in title_slugs():
            if squashed(other) == squashed(slug):
                raise CommandError(f"The slug {slug} could be taken for {other}'s.")
        name = options.get("name") or package.replace("_", " ").capitalize()
        taken = {get_rules(s).name.lower() for s in title_slugs()}
        if name.lower() in taken:
            raise CommandError(f"A title is already named {name}.")
        written = 0
        for source in sorted(TEMPLATE.rglob(f"*{SUFFIX}")):
            rel = source.relative_to(TEMPLATE).as_posix()[: -len(SUFFIX)]
            path = target / render(rel, package, name)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(render(source.read_text(encoding="utf-8"), package, name), "utf-8")
            written += 1
        add_to_the_list(root / "titles" / "__init__.py", package)
        self.stdout.write(
            f"Wrote titles/{package}/ ({written} files) and added it to titles/__init__.py.\n"
            f"It plays as {name} ({slug}); run the tests: python3 dev.py test "
            f"titles/{package} tests/conformance -k {slug}.\n"
            "Then make it your game: docs/architecture.md, 'How to add a game'."
        )
