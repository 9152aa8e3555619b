#!/usr/bin/env python
"""A deployment over several machines, on this one: each host a network namespace.

``make cluster`` (as root) builds a bridge and nine namespaces joined to it by veth pairs:

    lb       nginx, the load balancer, in front of the three web hosts
    web1-3   gunicorn (config.wsgi, deploy/gunicorn.conf.py), each with its own var/ folder
    worker1-2  a Celery worker each
    beat     Celery beat
    db       PostgreSQL (its own data folder, made by initdb for the run)
    redis    Redis (broker and shared cache)

No folder is shared between the hosts: export files are kept in the database
(``PUBLISHING_EXPORT_STORAGE=database``). The script then plays a round of --tables tables
through the load balancer with the scorers' API (North enters, East accepts, each with its
team's access code; a request that fails is sent again with the same ``client_id``, as the
scorer page does), kills a web host and a worker outright (SIGKILL) while the round is under
way, and prints:

- results lost (a match whose acceptance was answered but has no result) and duplicated
  (more than one result or entry for a match);
- how long after the last result the stored standings were current;
- every export file (standings in xlsx, ods and csv, the full results in xlsx) fetched from
  every web host, straight from each, with its hash checked against the one the worker wrote.

Every namespace, link and process is removed on exit, also on Ctrl+C or SIGTERM. Logs stay in
the work folder (``/tmp/pym-cluster/logs``) until the next run.

Run: ``sudo .venv/bin/python deploy/cluster/run.py [--tables 1000] [--rate 100]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import io
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PG_BIN = Path(os.environ.get("PG_BIN", "/usr/lib/postgresql/15/bin"))
WORK = Path(os.environ.get("CLUSTER_WORK", "/tmp/pym-cluster"))
NET = os.environ.get("CLUSTER_NET", "10.231.7")  # a /24 of this machine's own test hosts
PREFIX = "pymc"
BRIDGE = f"{PREFIX}-br"
HOSTS = {
    "lb": 2,
    "db": 10,
    "redis": 11,
    "web1": 21,
    "web2": 22,
    "web3": 23,
    "worker1": 31,
    "worker2": 32,
    "beat": 40,
}
WEB_HOSTS = ["web1", "web2", "web3"]
WEB_PORT = 8000
SLUG = "cluster"
ENTRY = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 10, "EW": 5}}
TARGET_STANDINGS_S = 2.0
EXPORTS = [("results", "xlsx"), ("standings", "xlsx"), ("standings", "ods"), ("standings", "csv")]


def address(host: str) -> str:
    return f"{NET}.{HOSTS[host]}"


def namespace(host: str) -> str:
    return f"{PREFIX}-{host}"


def run(*command: str, check: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run(command, check=check, capture_output=True, text=True)


class Cluster:
    """The namespaces, the bridge and the processes started in them; ``down`` removes all."""

    def __init__(self) -> None:
        self.processes: dict[str, subprocess.Popen] = {}
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "CELERY_"))},
            "DATABASE_URL": f"postgres://postgres@{address('db')}:5432/pymtheg",
            "CELERY_BROKER_URL": f"redis://{address('redis')}:6379/0",
            "DJANGO_ENV": "production",
            "DJANGO_SECRET_KEY": "cluster-" + uuid.uuid4().hex,
            "DJANGO_ALLOWED_HOSTS": "*",
            "DJANGO_SECURE_SSL_REDIRECT": "false",
            "DJANGO_BEHIND_PROXY": "true",
            "DJANGO_STATIC_ROOT": str(WORK / "static"),
            "TRUSTED_PROXIES": address("lb"),
            "PUBLISHING_EXPORT_STORAGE": "database",
            # Every phone of the round comes through one load generator's address.
            "SCORER_WRITE_RATE": "1000000/minute",
            "WEB_CONCURRENCY": "2",
            "GUNICORN_THREADS": "1",
            "PYTHONPATH": str(ROOT),
        }
        for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
            os.environ.pop(name, None)

    # --- network ----------------------------------------------------------------------

    def up_network(self) -> None:
        run("ip", "link", "add", BRIDGE, "type", "bridge")
        run("ip", "addr", "add", f"{NET}.1/24", "dev", BRIDGE)
        run("ip", "link", "set", BRIDGE, "up")
        for host in HOSTS:
            ns, outside = namespace(host), f"{PREFIX}{HOSTS[host]}"
            run("ip", "netns", "add", ns)
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", "eth0", "netns", ns)
            run("ip", "link", "set", outside, "master", BRIDGE, "up")
            run("ip", "-n", ns, "addr", "add", f"{address(host)}/24", "dev", "eth0")
            run("ip", "-n", ns, "link", "set", "eth0", "up")
            run("ip", "-n", ns, "link", "set", "lo", "up")

    @staticmethod
    def remove_network() -> None:
        for host in HOSTS:
            run("ip", "netns", "pids", namespace(host), check=False)
            run("ip", "netns", "del", namespace(host), check=False)
            run("ip", "link", "del", f"{PREFIX}{HOSTS[host]}", check=False)
        run("ip", "link", "del", BRIDGE, check=False)

    # --- processes --------------------------------------------------------------------

    def start(self, name: str, host: str, command: list[str], **extra: str) -> None:
        log = WORK / "logs" / f"{name}.log"
        with log.open("a") as handle:
            self.processes[name] = subprocess.Popen(
                ["ip", "netns", "exec", namespace(host), *command],
                cwd=ROOT,
                env={**self.env, **extra},
                stdout=handle,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.get(name)
        if process is None or process.poll() is not None:
            return
        try:
            os.killpg(process.pid, sig)
            process.wait(timeout=15)
        except ProcessLookupError:
            pass
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)

    def down(self) -> None:
        for name in reversed(list(self.processes)):
            self.kill(name, signal.SIGTERM)
        # Anything left in a namespace (a child that left its group) goes with it.
        for host in HOSTS:
            pids = run("ip", "netns", "pids", namespace(host), check=False).stdout.split()
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, ValueError):
                    os.kill(int(pid), signal.SIGKILL)
        self.remove_network()
        shutil.rmtree(WORK / "pg", ignore_errors=True)

    def wait_port(self, host: str, port: int, name: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.processes[name].poll() is not None:
                raise SystemExit(f"{name} stopped; see {WORK / 'logs' / (name + '.log')}")
            with socket.socket() as sock:
                sock.settimeout(1)
                if sock.connect_ex((address(host), port)) == 0:
                    return
            time.sleep(0.1)
        raise SystemExit(f"{name} does not answer on {address(host)}:{port}")

    # --- the hosts --------------------------------------------------------------------

    def start_database(self) -> None:
        data = WORK / "pg"
        shutil.rmtree(data, ignore_errors=True)
        data.mkdir(parents=True)
        shutil.chown(data, "postgres", "postgres")
        initdb = [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust"]
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *initdb, "-E", "UTF8", "--no-sync"],
            check=True,
            capture_output=True,
        )
        with (data / "pg_hba.conf").open("a") as hba:
            hba.write(f"host all all {NET}.0/24 trust\n")
        self.start(
            "postgres",
            "db",
            [
                "runuser",
                "-u",
                "postgres",
                "--",
                str(PG_BIN / "postgres"),
                "-D",
                str(data),
                "-c",
                f"listen_addresses={address('db')}",
                "-c",
                f"unix_socket_directories={data}",
                "-c",
                "max_connections=100",
            ],
        )
        self.wait_port("db", 5432, "postgres")

    def start_redis(self) -> None:
        self.start(
            "redis",
            "redis",
            [
                "redis-server",
                "--bind",
                address("redis"),
                "--port",
                "6379",
                "--save",
                "",
                "--appendonly",
                "no",
                "--protected-mode",
                "no",
            ],
        )
        self.wait_port("redis", 6379, "redis")

    def start_web(self, host: str) -> None:
        var = WORK / f"var-{host}"
        var.mkdir(exist_ok=True)
        self.start(
            host,
            host,
            [
                str(BIN / "gunicorn"),
                "-c",
                "deploy/gunicorn.conf.py",
                "--bind",
                f"{address(host)}:{WEB_PORT}",
                "config.wsgi",
            ],
            PYMTHEG_VAR_DIR=str(var),
            FORWARDED_ALLOW_IPS=address("lb"),
        )

    def start_worker(self, host: str) -> None:
        var = WORK / f"var-{host}"
        var.mkdir(exist_ok=True)
        command = [str(BIN / "celery"), "-A", "config", "worker", f"--hostname={host}@cluster"]
        command += ["--concurrency=2", "--prefetch-multiplier=1", "--loglevel=INFO"]
        command += ["--without-mingle", "--without-gossip"]
        self.start(host, host, command, PYMTHEG_VAR_DIR=str(var))

    def start_beat(self) -> None:
        var = WORK / "var-beat"
        var.mkdir(exist_ok=True)
        command = [str(BIN / "celery"), "-A", "config", "beat", "--loglevel=INFO"]
        command.append(f"--schedule={var / 'celerybeat-schedule'}")
        self.start("beat", "beat", command, PYMTHEG_VAR_DIR=str(var))

    def start_balancer(self) -> None:
        folder = WORK / "nginx"
        folder.mkdir(exist_ok=True)
        servers = "\n".join(
            f"        server {address(host)}:{WEB_PORT} max_fails=1 fail_timeout=10s;"
            for host in WEB_HOSTS
        )
        config = f"""
