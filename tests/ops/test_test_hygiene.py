"""The tests' own rules (docs/architecture.md, "The gates"): no fixed sleeps and no
wall-clock asserts.

A test that waits names what it waits for and polls it against a deadline
(``tests/waiting.py``; ``tests/browser/driver.py`` for pages): only those two modules pause.
A test never asserts that something took less than so many seconds: on a busy machine, or
with the suite's workers side by side, that fails for no fault of the site. Speed is
measured in ``bench/``."""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest

# No database, task queue or channel layer: CI's embedded run leaves it out.
pytestmark = pytest.mark.modeless

ROOT = Path(__file__).resolve().parents[2]

#: The modules that may pause: the shared ways of waiting.
WAITERS = {Path("tests/waiting.py"), Path("tests/browser/driver.py")}
#: Calls that pause for a fixed time.
SLEEPS = {("time", "sleep"), ("asyncio", "sleep")}
#: Calls that read the clock.
CLOCKS = {("time", "monotonic"), ("time", "perf_counter"), ("time", "time")}


def suite_files() -> Iterator[Path]:
    for folder in [ROOT / "tests", *sorted((ROOT / "titles").glob("*/tests"))]:
        yield from sorted(folder.rglob("*.py"))


def _dotted(node: ast.expr) -> tuple[str, str] | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    return None


def fixed_waits(tree: ast.AST) -> list[int]:
    """The lines that pause for a fixed time: ``time.sleep``, ``asyncio.sleep``, a
    ``sleep`` imported from either, or a page's ``wait_for_timeout``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in ("time", "asyncio"):
            if any(alias.name == "sleep" for alias in node.names):
                found.append(node.lineno)
        elif isinstance(node, ast.Call):
            name = _dotted(node.func)
            if name in SLEEPS or (
                isinstance(node.func, ast.Attribute) and node.func.attr == "wait_for_timeout"
            ):
                found.append(node.lineno)
    return sorted(found)


def _reads_clock(node: ast.AST) -> bool:
    return any(isinstance(n, ast.Call) and _dotted(n.func) in CLOCKS for n in ast.walk(node))


def upper_bounds_on_time(tree: ast.AST) -> list[int]:
    """The asserts that the clock reads less than something (``assert time.monotonic() -
    started < 2``, or the same written the other way round)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assert):
            continue
        for compare in ast.walk(node.test):
            if not isinstance(compare, ast.Compare):
                continue
            sides = [compare.left, *compare.comparators]
            for op, (left, right) in zip(compare.ops, itertools.pairwise(sides), strict=False):
                if (isinstance(op, ast.Lt | ast.LtE) and _reads_clock(left)) or (
                    isinstance(op, ast.Gt | ast.GtE) and _reads_clock(right)
                ):
                    found.append(node.lineno)
    return sorted(found)


def test_no_test_sleeps_a_fixed_time() -> None:
    offenders = []
    for path in suite_files():
        if path.relative_to(ROOT) in WAITERS:
            continue
        for line in fixed_waits(ast.parse(path.read_text(), str(path))):
            offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == [], (
        "poll with tests.waiting.wait_until (or the page helpers in tests/browser/driver.py) "
        f"instead of a fixed sleep: {offenders}"
    )


def test_no_test_asserts_an_elapsed_time_below_a_bound() -> None:
    offenders = []
    for path in suite_files():
        for line in upper_bounds_on_time(ast.parse(path.read_text(), str(path))):
            offenders.append(f"{path.relative_to(ROOT)}:{line}")
    assert offenders == [], (
        f"assert what the site does, not how fast (speed belongs in bench/): {offenders}"
    )


def test_the_checks_see_what_they_look_for() -> None:
    """The checks above find each form they forbid."""
    waits = ast.parse(
        "import time, asyncio\nfrom time import sleep\ntime.sleep(1)\n"
        "async def f():\n    await asyncio.sleep(1)\npage.wait_for_timeout(300)\n"
    )
    assert fixed_waits(waits) == [2, 3, 5, 6]
    bounds = ast.parse(
        "assert time.monotonic() - t < 2\nassert 2 > time.perf_counter() - t\n"
        "assert time.monotonic() - t >= 1\nassert took < 2\n"
    )
    assert upper_bounds_on_time(bounds) == [1, 2]
