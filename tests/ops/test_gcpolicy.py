"""A web process keeps the garbage collector out of its way (colorado/gcpolicy.py): what the
application loaded at start is frozen out of the collector's passes, and generation 0 runs
every ``WEB_GC_THRESHOLD`` allocations instead of 700. Each case is a fresh interpreter
importing the ASGI application, as a web worker does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = (
    "import gc, json, colorado.asgi; "
    "print(json.dumps({'threshold': gc.get_threshold(), 'frozen': gc.get_freeze_count()}))"
)


def _probe(**env: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "colorado.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


def test_a_web_process_freezes_what_it_loaded_and_collects_young_objects_rarely() -> None:
    found = _probe()
    assert found["threshold"] == [20_000, 10, 10]
    assert int(found["frozen"]) > 50_000  # Django, the titles, the routing: out of every pass


def test_an_operator_can_keep_pythons_own_collector_settings() -> None:
    found = _probe(WEB_GC_THRESHOLD="0")
    assert found == {"threshold": [700, 10, 10], "frozen": 0}


def test_the_threshold_is_the_operators_to_set() -> None:
    assert _probe(WEB_GC_THRESHOLD="5000")["threshold"] == [5000, 10, 10]
