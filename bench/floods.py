"""Floods against a running server: one phone hammering one board, and 200 connections on one
endpoint while another table scores.

Builds a tournament in a scratch PostgreSQL database, starts gunicorn (production settings,
``deploy/gunicorn.conf.py``, 3 sync workers, the shared cache on Redis) and nginx with the
shipped configuration (``deploy/nginx.conf``, its limits as shipped; plain HTTP on loopback,
its upstream pointed at this gunicorn). Then, for SECONDS each:

1. **One phone, one board**: 4 connections from one address send North's entry to one board
   as fast as they can, each with a new ``client_id`` (the audit stored 600 a minute): the
   answers by status and the rows stored, straight to gunicorn (the application's limits
   alone) and through nginx.
2. **200 connections on one endpoint**: 200 connections from one address poll a team's
   ``/me/`` while a table at another address enters and accepts boards one after the other:
   that table's latency (p50, p95, max) with no flood, under the flood straight to gunicorn,
   and under the flood through nginx; and how the flood was answered.

Figures only. Run: .venv/bin/python bench/floods.py [SECONDS]   (default 15)
Environment: BENCH_POSTGRES (postgres://postgres@127.0.0.1:5432), BENCH_REDIS
(redis://127.0.0.1:6379/0). Needs psql and nginx.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")
DATABASE = "pymtheg_bench_floods"
ENTRY = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 10, "EW": 5}}
TABLES = 152
# Any 127.x.y.z is this machine on Linux: each flood from an address of its own, so that one
# run's counts do not hold up the next.
TABLE_ADDRESS = "127.0.0.2"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def psql(sql: str) -> None:
    subprocess.run(["psql", f"{PG}/postgres", "-qc", sql], check=True, capture_output=True)


def environment() -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "REDIS_CACHE_URL": REDIS,
        "CACHE_KEY_PREFIX": f"bench-floods-{uuid.uuid4().hex[:8]}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_CONN_MAX_AGE": "60",
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "bench-only-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
        "TRUSTED_PROXIES": "127.0.0.1",
    }


def build_tournament() -> tuple[str, list[tuple[int, str, str]]]:
    import django

    django.setup()
    from tournaments.models import Board, Entrant, Match, Status, Table, Tournament

    tournament = Tournament.objects.create(name="Floods", slug="floods", status=Status.SCHEDULED)
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, number=n, name=f"Team {n}") for n in range(1, 2 * TABLES + 1)
    )
    tables = Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, TABLES + 1)
    )
    Board.objects.bulk_create(Board(table=t, number=1) for t in tables)
    matches = Match.objects.bulk_create(
        Match(
            round=1, table=tables[t], north_entrant=entrants[t], east_entrant=entrants[TABLES + t]
        )
        for t in range(TABLES)
    )
    return tournament.slug, [
        (m.pk, m.north_entrant.access_code, m.east_entrant.access_code) for m in matches
    ]


def request(
    port: int, method: str, path: str, code: str, body: dict | None, source: str
) -> tuple[int, dict, float]:
    """One request on a new connection from ``source``: (status, answer, seconds)."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=60, source_address=(source, 0)
    )
    try:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"X-Team-Code": code, "Host": "127.0.0.1"}
        if data is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body=data, headers=headers)
        answer = connection.getresponse()
        raw = answer.read()
        try:
            parsed = json.loads(raw) if raw else {}
        except ValueError:
            parsed = {}
        return answer.status, parsed, time.perf_counter() - started
    except OSError:
        return 0, {}, time.perf_counter() - started
    finally:
        connection.close()


def board_path(slug: str, match_id: int, tail: str) -> str:
    return f"/api/v1/tournaments/{slug}/matches/{match_id}/boards/1/{tail}"


def hammer_one_board(
    port: int, slug: str, match: tuple[int, str, str], seconds: float, source: str
) -> dict:
    """4 connections from one address send new entries to one board for ``seconds``."""
    statuses: dict[int, int] = {}
    details: set[str] = set()
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    match_id, north, _east = match

    def phone() -> None:
        while time.monotonic() < stop:
            status, answer, _ = request(
                port,
                "POST",
                board_path(slug, match_id, "entries/"),
                north,
                {"client_id": uuid.uuid4().hex, "record": ENTRY},
                source,
            )
            with lock:
                statuses[status] = statuses.get(status, 0) + 1
                if status == 429:  # the sentence, without its figures
                    details.add(
                        re.sub(r"\d+ (seconds?|minutes)", "N \\1", answer.get("detail", ""))
                    )

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    from scoring.models import Submission

    stored = Submission.objects.filter(match_id=match_id).count()
    return {"statuses": statuses, "stored": stored, "details": sorted(details)}


