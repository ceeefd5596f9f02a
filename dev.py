#!/usr/bin/env python3
"""One entry point for people and CI: ``python3 dev.py run`` and ``python3 dev.py test``.

Standard library only, so it works on a bare machine with Python 3.11:

* creates ``.venv`` (or ``$VENV_DIR``) and installs the locked, hash-checked requirements
  (again only when ``requirements/dev.txt`` changes), and compiles the engine's hot modules
  with mypyc into ``build/engine/`` (again only when they change; interpreted if it cannot);
* ``run``: migrates, creates the demo account (credentials printed) and serves the site on
  ``http://127.0.0.1:$PORT`` with a task worker and the periodic scheduler. Without
  ``REDIS_URL`` all three run inside one process (``manage.py serve``); with it they are
  three processes (uvicorn, celery worker, celery beat), and one that dies is started again
  (after a wait that grows while it keeps dying at once). Ctrl-C or SIGTERM stops everything;
* ``test``: runs the whole pytest suite (extra arguments go to pytest), spread over one
  pytest-xdist worker per processor (``TEST_WORKERS=N`` for another number, ``0`` for one
  process).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = Path(os.environ.get("VENV_DIR", ROOT / ".venv")).resolve()
LOCK = ROOT / "requirements" / "dev.txt"
BIN = VENV / "bin"
PY = BIN / "python"


def say(text: str) -> None:
    print(f"[dev] {text}", flush=True)


def ensure_env() -> None:
    if sys.version_info[:2] != (3, 11):
        say(f"warning: this project targets Python 3.11; you are running {sys.version.split()[0]}")
    if not PY.exists():
        say(f"creating the virtual environment in {VENV}")
        venv.EnvBuilder(with_pip=True, clear=False).create(VENV)
    digest = hashlib.sha256(LOCK.read_bytes()).hexdigest()
    stamp = VENV / ".requirements.sha256"
    if stamp.exists() and stamp.read_text().strip() == digest:
        return
    say("installing the locked requirements (hash-checked)")
    subprocess.run(
        [
            str(PY),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--require-hashes",
            "--no-deps",
            "-r",
            str(LOCK),
        ],
        check=True,
    )
    stamp.write_text(digest)


def ensure_test_tools() -> None:
    """The tests' npm tools (``package.json``: axe-core for the accessibility audit), as
    ``package-lock.json`` pins them (again only when the lock changes). Without npm the
    audit's test says what is missing."""
    lock = ROOT / "package-lock.json"
    npm = shutil.which("npm")
    if not lock.exists() or npm is None:
        return
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()
    stamp = ROOT / "node_modules" / ".lock.sha256"
    if stamp.exists() and stamp.read_text().strip() == digest:
        return
    say("installing the tests' npm tools (npm ci)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts"], cwd=ROOT, check=True)
    stamp.write_text(digest)


def compile_catalogues() -> None:
    """Compile the translation catalogues (``locale/*/LC_MESSAGES/*.po``) whose ``.mo`` is
    missing or out of date; standard library only, so no GNU gettext is needed."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts" / "catalogues.py")
    if spec is None or spec.loader is None:
        raise SystemExit("scripts/catalogues.py is missing")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    if module.compile_all():
        say("compiled the translation catalogues")


def build_engine() -> None:
    """Compile the engine's hot modules (``scripts/build_engine.py``; nothing to do when a
    build of the current sources exists). Without a C compiler the engine runs interpreted,
    unless ``ENGINE_NATIVE=1`` asks for the compiled one."""
    done = subprocess.run([str(PY), str(ROOT / "scripts" / "build_engine.py")], cwd=ROOT)
    if done.returncode != 0 and os.environ.get("ENGINE_NATIVE", "").strip() == "1":
        raise SystemExit("ENGINE_NATIVE=1 but the compiled engine could not be built")


def server_options() -> Any:
    """``colorado/server_options.py`` (standard library only), loaded by path: the web
    server's options, the same as ``manage.py serve``'s and the README's."""
    import importlib.util

    path = ROOT / "colorado" / "server_options.py"
    spec = importlib.util.spec_from_file_location("server_options", path)
    if spec is None or spec.loader is None:
        raise SystemExit("colorado/server_options.py is missing")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([str(PY), str(ROOT / "manage.py"), *args], check=True, env=env, cwd=ROOT)


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    env.setdefault("PYTHONUNBUFFERED", "1")
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


