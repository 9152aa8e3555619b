#!/usr/bin/env python
"""Run the whole stack on this machine without Docker (``make serve``).

Against the PostgreSQL and Redis of this machine it creates the database if it is missing,
migrates, then starts and watches three processes: the web application (gunicorn, with
deploy/gunicorn.conf.py), a Celery worker and Celery beat. Their output is shown with the
name of each in front. Ctrl-C (or SIGTERM) stops all three. One that stops by itself (a
crash, a worker that lost its broker for good) is started again after 1 s, then 2, 4 ... up to
30 s if it keeps stopping soon after each start; the others go on serving.

Addresses come from the environment, with loopback defaults:
``DATABASE_URL`` (postgres://postgres@127.0.0.1:5432/pymtheg), ``CELERY_BROKER_URL``
(redis://127.0.0.1:6379/0), ``PORT`` (8000). Settings stay in development mode (DEBUG on,
static files served by the application), so no certificate is needed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DEFAULTS = {
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/pymtheg",
    "CELERY_BROKER_URL": "redis://127.0.0.1:6379/0",
    "PORT": "8000",
    "WEB_CONCURRENCY": "2",
}
STOP_SECONDS = 15
TIMEOUT_SECONDS = 3
RESTART_FIRST_SECONDS = 1.0
RESTART_LONGEST_SECONDS = 30.0
# A child that ran this long before stopping is started again without delay building up.
STEADY_SECONDS = 60.0


class ServeError(Exception):
    """The stack cannot start; the message says what to do."""


def environment(base: Mapping[str, str]) -> dict[str, str]:
    env = dict(base)
    for name, value in DEFAULTS.items():
        if not env.get(name):
            env[name] = value
    return env


def _connection_arguments(url: str, dbname: str) -> dict[str, object]:
    parts = urlsplit(url)
    return {
        "host": parts.hostname or "127.0.0.1",
        "port": parts.port or 5432,
        "user": unquote(parts.username) if parts.username else None,
        "password": unquote(parts.password) if parts.password else None,
        "dbname": dbname,
        "connect_timeout": TIMEOUT_SECONDS,
    }


def database_name(url: str) -> str:
    parts = urlsplit(url)
    if parts.scheme not in ("postgres", "postgresql"):
        raise ServeError(f"DATABASE_URL must be a postgres:// address for serve, not {url!r}")
    name = unquote(parts.path.lstrip("/"))
    if not name:
        raise ServeError("DATABASE_URL names no database (postgres://user@host:5432/NAME)")
    return name


def ensure_database(url: str) -> bool:
    """Create the database of ``url`` if it does not exist. True if it was created."""
    import psycopg
    from psycopg import sql

    name = database_name(url)
    try:
        with psycopg.connect(**_connection_arguments(url, "postgres"), autocommit=True) as db:
            if db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                return False
            db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            return True
    except psycopg.Error as exc:
        parts = urlsplit(url)
        raise ServeError(
            f"PostgreSQL at {parts.hostname}:{parts.port or 5432}: {' '.join(str(exc).split())} "
            "(start it, or set DATABASE_URL)"
        ) from None


def check_redis(url: str) -> None:
    import redis

    try:
        redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        ).ping()
    except redis.RedisError as exc:
        raise ServeError(
            f"Redis at {urlsplit(url).netloc}: {exc} (start it, or set CELERY_BROKER_URL)"
        ) from None


def schedule_file(env: Mapping[str, str]) -> Path:
    """Beat's schedule file, in the product's var folder (``PYMTHEG_VAR_DIR`` or var/)."""
    return Path(env.get("PYMTHEG_VAR_DIR") or ROOT / "var") / "celerybeat-schedule"


def stack(port: str, schedule: Path | None = None) -> list[tuple[str, list[str]]]:
    """The three processes: (name, command)."""
    schedule = schedule or schedule_file({})
    return [
        (
            "web",
            [
                str(BIN / "gunicorn"),
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"127.0.0.1:{port}",
                "config.wsgi",
            ],
        ),
        (
            "worker",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--loglevel=INFO",
                "--prefetch-multiplier=1",
            ],
        ),
        (
            "beat",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "beat",
                "--loglevel=INFO",
                f"--schedule={schedule}",
            ],
        ),
    ]


@dataclass
class Child:
    name: str
    command: list[str]
    process: subprocess.Popen
    started_at: float
    restarts: int = 0  # in a row, each soon after its start
    restart_at: float | None = None  # when it is to be started again, once it stopped


class Supervisor:
    """Starts processes, prefixes their output with their names, starts again one that stops,
    and stops them all together."""

    def __init__(self, commands: Sequence[tuple[str, list[str]]], env: Mapping[str, str]):
        self.commands = list(commands)
        self.env = dict(env)
        self.children: list[Child] = []
        self.stopping = threading.Event()
        self.width = max((len(name) for name, _ in self.commands), default=0)

    def start(self) -> None:
        for name, command in self.commands:
            self.children.append(Child(name, command, self._spawn(name, command), time.monotonic()))

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
            # Its own session: Ctrl-C reaches only this script, which stops the children
            # in order instead of all of them at once.
            start_new_session=True,
        )
        threading.Thread(target=self._relay, args=(name, process), daemon=True).start()
        return process

    def _relay(self, name: str, process: subprocess.Popen) -> None:
        for line in process.stdout:
            sys.stdout.write(f"{name:<{self.width}} | {line}")
            sys.stdout.flush()

    def wait(self, poll_seconds: float = 0.5) -> int:
        """Watch the children until a stop is asked for (then 0), starting again any that
        stops by itself."""
        while not self.stopping.is_set():
            now = time.monotonic()
            for child in self.children:
                if child.restart_at is None and child.process.poll() is not None:
                    self._schedule_restart(child, now)
                elif child.restart_at is not None and now >= child.restart_at:
                    child.process = self._spawn(child.name, child.command)
                    child.started_at, child.restart_at = now, None
            self.stopping.wait(poll_seconds)
        return 0

    def _schedule_restart(self, child: Child, now: float) -> None:
        if now - child.started_at >= STEADY_SECONDS:
            child.restarts = 0
        delay = min(RESTART_LONGEST_SECONDS, RESTART_FIRST_SECONDS * 2**child.restarts)
        child.restarts += 1
        child.restart_at = now + delay
        print(
            f"serve: {child.name} stopped (exit status {child.process.returncode}); "
            f"starting it again in {delay:g} s",
            file=sys.stderr,
        )

    def stop(self, seconds: float = STOP_SECONDS) -> None:
        for child in self.children:
            if child.process.poll() is None:
                os.killpg(child.process.pid, signal.SIGTERM)
        deadline = time.monotonic() + seconds
        for child in self.children:
            try:
                child.process.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"serve: {child.name} did not stop in time; killing it", file=sys.stderr)
                os.killpg(child.process.pid, signal.SIGKILL)
                child.process.wait()


def prepare(env: Mapping[str, str]) -> None:
    if ensure_database(env["DATABASE_URL"]):
        print(f"serve: created the database {database_name(env['DATABASE_URL'])!r}")
    check_redis(env["CELERY_BROKER_URL"])
    # Beat's schedule file goes there; a fresh clone has no var/ folder yet.
    schedule_file(env).parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env, check=True
    )


def main() -> int:
    env = environment(os.environ)
    try:
        prepare(env)
    except ServeError as exc:
        print(f"serve: {exc}", file=sys.stderr)
        return 2
    except subprocess.CalledProcessError as exc:
        print(f"serve: migrate failed (exit status {exc.returncode})", file=sys.stderr)
        return 2
    supervisor = Supervisor(stack(env["PORT"], schedule_file(env)), env)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: supervisor.stopping.set())
    supervisor.start()
    print(
        f"serve: web on http://127.0.0.1:{env['PORT']}/, a Celery worker and beat; "
        "Ctrl-C stops them all",
        file=sys.stderr,
    )
    status = supervisor.wait()
    supervisor.stop()
    print("serve: stopped", file=sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
