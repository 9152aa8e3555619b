"""The standings' JSON text (``RankingState.to_standings_json``), what the standings task
stores after every batch of results.

Shapes:
- one round of K tables of one board (the cluster's round, ``make cluster``): 2K teams, each
  at one table, so every team's tables list holds K - 1 byes; the text grows as K²;
- a Mitchell tournament (bench/rank.py's 100,000 results: 101 tables, 5 boards, every team
  at every table): no byes to speak of, every entry a played one.

For each it prints the text's size, the time to build it after one changed result (median of
a few), and ``json.dumps(to_standings())`` (the objects written out one by one, which the text
equals byte for byte) for comparison. Figures only: nothing fails on timing.

Run: .venv/bin/python bench/standings_json.py [--tables 200,1000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.ranking import RankingState  # noqa: E402

SCORES = [-300, -150, -60, -30, -21, 0, 20, 21, 30, 60, 150, 248]


def one_round(tables: int, seed: int = 1) -> dict:
    """Teams 1..K North-South and K+1..2K East-West, one board a table, 90 % played."""
    rng = np.random.default_rng(seed)
    matches = []
    for table in range(1, tables + 1):
        match = {"round": 1, "table": table, "board": 1, "ns": table, "ew": tables + table}
        if rng.random() < 0.9:
            score = int(rng.choice(SCORES))
            match["scores"] = {"ns": score, "ew": -score}
        matches.append(match)
    return {"teams": [{"id": n} for n in range(1, 2 * tables + 1)], "matches": matches}


def mitchell(tables: int, boards: int, seed: int = 1) -> dict:
    """K tables, K NS teams and K - 1 EW teams (a phantom), every team at every table once."""
    rng = np.random.default_rng(seed)
    matches = []
    for table in range(tables):
        for round_ in range(tables):
            ns, ew = (table - round_) % tables, tables + (table + round_) % tables
            if ew == 2 * tables - 1:
                continue
            for board in range(1, boards + 1):
                score = int(rng.choice(SCORES))
                match = {"round": round_ + 1, "table": table + 1, "board": board}
                matches.append(match | {"ns": ns, "ew": ew, "scores": {"ns": score, "ew": -score}})
    return {"teams": [{"id": n} for n in range(2 * tables - 1)], "matches": matches}


def timed(work, repeat: int) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        value = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), value


def measure(label: str, data: dict, repeat: int, compare: bool) -> None:
    started = time.perf_counter()
    state = RankingState.build(data)
    built = time.perf_counter() - started
    rng = np.random.default_rng(2)

    def after_one_result() -> str:
        index = int(rng.integers(len(state.matches)))
        score = int(rng.choice(SCORES))
        state.set_results({index: {"scores": {"ns": score, "ew": -score}}})
        return state.to_standings_json()

    seconds, text = timed(after_one_result, repeat)
    line = (
        f"{label}: {len(state.teams.ids):,} teams, text {len(text) / 1e6:,.1f} MB; "
        f"ranked from scratch {built:.2f} s; one result then the text: {seconds:.3f} s"
    )
    if compare:
        dumped, reference = timed(lambda: json.dumps(state.to_standings()), 1)
        same = "the same text" if reference == state.to_standings_json() else "A DIFFERENT TEXT"
        line += f"; json.dumps(to_standings()) {dumped:.2f} s, {same}"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", default="200,1000", help="one-round sizes, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-compare", action="store_true", help="skip json.dumps of objects")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}", flush=True)
    for tables in (int(t) for t in args.tables.split(",")):
        data = one_round(tables)
        measure(f"one round of {tables:,} tables", data, args.repeat, not args.no_compare)
    data = mitchell(101, 5)
    measure("Mitchell, 101 tables, 5 boards", data, args.repeat, not args.no_compare)
    print(f"load average after: {os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
