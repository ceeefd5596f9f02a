#!/usr/bin/env python3
"""One entry point for people and CI: ``python3 dev.py run`` and ``python3 dev.py test``.

Standard library only, so it works on a bare machine with Python 3.11:

* creates ``.venv`` (or ``$VENV_DIR``) and installs the locked, hash-checked requirements
  (again only when ``requirements/dev.txt`` changes);
* ``run``: migrates, creates the demo account (credentials printed) and serves the site on
  ``http://127.0.0.1:$PORT`` with a task worker and the periodic scheduler. Without
  ``REDIS_URL`` all three run inside one process (``manage.py serve``); with it they are
  three processes (uvicorn, celery worker, celery beat). Ctrl-C stops everything;
* ``test``: runs the whole pytest suite (extra arguments go to pytest).
"""

from __future__ import annotations

import hashlib
import os
import signal
import subprocess
import sys
import time
import venv
from pathlib import Path

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


def manage(*args: str, env: dict[str, str]) -> None:
    subprocess.run([str(PY), str(ROOT / "manage.py"), *args], check=True, env=env, cwd=ROOT)


def base_env() -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "colorado.settings")
    env.setdefault("PYTHONUNBUFFERED", "1")
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    return env


def run() -> int:
    ensure_env()
    env = base_env()
    port = env.setdefault("PORT", "8000")
    manage("migrate", "--noinput", env=env)
    manage("ensure_demo", env=env)
    if not env.get("REDIS_URL"):
        say(
            f"embedded mode (no REDIS_URL): web, worker and scheduler in one process on port {port}"
        )
        proc = subprocess.Popen(
            [str(PY), str(ROOT / "manage.py"), "serve", "--port", port], env=env, cwd=ROOT
        )
        try:
            return proc.wait()
        except KeyboardInterrupt:
            proc.send_signal(signal.SIGINT)
            return proc.wait()
    say(f"Redis mode: uvicorn, celery worker and celery beat; site on http://127.0.0.1:{port}")
    data_dir = Path(env.get("DATA_DIR", ROOT / "var"))
    data_dir.mkdir(parents=True, exist_ok=True)
    commands = [
        [
            str(BIN / "uvicorn"),
            "colorado.asgi:application",
            "--host",
            env.get("HOST", "127.0.0.1"),
            "--port",
            port,
            "--lifespan",
            "off",
        ],
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
    ]
    procs = [subprocess.Popen(cmd, env=env, cwd=ROOT) for cmd in commands]
    try:
        while all(p.poll() is None for p in procs):
            time.sleep(0.5)
        say("a process stopped; stopping the others")
    except KeyboardInterrupt:
        say("stopping")
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 15
    for p in procs:
        try:
            p.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
    return 0


def test(args: list[str]) -> int:
    ensure_env()
    env = base_env()
    env.setdefault("DJANGO_ENV", "test")
    return subprocess.call([str(PY), "-m", "pytest", *args], env=env, cwd=ROOT)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in {"run", "test", "install"}:
        print(__doc__)
        print("usage: python3 dev.py run | test [pytest args] | install")
        return 2
    if argv[0] == "run":
        return run()
    if argv[0] == "install":
        ensure_env()
        return 0
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
