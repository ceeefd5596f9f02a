"""Project-level contracts: the import contracts hold, CI runs the README's test command
(the rules' purity: tests/engine/test_purity.py)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]


def test_import_linter_contract_is_kept() -> None:
    lint_imports = Path(sys.executable).parent / "lint-imports"
    result = subprocess.run(
        [str(lint_imports)], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr
    contracts = (ROOT / "pyproject.toml").read_text().count("[[tool.importlinter.contracts]]")
    assert f"Contracts: {contracts} kept, 0 broken" in result.stdout


def quick_start_lines() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    section = re.search(r"^#+ *Quick start.*?```\w*\n(.*?)```", readme, re.S | re.M | re.I)
    assert section, "README has a Quick start section with a fenced code block"
    return [line.strip() for line in section.group(1).splitlines() if line.strip()]


def test_readme_quick_start_is_run_then_test() -> None:
    lines = quick_start_lines()
    assert lines[0] == "python3 dev.py run"
    assert lines[1] == "python3 dev.py test"


def test_ci_runs_the_readme_test_command() -> None:
    test_command = quick_start_lines()[1]
    ci = (ROOT / ".ci" / "run").read_text()
    commands = [line.strip() for line in ci.splitlines() if not line.strip().startswith("#")]
    assert test_command in commands
