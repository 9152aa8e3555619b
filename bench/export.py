"""Export speed: the results workbook of tournaments of 10, 100 and 1,000 tables.

Mitchell tournaments: K tables, 2 K teams, K rounds, one board a table; every team plays
every table once (NS team t - r, EW team t + r at table t in round r, mod K), so K x K
matches (100, 10,000 and 1,000,000 match results) and 2 K x K table results.

- 10 and 100 tables go through the real code on a real (SQLite) database: the tournament is
  stored with a confirmed result for every match, the standings task ranks it, the chart
  task ranks it after every round, then the export job writes the file (xlsx, ods, csv).
- 1,000 tables are built straight in the columns the writers read
  (``publishing.exports.synthetic``): the standings and the rows, without the ORM.

Each size runs in its own process and prints: seconds, rows written per second, peak memory
(the process's maximum resident set), the sheets written, and two floors for the same rows:
the ``csv`` module, and openpyxl's write-only mode with no styles, splitting or widths.
Targets on the 2-core machine: 100 tables under 5 s; 1,000 tables in bounded memory (under
1 GB), the Tables sheet split where it would pass 1,048,576 rows. Figures only: nothing
fails on timing.

Run: .venv/bin/python bench/export.py [--sizes 10,100,1000] [--no-floors]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_SIZES = (10, 100)
MB = 1024.0  # ru_maxrss is in kilobytes on Linux


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / MB


# --- floors: the same rows, the plainest writers -------------------------------------------


def floor_csv(sheets, work: Path) -> tuple[float, int]:
    start, rows = time.perf_counter(), 0
    with open(work / "floor.csv", "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        for sheet in sheets:
            for block in sheet.blocks():
                writer.writerows(block)
                rows += len(block)
    return time.perf_counter() - start, rows


def floor_openpyxl(sheets, work: Path) -> tuple[float, int]:
    from openpyxl import Workbook

    start, rows = time.perf_counter(), 0
    book = Workbook(write_only=True)
    for index, sheet in enumerate(sheets):
        ws = book.create_sheet(f"S{index}")
        for block in sheet.blocks():
            if not sheet.tabular:
                block = [tuple(getattr(v, "value", v) for v in row) for row in block]
            for row in block:
                ws.append(row)
            rows += len(block)
    book.save(work / "floor.xlsx")
    return time.perf_counter() - start, rows


def floors(sheets, work: Path) -> dict[str, float]:
    csv_seconds, rows = floor_csv(sheets, work)
    xlsx_seconds, _ = floor_openpyxl(sheets, work)
    return {"floor_rows": rows, "csv_seconds": csv_seconds, "openpyxl_plain_seconds": xlsx_seconds}


# --- 10 and 100 tables: the real export job on a database ----------------------------------

GAM_TRICKS = range(5, 16)


def _facts() -> list[dict]:
    """Board records with a spread of results: Gâm made and failed, Ry won and lost."""
    facts = [
        {
            "auctions": [["N:G", "E:P", "S:P", "W:P"]],
            "trump": "fire",
            "tricks": {"NS": t, "EW": 15 - t},
        }
        for t in GAM_TRICKS
    ]
    facts += [
        {"auctions": [["N:G/nt", "E:P", "S:P", "W:P"]], "tricks": {"NS": t, "EW": 15 - t}}
        for t in (8, 10, 12)
    ]
    facts += [
        {"auctions": [["N:P", "E:R", "S:P", "W:P"]], "tricks": {"N": 4, "E": 0, "S": 5, "W": 6}},
        {"auctions": [["N:P", "E:R", "S:P", "W:P"]], "tricks": {"N": 5, "E": 1, "S": 4, "W": 5}},
    ]
    return facts


def build_database_tournament(k: int, seed: int = 1, rounds: int | None = None):
    """Store a tournament of ``k`` tables with a confirmed result for every match, over
    ``rounds`` rounds (at most ``k``; default ``k``: every team at every table once)."""
    import random

    from engine.games.pymtheg.cards import format_deal, seeded_deal
    from engine.games.pymtheg.rulesets import OPTION_NAMES
    from engine.games.pymtheg.scoring import score_record
    from scoring.models import Result, Review, Submission
    from scoring.services import rebuild_progress
    from scoring.standings import mark_changed
    from tournaments.models import Board, Entrant, Match, Status, Table, Tournament

    rng = random.Random(seed)
    rounds = k if rounds is None else rounds
    tournament = Tournament.objects.create(name=f"Bench cup {k}", slug=f"bench-{k}")
    entrants = Entrant.objects.bulk_create(
        Entrant(tournament=tournament, number=n, name=f"Team {n}", player1=f"P{2 * n - 1}",
             player2=f"P{2 * n}", access_code=f"B{n:09d}")
        for n in range(1, 2 * k + 1)
    )  # fmt: skip
    tables = Table.objects.bulk_create(
        Table(tournament=tournament, number=n) for n in range(1, k + 1)
    )
    boards = Board.objects.bulk_create(
        Board(table=table, number=1, deal=format_deal(seeded_deal(seed, table.number)))
        for table in tables
    )
    matches = Match.objects.bulk_create(
        Match(
            round=r + 1,
            table=tables[t],
            north_entrant=entrants[(t - r) % k],
            east_entrant=entrants[k + (t + r) % k],
        )
        for r in range(rounds)
        for t in range(k)
    )
    rules = tournament.rules
    base = {"ruleset": rules["ruleset"], "options": {name: rules[name] for name in OPTION_NAMES},
            "opening": "N", "direction": tournament.direction}  # fmt: skip
    scored = [({**base, **facts}, score_record({**base, **facts}).as_dict()) for facts in _facts()]
    picks = [scored[rng.randrange(len(scored))] for _ in matches]
    submissions = Submission.objects.bulk_create(
        Submission(match=m, board=boards[m.table.number - 1], source="north",
                   entrant=m.north_entrant, client_id=f"bench-{i}", record=record, score=score,
                   north_result=score["ns"], east_result=score["ew"])
        for i, (m, (record, score)) in enumerate(zip(matches, picks, strict=True))
    )  # fmt: skip
    reviews = Review.objects.bulk_create(
        Review(
            match=s.match,
            board=s.board,
            submission=s,
            action="accept",
            entrant=s.match.east_entrant,
        )
        for s in submissions
    )
    Result.objects.bulk_create(
        Result(match=r.match, board=r.board, kind="confirmed", submission=r.submission, review=r,
               north_result=r.submission.north_result, east_result=r.submission.east_result)
        for r in reviews
    )  # fmt: skip
    rebuild_progress([m.pk for m in matches])  # what the services keep row by row
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.RUNNING)
    mark_changed(tournament)
    return Tournament.objects.get(pk=tournament.pk)


def database_child(k: int, with_floors: bool) -> dict:
    work = Path(tempfile.mkdtemp(prefix="pym-bench-export-"))
    os.environ.update(
        {
            "DATABASE_URL": f"sqlite:///{work / 'bench.sqlite3'}",
            "PUBLISHING_EXPORT_ROOT": str(work / "exports"),
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
    )
    os.environ.pop("CELERY_BROKER_URL", None)
    import django

    django.setup()
    from django.core.management import call_command

    from publishing import conf, selectors, services
    from publishing.exports.workbook import build_sheets
    from scoring import standings
    from scoring.models import StandingsState
    from scoring.signals import standings_stored

    call_command("migrate", verbosity=0)
    start = time.perf_counter()
    tournament = build_database_tournament(k)
    stored = time.perf_counter() - start
    # Time the standings and the charts apart (the signal would chain them).
    standings_stored.disconnect(dispatch_uid="publishing-standings")
    start = time.perf_counter()
    standings.recompute(tournament.pk)
    ranked = time.perf_counter() - start
    state = StandingsState.objects.get(tournament=tournament)
    start = time.perf_counter()
    services.refresh_chart_data(tournament, state)
    charted = time.perf_counter() - start
    out: dict = {"size": k, "path": "database", "matches": k * k, "store_seconds": stored,
                 "standings_seconds": ranked, "charts_seconds": charted, "formats": {}}  # fmt: skip
    for fmt in ("xlsx", "ods", "csv"):
        start = time.perf_counter()
        export, _ = services.request_export(
            tournament=tournament, kind="results", fmt=fmt, enqueue=False, force=True
        )
        export = services.run_export(export.pk)
        seconds = time.perf_counter() - start
        assert export.state == "done", export.error
        out["formats"][fmt] = {"seconds": seconds, "rows": export.rows, "bytes": export.size}
    out["peak_mb"] = peak_mb()
    if with_floors:
        data = selectors.workbook_data(tournament, state, tournament.chart_data, conf.chart_lines())
        out.update(floors(build_sheets(data), work))
    return out


# --- 1,000 tables: built straight in columns -----------------------------------------------


def synthetic_child(k: int, with_floors: bool) -> dict:
    from openpyxl import load_workbook

    from publishing.exports.sheets import Progress
    from publishing.exports.synthetic import synthetic_tournament
    from publishing.exports.workbook import build_sheets
    from publishing.exports.xlsx import write_xlsx

    work = Path(tempfile.mkdtemp(prefix="pym-bench-export-"))
    start = time.perf_counter()
    data = synthetic_tournament(k)
    built = time.perf_counter() - start
    built_mb = peak_mb()
    start = time.perf_counter()
    sheets = build_sheets(data)
    path = work / "results.xlsx"
    rows = write_xlsx(sheets, path, data.stamp, progress=Progress(1, None))
    seconds = time.perf_counter() - start
    out = {"size": k, "path": "synthetic", "matches": k * k, "build_seconds": built,
           "build_peak_mb": built_mb,
           "formats": {"xlsx": {"seconds": seconds, "rows": rows, "bytes": path.stat().st_size}},
           "peak_mb": peak_mb(),
           "sheets": load_workbook(path, read_only=True).sheetnames}  # fmt: skip
    path.unlink()
    if with_floors:
        out.update(floors(build_sheets(data), work))
    return out


# --- the parent: one process per size ------------------------------------------------------


def report(result: dict) -> None:
    k = result["size"]
    print(f"\n{k:,} tables: {result['matches']:,} match results ({result['path']})")
    if result["path"] == "database":
        print(f"  store the tournament (ORM, bulk):  {result['store_seconds']:8.2f} s")
        print(f"  standings task (rank_results):     {result['standings_seconds']:8.2f} s")
        print(f"  chart task (places after each of {k} rounds): {result['charts_seconds']:.2f} s")
    else:
        print(
            f"  build the columns:                 {result['build_seconds']:8.2f} s "
            f"(peak {result['build_peak_mb']:.0f} MB)"
        )
    for fmt, figures in result["formats"].items():
        rate = figures["rows"] / figures["seconds"] if figures["seconds"] else 0
        print(
            f"  export {fmt:4}: {figures['seconds']:8.2f} s, {figures['rows']:,} rows, "
            f"{rate:,.0f} rows/s, {figures['bytes'] / 1e6:.1f} MB file"
        )
    print(f"  peak memory of the process: {result['peak_mb']:.0f} MB")
    if "sheets" in result:
        print(f"  sheets: {', '.join(result['sheets'])}")
    if "floor_rows" in result:
        rows = result["floor_rows"]
        for name, key in (
            ("csv module", "csv_seconds"),
            ("openpyxl plain", "openpyxl_plain_seconds"),
        ):
            seconds = result[key]
            print(f"  floor, {name:15}: {seconds:8.2f} s, {rows / seconds:,.0f} rows/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--no-floors", action="store_true")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child = database_child if args.child in DATABASE_SIZES else synthetic_child
        print(json.dumps(child(args.child, not args.no_floors)))
        return
    for size in (int(s) for s in args.sizes.split(",")):
        command = [sys.executable, __file__, "--child", str(size)]
        if args.no_floors:
            command.append("--no-floors")
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            print(f"\n{size} tables: failed\n{done.stderr[-3000:]}")
            continue
        report(json.loads(done.stdout.strip().splitlines()[-1]))
    print("\ntargets: 100 tables under 5 s; 1,000 tables under 1,024 MB, Tables split in sheets")


if __name__ == "__main__":
    main()
