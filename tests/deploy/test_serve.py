"""``make serve`` (scripts/serve.py): its defaults, the three processes, and the supervisor
that starts, watches and stops them."""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
serve = runpy.run_path(str(ROOT / "scripts" / "serve.py"))
Supervisor = serve["Supervisor"]
# The functions' module globals (runpy's copy), where the restart delays are looked up.
supervisor_globals = Supervisor.wait.__globals__
ServeError = serve["ServeError"]

SLEEPER = [sys.executable, "-c", "import time; print('up', flush=True); time.sleep(120)"]


def test_loopback_defaults_and_overrides():
    env = serve["environment"]({"PATH": "/bin", "CELERY_BROKER_URL": "redis://other:6379/2"})
    assert env["DATABASE_URL"] == "postgres://postgres@127.0.0.1:5432/pymtheg"
    assert env["CELERY_BROKER_URL"] == "redis://other:6379/2"
    assert env["PORT"] == "8000" and env["PATH"] == "/bin"


def test_database_name():
    assert serve["database_name"]("postgres://u:p@h:5433/cup%20db") == "cup db"
    with pytest.raises(ServeError, match="must be a postgres"):
        serve["database_name"]("sqlite:///var/db.sqlite3")
    with pytest.raises(ServeError, match="names no database"):
        serve["database_name"]("postgres://u@h:5432/")


def test_the_stack_is_web_worker_and_beat():
    commands = dict(serve["stack"]("8123"))
    assert list(commands) == ["web", "worker", "beat"]
    assert commands["web"][-1] == "config.wsgi" and "127.0.0.1:8123" in commands["web"]
    assert "deploy/gunicorn.conf.py" in commands["web"]
    assert commands["worker"][1:4] == ["-A", "config", "worker"]
    assert commands["beat"][1:4] == ["-A", "config", "beat"]
    for command in commands.values():
        assert Path(command[0]).name in ("gunicorn", "celery")


def test_stop_ends_every_process(capfd):
    supervisor = Supervisor([("one", SLEEPER), ("two", SLEEPER)], os.environ)
    supervisor.start()
    try:
        supervisor.stopping.set()
        assert supervisor.wait() == 0
    finally:
        supervisor.stop(seconds=10)
    assert all(child.process.poll() is not None for child in supervisor.children)


def test_one_that_stops_is_started_again_and_the_others_go_on(capfd, monkeypatch):
    monkeypatch.setitem(supervisor_globals, "RESTART_FIRST_SECONDS", 0.1)
    quick = [sys.executable, "-c", "print('done', flush=True)"]
    supervisor = Supervisor([("sleepy", SLEEPER), ("quick", quick)], os.environ)
    supervisor.start()
    sleepy = supervisor.children[0].process
    timer = threading.Timer(2.0, supervisor.stopping.set)
    timer.start()
    try:
        assert supervisor.wait(poll_seconds=0.05) == 0
    finally:
        timer.cancel()
        supervisor.stop(seconds=10)
    assert supervisor.children[0].process is sleepy  # never stopped, never restarted
    out, err = capfd.readouterr()
    assert out.count("quick  | done") >= 3  # started, then again, and again
    assert "serve: quick stopped (exit status 0); starting it again in 0.1 s" in err
    assert "starting it again in 0.2 s" in err  # the wait doubles while it keeps stopping
    assert supervisor.children[1].restarts >= 2


def test_a_process_that_ignores_sigterm_is_killed(tmp_path):
    ready = tmp_path / "ready"
    stubborn = [
        sys.executable,
        "-c",
        "import pathlib, signal, sys, time; signal.signal(signal.SIGTERM, signal.SIG_IGN); "
        "pathlib.Path(sys.argv[1]).touch(); time.sleep(120)",
        str(ready),
    ]
    supervisor = Supervisor([("stubborn", stubborn)], os.environ)
    supervisor.start()
    for _ in range(600):  # until it has installed its handler
        if ready.exists():
            break
        time.sleep(0.05)
    supervisor.stop(seconds=0.5)
    assert supervisor.children[0].process.returncode == -signal.SIGKILL


@pytest.mark.integration
def test_the_database_is_created_once():
    """Against the PostgreSQL of the service run (DATABASE_URL)."""
    import psycopg

    url = os.environ["DATABASE_URL"].rsplit("/", 1)[0] + f"/serve_test_{uuid.uuid4().hex[:8]}"
    name = serve["database_name"](url)
    try:
        assert serve["ensure_database"](url) is True
        assert serve["ensure_database"](url) is False
    finally:
        arguments = serve["_connection_arguments"](url, "postgres")
        with psycopg.connect(**arguments, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{name}"')


def test_an_unreachable_database_is_explained():
    with pytest.raises(ServeError, match=r"PostgreSQL at 127\.0\.0\.1:1: .*start it"):
        serve["ensure_database"]("postgres://nobody@127.0.0.1:1/pymtheg")
    with pytest.raises(ServeError, match=r"Redis at 127\.0\.0\.1:1: .*start it"):
        serve["check_redis"]("redis://127.0.0.1:1/0")
