"""Movement generation speed for individual players, and the balance each movement reaches.

For a set of sizes (players/players a table; default rounds: every table once, at most 12)
prints the time generate_individual_schedule takes, the rounds, max_meetings,
repeated_pairs, how the movement was made (a construction, every pair meeting at most once,
or the local search) and the time check_individual_schedule takes on it; then a few large
fields over every table (R = K), and 1000 players through the command line. Figures only:
nothing fails on timing.
With --proposals: for every game, the time ``propose`` takes on every field of 4 to 200
entrants (each proposal drawn, as the sweep test does), the slowest fields, and the time of
the same sweep again once every movement is kept in memory (what a second page load costs).
Run: .venv/bin/python bench/movement.py [--sizes 16/4,30/3,...] [--rounds R] [--proposals]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.schedule import check_individual_schedule, generate_individual_schedule  # noqa: E402
from engine.schedule.individual import default_rounds  # noqa: E402
from engine.schedule.individual_construct import construct  # noqa: E402

FULL_SIZES = "64/4,100/4,200/4,400/4,1000/4"
SIZES = (
    "8/4,16/4,24/4,32/4,48/4,64/4,100/4,200/4,400/4,402/4,1000/4,12/3,30/3,20/2,17/4,18/3,13/4,"
    "40/4,57/4,2000/4"
)
HEADER = (
    f"{'players':>7} {'n':>2} {'tables':>6} {'rounds':>6} {'made by':>12} {'max':>4} "
    f"{'repeated':>8} {'gen ms':>9} {'check ms':>9} {'problems':>8}"
)


def row(players: int, per_table: int, rounds: int | None) -> str:
    rounds = rounds if rounds is not None else default_rounds(players, per_table)
    rounds = min(rounds, players // per_table)
    start = time.perf_counter()
    movement = generate_individual_schedule(players, per_table, rounds)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    problems = check_individual_schedule(movement)
    checked = time.perf_counter() - start
    made = "construction" if construct(players, per_table, rounds) is not None else "search"
    return (
        f"{players:>7} {per_table:>2} {movement['tables']:>6} {movement['rounds']:>6} "
        f"{made:>12} {movement['max_meetings']:>4} {movement['repeated_pairs']:>8} "
        f"{generated * 1000:>9.1f} {checked * 1000:>9.1f} {len(problems):>8}"
    )


def command_line_seconds(players: int, per_table: int) -> str:
    """Wall time of ``python -m engine schedule`` and ``check-schedule`` on its output."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "movement.json"
        command = ["schedule", "--game", "pyramid", "--players", str(players)]
        command += ["--per-table", str(per_table)]
        start = time.perf_counter()
        with path.open("w") as out:
            subprocess.run([sys.executable, "-m", "engine", *command], cwd=ROOT, stdout=out)
        written = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine", "check-schedule", str(path)], cwd=ROOT)
        checked = time.perf_counter() - start
    return f"schedule {written:.2f} s, check-schedule {checked:.2f} s (interpreter start included)"


def proposals_sweep(low: int = 4, high: int = 200) -> None:
    """Seconds ``propose`` takes per game over every field low..high, the slowest fields, and
    the sweep again with every movement already drawn."""
    from engine.games import GAME_IDS
    from engine.schedule.proposals import check_proposal, draw, propose

    print(f"propose on every field of {low} to {high} entrants (every proposal drawn)")
    print(f"{'game':>10} {'seconds':>8} {'again':>6} {'proposals':>9}  slowest fields (s)")
    for game in GAME_IDS:
        times = []
        count = 0
        start = time.process_time()
        for entrants in range(low, high + 1):
            before = time.process_time()
            found = propose(game, entrants)
            count += len(found["proposals"])
            times.append((time.process_time() - before, entrants))
        first = time.process_time() - start
        start = time.process_time()
        for entrants in range(low, high + 1):
            for proposal in propose(game, entrants)["proposals"]:
                assert not check_proposal(proposal, draw(game, entrants, proposal["key"]), entrants)
        again = time.process_time() - start
        slowest = ", ".join(f"{n}: {t:.2f}" for t, n in sorted(times, reverse=True)[:5])
        print(f"{game:>10} {first:8.1f} {again:6.1f} {count:9d}  {slowest}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=SIZES, help="players/per_table, comma separated")
    parser.add_argument("--rounds", type=int, help="rounds (default: every table, at most 12)")
    parser.add_argument("--proposals", action="store_true", help="time propose over 4..200")
    args = parser.parse_args()
    if args.proposals:
        proposals_sweep()
        return
    print("'made by': construction (every pair meets at most once) or local search")
    print(HEADER)
    for size in args.sizes.split(","):
        players, per_table = map(int, size.split("/"))
        print(row(players, per_table, args.rounds), flush=True)
    if args.sizes == SIZES and args.rounds is None:
        print("\nevery table once (R = K)")
        print(HEADER)
        for size in FULL_SIZES.split(","):
            players, per_table = map(int, size.split("/"))
            print(row(players, per_table, players // per_table), flush=True)
    print(
        f"\n1000 players at tables of 4 through the command line: {command_line_seconds(1000, 4)}"
    )


if __name__ == "__main__":
    main()
