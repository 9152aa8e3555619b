"""Scorer load on loopback: concurrent North/East phones against gunicorn and PostgreSQL.

Builds a tournament in a scratch PostgreSQL database, starts gunicorn (the production WSGI
app with the production settings, ``deploy/gunicorn.conf.py``), a Celery worker and beat on
Redis, then offers a bounded number of submit + confirm cycles at a fixed rate (open loop: a
cycle starts every 1/rate seconds, as phones at a venue do, with at most --scorers in
flight), round by round. Prints throughput, latency
percentiles and the time from the last confirmation to up-to-date standings.

Needs PostgreSQL and Redis on loopback. Run: .venv/bin/python bench/api.py [--cycles 2000]
Targets on the 2-core machine: p95 under 150 ms, at least 150 confirmed results a second,
standings current within 2 s of the last confirmation.
"""

from __future__ import annotations

import argparse
import asyncio
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

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/0")
DATABASE = "pymtheg_bench"
TARGETS = {"p95_ms": 150, "confirmed_per_s": 150, "standings_s": 2.0}
ENTRY = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 10, "EW": 5}}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def psql(sql: str) -> None:
    subprocess.run(["psql", f"{PG}/postgres", "-qc", sql], check=True, capture_output=True)


def environment(queue: str) -> dict[str, str]:
    return {
        **os.environ,
        "DATABASE_URL": f"{PG}/{DATABASE}",
        "CELERY_BROKER_URL": REDIS,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CACHE_KEY_PREFIX": f"bench-{queue}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SCORER_WRITE_RATE": "1000000/minute",
        "DATABASE_CONN_MAX_AGE": "60",
        # Production settings (no DEBUG query log), over plain HTTP on loopback.
        "DJANGO_ENV": "production",
        "DJANGO_SECRET_KEY": "bench-only-" + uuid.uuid4().hex,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "false",
    }


def build_tournament(tables: int, rounds: int) -> dict:
    """Teams 1..K sit NS, K+1..2K EW; every team plays every table once (rounds ≤ K)."""
    import django

    django.setup()
    from engine.games.pymtheg.cards import format_deal, seeded_deal
    from tournaments.models import Board, Entrant, Match, Status, Table, Tournament

    tournament = Tournament.objects.create(name="Load test", slug="load", status=Status.SCHEDULED)
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, number=n, name=f"Team {n}") for n in range(1, 2 * tables + 1)
    )
    table_rows = Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, tables + 1)
    )
    Board.objects.bulk_create(
        Board(table=t, number=1, deal=format_deal(seeded_deal("bench", t.number)))
        for t in table_rows
    )
    matches = Match.objects.bulk_create(
        Match(
            round=r,
            table=table_rows[t],
            north_entrant=entrants[(t - r) % tables],
            east_entrant=entrants[tables + (t + r) % tables],
        )
        for r in range(1, rounds + 1)
        for t in range(tables)
    )
    return {
        "rounds": [
            [
                (m.pk, m.north_entrant.access_code, m.east_entrant.access_code)
                for m in matches
                if m.round == r
            ]
            for r in range(1, rounds + 1)
        ],
        "tournament_id": tournament.pk,
    }


async def post(port: int, path: str, code: str, body: dict) -> tuple[int, dict, float]:
    """One request on a new connection, as phones on venue Wi-Fi mostly make (and so the
    server's workers share the load instead of each keeping its callers). Plain HTTP/1.1 on
    asyncio streams: the load generator shares the machine, so it should cost little."""
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
        f"Content-Type: application/json\r\nX-Team-Code: {code}\r\n"
        f"Content-Length: {len(data)}\r\n\r\n"
    ).encode()
    start = time.perf_counter()
    loop = asyncio.get_running_loop()
    with socket.socket() as sock:
        sock.setblocking(False)
        async with asyncio.timeout(30):
            await loop.sock_connect(sock, ("127.0.0.1", port))
            await loop.sock_sendall(sock, head + data)
            chunks = []
            while chunk := await loop.sock_recv(sock, 65536):  # the server closes when done
                chunks.append(chunk)
    answer = b"".join(chunks)
    seconds = time.perf_counter() - start
    status_line, _, rest = answer.partition(b"\r\n")
    _, _, payload = rest.partition(b"\r\n\r\n")
    return int(status_line.split()[1]), json.loads(payload or b"{}"), seconds