user root;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {WORK}/logs/nginx-error.log warn;
events {{ worker_connections 2048; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    upstream web {{
{servers}
    }}
    server {{
        listen {address("lb")}:80;
        client_max_body_size 1m;
        location / {{
            proxy_pass http://web;
            proxy_set_header Host $host;
            proxy_set_header X-Real-IP $remote_addr;
            proxy_set_header X-Forwarded-Proto http;
            proxy_connect_timeout 2s;
            proxy_read_timeout 30s;
            # A host that refuses or drops connections is passed over; a request it took
            # and lost is not sent twice (the phone sends it again with its client_id).
            proxy_next_upstream error timeout http_502 http_503;
        }}
    }}
}}
"""
        (folder / "nginx.conf").write_text(config)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        self.start("nginx", "lb", [nginx, "-c", str(folder / "nginx.conf"), "-g", "daemon off;"])
        self.wait_port("lb", 80, "nginx")


# --- the tournament and the round ------------------------------------------------------


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build_tournament(tables: int) -> tuple[int, list[tuple[int, str, str]]]:
    """A round of ``tables`` matches of one board: teams 1..K North-South, K+1..2K East-West."""
    from engine.games.pymtheg.cards import format_deal, seeded_deal
    from tournaments.models import Board, Entrant, Match, Status, Table, Tournament

    tournament = Tournament.objects.create(name="Cluster round", slug=SLUG, status=Status.SCHEDULED)
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, number=n, name=f"Team {n}") for n in range(1, 2 * tables + 1)
    )
    table_rows = Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, tables + 1)
    )
    Board.objects.bulk_create(
        Board(table=t, number=1, deal=format_deal(seeded_deal("cluster", t.number)))
        for t in table_rows
    )
    matches = Match.objects.bulk_create(
        Match(
            round=1,
            table=table_rows[t],
            north_entrant=entrants[t],
            east_entrant=entrants[tables + t],
        )
        for t in range(tables)
    )
    return tournament.pk, [
        (m.pk, m.north_entrant.access_code, m.east_entrant.access_code) for m in matches
    ]


class Phones:
    """The scorers' requests through the load balancer, sent again on a failure."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.retries = 0
        self.latencies: list[float] = []
        self.failures: list[str] = []
        self.confirmed: set[int] = set()
        self.last_confirmation = 0.0

    async def post(self, path: str, code: str, body: dict) -> tuple[int, dict]:
        data = json.dumps(body).encode()
        head = (
            f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nX-Team-Code: {code}\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        with socket.socket() as sock:
            sock.setblocking(False)
            async with asyncio.timeout(40):
                await loop.sock_connect(sock, (self.host, self.port))
                await loop.sock_sendall(sock, head + data)
                chunks = []
                while chunk := await loop.sock_recv(sock, 65536):
                    chunks.append(chunk)
        answer = b"".join(chunks)
        self.latencies.append(time.perf_counter() - start)
        status_line, _, rest = answer.partition(b"\r\n")
        _, _, payload = rest.partition(b"\r\n\r\n")
        status = int(status_line.split()[1])
        try:
            return status, json.loads(payload or b"{}")
        except ValueError:
            # A body cut short (its web host killed while it answered) is no answer: the
            # phone sends again with the same client_id, as the scorer page does.
            return 0, {"body": payload[:200].decode(errors="replace")}

    async def send(self, path: str, code: str, body: dict, ok: tuple[int, ...]) -> dict:
        for attempt in range(10):
            try:
                status, answer = await self.post(path, code, body)
            except (OSError, TimeoutError) as exc:
                status, answer = 0, {"error": repr(exc)}
            if status in ok:
                return answer
            if status not in (0, 429, 502, 503, 504):
                raise AssertionError(f"{path} answered {status}: {answer}")
            self.retries += 1
            await asyncio.sleep(0.2 * (attempt + 1))
        raise AssertionError(f"{path} failed 10 times: {status} {answer}")

    async def warm_up(self, work: list, requests: int = 60) -> None:
        """Open every web process's database connection and load its code first (a venue's
        server has been up for hours when a round ends): score, without storing, some
        entries, a few at a time."""
        for start in range(0, min(requests, len(work)), 6):
            await asyncio.gather(
                *(
                    self.send(
                        f"/api/v1/tournaments/{SLUG}/matches/{match_id}/boards/1/preview/",
                        north,
                        {"record": ENTRY},
                        (200,),
                    )
                    for match_id, north, _east in work[start : start + 6]
                )
            )
        self.latencies.clear()

    async def cycle(self, match: tuple[int, str, str]) -> None:
        match_id, north, east = match
        base = f"/api/v1/tournaments/{SLUG}/matches/{match_id}/boards/1/"
        entry = await self.send(
            base + "entries/",
            north,
            {"client_id": f"entry-{match_id}-{uuid.uuid4().hex[:8]}", "record": ENTRY},
            (200, 201),
        )
        await self.send(
            base + f"entries/{entry['id']}/accept/",
            east,
            {"client_id": f"accept-{match_id}-{uuid.uuid4().hex[:8]}"},
            (200,),
        )
        self.confirmed.add(match_id)
        self.last_confirmation = time.perf_counter()


async def play_round(
    phones: Phones, work: list, rate: float, scorers: int, faults: dict[float, callable]
) -> float:
    """Cycles start at ``rate`` a second, at most ``scorers`` at once; each fault runs once
    that share of the cycles has started. Returns the seconds the round took."""
    in_flight = asyncio.Semaphore(scorers)
    pending = sorted(faults.items())

    async def one(match) -> None:
        try:
            await phones.cycle(match)
        except AssertionError as exc:
            phones.failures.append(str(exc))
        finally:
            in_flight.release()

    loop = asyncio.get_running_loop()
    started = loop.time()
    tasks = []
    for index, match in enumerate(work):
        while pending and index >= pending[0][0] * len(work):
            _share, fault = pending.pop(0)
            fault()
        delay = started + index / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        await in_flight.acquire()
        tasks.append(asyncio.create_task(one(match)))
    await asyncio.gather(*tasks)
    return loop.time() - started


def lost_and_duplicated(tournament_id: int, confirmed: set[int]) -> tuple[int, int, int]:
    """(matches confirmed to a phone without a current result, results beyond one per match,
    entries beyond one per match)."""
    from django.db.models import Count

    from scoring.models import Result, Submission

    results = Result.objects.filter(match__table__tournament_id=tournament_id)
    current = set(results.filter(current=True).values_list("match_id", flat=True))
    per_match = results.values("match_id").annotate(n=Count("id"))
    extra_results = sum(row["n"] - 1 for row in per_match if row["n"] > 1)
    entries = Submission.objects.filter(match__table__tournament_id=tournament_id)
    per_entry = entries.values("match_id").annotate(n=Count("id"))
    extra_entries = sum(row["n"] - 1 for row in per_entry if row["n"] > 1)
    return len(confirmed - current), extra_results, extra_entries


def standings_current(tournament_id: int) -> bool:
    from scoring.models import StandingsState

    state = StandingsState.objects.filter(tournament_id=tournament_id).first()
    return (
        state is not None
        and state.computed_at is not None
        and state.computed_version >= state.results_version
    )


def make_exports(tournament_id: int, seconds: float = 900) -> list:
    """The exports made by the workers, each standings file published."""
    from django.db import transaction

    from publishing import services
    from publishing.models import Export
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=tournament_id)
    made = []
    for kind, fmt in EXPORTS:
        with transaction.atomic():
            export, _ = services.request_export(tournament=tournament, kind=kind, fmt=fmt)
        made.append(export.pk)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        exports = list(Export.objects.filter(pk__in=made).order_by("pk"))
        if all(export.finished for export in exports):
            break
        time.sleep(0.5)
    else:
        raise SystemExit("the exports were not finished in time")
    for export in exports:
        if export.state != Export.State.DONE:
            raise SystemExit(f"export {export.pk} failed: {export.error}")
        if export.kind == Export.Kind.STANDINGS:
            services.publish_export(export=export, by=None)
    return exports


