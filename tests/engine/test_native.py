"""The compiled engine (``games/engine/_native.py``): used only for a build of exactly the
current sources, refused loudly when required and missing, and playing exactly the games
the interpreted sources play."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from games.engine import _native

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import json; from games.engine import get_rules, _native; get_rules('colorado-county');"
    "import titles.colorado_county.engine.rules as r;"
    "print(json.dumps([_native.compiled('titles.colorado_county.engine'), r.__file__]))"
)


def run_probe(env_extra: dict[str, str], code: str = PROBE) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGINE_")}
    env.update(env_extra)
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def current_build() -> Path | None:
    root = _native.build_root() / _native.source_key()
    return root if (root / _native.COMPLETE).is_file() else None


def test_a_build_of_other_sources_is_never_used(tmp_path: Path) -> None:
    """An edited source changes the key: a build made before the edit is ignored, so the
    engine never runs stale compiled rules."""
    stale = tmp_path / ("0" * 24)
    (stale / "titles" / "colorado_county" / "engine").mkdir(parents=True)
    (stale / _native.COMPLETE).write_text("stale\n")
    # a 'compiled' rules module that would break everything if it were imported
    (stale / "titles" / "colorado_county" / "engine" / "rules.py").write_text("raise SystemExit(3)")
    done = run_probe({"ENGINE_BUILD_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    compiled, path = json.loads(done.stdout)
    assert compiled is False
    assert Path(path) == ROOT / "titles" / "colorado_county" / "engine" / "rules.py"


def test_required_but_missing_fails_with_a_clear_message(tmp_path: Path) -> None:
    done = run_probe({"ENGINE_BUILD_DIR": str(tmp_path), "ENGINE_NATIVE": "1"})
    assert done.returncode != 0
    assert "ENGINE_NATIVE=1 but there is no compiled engine" in done.stderr
    assert "dev.py install" in done.stderr


def test_an_incomplete_build_is_not_used(tmp_path: Path) -> None:
    """A build interrupted before its last step (no ``complete`` mark) is ignored."""
    build = current_build()
    if build is None:
        pytest.skip("no compiled engine for these sources (python3 dev.py install builds it)")
    partial = tmp_path / build.name
    shutil.copytree(build, partial)
    (partial / _native.COMPLETE).unlink()
    done = run_probe({"ENGINE_BUILD_DIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0] is False


def test_engine_native_0_runs_the_sources_even_with_a_build() -> None:
    done = run_probe({"ENGINE_NATIVE": "0"})
    assert done.returncode == 0, done.stderr
    compiled, path = json.loads(done.stdout)
    assert compiled is False
    assert path.endswith("rules.py")


def simulate(native: str, *args: str) -> dict[str, object]:
    code = "import sys; from games.engine.__main__ import main; sys.exit(main(sys.argv[1:]))"
    # The same build folder as this process (CI keeps it outside the clone: .ci/run).
    env = {k: v for k, v in os.environ.items() if k != "ENGINE_NATIVE"}
    env["ENGINE_NATIVE"] = native
    done = subprocess.run(
        [sys.executable, "-c", code, "simulate", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize(
    "args",
    [
        ("--players", "4", "--bots", "random,random,random,random", "--games", "20"),
        ("--players", "2", "--bots", "greedy,random", "--games", "4"),
        ("--players", "3", "--bots", "random", "--games", "10", "--option", "lakes=random"),
        ("--players", "2", "--bots", "search,greedy", "--games", "1", "--bot-iterations", "60"),
    ],
)
def test_compiled_and_interpreted_play_the_same_games(args: tuple[str, ...]) -> None:
    if current_build() is None:
        pytest.skip("no compiled engine for these sources (python3 dev.py install builds it)")
    compiled = simulate("1", *args, "--seed", "native-test")
    plain = simulate("0", *args, "--seed", "native-test")
    assert compiled["engine"] == "compiled"
    assert plain["engine"] == "interpreted"
    assert compiled["scores"] == plain["scores"]
    assert compiled["actions"] == plain["actions"]


def test_the_tests_run_what_players_run() -> None:
    """With ``ENGINE_NATIVE=1`` (CI) this process itself runs the compiled rules."""
    if _native.mode() != "1":
        pytest.skip("ENGINE_NATIVE=1 is not set")
    from games.engine import get_rules

    get_rules("colorado-county")
    assert _native.compiled("titles.colorado_county.engine")


@pytest.mark.parametrize("native", ["auto", "1"])
def test_without_a_c_compiler_the_build_fails_cleanly_once(tmp_path: Path, native: str) -> None:
    """A bare machine without a C compiler: the build says so, leaves no partial build and
    does not retry at every start; the engine then runs interpreted. The build runs even
    where ``ENGINE_NATIVE=1`` (CI) asks for the build it is about to make."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ENGINE_")}
    env.update({"CC": "/bin/false", "ENGINE_BUILD_DIR": str(tmp_path), "ENGINE_NATIVE": native})
    build = [sys.executable, str(ROOT / "scripts" / "build_engine.py")]
    first = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True)
    assert first.returncode == 1
    assert "not built, the engine runs interpreted" in first.stdout
    assert [p.name for p in tmp_path.iterdir()] == [f".failed-{_native.source_key()}"]
    again = subprocess.run(build, cwd=ROOT, env=env, capture_output=True, text=True)
    assert again.returncode == 1
    assert "failed before for these sources" in again.stdout
    assert "compiling" not in again.stdout
    done = run_probe({"ENGINE_BUILD_DIR": str(tmp_path)})
    assert json.loads(done.stdout)[0] is False
