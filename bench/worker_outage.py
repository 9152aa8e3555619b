"""The Celery worker through Redis outages under load, as ``make serve`` runs it (prefork, two
children): a private redis-server is stopped and started again OUTAGES times while the worker
has a queue of tasks and holds messages due later; for each outage it prints whether the
worker lived, and how long after Redis came back it was connected again and had done a task
sent after the return. Target: alive, reconnected within 2 s. Figures only.
Needs PostgreSQL (DATABASE_URL, default postgres://postgres@127.0.0.1:5432/pymtheg_bench) and
redis-server. Run: .venv/bin/python bench/worker_outage.py [OUTAGES] [SECONDS_DOWN]
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def wait_for(condition, seconds: float) -> float | None:
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.02)
    return None


class Redis:
    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                *(shutil.which("redis-server") or "redis-server", "--port", str(self.port)),
                *("--bind", "127.0.0.1", "--save", "", "--appendonly", "no"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for(lambda: port_open(self.port), 10)

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


def main() -> int:
    outages = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    down_seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 5.0
    database_url = os.environ.get(
        "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pymtheg_bench"
    )
    redis = Redis()
    redis.start()
    broker = f"redis://127.0.0.1:{redis.port}/0"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": broker,
        "REDIS_CACHE_URL": f"redis://127.0.0.1:{redis.port}/1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    os.environ.update(env)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    import django

    django.setup()
    from config.celery import app
    from scoring.tasks import reconcile_standings

    log_path = Path(tempfile.mkstemp(prefix="worker-outage-", suffix=".log")[1])
    with log_path.open("w") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--loglevel=INFO"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )

    def text() -> str:
        return log_path.read_text(errors="replace")

    def send(count: int, countdown: int = 0):
        with app.connection_for_write(broker) as connection:
            return [
                reconcile_standings.apply_async(connection=connection, countdown=countdown or None)
                for _ in range(count)
            ][-1]

    print(f"worker log: {log_path}")
    try:
        wait_for(lambda: " ready." in text(), 60)
        for number in range(1, outages + 1):
            send(300)
            send(3, countdown=120)  # held unacknowledged while the worker waits on the queue
            time.sleep(1.0)
            held = text().count("Restoring")
            redis.stop()
            time.sleep(down_seconds)
            alive_down = worker.poll() is None
            connected = text().count("Connected to redis://")
            redis.start()
            reconnect = wait_for(lambda n=connected: text().count("Connected to redis://") > n, 30)
            sent = send(1)
            done = wait_for(lambda tag=f"[{sent.id}] succeeded": tag in text(), 30)
            restored = text().count("Restoring") > held
            state = "alive" if alive_down and worker.poll() is None else "DEAD"
            again = "never" if reconnect is None else f"{reconnect:.2f} s after Redis came back"
            task = "never" if done is None else f"{done:.2f} s after"
            print(
                f"outage {number}: {down_seconds:g} s down; worker {state}; held messages "
                f"restored at the loss: {'yes' if restored else 'no'}; connected again: "
                f"{again}; a task sent then done: {task}"
            )
        crashes = len(re.findall(r"Unrecoverable error", text()))
        print(f"unrecoverable errors in the worker's log: {crashes}")
    finally:
        os.killpg(worker.pid, signal.SIGTERM)
        worker.wait(30)
        redis.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