def fetch(host: str, path: str) -> tuple[int, dict[str, str], bytes]:
    import http.client

    connection = http.client.HTTPConnection(address(host), WEB_PORT, timeout=30)
    try:
        connection.request("GET", path, headers={"Host": "cup.example.org"})
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def serve_everywhere(exports: list, organiser_cookie: str) -> list[str]:
    """Every export from every web host: the published ones at their public address, the
    results workbook at the organiser's (with an organiser's session). Returns the problems."""
    import http.client

    problems = []
    for export in exports:
        for host in WEB_HOSTS:
            if export.published:
                path = f"/t/{SLUG}/downloads/{export.pk}/"
                status, headers, body = fetch(host, path)
            else:
                path = f"/tournaments/{SLUG}/publishing/exports/{export.pk}/download/"
                connection = http.client.HTTPConnection(address(host), WEB_PORT, timeout=30)
                connection.request(
                    "GET",
                    path,
                    headers={
                        "Host": "cup.example.org",
                        "Cookie": organiser_cookie,
                        "X-Forwarded-Proto": "https",
                    },
                )
                response = connection.getresponse()
                status, headers, body = (
                    response.status,
                    dict(response.getheaders()),
                    response.read(),
                )
                connection.close()
            digest = hashlib.sha256(body).hexdigest()
            disposition = headers.get("Content-Disposition", "")
            if status != 200 or digest != export.content_hash or "attachment" not in disposition:
                problems.append(f"{host} {path}: {status}, {disposition!r}, sha {digest[:12]}")
    return problems


