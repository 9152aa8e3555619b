"""The production files in deploy/: what can be checked without Docker, nginx or systemd
running (Compose's services and health checks, the image, gunicorn's configuration, the
systemd units, the Procfile, nginx's configuration, the health-check script)."""

from __future__ import annotations

import configparser
import re
import runpy
import shutil
import subprocess
import sys
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
APP_SERVICES = ("migrate", "web", "worker", "beat")


@pytest.fixture(scope="module")
def compose() -> dict:
    return yaml.safe_load((DEPLOY / "docker-compose.yml").read_text(encoding="utf-8"))


def health_test(service: dict) -> str:
    test = service["healthcheck"]["test"]
    return " ".join(test) if isinstance(test, list) else test


def test_compose_names_every_service(compose):
    assert set(compose["services"]) == {"db", "redis", "migrate", "web", "worker", "beat", "nginx"}


def test_compose_health_checks(compose):
    services = compose["services"]
    assert "pg_isready" in health_test(services["db"])
    assert "redis-cli ping" in health_test(services["redis"])
    assert "deploy/healthcheck.py" in health_test(services["web"])
    assert "celery -A config inspect ping" in health_test(services["worker"])
    assert "celerybeat-schedule" in health_test(services["beat"])
    assert "nginx-health" in health_test(services["nginx"])
    assert services["migrate"]["healthcheck"] == {"disable": True}


def test_compose_start_order(compose):
    services = compose["services"]
    migrate = services["migrate"]
    assert migrate["restart"] == "no"
    assert "migrate --noinput" in " ".join(migrate["command"])
    assert "collectstatic" in " ".join(migrate["command"])
    assert migrate["depends_on"]["db"]["condition"] == "service_healthy"
    for name in ("web", "worker", "beat"):
        condition = services[name]["depends_on"]["migrate"]["condition"]
        assert condition == "service_completed_successfully", name
    assert services["nginx"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_compose_application_settings(compose):
    for name in APP_SERVICES:
        service = compose["services"][name]
        env = service["environment"]
        assert env["DJANGO_ENV"] == "production"
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:")
        assert env["REDIS_CACHE_URL"].startswith("redis://redis:")
        assert env["DJANGO_BEHIND_PROXY"] == "true"
        assert service["env_file"] == ".env"
        assert service["build"]["dockerfile"] == "deploy/Dockerfile"


def test_compose_volumes_are_shared_where_needed(compose):
    services = compose["services"]

    def mounts(name: str) -> dict[str, str]:
        return dict(volume.split(":")[:2] for volume in services[name].get("volumes", []))

    # nginx serves what the migrate service collected; web and worker share export files.
    assert mounts("migrate")["static"] == "/app/staticfiles"
    assert mounts("nginx")["static"] == "/srv/static"
    assert mounts("web")["exports"] == mounts("worker")["exports"] == "/app/var/exports"
    assert mounts("nginx")["./nginx.conf"] == "/etc/nginx/conf.d/default.conf"
    assert set(compose["volumes"]) >= {"pgdata", "redisdata", "static", "exports"}
    assert "alias /srv/static/;" in (DEPLOY / "nginx.conf").read_text()


def test_every_compose_variable_is_in_the_example_env():
    text = (DEPLOY / "docker-compose.yml").read_text(encoding="utf-8")
    example = env_names(DEPLOY / "env.example")
    for name, default in re.findall(r"\$\{(\w+)(:-[^}]*)?", text):
        assert default or name in example, name
    assert {"DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS", "PUBLIC_BASE_URL"} <= example


def env_names(path: Path) -> set[str]:
    names = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.lstrip("# ").strip()
        if re.match(r"^[A-Z_]+=", line):
            names.add(line.split("=", 1)[0])
    return names


def test_dockerfile():
    text = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r"^FROM python:3\.11-slim$", text, re.M)
    assert "pip install -c constraints.txt ." in text
    assert "collectstatic --noinput" in text
    users = re.findall(r"^USER (\S+)$", text, re.M)
    assert users and users[-1] not in ("root", "0")
    assert (
        f"useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin {users[-1]}"
        in (" ".join(text.split()))
    )
    assert 'CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py", "config.wsgi"]' in text
    for line in re.findall(r"^COPY (.+)$", text, re.M):
        sources = line.split()[:-1]
        for source in sources:
            if source != ".":
                assert (ROOT / source).exists(), source
    ignored = (DEPLOY / "Dockerfile.dockerignore").read_text()
    assert ".venv" in ignored and "deploy/.env" in ignored


def test_gunicorn_check_config():
    done = subprocess.run(
        [
            str(BIN / "gunicorn"),
            "--check-config",
            "-c",
            "deploy/gunicorn.conf.py",
            "config.wsgi",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


@pytest.fixture(scope="module")
def gunicorn_conf() -> dict:
    return runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))


