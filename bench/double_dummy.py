"""Double-dummy solver speed: Pymtheg tables of seeded 60-card deals on one core, and Pyramid's.

For each deal: the time and the positions searched (nodes: the same on every machine) of the
Pymtheg table, then the median and worst time, the peak memory, and their ratio to the
targets (median 2 s, worst 30 s, 256 MiB; Pyramid 50 ms a table).

    python bench/double_dummy.py [--deals 50] [--all-openings] [--cpu 0]

The table is the rules' one (the opening seat, North, leads whoever declares: 5 searches for
the 20 numbers); ``--all-openings`` solves each strain for the four possible opening seats
(20 searches, as DDS's bridge table does). Never fails on timing.
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games.pymtheg.cards import seeded_deal
from engine.games.pymtheg.solver import tricks_by_opening, tricks_table
from engine.games.pyramid.cards import deal_cards
from engine.games.pyramid.solver import sure_tricks
from engine.solver import Solver

SEED = "double-dummy"
TARGET_MEDIAN, TARGET_WORST, TARGET_MIB, TARGET_PYRAMID_MS = 2.0, 30.0, 256, 50.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=50)
    parser.add_argument("--first", type=int, default=1, help="the first deal's number")
    parser.add_argument("--all-openings", action="store_true")
    parser.add_argument("--cpu", type=int, default=0, help="the core to run on")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {args.cpu})
    solver = Solver()
    kind = "all four opening seats, 20 searches" if args.all_openings else "North leads, 5 searches"
    print(f"Pymtheg tables ({kind}), {args.deals} deals seeded {SEED!r}, one core")
    print("seconds: CPU time of the process (on a shared machine, what one free core takes)")
    print(f"{'deal':>4} {'seconds':>8} {'wall':>8} {'nodes':>12} {'load':>5}")
    times, nodes = [], []
    for board in range(args.first, args.first + args.deals):
        deal = seeded_deal(SEED, 1, board)
        before = solver.nodes
        start, wall = time.process_time(), time.perf_counter()
        if args.all_openings:
            tricks_by_opening(deal, solver=solver)
        else:
            tricks_table(deal, solver=solver)
        elapsed = time.process_time() - start
        wall = time.perf_counter() - wall
        times.append(elapsed)
        nodes.append(solver.nodes - before)
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        print(f"{board:>4} {elapsed:>8.2f} {wall:>8.2f} {nodes[-1]:>12,} {load:>5.1f}", flush=True)
    median, worst = statistics.median(times), max(times)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"median {median:.2f} s ({median / TARGET_MEDIAN:.1f}x the {TARGET_MEDIAN:g} s target)")
    print(f"worst  {worst:.2f} s ({worst / TARGET_WORST:.1f}x the {TARGET_WORST:g} s target)")
    print(
        f"nodes  median {statistics.median(nodes):,.0f}, worst {max(nodes):,}, total {sum(nodes):,}"
    )
    print(
        f"memory peak {peak_mib:.0f} MiB for the process, table {solver.memory / 2**20:.0f} MiB "
        f"({peak_mib / TARGET_MIB:.2f}x the {TARGET_MIB} MiB target)"
    )
    if hasattr(os, "getloadavg"):
        load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
        print(f"load average at the end {load} on {os.cpu_count()} cores (CPU time rises with it)")

    rng = random.Random(SEED)
    small = Solver(memory_mib=8)
    worst_ms = 0.0
    for board in range(100):
        players = 2 + board % 3
        deal = deal_cards(rng, players=players, dealer="NESW"[board % players])
        start = time.process_time()
        sure_tricks(deal, solver=small)
        worst_ms = max(worst_ms, (time.process_time() - start) * 1000)
    print(
        f"Pyramid: 100 tables (2 to 4 players), worst {worst_ms:.1f} ms "
        f"({worst_ms / TARGET_PYRAMID_MS:.2f}x the {TARGET_PYRAMID_MS:g} ms target)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
