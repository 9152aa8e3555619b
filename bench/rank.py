"""Ranking speed: tournaments of 10,000, 100,000 and 1,000,000 table results.

A table result is one team's result in one match (a match gives two). The tournaments have a
Mitchell shape: K tables, K NS teams and K - 1 EW teams (the missing one is a phantom, so
every NS team has a bye at one table), B boards per table, every team at every table once;
2% of the matches are not played yet. Scores are given directly, drawn from typical table
results so that ties are common. Each (table, board) ranks a few hundred results.

For each size it prints:
- full: the vectorised core on arrays (disqualification rule, ranking, byes, totals, places);
- floor: a bare ``np.argsort`` of the same scores, and the ratio full / floor;
- update: one changed result in a ``RankingState`` (median and worst of many);
- to_standings and rank_results (the whole path from the decoded JSON object to the
  standings object: checking every match, building every output row), up to 100,000.

Targets on the 2-core machine: 1,000,000 results fully ranked in under 2 s; one incremental
update on the 100,000-result tournament under 10 ms. Figures only: nothing fails on timing.
Run: .venv/bin/python bench/rank.py [--sizes 10000,100000,1000000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.ranking import RankingState, rank_results  # noqa: E402
from engine.ranking.core import effective_scores, places, rank_arrays  # noqa: E402

TYPICAL_SCORES = np.array(
    [-5000, -1000, -300, -276, -150, -60, -40, -30, -24, -21, -20, 0, 20, 21, 22, 30, 40,
     60, 62, 100, 150, 200, 248, 1000, 2500]
)  # fmt: skip
SHAPES = {10_000: (51, 2), 100_000: (101, 5), 1_000_000: (251, 8)}  # results: (tables, boards)
UPDATES = 200


@dataclass
class Tournament:
    """Matches as arrays: one row per match (one board at one table in one round)."""

    n_teams: int
    n_table_boards: int
    ns: np.ndarray
    ew: np.ndarray
    table: np.ndarray
    board: np.ndarray
    round: np.ndarray
    table_board: np.ndarray
    ns_score: np.ndarray
    ew_score: np.ndarray
    played: np.ndarray

    @property
    def results(self) -> int:
        return 2 * self.ns.size


def mitchell(tables: int, boards: int, seed: int) -> Tournament:
    rng = np.random.default_rng(seed)
    t, r, b = np.meshgrid(np.arange(tables), np.arange(tables), np.arange(boards), indexing="ij")
    t, r, b = t.ravel(), r.ravel(), b.ravel()
    ns, ew = (t - r) % tables, tables + (t + r) % tables
    real = ew != 2 * tables - 1  # the last EW team is a phantom
    t, r, b, ns, ew = t[real], r[real], b[real], ns[real], ew[real]
    count = t.size
    ns_score = rng.choice(TYPICAL_SCORES, count).astype(np.float64)
    ew_score = -ns_score
    return Tournament(
        n_teams=2 * tables - 1,
        n_table_boards=tables * boards,
        ns=ns,
        ew=ew,
        table=t + 1,
        board=b + 1,
        round=r + 1,
        table_board=t * boards + b,
        ns_score=ns_score,
        ew_score=ew_score,
        played=rng.random(count) >= 0.02,
    )


def full_ranking(tour: Tournament) -> np.ndarray:
    """Everything the standings need, from the match arrays; returns the places."""
    n_teams, n_tb = tour.n_teams, tour.n_table_boards
    disqualified = np.zeros(n_teams, dtype=bool)
    ns, ew, ranked, _pending = effective_scores(
        tour.ns_score, tour.ew_score, tour.played, disqualified[tour.ns], disqualified[tour.ew]
    )
    teams = np.stack([tour.ns, tour.ew], axis=1).ravel()
    groups = np.stack([2 * tour.table_board, 2 * tour.table_board + 1], axis=1).ravel()
    scores = np.stack([ns, ew], axis=1).ravel()
    appear = np.bincount(teams * n_tb + groups // 2, minlength=n_teams * n_tb)
    sides = np.bincount(teams * 2 + groups % 2, minlength=n_teams * 2).reshape(n_teams, 2)
    result = rank_arrays(
        teams, groups, scores, np.repeat(ranked, 2), appear.reshape(n_teams, n_tb), sides, "min"
    )
    return places(result.points, ~disqualified)


def as_data(tour: Tournament) -> dict:
    teams = [{"id": f"T{n + 1}", "name": f"Team {n + 1}"} for n in range(tour.n_teams)]
    matches = []
    columns = (tour.round, tour.table, tour.board, tour.ns, tour.ew, tour.ns_score, tour.played)
    for round_, table, board, ns, ew, score, played in zip(
        *(c.tolist() for c in columns), strict=True
    ):
        match = {"round": round_, "table": table, "board": board, "ns": f"T{ns + 1}"}
        match["ew"] = f"T{ew + 1}"
        if played:
            match["scores"] = {"ns": int(score), "ew": -int(score)}
        matches.append(match)
    return {"ruleset": "manual-2016", "ties": "min", "teams": teams, "matches": matches}


def best_of(repeats: int, action) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def update_times(state: RankingState, count: int, seed: int) -> list[float]:
    rng = np.random.default_rng(seed)
    times = []
    for index in rng.integers(0, len(state.matches), count).tolist():
        score = int(rng.choice(TYPICAL_SCORES))
        start = time.perf_counter()
        state.set_result(index, scores={"ns": score, "ew": -score})
        times.append(time.perf_counter() - start)
    return times


def report(size: int, with_dict: bool) -> None:
    tables, boards = SHAPES[size]
    tour = mitchell(tables, boards, seed=size)
    scores = np.stack([tour.ns_score, tour.ew_score], axis=1).ravel()
    full = best_of(3, lambda: full_ranking(tour))
    floor = best_of(3, lambda: np.argsort(scores))
    print(
        f"\n{tour.results:,} table results: {tour.n_teams} teams, {tables} tables, "
        f"{boards} boards, {tour.results // (2 * tour.n_table_boards)} results per side "
        "per table and board"
    )
    print(f"  full ranking (vectorised core): {full * 1000:9.1f} ms")
    print(f"  floor (np.argsort of the scores): {floor * 1000:7.1f} ms")
    print(f"  full / floor: {full / floor:.1f}")
    data = as_data(tour)
    start = time.perf_counter()
    state = RankingState.build(data)
    build = time.perf_counter() - start
    times = update_times(state, UPDATES, seed=size)
    print(f"  RankingState.build from the dict: {build * 1000:7.1f} ms")
    print(
        f"  one changed result (incremental): median {statistics.median(times) * 1000:.3f} ms, "
        f"worst {max(times) * 1000:.3f} ms over {UPDATES}"
    )
    if with_dict:
        start = time.perf_counter()
        state.to_standings()
        print(
            f"  to_standings() (every output row rebuilt): "
            f"{(time.perf_counter() - start) * 1000:.1f} ms"
        )
        start = time.perf_counter()
        rank_results(data)
        print(
            f"  rank_results on the dict (check, rank, build standings): "
            f"{(time.perf_counter() - start) * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for size in sizes:
        if size not in SHAPES:
            parser.error(f"size {size}: choose from {', '.join(map(str, SHAPES))}")
        report(size, with_dict=size <= 100_000)
    print("\ntargets: 1,000,000 results under 2,000 ms; one update at 100,000 under 10 ms")


if __name__ == "__main__":
    main()