def organiser_session() -> str:
    """A signed-in organiser's session cookie (made in the shared database, as a sign-in on
    any web host would make it)."""
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.sessions.backends.db import SessionStore
    from django.core.management import call_command

    name = "cluster-organiser"
    call_command(
        "create_organiser", name, password=uuid.uuid4().hex, noinput=True, stdout=io.StringIO()
    )
    user = get_user_model().objects.get_by_natural_key(name)
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[0]
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def ensure_nginx() -> None:
    if shutil.which("nginx") or Path("/usr/sbin/nginx").exists():
        return
    print("nginx is not installed: installing Debian's nginx-light with apt-get", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "nginx-light"], check=True, env=env)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000, help="tables of the round")
    parser.add_argument("--rate", type=float, default=100, help="cycles started per second")
    parser.add_argument("--scorers", type=int, default=50, help="phones waiting at most at once")
    args = parser.parse_args()
    if os.geteuid() != 0:
        print(
            "the cluster needs root (ip netns, veth, a bridge): run it with sudo", file=sys.stderr
        )
        return 2
    for tool in ("ip", "redis-server", "runuser"):
        if shutil.which(tool) is None:
            print(f"{tool} is missing (iproute2, redis-server, util-linux)", file=sys.stderr)
            return 2
    if not (PG_BIN / "postgres").exists():
        print(f"PostgreSQL's binaries are not in {PG_BIN} (set PG_BIN)", file=sys.stderr)
        return 2
    ensure_nginx()

    cluster = Cluster()

    def stop_on_signal(signum, _frame):
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, stop_on_signal)
    cluster.remove_network()  # what a run killed with SIGKILL left behind
    WORK.mkdir(parents=True, exist_ok=True)
    WORK.chmod(0o755)
    shutil.rmtree(WORK / "logs", ignore_errors=True)
    (WORK / "logs").mkdir()
    try:
        return play(cluster, args)
    except KeyboardInterrupt:
        print("stopped: removing the cluster", file=sys.stderr)
        return 130
    finally:
        from contextlib import suppress

        with suppress(Exception):
            from django.db import connections

            connections.close_all()
        cluster.down()