def test_gunicorn_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("PORT", "5001")
    monkeypatch.setenv("WEB_CONCURRENCY", "3")
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert (conf["bind"], conf["workers"], conf["worker_class"]) == ("0.0.0.0:5001", 3, "sync")
    monkeypatch.setenv("GUNICORN_THREADS", "4")
    conf = runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))
    assert (conf["threads"], conf["worker_class"]) == (4, "gthread")
    assert (conf["max_requests"], conf["max_requests_jitter"]) == (50_000, 5_000)
    monkeypatch.setenv("GUNICORN_MAX_REQUESTS", "0")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["max_requests"] == 0
    monkeypatch.setenv("GUNICORN_BIND", "127.0.0.1:8000")
    assert runpy.run_path(str(DEPLOY / "gunicorn.conf.py"))["bind"] == "127.0.0.1:8000"


def test_real_client_address_behind_a_trusted_proxy(gunicorn_conf):
    wrap = gunicorn_conf["RealClientAddress"]
    networks = gunicorn_conf["trusted_networks"]("127.0.0.1, 10.0.0.0/8")

    def through(peer: str, header: str | None) -> str:
        environ = {"REMOTE_ADDR": peer}
        if header is not None:
            environ["HTTP_X_REAL_IP"] = header
        seen = {}

        def app(environ, start_response):
            seen["addr"] = environ["REMOTE_ADDR"]
            return []

        wrap(app, networks)(environ, None)
        return seen["addr"]

    assert through("127.0.0.1", "203.0.113.7") == "203.0.113.7"
    assert through("10.1.2.3", "2001:db8::1") == "2001:db8::1"
    assert through("198.51.100.1", "203.0.113.7") == "198.51.100.1"  # not a proxy: ignored
    assert through("127.0.0.1", "not an address") == "127.0.0.1"
    assert through("127.0.0.1", None) == "127.0.0.1"
    assert gunicorn_conf["trusted_networks"]("") == []
    everyone = gunicorn_conf["trusted_networks"]("*")
    assert gunicorn_conf["_is_trusted"]("172.18.0.5", everyone)
    assert gunicorn_conf["_is_trusted"]("fd00::5", everyone)


def test_post_worker_init_wraps_only_with_trusted_proxies(gunicorn_conf, monkeypatch):
    class Worker:
        wsgi = object()

    plain = Worker()
    monkeypatch.delenv("TRUSTED_PROXIES", raising=False)
    gunicorn_conf["post_worker_init"](plain)
    assert plain.wsgi is Worker.wsgi
    monkeypatch.setenv("TRUSTED_PROXIES", "127.0.0.1")
    proxied = Worker()
    gunicorn_conf["post_worker_init"](proxied)
    assert isinstance(proxied.wsgi, gunicorn_conf["RealClientAddress"])


UNITS = ("pymtheg-web.service", "pymtheg-worker.service", "pymtheg-beat.service")


def read_unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(DEPLOY / "systemd" / name, encoding="utf-8")
    return parser


@pytest.mark.parametrize("name", UNITS)
def test_systemd_units(name):
    unit = read_unit(name)
    assert set(unit.sections()) == {"Unit", "Service", "Install"}
    service = unit["Service"]
    assert service["User"] == "pymtheg"
    assert service["EnvironmentFile"] == "/etc/pymtheg/pymtheg.env"
    assert service["WorkingDirectory"] == "/opt/pymtheg"
    assert service["ExecStart"].startswith("/opt/pymtheg/.venv/bin/")
    assert service["Restart"] == "always"
    assert unit["Install"]["WantedBy"] == "multi-user.target"
    role = name.removeprefix("pymtheg-").removesuffix(".service")
    expected = {"web": "gunicorn -c deploy/gunicorn.conf.py config.wsgi"}.get(
        role, f"celery -A config {role}"
    )
    assert expected in service["ExecStart"]


