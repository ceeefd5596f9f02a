"""``makemessages`` as the site runs it: catalogues that do not churn.

Django's command, with three changes: no source references (``--no-location``: adding a
string changes a few lines, not the ``#:`` lines of a whole file), no fuzzy matching (a new
message never arrives pre-filled with another message's translation and placeholders), no
obsolete entries kept, and the folders that hold no page strings left out (tests,
benchmarks, scripts, build output). Each title's strings go into its own catalogue
(``titles/<package>/locale/``), Django's rule for a folder that has a ``locale`` of its
own; the rest into the site's (``locale/``). ``scripts/catalogue_check.py update`` runs it for
every language.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

#: Folders (at any depth) whose files are never searched for strings.
IGNORED = ["tests", "bench", "scripts", "build", "var", "node_modules", "conftest.py"]


class Command(makemessages.Command):
    msgmerge_options = ["-q", "--backup=none", "--update", "--no-fuzzy-matching"]

    def handle(self, *args: Any, **options: Any) -> None:
        options["no_location"] = True
        options["no_obsolete"] = True
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        super().handle(*args, **options)