async def cycle(
    port: int,
    match: tuple[int, str, str],
    latencies: list[float],
    after: asyncio.Event | None,
    entered: asyncio.Event,
) -> None:
    """North enters, East accepts. North's previous match must have its entry first: a team
    enters its matches in order, as at a venue (the server refuses a later round)."""
    match_id, north, east = match
    base = f"/api/v1/tournaments/load/matches/{match_id}/boards/1/"
    if after is not None:
        async with asyncio.timeout(60):
            await after.wait()
    status, entry, seconds = await post(
        port, base + "entries/", north, {"client_id": uuid.uuid4().hex, "record": ENTRY}
    )
    latencies.append(seconds)
    entered.set()
    if status != 201:
        raise AssertionError(f"submit answered {status}: {entry}")
    status, result, seconds = await post(
        port, base + f"entries/{entry['id']}/accept/", east, {"client_id": uuid.uuid4().hex}
    )
    latencies.append(seconds)
    if status != 200:
        raise AssertionError(f"accept answered {status}: {result}")


async def warm_up(port: int, work: list, requests: int = 120) -> None:
    """A venue's server has been up for hours when a round ends: open every web worker's
    database connection and load its code before measuring, by scoring (not storing) the
    first matches' entries, a few at a time so that every worker takes some."""
    paths = [
        (f"/api/v1/tournaments/load/matches/{match_id}/boards/1/preview/", north)
        for match_id, north, _east in work[:requests]
    ]
    for start in range(0, len(paths), 6):
        answers = await asyncio.gather(
            *(post(port, path, code, {"record": ENTRY}) for path, code in paths[start : start + 6])
        )
        if any(status != 200 for status, _body, _seconds in answers):
            raise SystemExit(f"warming up: {answers}")


async def offer(port: int, work: list, rate: float, scorers: int) -> list[float]:
    """Open loop: cycles start at the offered rate, at most ``scorers`` at once."""
    latencies: list[float] = []
    entered = {match: asyncio.Event() for match in work}
    previous: dict[str, asyncio.Event] = {}
    waits_for = {}
    for match in work:
        waits_for[match] = previous.get(match[1])
        previous[match[1]] = entered[match]
    in_flight = asyncio.Semaphore(scorers)

    async def one(match) -> None:
        try:
            await cycle(port, match, latencies, waits_for[match], entered[match])
        finally:
            in_flight.release()

    loop = asyncio.get_running_loop()
    started = loop.time()
    tasks = []
    for index, match in enumerate(work):
        delay = started + index / rate - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        await in_flight.acquire()
        tasks.append(asyncio.create_task(one(match)))
    await asyncio.gather(*tasks)
    return latencies


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


def cpu_seconds(groups: dict[str, list[int]]) -> dict[str, float]:
    """CPU time (user + system) used so far by each group of processes: the given process
    trees (by their leader's pid) and the machine's PostgreSQL and Redis servers. A process's
    reaped children count too (a web worker gunicorn restarts, a PostgreSQL backend whose
    connection closed), so the figures hold when processes come and go during the run."""
    tick = os.sysconf("SC_CLK_TCK")
    used = dict.fromkeys([*groups, "PostgreSQL", "Redis"], 0.0)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text[text.rindex(")") + 2 :].split()
        pid, session = int(stat.parent.name), int(fields[3])
        seconds = sum(int(value) for value in fields[11:15]) / tick  # utime stime cutime cstime
        for group, leaders in groups.items():
            if pid in leaders or session in leaders:
                used[group] += seconds
        if name in ("postgres", "redis-server"):
            used["PostgreSQL" if name == "postgres" else "Redis"] += seconds
    return used