def table_scoring(
    port: int, slug: str, matches, seconds: float, flood: int = 0, source: str = ""
) -> dict:
    """A table at another address enters and accepts boards one after the other while
    ``flood`` connections poll one team's ``/me/``: its latencies."""
    stop = threading.Event()
    flood_statuses: dict[int, int] = {}
    lock = threading.Lock()
    me = f"/api/v1/tournaments/{slug}/me/"
    polling_code = matches[-1][1]

    def poller() -> None:
        while not stop.is_set():
            status, _, _ = request(port, "GET", me, polling_code, None, source)
            with lock:
                flood_statuses[status] = flood_statuses.get(status, 0) + 1

    pollers = [threading.Thread(target=poller) for _ in range(flood)]
    for thread in pollers:
        thread.start()
    latencies: list[float] = []
    failed = 0
    deadline = time.monotonic() + seconds
    for match_id, north, east in matches[:-1]:
        if time.monotonic() >= deadline:
            break
        status, entry, took = request(
            port,
            "POST",
            board_path(slug, match_id, "entries/"),
            north,
            {"client_id": uuid.uuid4().hex, "record": ENTRY},
            TABLE_ADDRESS,
        )
        latencies.append(took)
        if status != 201:
            failed += 1
            continue
        status, _, took = request(
            port,
            "POST",
            board_path(slug, match_id, f"entries/{entry['id']}/accept/"),
            east,
            {"client_id": uuid.uuid4().hex},
            TABLE_ADDRESS,
        )
        latencies.append(took)
        failed += status != 200
    while flood and time.monotonic() < deadline:  # the flood runs its full time
        time.sleep(0.05)
    stop.set()
    for thread in pollers:
        thread.join()
    return {"latencies": latencies, "failed": failed, "flood": flood_statuses}


def nginx_config(folder: Path, listen: int, upstream: int) -> Path:
    """The shipped site (deploy/nginx.conf) on plain HTTP: its limits unchanged."""
    site = (ROOT / "deploy" / "nginx.conf").read_text()
    site = site.replace("server web:8000;", f"server 127.0.0.1:{upstream};")
    site = re.sub(r"server \{\s*listen 80 default_server;.*?\n\}\n", "", site, count=1, flags=re.S)
    site = site.replace("listen 443 ssl default_server;", f"listen 127.0.0.1:{listen};")
    site = re.sub(r"^\s*(listen \[::\]:443.*|http2 on;|ssl_\w+\s.*)$", "", site, flags=re.M)
    (folder / "site.conf").write_text(site)
    temp = " ".join(
        f"{name}_temp_path {folder / name};"
        for name in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    config = folder / "nginx.conf"
    config.write_text(
        f"pid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'} error;\n"
        "worker_processes 1;\nevents { worker_connections 2048; }\n"
        f"http {{ access_log off; {temp} include {folder / 'site.conf'}; }}\n"
    )
    return config


def wait_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"a server process exited with status {process.returncode}")
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise SystemExit(f"nothing listens on port {port}")


def start(command: list[str], env: dict[str, str], log: Path) -> subprocess.Popen:
    with log.open("w") as handle:
        return subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=handle, stderr=handle, start_new_session=True
        )


def stop(process: subprocess.Popen) -> None:
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=20)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        os.killpg(process.pid, signal.SIGKILL)


def ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000:.0f}"


def show_scoring(name: str, run: dict) -> None:
    latencies = run["latencies"]
    flood = run["flood"]
    print(
        f"  {name:<34} {len(latencies):>4} requests, {run['failed']} failed; "
        f"p50 {statistics.median(latencies) * 1000 if latencies else 0:.0f} ms, "
        f"p95 {ms(latencies, 0.95)} ms, max {ms(latencies, 1.0)} ms"
        + (f"; flood answered {dict(sorted(flood.items()))}" if flood else "")
    )


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 15.0
    for tool in ("psql", "nginx"):
        if shutil.which(tool) is None and not Path(f"/usr/sbin/{tool}").exists():
            raise SystemExit(f"{tool} is needed")
    env = environment()
    os.environ.update(env)
    psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql(f"CREATE DATABASE {DATABASE}")
    processes: list[subprocess.Popen] = []
    folder = Path(tempfile.mkdtemp(prefix="bench-floods-"))
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        slug, matches = build_tournament()
        web_port, nginx_port = free_port(), free_port()
        web = start(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-b",
                f"127.0.0.1:{web_port}",
                "-c",
                "deploy/gunicorn.conf.py",
            ],
            {**env, "WEB_CONCURRENCY": "3", "GUNICORN_THREADS": "1"},
            folder / "web.log",
        )
        processes.append(web)
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        proxy = start(
            [nginx, "-c", str(nginx_config(folder, nginx_port, web_port)), "-g", "daemon off;"],
            env,
            folder / "nginx.log",
        )
        processes.append(proxy)
        wait_port(web_port, web)
        wait_port(nginx_port, proxy)
        for _ in range(12):  # every web worker answers once before the figures
            request(
                web_port,
                "GET",
                f"/api/v1/tournaments/{slug}/me/",
                matches[-1][1],
                None,
                "127.0.0.3",
            )

        print(f"One phone hammering one board ({seconds:.0f} s, 4 connections, one address):")
        for name, port, match, source in (
            ("straight to gunicorn", web_port, matches[0], "127.0.0.11"),
            ("through nginx", nginx_port, matches[1], "127.0.0.12"),
        ):
            run = hammer_one_board(port, slug, match, seconds, source)
            print(
                f"  {name:<22} answers {dict(sorted(run['statuses'].items()))}; "
                f"rows stored {run['stored']} in {seconds:.0f} s"
            )
            for detail in run["details"]:
                print(f"    429: {detail}")

        third = (len(matches) - 2) // 3
        a, b, c = (matches[2 + i * third : 2 + (i + 1) * third] for i in range(3))
        print(f"A table scoring at another address (at most {seconds:.0f} s each):")
        show_scoring("no flood", table_scoring(web_port, slug, a, seconds))
        show_scoring(
            "200 pollers straight to gunicorn",
            table_scoring(web_port, slug, b, seconds, flood=200, source="127.0.0.21"),
        )
        show_scoring(
            "200 pollers through nginx",
            table_scoring(nginx_port, slug, c, seconds, flood=200, source="127.0.0.22"),
        )
    finally:
        for process in reversed(processes):
            stop(process)
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