#: A part of the services mode that dies is started again after RESTART_DELAY seconds; if it
#: dies again within STABLE_SECONDS of starting, the wait doubles each time up to
#: RESTART_DELAY_MAX, so a part that cannot start (port taken, broker down) is retried calmly
#: instead of spinning.
RESTART_DELAY = 1.0
RESTART_DELAY_MAX = 30.0
STABLE_SECONDS = 30.0
#: On Ctrl-C or SIGTERM each part gets the signal, then this long to stop before it is killed.
STOP_SECONDS = 15.0


class Stop:
    """Turns Ctrl-C, SIGTERM and SIGHUP into a flag the supervising loop reads.

    The parts run in process groups of their own (so a dead worker's pool processes can be
    cleaned up with it); a terminal's Ctrl-C or hang-up therefore reaches only this process,
    which forwards it. Without the handler a SIGTERM would end this process and leave the
    parts running."""

    def __init__(self) -> None:
        self.signum: int | None = None
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(signum, self._note)

    def _note(self, signum: int, _frame: object) -> None:
        self.signum = signum


class Part:
    """One process of the run command, started at once in a process group of its own."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.name = name
        self.command = command
        self.env = env
        self.delay = 0.0  # the wait before the last restart
        self.restart_at: float | None = None
        self.proc = self._spawn()

    def _spawn(self) -> subprocess.Popen[bytes]:
        self.started = time.monotonic()
        return subprocess.Popen(self.command, env=self.env, cwd=ROOT, process_group=0)

    def restart(self) -> None:
        self.proc = self._spawn()
        self.restart_at = None
        say(f"{self.name} started again (pid {self.proc.pid})")

    def next_delay(self, now: float) -> float:
        """The wait before restarting: short after a run that lasted, doubling while the part
        keeps dying at once."""
        if self.delay == 0 or now - self.started >= STABLE_SECONDS:
            self.delay = RESTART_DELAY
        else:
            self.delay = min(RESTART_DELAY_MAX, self.delay * 2)
        return self.delay

    def kill_group(self) -> None:
        """Kill what is left of the part's process group (a killed celery worker leaves its
        pool processes behind, still holding tasks)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)


def stop_parts(parts: list[Part], signum: int) -> None:
    """Pass ``signum`` on to every part, wait up to STOP_SECONDS, then kill what is left."""
    for part in parts:
        if part.proc.poll() is None:
            part.proc.send_signal(signum)
    deadline = time.monotonic() + STOP_SECONDS
    for part in parts:
        try:
            part.proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            say(f"{part.name} did not stop within {STOP_SECONDS:g} s; killing it")
        part.kill_group()
        part.proc.wait()


def forwarded(signum: int) -> int:
    """The signal the parts get: Ctrl-C stays Ctrl-C, SIGTERM and a hang-up become SIGTERM."""
    return signal.SIGINT if signum == signal.SIGINT else signal.SIGTERM


def supervise(parts: list[Part], stop: Stop) -> int:
    """Run ``parts`` until Ctrl-C or SIGTERM, restarting any that exits meanwhile."""
    while stop.signum is None:
        now = time.monotonic()
        for part in parts:
            if part.restart_at is not None:
                if now >= part.restart_at:
                    part.restart()
                continue
            code = part.proc.poll()
            if code is None:
                continue
            part.kill_group()
            delay = part.next_delay(now)
            say(f"{part.name} exited with code {code}; restarting it in {delay:g} s")
            part.restart_at = now + delay
        time.sleep(0.2)
    say("stopping")
    stop_parts(parts, forwarded(stop.signum))
    return 0


def web_server(env: dict[str, str]) -> list[str]:
    """The web server's command: uvicorn, or with ``WEB_WORKERS`` above 1 that many uvicorn
    processes on the port, a socket each (``colorado.web_workers``: the kernel spreads the
    sockets over them evenly, and with a worker per processor each keeps to its own unless
    ``WEB_CPU_AFFINITY`` is ``none``; docs/server.md)."""
    workers = env.get("WEB_WORKERS", "1")
    if not workers.isdigit() or int(workers) < 1:
        sys.exit(f"WEB_WORKERS must be a whole number of processes, not {workers!r}")
    affinity = env.get("WEB_CPU_AFFINITY", "auto").strip().lower() or "auto"
    if affinity not in ("auto", "none"):
        sys.exit(f"WEB_CPU_AFFINITY must be auto or none, not {affinity!r}")
    if int(workers) == 1:
        return [str(BIN / "uvicorn")]
    return [
        str(PY), "-m", "colorado.web_workers", "--workers", workers, "--cpu-affinity", affinity
    ]  # fmt: skip


