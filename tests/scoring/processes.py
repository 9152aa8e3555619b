"""Real processes for the integration tests: a Celery worker (with beat) and a private Redis
server that a test may stop and start again, all on loopback."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.1)
    raise AssertionError(f"gave up after {seconds} s waiting for {what}")


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


class RedisServer:
    """A throw-away redis-server on its own port, keeping nothing on disk."""

    def __init__(self, port: int):
        self.port = port
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise AssertionError("redis-server is not installed (Debian package redis-server)")
        self.process = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: _port_open(self.port), 10, f"redis on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None
        wait_for(lambda: not _port_open(self.port), 10, "redis to stop")


@contextlib.contextmanager
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer(free_port())
    server.start()
    try:
        yield server
    finally:
        server.stop()


@contextlib.contextmanager
def celery_worker(
    *,
    broker: str,
    database_url: str,
    queue: str,
    cache_url: str = "",
    beat_seconds: int = 0,
    pool: str = "solo",
):
    """A real worker process (solo pool, or ``pool="prefork"`` with two children, as
    ``make serve`` runs it) on its own queue; with beat when asked. It shares the cache at
    ``cache_url`` with the test process (the pending-update marks live there)."""
    env = {
        **os.environ,
        "REDIS_CACHE_URL": cache_url,
        "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
        "CELERY_BROKER_URL": broker,
        "DATABASE_URL": database_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "STANDINGS_RECONCILE_SECONDS": str(beat_seconds or 15),
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    command = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        f"--pool={pool}",
        *(["--concurrency=2"] if pool == "prefork" else []),
        "--loglevel=INFO",
        "-Q",
        queue,
        "--without-gossip",
        "--without-mingle",
        "-n",
        f"{queue}@%h",
    ]
    if beat_seconds:
        command += ["-B", "-s", f"/tmp/celerybeat-{queue}"]
    log_path = Path(f"/tmp/celery-{queue}.log")
    with log_path.open("w") as log:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
    try:
        wait_for(
            lambda: "ready." in log_path.read_text(errors="replace") or process.poll() is not None,
            60,
            "the Celery worker to start",
        )
        if process.poll() is not None:
            raise AssertionError("the worker died:\n" + log_path.read_text(errors="replace"))
        yield process, log_path
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