def standings_current(tournament_id: int) -> bool:
    from scoring.models import StandingsState

    state = StandingsState.objects.get(tournament_id=tournament_id)
    return state.computed_at is not None and state.computed_version >= state.results_version


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=2000, help="submit + confirm cycles")
    parser.add_argument("--scorers", type=int, default=50, help="concurrent scorers")
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--rate", type=float, default=160, help="offered cycles per second")
    parser.add_argument(
        "--web-workers",
        type=int,
        default=3,
        help="gunicorn sync workers (3, the production default on 2 cores, measured best)",
    )
    args = parser.parse_args()
    rounds = -(-args.cycles // args.tables)
    if rounds > args.tables:
        raise SystemExit("--cycles may be at most tables squared")
    if shutil.which("psql") is None:
        raise SystemExit("psql is needed to create the scratch database")
    queue = f"bench-{uuid.uuid4().hex[:8]}"
    env = environment(queue)
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
    psql(f"CREATE DATABASE {DATABASE}")
    processes: list[subprocess.Popen] = []
    try:
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True
        )
        plan = build_tournament(args.tables, rounds)
        port = free_port()
        logs = Path("/tmp")
        web = start(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-b",
                f"127.0.0.1:{port}",
                "-c",
                "deploy/gunicorn.conf.py",
            ],
            {**env, "WEB_CONCURRENCY": str(args.web_workers), "GUNICORN_THREADS": "1"},
            logs / "bench-web.log",
        )
        processes.append(web)
        worker = start(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "-B",
                "--pool=solo",
                "-Q",
                queue,
                "-s",
                f"/tmp/beat-{queue}",
                "--loglevel=WARNING",
            ],
            env,
            logs / "bench-worker.log",
        )
        processes.append(worker)
        wait_port(port, web)
        asyncio.run(warm_up(port, [m for matches in plan["rounds"] for m in matches]))

        work = [m for matches in plan["rounds"] for m in matches][: args.cycles]
        done = len(work)
        groups = {"gunicorn": [web.pid], "Celery worker": [worker.pid], "load": [os.getpid()]}
        cpu_before = cpu_seconds(groups)
        started = time.perf_counter()
        latencies = asyncio.run(offer(port, work, args.rate, args.scorers))
        last_confirmation = time.perf_counter()
        elapsed = last_confirmation - started
        cpu_after = cpu_seconds(groups)
        while not standings_current(plan["tournament_id"]):
            if time.perf_counter() - last_confirmation > 60:
                raise SystemExit("standings not current 60 s after the last confirmation")
            time.sleep(0.02)
        catch_up = time.perf_counter() - last_confirmation

        cuts = statistics.quantiles(latencies, n=100)
        figures = {
            "p50_ms": statistics.median(latencies) * 1000,
            "p95_ms": cuts[94] * 1000,
            "p99_ms": cuts[98] * 1000,
            "confirmed_per_s": done / elapsed,
            "standings_s": catch_up,
        }
        print(
            f"{done:,} submit + confirm cycles offered at {args.rate:g}/s, at most "
            f"{args.scorers} scorers at once; gunicorn {args.web_workers} sync workers, "
            "PostgreSQL, Redis, 1 Celery worker"
        )
        print(
            f"requests: {len(latencies):,} in {elapsed:.1f} s = {len(latencies) / elapsed:,.0f}/s"
        )
        print(
            f"confirmed results per second: {figures['confirmed_per_s']:,.0f} "
            f"(target ≥ {TARGETS['confirmed_per_s']})"
        )
        print(
            f"latency p50 {figures['p50_ms']:.0f} ms, p95 {figures['p95_ms']:.0f} ms "
            f"(target < {TARGETS['p95_ms']}), p99 {figures['p99_ms']:.0f} ms"
        )
        print(
            f"standings current {catch_up:.2f} s after the last confirmation "
            f"(target < {TARGETS['standings_s']})"
        )
        print("CPU per confirmed result (ms), while the cycles ran:")
        for group, before in cpu_before.items():
            print(f"  {group:14} {(cpu_after[group] - before) / done * 1000:6.2f}")
        total = sum(cpu_after.values()) - sum(cpu_before.values())
        share = total / elapsed / os.cpu_count()
        print(f"  {'all':14} {total / done * 1000:6.2f} ({share:.0%} of the cores)")
    finally:
        for process in processes:
            stop(process)
        from django.db import connections

        connections.close_all()
        psql(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


if __name__ == "__main__":
    main()