def run() -> int:
    ensure_env()
    compile_catalogues()
    build_engine()
    env = base_env()
    port = env.setdefault("PORT", "8000")
    manage("migrate", "--noinput", env=env)
    manage("ensure_demo", env=env)
    stop = Stop()
    if not env.get("REDIS_URL"):
        say(
            f"embedded mode (no REDIS_URL): web, worker and scheduler in one process on port {port}"
        )
        serve = Part(
            "manage.py serve", [str(PY), str(ROOT / "manage.py"), "serve", "--port", port], env
        )
        while stop.signum is None and serve.proc.poll() is None:
            time.sleep(0.2)
        if stop.signum is not None:
            stop_parts([serve], forwarded(stop.signum))
        return serve.proc.wait()
    say(f"Redis mode: uvicorn, celery worker and celery beat; site on http://127.0.0.1:{port}")
    data_dir = Path(env.get("DATA_DIR", ROOT / "var"))
    data_dir.mkdir(parents=True, exist_ok=True)
    parts = [
        Part(
            "uvicorn",
            [
                *web_server(env),
                "colorado.asgi:application",
                "--host",
                env.get("HOST", "127.0.0.1"),
                "--port",
                port,
                "--lifespan",
                "off",
                # No proxy headers (the client address is decided once, by the site), no
                # per-message deflate, the socket frame limit, the slow-client time limits:
                # colorado/server_options.py, shared with manage.py serve and the README.
                *server_options().uvicorn_arguments(),
            ],
            env,
        ),
        Part(
            "celery worker",
            [
                str(BIN / "celery"),
                "-A",
                "colorado",
                "worker",
                "--loglevel",
                "INFO",
                "--concurrency",
                "2",
            ],
            env,
        ),
        Part(
            "celery beat",
            [
                str(BIN / "celery"),
                "-A",
                "colorado",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                str(data_dir / "celerybeat-schedule"),
            ],
            env,
        ),
    ]
    return supervise(parts, stop)


#: pytest options that choose how the tests are spread (or that need one process): given
#: any (or ``-p no:xdist``), ``test`` adds none of its own.
XDIST_CHOICES = ("-n", "--numprocesses", "--dist", "--pdb", "--trace")


#: The suite's tests wait on what they start (servers, browsers, workers, sockets) for
#: much of their time: with one worker per processor the two cores were idle for about a
#: quarter of a run (vmstat); two per processor ran the services pass in 782 s instead of
#: 915 s on the same machine, the same hour (2026-12-07).
WORKERS_PER_PROCESSOR = 2


def parallel_args(args: list[str], env: dict[str, str]) -> list[str]:
    """pytest-xdist's options for ``test``: ``TEST_WORKERS`` processes (``auto``:
    ``WORKERS_PER_PROCESSOR`` per processor), each with a test database of its own; the
    tests of one ``xdist_group`` (a module's private servers, the fault drills) run in one
    process, one after another
    (``--dist loadgroup``). None when the arguments already say how to run, or with
    ``TEST_WORKERS=0`` (one process, as plain pytest)."""
    workers = env.get("TEST_WORKERS", "auto").strip() or "auto"
    if workers != "auto" and not workers.isdigit():
        sys.exit(f"TEST_WORKERS must be a number of processes or auto, not {workers!r}")
    chosen = any(a.startswith(XDIST_CHOICES) or a.endswith("no:xdist") for a in args)
    if workers == "0" or chosen:
        return []
    if workers == "auto":
        workers = str(WORKERS_PER_PROCESSOR * (os.cpu_count() or 1))
    return ["-n", workers, "--dist", "loadgroup"]


def test(args: list[str]) -> int:
    ensure_env()
    ensure_test_tools()
    compile_catalogues()
    build_engine()
    env = base_env()
    env.setdefault("DJANGO_ENV", "test")
    pytest_args = [*parallel_args(args, env), *args]
    return subprocess.call([str(PY), "-m", "pytest", *pytest_args], env=env, cwd=ROOT)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "install"}:
        print(__doc__)
        print("usage: python3 dev.py run | test [pytest args] | install")
        return 2
    if argv[0] == "run":
        return run()
    if argv[0] == "install":
        ensure_env()
        ensure_test_tools()
        compile_catalogues()
        build_engine()
        return 0
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
