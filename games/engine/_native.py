"""The compiled engine: Colorado County's modules built with mypyc, used when a build of
exactly these sources exists (issue 16; docs/engine.md, "The compiled engine").

The sources stay the rules (pure Python, type-checked strictly); ``scripts/build_engine.py``
(run by ``python3 dev.py install``, ``run`` and ``test``) compiles the modules of
``MODULES`` into ``build/engine/<key>/``, where ``key`` hashes those sources. At import,
``games.engine`` and each compiled package put that folder before their own on their
``__path__`` if, and only if, a complete build for the current sources is there: an edited
source changes the key, so a stale build is never used, and nothing is written next to
the sources. ``ENGINE_NATIVE`` chooses: unset or ``auto`` (use a build when there is one),
``0`` (never: the interpreted sources, e.g. for a debugger) or ``1`` (required: importing
fails without a build; CI sets it so the tests run what players run).
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parents[1]

#: The compiled modules, relative to ``games/engine``. The rules objects (``title.py``)
#: stay interpreted: they take whatever a caller passes, while compiled functions check
#: their declared argument types.
MODULES: tuple[str, ...] = (
    "_rng.py",
    "colorado_county/actions.py",
    "colorado_county/board.py",
    "colorado_county/data.py",
    "colorado_county/determinise.py",
    "colorado_county/greedy_bot.py",
    "colorado_county/lakes.py",
    "colorado_county/persist.py",
    "colorado_county/queries.py",
    "colorado_county/random_bot.py",
    "colorado_county/rules.py",
    "colorado_county/sales.py",
    "colorado_county/scoring.py",
    "colorado_county/state.py",
    "colorado_county/views.py",
)
#: Data files copied into a build (``data.py`` reads the components beside its file).
DATA_FILES: tuple[str, ...] = ("colorado_county/components.json",)
#: Bump when the way a build is made changes.
FORMAT = "1"
#: Written last by a build: a folder without it is incomplete.
COMPLETE = "complete"

_chosen: list[Path | None] = []


def mode() -> str:
    """``auto``, ``0`` or ``1`` (see the module's text)."""
    value = os.environ.get("ENGINE_NATIVE", "auto").strip().lower()
    return value if value in {"0", "1"} else "auto"


def build_root() -> Path:
    return Path(os.environ.get("ENGINE_BUILD_DIR", str(ROOT / "build" / "engine")))


def source_key() -> str:
    """A hash of the compiled modules' sources, the interpreter's ABI and ``FORMAT``."""
    digest = hashlib.sha256(f"{FORMAT}\0{sys.implementation.cache_tag}\0".encode())
    for rel in MODULES + DATA_FILES:
        digest.update(rel.encode() + b"\0")
        digest.update((ENGINE / rel).read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:24]


def native_root() -> Path | None:
    """The build folder in use in this process (chosen once), or None."""
    if not _chosen:
        _chosen.append(_choose())
    return _chosen[0]


def _choose() -> Path | None:
    wanted = mode()
    if wanted == "0":
        return None
    root = build_root() / source_key()
    if (root / COMPLETE).is_file():
        if str(root) not in sys.path:
            sys.path.append(str(root))  # the shared library the modules live in
        return root
    if wanted == "1":
        raise ImportError(
            f"ENGINE_NATIVE=1 but there is no compiled engine for these sources in {root}; "
            "build it with `python3 dev.py install` (or set ENGINE_NATIVE=0)"
        )
    return None


def extend(path: list[str], package: str) -> None:
    """Put the build's folder for ``package`` first on the package's ``__path__``."""
    root = native_root()
    if root is not None:
        folder = str(root.joinpath(*package.split(".")))
        if folder not in path:
            path.insert(0, folder)


def compiled(package: str = "games.engine.colorado_county") -> bool:
    """Whether modules of ``package`` (a title's) run compiled in this process."""
    prefix = package + "."
    return any(
        name.startswith(prefix) and str(getattr(module, "__file__", "")).endswith(".so")
        for name, module in list(sys.modules.items())
    )