def play(cluster: Cluster, args: argparse.Namespace) -> int:
    begun = time.perf_counter()
    cluster.up_network()
    cluster.start_database()
    cluster.start_redis()
    env = cluster.env
    manage = [sys.executable, "manage.py"]
    subprocess.run(
        [
            "runuser",
            "-u",
            "postgres",
            "--",
            str(PG_BIN / "createdb"),
            "-h",
            address("db"),
            "pymtheg",
        ],
        check=True,
        capture_output=True,
    )
    subprocess.run([*manage, "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    for host in WEB_HOSTS:
        cluster.start_web(host)
    cluster.start_worker("worker1")
    cluster.start_worker("worker2")
    cluster.start_beat()
    for host in WEB_HOSTS:
        cluster.wait_port(host, WEB_PORT, host)
    cluster.start_balancer()
    setup_django(env)
    tournament_id, work = build_tournament(args.tables)
    ready = time.perf_counter() - begun
    print(
        f"cluster up in {ready:.0f} s: nginx, {len(WEB_HOSTS)} web hosts (gunicorn, "
        f"{env['WEB_CONCURRENCY']} sync workers each), 2 Celery workers (2 processes each), "
        "beat, PostgreSQL, Redis, each in its own network namespace; exports in the database",
        flush=True,
    )

    phones = Phones(address("lb"), 80)
    asyncio.run(phones.warm_up(work))
    load_before = os.getloadavg()[0]
    killed: dict[str, float] = {}

    def kill(name: str) -> None:
        cluster.kill(name)
        killed[name] = time.perf_counter()
        print(f"  killed {name} (SIGKILL) after {len(phones.confirmed)} results", flush=True)

    faults = {0.3: lambda: kill("web2"), 0.5: lambda: kill("worker1")}
    elapsed = asyncio.run(play_round(phones, work, args.rate, args.scorers, faults))
    last = phones.last_confirmation
    load_after = os.getloadavg()[0]
    while not standings_current(tournament_id):
        if time.perf_counter() - last > 120:
            break
        time.sleep(0.02)
    catch_up = time.perf_counter() - last
    lost, extra_results, extra_entries = lost_and_duplicated(tournament_id, phones.confirmed)

    done = len(phones.confirmed)
    cuts = statistics.quantiles(phones.latencies, n=100) if len(phones.latencies) > 1 else [0] * 99
    round_lines = [
        f"round of {len(work):,} tables through the load balancer: {done:,} results confirmed "
        f"in {elapsed:.1f} s ({done / elapsed:.0f}/s offered {args.rate:g}/s, at most "
        f"{args.scorers} phones at once); {phones.retries} requests sent again after a failure; "
        f"{len(phones.failures)} cycles given up",
        f"requests through nginx: p50 {statistics.median(phones.latencies) * 1000:.0f} ms, "
        f"p95 {cuts[94] * 1000:.0f} ms, p99 {cuts[98] * 1000:.0f} ms",
        "killed mid-round: web2 and worker1 (SIGKILL)",
        f"results lost: {lost}; duplicated: {extra_results} results, {extra_entries} entries",
        f"standings current {catch_up:.2f} s after the last result "
        f"(target < {TARGET_STANDINGS_S:g})",
    ]
    for line in round_lines:
        print(line, flush=True)
    # The killed hosts are started again, as their supervisors would: web2 to serve the files
    # too, worker1 to share the exports.
    cluster.start_web("web2")
    cluster.start_worker("worker1")
    cluster.wait_port("web2", WEB_PORT, "web2")
    exports = make_exports(tournament_id)
    problems = serve_everywhere(exports, organiser_session())
    on_disk = [str(path) for path in WORK.glob("var-*/exports/**/*") if path.is_file()]

    lines = [
        f"export files: {len(exports)} ({', '.join(f'{e.kind} {e.format}' for e in exports)}), "
        f"each fetched from {len(WEB_HOSTS)} web hosts: "
        f"{len(exports) * len(WEB_HOSTS) - len(problems)} of {len(exports) * len(WEB_HOSTS)} "
        f"served whole; files on any host's disk: {len(on_disk)}",
        f"machine: {os.cpu_count()} cores, "
        f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
        f"load average {load_before:.1f} before the round, {load_after:.1f} after it "
        f"(other work on the machine counts too); whole run {time.perf_counter() - begun:.0f} s",
    ]
    for line in lines:
        print(line, flush=True)
    for problem in problems + phones.failures[:10]:
        print("  problem:", problem)
    healthy = not (lost or extra_results or extra_entries or problems or phones.failures or on_disk)
    return 0 if healthy else 1


if __name__ == "__main__":
    sys.exit(main())