@pytest.mark.skipif(not shutil.which("systemd-analyze"), reason="systemd-analyze not installed")
def test_systemd_analyze_verify(tmp_path):
    """The units as systemd reads them, with this checkout standing in for /opt/pymtheg."""
    for name in UNITS:
        text = (DEPLOY / "systemd" / name).read_text(encoding="utf-8")
        text = text.replace("/opt/pymtheg/.venv", str(BIN.parent))
        text = text.replace("/etc/pymtheg/pymtheg.env", str(DEPLOY / "systemd/pymtheg.env.example"))
        (tmp_path / name).write_text(text, encoding="utf-8")
    done = subprocess.run(
        ["systemd-analyze", "verify", *(str(tmp_path / name) for name in UNITS)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "Unknown key" not in done.stderr and "Unknown section" not in done.stderr


def test_systemd_env_example_names_the_production_settings():
    names = env_names(DEPLOY / "systemd" / "pymtheg.env.example")
    assert {
        "DJANGO_ENV",
        "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "REDIS_CACHE_URL",
        "PUBLIC_BASE_URL",
        "DJANGO_BEHIND_PROXY",
        "TRUSTED_PROXIES",
    } <= names


def test_procfile():
    processes = dict(
        line.split(":", 1)
        for line in (DEPLOY / "Procfile").read_text(encoding="utf-8").splitlines()
        if line.strip()
    )
    assert set(processes) == {"release", "web", "worker", "beat"}
    assert "manage.py migrate" in processes["release"]
    assert "gunicorn -c deploy/gunicorn.conf.py config.wsgi" in processes["web"]
    assert "celery -A config worker" in processes["worker"]
    assert "celery -A config beat" in processes["beat"]


NGINX_FILES = (DEPLOY / "nginx.conf", DEPLOY / "systemd" / "pymtheg-nginx.conf")


@pytest.mark.parametrize("path", NGINX_FILES, ids=lambda p: p.name)
def test_nginx_configuration(path):
    text = path.read_text(encoding="utf-8")
    code = "\n".join(line.split("#", 1)[0] for line in text.splitlines())
    assert code.count("{") == code.count("}")
    for line in code.splitlines():
        line = line.strip()
        if line and not line.endswith(("{", "}")):
            assert line.endswith(";"), line
    assert "location /static/" in code and "gzip_static on;" in code
    assert "proxy_set_header X-Real-IP $remote_addr;" in code
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in code
    assert "return 301 https://$host$request_uri;" in code
    upstream = "server web:8000;" if path.name == "nginx.conf" else "server 127.0.0.1:8000;"
    assert upstream in code


def test_nginx_caches_hashed_static_names_for_a_year():
    text = (DEPLOY / "nginx.conf").read_text(encoding="utf-8")
    pattern = re.search(r'"~(.+?)"\s+"public, max-age=31536000, immutable"', text).group(1)
    hashed = re.compile(pattern)
    assert hashed.search("/static/css/print.0123456789ab.css")
    assert hashed.search("/static/scoring/live.abcdef012345.js")
    assert not hashed.search("/static/css/print.css")
    assert not hashed.search("/static/x.0123456789ab.d/file")


def test_healthcheck_host_header():
    host_header = runpy.run_path(str(DEPLOY / "healthcheck.py"))["host_header"]
    assert host_header("cup.example.org,www.example.org") == "cup.example.org"
    assert host_header(" .example.org") == "example.org"
    assert host_header("*") == "localhost"
    assert host_header("") == "localhost"


class _Answer(BaseHTTPRequestHandler):
    status = 200
    seen: dict = {}

    def do_GET(self):
        type(self).seen = {"path": self.path, **{k.lower(): v for k, v in self.headers.items()}}
        self.send_response(self.status)
        if 300 <= self.status < 400:
            self.send_header("Location", "https://cup.example.org/healthz")
        self.end_headers()
        self.wfile.write(b'{"status": "x"}')

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("status, exit_status", [(200, 0), (503, 1), (301, 1)])
def test_healthcheck_script_exit_status(status, exit_status):
    handler = type("Handler", (_Answer,), {"status": status})
    server = HTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        done = subprocess.run(
            [sys.executable, str(DEPLOY / "healthcheck.py")],
            env={"PORT": str(server.server_port), "DJANGO_ALLOWED_HOSTS": "cup.example.org"},
            capture_output=True,
            text=True,
            timeout=30,
        )
    finally:
        server.shutdown()
    assert done.returncode == exit_status, done.stderr
    assert handler.seen["path"] == "/healthz"
    assert handler.seen["host"] == "cup.example.org"
    assert handler.seen["x-forwarded-proto"] == "https"
    if status == 301:
        assert "DJANGO_BEHIND_PROXY" in done.stderr


def test_makefile_targets():
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = re.search(r"^demo:.*?\n((?:\t.*\n)+)", text, re.M).group(1)
    # The demo command serves itself, on the address HOST names (loopback unless told).
    assert "manage.py demo --host $(HOST) --port $(PORT)" in demo and "--no-serve" not in demo
    assert re.search(r"^HOST \?= 127\.0\.0\.1$", text, re.M)
    serve = re.search(r"^serve:.*?\n((?:\t.*\n)+)", text, re.M).group(1)
    assert "scripts/serve.py" in serve


def test_deploy_readme_covers_the_settings_and_the_steps():
    text = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for needed in (
        "DJANGO_ENV=production",
        "DJANGO_SECRET_KEY",
        "DJANGO_ALLOWED_HOSTS",
        "DATABASE_URL",
        "CELERY_BROKER_URL",
        "REDIS_CACHE_URL",
        "PUBLIC_BASE_URL",
        "DJANGO_BEHIND_PROXY",
        "create_organiser",
        "export_tournament",
        "import_tournament",
        "pg_dump",
        "docker compose",
        "systemctl",
    ):
        assert needed in text, needed
