"""Settings from the environment: embedded defaults, production checks, Celery wiring."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings

ROOT = Path(__file__).resolve().parents[2]
SERVICE_VARIABLES = ("DATABASE_URL", "CELERY_BROKER_URL", "DJANGO_ENV", "DJANGO_SECRET_KEY")


def run_python(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    """A fresh interpreter, so the settings are read from exactly this environment."""
    clean = {k: v for k, v in os.environ.items() if k not in SERVICE_VARIABLES}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "config.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess:
    return run_python(["manage.py", *args], env)


def settings_value(expression: str, **env: str) -> str:
    code = f"import django; django.setup(); from django.conf import settings; print({expression})"
    result = run_python(["-c", code], env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_embedded_defaults_are_sqlite_and_eager_celery(tmp_path):
    env = {"PYMTHEG_VAR_DIR": str(tmp_path / "var")}
    engine = settings_value("settings.DATABASES['default']['ENGINE']", **env)
    assert engine == "django.db.backends.sqlite3"
    assert settings_value("settings.DATABASES['default']['NAME']", **env) == str(
        tmp_path / "var" / "db.sqlite3"
    )
    assert (tmp_path / "var").is_dir()
    assert settings_value("settings.CELERY_TASK_ALWAYS_EAGER", **env) == "True"
    assert settings_value("settings.DEBUG", **env) == "True"


def test_the_environment_switches_to_postgresql_and_redis(tmp_path):
    env = {
        "DATABASE_URL": "postgres://someone@db.example:5433/cup",
        "CELERY_BROKER_URL": "redis://cache.example:6379/1",
    }
    assert settings_value("settings.DATABASES['default']['ENGINE']", **env) == (
        "django.db.backends.postgresql"
    )
    assert settings_value("settings.DATABASES['default']['PORT']", **env) == "5433"
    assert settings_value("settings.CELERY_TASK_ALWAYS_EAGER", **env) == "False"
    assert settings_value("settings.CELERY_BROKER_URL", **env) == "redis://cache.example:6379/1"


def test_check_deploy_is_clean_in_production(tmp_path):
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DJANGO_ENV="production",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_ALLOWED_HOSTS="cup.example.org",
        PYMTHEG_VAR_DIR=str(tmp_path),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


@pytest.mark.parametrize(
    "env, expected",
    [
        ({"DJANGO_ALLOWED_HOSTS": "x.org"}, "DJANGO_SECRET_KEY must be set"),
        ({"DJANGO_SECRET_KEY": "k" * 60}, "DJANGO_ALLOWED_HOSTS must be set"),
        ({"DJANGO_ENV": "staging"}, "DJANGO_ENV must be 'development' or 'production'"),
    ],
)
def test_production_refuses_to_start_half_configured(env, expected):
    result = run_manage("check", **{"DJANGO_ENV": "production", **env})
    assert result.returncode != 0
    assert expected in result.stderr


@pytest.mark.parametrize(
    "value, expected",
    [
        ("0", "SCORER_POLL_SECONDS must be 1 or more, not 0"),
        ("0.5", "SCORER_POLL_SECONDS must be a whole number, not '0.5'"),
    ],
)
def test_a_scorer_poll_that_would_flood_the_server_is_refused(value, expected):
    result = run_manage("check", DJANGO_ENV="development", SCORER_POLL_SECONDS=value)
    assert result.returncode != 0
    assert expected in result.stderr


def test_development_key_is_not_a_production_key():
    result = run_manage("check", "--deploy", DJANGO_ENV="development", DJANGO_ALLOWED_HOSTS="x.org")
    assert "security.W018" in result.stdout + result.stderr  # DEBUG on: not for deployment


@pytest.mark.services  # the configuration differs between the runs: checked in both
def test_celery_is_eager_exactly_when_there_is_no_broker():
    assert (settings.CELERY_BROKER_URL is None) == settings.CELERY_TASK_ALWAYS_EAGER


@pytest.mark.worker  # reads the app's own configuration: tasks are not forced in-process
def test_celery_app_reads_django_settings_and_finds_the_tasks():
    from config import celery_app

    celery_app.loader.import_default_modules()
    assert "tournaments.tasks.deal_boards_task" in celery_app.tasks
    assert "tournaments.tasks.draw_schedule_task" in celery_app.tasks
    assert celery_app.conf.task_always_eager == settings.CELERY_TASK_ALWAYS_EAGER
