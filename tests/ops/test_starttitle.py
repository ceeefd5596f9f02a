"""``python manage.py starttitle <package>`` in a scratch copy of the repository: it changes
nothing but the new folder and one line of the list of titles, and the new title passes
the linters, the strict type check, the import contracts, the catalogue check, the
conformance suite's engine checks and its own engine tests as it stands."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def run(args: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_URL", "REDIS"))}
    env.update(DATA_DIR=str(cwd / "var"), ENGINE_NATIVE="0", PYTHONDONTWRITEBYTECODE="1")
    done = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the repository's files as git knows them (tracked and new, not ignored),
    with a git index of its own, so that ``git status`` shows what the command changed."""
    copy = tmp_path_factory.mktemp("repo") / "repo"
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    for name in filter(None, listed):
        source = ROOT / name.decode()
        if source.is_file():
            (copy / name.decode()).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, copy / name.decode())
    run(["git", "init", "-q"], copy)
    run(["git", "add", "-A"], copy)
    run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"], copy)
    return copy


# Two cold mypy runs with Django's types in a fresh copy: minutes on a busy machine.
@pytest.mark.timeout(900)
def test_a_new_title_is_one_folder_and_one_line_and_passes_the_gates(scratch: Path) -> None:
    python = str(BIN / "python")
    out = run([python, "manage.py", "starttitle", "probe_duel"], scratch)
    assert "titles/probe_duel/" in out
    status = run(["git", "status", "--porcelain", "--untracked-files=all"], scratch)
    changed = {line[3:] for line in status.splitlines()}
    assert "titles/__init__.py" in changed
    assert all(p == "titles/__init__.py" or p.startswith("titles/probe_duel/") for p in changed)
    diff = run(["git", "diff", "--numstat", "titles/__init__.py"], scratch)
    assert diff.split()[:2] == ["1", "0"], diff  # one line added, none removed
    run([str(BIN / "ruff"), "check", "titles/probe_duel"], scratch)
    run([str(BIN / "ruff"), "format", "--check", "titles/probe_duel"], scratch)
    run([str(BIN / "mypy"), "--strict", "titles/probe_duel/engine"], scratch)
    run([str(BIN / "mypy"), "titles/probe_duel"], scratch)
    run([str(BIN / "lint-imports")], scratch)
    checked = run([python, "scripts/catalogue_check.py", "check"], scratch)
    assert "titles/probe_duel/locale/ja/LC_MESSAGES/django.po" in checked
    assert "0 problem(s)" in checked
    run(
        [
            python,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "titles/probe_duel/tests/engine",
            "tests/conformance/test_rules_contract.py",
            "tests/ops/test_titles_core.py",
            "tests/engine/test_purity.py",
            "-k",
            "probe or core or purity or rules_package",
        ],
        scratch,
    )


def test_a_taken_or_malformed_package_is_refused(scratch: Path) -> None:
    python = str(BIN / "python")
    for bad in ("Probe", "probe-duel", "1probe", "colorado_county"):
        done = subprocess.run(
            [python, "manage.py", "starttitle", bad],
            cwd=scratch,
            env={**os.environ, "DATA_DIR": str(scratch / "var")},
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode != 0, bad
        assert "CommandError" in done.stderr or "Error" in done.stderr, done.stderr
