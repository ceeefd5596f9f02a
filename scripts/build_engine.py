"""Compile the titles' hot engine modules with mypyc into ``build/engine/<key>/``.

Run by ``python3 dev.py install`` (and ``run``, ``test``) with the project's interpreter;
by hand: ``.venv/bin/python scripts/build_engine.py [--force]``. Does nothing when a
complete build of the current sources exists. The sources are copied to a scratch folder
and compiled there, so nothing is written next to them; the build is checked before it
is used: a few fixed-seed games played compiled must end exactly as played interpreted.
Exit status 0 when a build for the current sources is in place, 1 when it could not be
made (no C compiler or Python headers, say): the engine then runs interpreted.
See ``games/engine/_native.py`` and docs/engine.md, "The compiled engine".
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# This process reads the sources only (the key, the module list): it must import even when
# ENGINE_NATIVE=1 asks for a build that does not exist yet. Its children set their own.
os.environ["ENGINE_NATIVE"] = "0"

from games.engine import _native  # noqa: E402 (needs the path above)

KEEP_BUILDS = 3
CHECK_GAMES = (
    "simulate --players 4 --bots random,random,random,random --games 6 --seed build-check",
    "simulate --players 2 --bots greedy,random --games 2 --seed build-check",
    "simulate --players 3 --bots random,random,random --games 4 --seed build-check "
    "--option lakes=random --option flags=random",
    "simulate --players 2 --bots search,greedy --games 1 --bot-iterations 40 --seed build-check",
)


def say(text: str) -> None:
    print(f"[engine build] {text}", flush=True)


def compile_into(stage: Path) -> None:
    """Compile ``_native.MODULES`` from a scratch copy of ``games/engine`` and the titles'
    rules packages; put the shared library, the modules' stubs and their data files into
    ``stage`` (the layout imports expect)."""
    with tempfile.TemporaryDirectory(prefix="engine-build-") as scratch:
        work = Path(scratch)
        ignore = shutil.ignore_patterns("__pycache__", "*.so")
        shutil.copytree(_native.ENGINE, work / "games" / "engine", ignore=ignore)
        (work / "games" / "__init__.py").write_text("")
        (work / "titles").mkdir()
        shutil.copy2(ROOT / "titles" / "__init__.py", work / "titles" / "__init__.py")
        for engine in sorted(ROOT.glob(_native.TITLE_ENGINES)):
            rel = engine.relative_to(ROOT)
            shutil.copytree(engine, work / rel, ignore=ignore)
            (work / rel.parent / "__init__.py").write_text("")
        out = python(
            ["-m", "mypyc", *_native.MODULES], work, ENGINE_NATIVE="0", MYPYC_OPT_LEVEL="3"
        )
        if out.returncode != 0:
            tail = "\n".join((out.stdout + out.stderr).strip().splitlines()[-15:])
            raise RuntimeError(f"mypyc failed:\n{tail}")
        built = [p for p in work.rglob("*.so") if "build" not in p.relative_to(work).parts]
        if len(built) != len(_native.MODULES) + 1:
            raise RuntimeError(f"expected {len(_native.MODULES) + 1} libraries, got {built}")
        data = [work / rel for rel in _native.DATA_FILES]
        for path in built + data:  # compiled modules find their data beside their file
            target = stage / path.relative_to(work)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def python(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Run this interpreter with ``args`` in ``cwd``, ``env`` added; output captured."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def play(args: str, native: str, build_dir: Path) -> tuple[bool, list[int]]:
    code = (
        "import json, sys\n"
        "from games.engine import __main__ as m\n"
        "import contextlib, io\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    m.main(sys.argv[1:])\n"
        "d = json.loads(out.getvalue())\n"
        "print(json.dumps([d['engine'] == 'compiled', [s for v in d['scores'].values() "
        "for s in v['all']]]))\n"
    )
    done = python(
        ["-c", code, *args.split()], ROOT, ENGINE_NATIVE=native, ENGINE_BUILD_DIR=str(build_dir)
    )
    if done.returncode != 0:
        raise RuntimeError(f"playing {args!r} failed:\n{done.stderr[-2000:]}")
    compiled, scores = json.loads(done.stdout.strip().splitlines()[-1])
    return bool(compiled), [int(s) for s in scores]


def check(build_dir: Path) -> None:
    """Fixed-seed games give the same scores compiled and interpreted."""
    for args in CHECK_GAMES:
        compiled, native_scores = play(args, "1", build_dir)
        if not compiled:
            raise RuntimeError("the build did not load: the rules ran interpreted")
        interpreted, plain_scores = play(args, "0", build_dir)
        if interpreted or native_scores != plain_scores:
            raise RuntimeError(
                f"{args!r}: compiled scores {native_scores} != interpreted {plain_scores}"
            )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--force", action="store_true", help="build even if one is in place")
    args = parser.parse_args(argv)
    key = _native.source_key()
    root = _native.build_root()
    target = root / key
    if (target / _native.COMPLETE).is_file() and not args.force:
        say(f"up to date ({target.relative_to(ROOT) if target.is_relative_to(ROOT) else target})")
        return 0
    failed = root / f".failed-{key}"  # a failed build is not retried for the same sources
    if failed.is_file() and not args.force:
        say(f"not built (failed before for these sources; --force retries): {failed}")
        return 1
    root.mkdir(parents=True, exist_ok=True)
    stage = root / f".{key}.{os.getpid()}"
    start = time.monotonic()
    say(f"compiling {len(_native.MODULES)} modules with mypyc (about a minute)")
    try:
        shutil.rmtree(stage, ignore_errors=True)
        compile_into(stage / key)
        (stage / key / _native.COMPLETE).write_text(key + "\n")
        check(stage)
    except (RuntimeError, OSError) as exc:
        shutil.rmtree(stage, ignore_errors=True)
        failed.write_text(f"{exc}\n")
        say(f"not built, the engine runs interpreted: {exc}")
        return 1
    failed.unlink(missing_ok=True)
    shutil.rmtree(target, ignore_errors=True)
    (stage / key).rename(target)
    shutil.rmtree(stage, ignore_errors=True)
    # keep the newest few builds (switching branches back and forth), drop older ones
    builds = sorted(
        (p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in builds[KEEP_BUILDS:]:
        if old.name != key:
            shutil.rmtree(old, ignore_errors=True)
    say(f"built in {time.monotonic() - start:.0f} s: {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
