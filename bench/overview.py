"""The director's overview page and the public list of matches (``/api/v1/.../matches/``) of
a tournament of about 2,000 and 20,000 matches.

Mitchell tournaments on a real (SQLite) database, built as ``bench/export.py`` builds its
own: 50 tables for 40 rounds (2,000 matches) and 200 tables for 100 rounds (20,000), one
board a table, a confirmed result on every board. Each request goes through the whole stack
(Django's test client, an organiser signed in, ``DEBUG`` off), answered first once to warm
up, then timed several times. Each size runs in its own process and prints the median and
the fastest time of each page, the time of ``scoring.selectors.director_overview`` alone
(the reading both pages share), and the number of queries of each page, which must not
grow with the matches. Figures only: nothing fails on timing.

Run: .venv/bin/python bench/overview.py [--sizes 2000,20000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHAPES = {2000: (50, 40), 20000: (200, 100)}  # matches: (tables, rounds)


def timed(call, repeat: int) -> dict[str, float]:
    call()  # warm up: the first request compiles the templates and fills Django's caches
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        seconds.append(time.perf_counter() - start)
    return {"median": statistics.median(seconds), "fastest": min(seconds)}


def child(matches: int, repeat: int) -> dict:
    tables, rounds = SHAPES[matches]
    work = Path(tempfile.mkdtemp(prefix="pym-bench-overview-"))
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{work / 'bench.sqlite3'}",
            "DJANGO_SETTINGS_MODULE": "config.settings",
            "DJANGO_DEBUG": "false",
        }
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from bench.export import build_database_tournament
    from scoring.selectors import director_overview
    from tournaments.models import Match
    from tournaments.permissions import organisers_group

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    tournament = build_database_tournament(tables, rounds=rounds)
    stored = time.perf_counter() - start
    organiser = User.objects.create_user("bench-organiser", password="bench-only-password")
    organiser.groups.add(organisers_group())
    client = Client()
    client.force_login(organiser)
    pages = {
        "director": reverse("scoring:director", args=[tournament.slug]),
        "matches API": reverse("api:matches", args=[tournament.slug]),
    }

    def get(url: str):
        def call() -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return call

    out = {
        "matches": Match.objects.filter(table__tournament=tournament).count(),
        "tables": tables,
        "rounds": rounds,
        "store_seconds": stored,
        "selector": timed(lambda: director_overview(tournament), repeat),
        "pages": {},
    }
    for name, url in pages.items():
        with CaptureQueriesContext(connection) as captured:
            get(url)()
        count = len(captured)  # read now: the next request clears the log it slices
        out["pages"][name] = {**timed(get(url), repeat), "queries": count}
    return out


def report(result: dict) -> None:
    print(
        f"\n{result['matches']:,} matches ({result['tables']} tables, {result['rounds']} "
        f"rounds, a confirmed result on each); stored in {result['store_seconds']:.1f} s"
    )
    for name, figures in {
        "director_overview (selector)": result["selector"],
        **result["pages"],
    }.items():
        queries = f", {figures['queries']} queries" if "queries" in figures else ""
        line = f"{figures['median']:7.3f} s median, {figures['fastest']:.3f} s fastest{queries}"
        print(f"  {name + ':':30} {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="2000,20000")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.repeat)))
        return
    for size in (int(s) for s in args.sizes.split(",")):
        if size not in SHAPES:
            print(f"\n{size} matches: not a size of this bench ({', '.join(map(str, SHAPES))})")
            continue
        command = [sys.executable, __file__, "--child", str(size), "--repeat", str(args.repeat)]
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        if done.returncode != 0:
            print(f"\n{size} matches: failed\n{done.stderr[-3000:]}")
            continue
        report(json.loads(done.stdout.strip().splitlines()[-1]))


if __name__ == "__main__":
    main()
