"""``make serve`` on a fresh clone runs beat: its schedule file's folder is made before beat
starts (a clone has no var/), and beat is given the file by its full path."""

from __future__ import annotations

import runpy
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
serve = runpy.run_path(str(ROOT / "scripts" / "serve.py"))


def test_beat_gets_its_schedule_file_by_full_path(tmp_path):
    schedule = serve["schedule_file"]({"PYMTHEG_VAR_DIR": str(tmp_path / "var")})
    assert schedule == tmp_path / "var" / "celerybeat-schedule"
    beat = dict(serve["stack"]("8123", schedule))["beat"]
    assert f"--schedule={schedule}" in beat
    default = dict(serve["stack"]("8123"))["beat"]
    assert f"--schedule={ROOT / 'var' / 'celerybeat-schedule'}" in default


def test_prepare_makes_the_schedule_folder(tmp_path, monkeypatch):
    var = tmp_path / "fresh-clone" / "var"
    prepare_globals = serve["prepare"].__globals__
    monkeypatch.setitem(prepare_globals, "ensure_database", lambda url: False)
    monkeypatch.setitem(prepare_globals, "check_redis", lambda url: None)
    ran = []
    monkeypatch.setattr(subprocess, "run", lambda *args, **kwargs: ran.append(args))
    env = {"DATABASE_URL": "postgres://h/db", "CELERY_BROKER_URL": "redis://h/0"}
    serve["prepare"]({**env, "PYMTHEG_VAR_DIR": str(var)})
    assert var.is_dir()
    assert ran and ran[0][0][:2] == [sys.executable, "manage.py"]
