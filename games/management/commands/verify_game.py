"""``manage.py verify_game <export.json>``: check a finished game's fairness from its export.

Reads the JSON of ``GET /api/games/{id}/export`` (a file, or ``-`` for standard input),
replays it with the rules engine (``games.records.fairness.verify_export``), checks each sealed
move against its commitment, and prints the verdict.
Exits with status 1 when the export does not verify.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.records.fairness import verify_export


class Command(BaseCommand):
    help = "Replay a finished game's export and check its seed, every move and the result."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("export", help="path of the export JSON file, or - for stdin")
        parser.add_argument("--json", action="store_true", help="print the verdict as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["export"]
        try:
            text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
        except OSError as exc:
            raise CommandError(f"Cannot read {source}: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CommandError(f"{source} is not JSON: {exc}") from None
        verdict = verify_export(data)
        if options["json"]:
            self.stdout.write(json.dumps(verdict.as_dict(), indent=2))
        else:
            for check in verdict.checks:
                mark = "ok  " if check.ok else "FAIL"
                self.stdout.write(f"{mark} {check.name}: {check.detail}")
            for row in verdict.sealed:
                mark = "ok  " if row.ok else "FAIL"
                self.stdout.write(
                    f"{mark} sealed move {row.version} (seat {row.seat}, {row.step}): "
                    f"sha256({row.salt} + {row.payload}) = {row.commitment}: {row.detail}"
                )
            style = self.style.SUCCESS if verdict.ok else self.style.ERROR
            self.stdout.write(style(verdict.summary))
        if not verdict.ok:
            raise CommandError("The export does not verify.")
