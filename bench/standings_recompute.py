"""One standings recompute of a big round on PostgreSQL, phase by phase: what the standings
task does between the last result accepted and the public standings current.

Builds the cluster's round (``make cluster``: K tables of one board, teams 1..K North-South
and K+1..2K East-West) in a scratch PostgreSQL database, enters a result at every table
through the director's service, then times ``standings.recompute``:

- after the last result, the worker having ranked the round before (its kept ranking brought
  up to date by the changed results: what a worker that is up does at the end of a round);
- the same from a worker that kept nothing (just started, or the other worker's turn);
- with nothing changed at all (the reconcile's look).

Each line gives the phases: reading the ranking input, ranking, writing the standing rows,
the ranking-points rows and the standings object (the compact JSON), and the whole call.
Figures only: nothing fails on timing.

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/pymtheg_bench_standings \\
     .venv/bin/python bench/standings_recompute.py [--tables 1000] [--repeat 3]
The database named is dropped and created again.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import functools
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/pymtheg_bench_standings"
PHASES = ("read", "rank", "standing rows", "points rows", "standings object")


def fresh_database(url: str) -> None:
    base, _, name = url.rpartition("/")
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", f"{base}/postgres", "-qc", sql], check=True, capture_output=True)
    environment = {**os.environ, "DATABASE_URL": url, "DJANGO_SETTINGS_MODULE": "config.settings"}
    environment.pop("CELERY_BROKER_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=environment, check=True
    )


def gam(ns_tricks: int) -> dict:
    return {
        "auctions": [["N:G", "E:P", "S:P", "W:P"]],
        "trump": "fire",
        "tricks": {"NS": ns_tricks, "EW": 15 - ns_tricks},
    }


def build_round(tables: int) -> tuple[int, list[int]]:
    from tournaments.models import Board, Entrant, Match, Status, Table, Tournament

    tournament = Tournament.objects.create(name="Big round", slug="big", status=Status.SCHEDULED)
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, number=n, name=f"Team {n}") for n in range(1, 2 * tables + 1)
    )
    table_rows = Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, tables + 1)
    )
    Board.objects.bulk_create(Board(table=t, number=1) for t in table_rows)
    matches = Match.objects.bulk_create(
        Match(
            round=1,
            table=table_rows[t],
            north_entrant=entrants[t],
            east_entrant=entrants[tables + t],
        )
        for t in range(tables)
    )
    return tournament.pk, [m.pk for m in matches]


class Phases:
    """Times the recompute's parts by wrapping the functions it calls."""

    def __init__(self) -> None:
        from scoring import standings

        self.seconds: dict[str, float] = collections.defaultdict(float)
        self.wrap(standings, "ranking_input", "read")
        self.wrap(standings, "rank", "rank")
        self.wrap(standings, "_standing_rows", "standing rows")
        self.wrap(standings, "_points_rows", "points rows")
        self.wrap(standings, "_standings_object", "standings object")

    def wrap(self, module, name: str, phase: str) -> None:
        original = getattr(module, name, None)
        if original is None:  # an older version of the code, without that part apart
            return

        @functools.wraps(original)
        def timed(*args, **kwargs):
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                self.seconds[phase] += time.perf_counter() - started

        setattr(module, name, timed)

    def measure(self, tournament_id: int) -> tuple[float, dict[str, float], str]:
        from scoring import standings

        self.seconds.clear()
        started = time.perf_counter()
        outcome = standings.recompute(tournament_id)
        return time.perf_counter() - started, dict(self.seconds), outcome


def line(label: str, runs: list[tuple[float, dict[str, float], str]]) -> str:
    total = statistics.median(run[0] for run in runs)
    parts = ", ".join(
        f"{phase} {statistics.median(run[1].get(phase, 0.0) for run in runs):.3f}"
        for phase in PHASES
    )
    outcomes = "/".join(sorted({run[2] for run in runs}))
    spread = f"{min(run[0] for run in runs):.3f}-{max(run[0] for run in runs):.3f}"
    return f"{label}: {total:.3f} s (runs {spread}; {outcomes}); {parts}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="profile one more recompute")
    parser.add_argument(
        "--again", action="store_true", help="use the round a former run left in the database"
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", DEFAULT_URL)
    print(
        f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}; seed {args.seed}"
    )
    if not args.again:
        fresh_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from scoring import services, standings
    from scoring.signals import standings_stored

    # The task is called here, in this process, phase by phase: nothing is queued. What
    # follows stored standings (the publishing app's chart and publication, the clubs'
    # ladders) is a task of its own on a worker, timed apart below.
    services.enqueue_standings_update = lambda tournament_id: None
    for uid in ("publishing-standings", "clubs-standings"):
        standings_stored.disconnect(dispatch_uid=uid)
    rnd = random.Random(args.seed)
    if args.again:
        from tournaments.models import Match

        director = get_user_model().objects.get(username="director")
        found = Match.objects.filter(table__tournament__slug="big").order_by("pk")
        matches = list(found.values_list("pk", flat=True))
        tournament_id = found[0].table.tournament_id
    else:
        director = get_user_model().objects.create_user("director", password=uuid.uuid4().hex)
        tournament_id, matches = build_round(args.tables)
    started = time.perf_counter()

    def enter(match_id: int) -> None:
        services.director_enter_result(
            match_id=match_id,
            board_number=1,
            user=director,
            facts=gam(rnd.choice([3, 6, 8, 8, 9, 10, 10, 11, 12, 15])),
            client_id=str(uuid.uuid4()),
        )

    for match_id in [] if args.again else matches:
        enter(match_id)
    print(
        f"{args.tables:,} tables, {2 * args.tables:,} teams: {len(matches):,} results entered "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )
    phases = Phases()
    first = phases.measure(tournament_id)
    print(line("first recompute (the whole round, nothing kept)", [first]), flush=True)
    after_last, cold, current = [], [], []
    for _ in range(args.repeat):
        enter(rnd.choice(matches))  # a correction: the round's last result
        after_last.append(phases.measure(tournament_id))
    print(line("after the last result, the ranking kept", after_last), flush=True)
    for _ in range(args.repeat):
        enter(rnd.choice(matches))
        standings.forget_rankings()
        cold.append(phases.measure(tournament_id))
    print(line("after the last result, nothing kept", cold), flush=True)
    for _ in range(args.repeat):
        current.append(phases.measure(tournament_id))
    print(line("nothing changed", current), flush=True)
    if args.profile:
        enter(rnd.choice(matches))
        profile = cProfile.Profile()
        profile.runcall(standings.recompute, tournament_id)
        pstats.Stats(profile).sort_stats("tottime").print_stats(25)
    from publishing.services import after_standings_stored

    started = time.perf_counter()
    after_standings_stored(tournament_id)
    print(
        f"what follows (the publishing app's task: chart data and publication, not part of "
        f"the standings being current): {time.perf_counter() - started:.3f} s",
        flush=True,
    )
    print(f"load average after: {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
