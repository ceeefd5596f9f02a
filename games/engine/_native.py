"""The compiled engine: the titles' hot modules built with mypyc, used when a build of
exactly these sources exists (issue 16; docs/engine.md, "The compiled engine").

The sources stay the rules (pure Python, type-checked strictly); ``scripts/build_engine.py``
(run by ``python3 dev.py install``, ``run`` and ``test``) compiles the modules each title
lists in its ``titles/<package>/engine/compiled-modules.txt`` (``MODULES``) into
``build/engine/<key>/`` (the same layout as the repository), where ``key`` hashes those
sources. At import, ``games.engine`` and each compiled package put that folder before
their own on their ``__path__`` if, and only if, a complete build for the current sources
is there: an edited
source changes the key, so a stale build is never used, and nothing is written next to
the sources. ``ENGINE_NATIVE`` chooses: unset or ``auto`` (use a build when there is one),
``0`` (never: the interpreted sources, e.g. for a debugger) or ``1`` (required: importing
fails without a build; CI sets it so the tests run what players run).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parent
ROOT = ENGINE.parents[1]
#: Each title's rules package: ``titles/<package>/engine/``.
TITLE_ENGINES = "titles/*/engine"

#: A title package lists the modules to compile in this file, one file name a line (``#``
#: starts a comment); a listed file that is not Python (component data) is copied into the
#: build beside the compiled modules, which look for their data next to their own file.
MANIFEST = "compiled-modules.txt"
#: Engine modules shared by every title that are compiled as well.
SHARED: tuple[str, ...] = ("games/engine/_rng.py",)


def _listed() -> tuple[str, ...]:
    files = list(SHARED)
    for manifest in sorted(ROOT.glob(f"{TITLE_ENGINES}/{MANIFEST}")):
        folder = manifest.parent.relative_to(ROOT).as_posix()
        for line in manifest.read_text(encoding="utf-8").splitlines():
            name = line.split("#", 1)[0].strip()
            if name:
                files.append(f"{folder}/{name}")
    return tuple(files)


#: Every file of a build, relative to the repository: the modules compiled (``.py``) and
#: the data files copied. The title packages' ``__init__`` call ``extend``; the rules
#: objects (``title.py``) stay interpreted: they take whatever a caller passes, while
#: compiled functions check their declared argument types.
LISTED: tuple[str, ...] = _listed()
MODULES: tuple[str, ...] = tuple(f for f in LISTED if f.endswith(".py"))
DATA_FILES: tuple[str, ...] = tuple(f for f in LISTED if not f.endswith(".py"))
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
    for rel in LISTED:
        digest.update(rel.encode() + b"\0")
        digest.update((ROOT / rel).read_bytes())
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


def compiled(package: str) -> bool:
    """Whether modules of ``package`` (a title's) run compiled in this process."""
    prefix = package + "."
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return any(
        name.startswith(prefix) and str(getattr(module, "__file__", "")).endswith(suffixes)
        for name, module in list(sys.modules.items())
    )
