"""Schedule generation and validation speed, and the balance each schedule reaches.

For K = 3..60, 100, 250 and 500 tables with 2K teams and fixed sides, prints the generation
time, max_meetings (1 is the promise for every K but 6) and the time check_schedule takes on
the result; then a few other team counts (odd, fewer and more teams than seats, balanced).
Target: K = 500 (1,000 teams) generated in under 2 s. Never fails on timing.
Run: .venv/bin/python bench/schedule.py [--quick]
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.schedule import check_schedule, generate_schedule  # noqa: E402

TARGET_SECONDS_K500 = 2.0


def measure(teams: int, tables: int, sides: str = "fixed") -> tuple[dict, float, float, int]:
    start = time.perf_counter()
    schedule = generate_schedule(teams, tables, sides)
    generated = time.perf_counter() - start
    start = time.perf_counter()
    problems = check_schedule(schedule)
    checked = time.perf_counter() - start
    return schedule, generated, checked, len(problems)


def best_possible(teams: int, tables: int) -> int:
    """The lower bound on max_meetings with fixed sides: ⌈K/n⌉ with n teams a side."""
    n = (teams + 1) // 2
    return 1 if n >= tables else math.ceil(tables / n)


def row(teams: int, tables: int, sides: str = "fixed") -> str:
    schedule, generated, checked, problems = measure(teams, tables, sides)
    return (
        f"{teams:>6} {tables:>6} {sides:>9} {schedule['rounds']:>6} "
        f"{schedule['max_meetings']:>5} {best_possible(teams, tables):>5} "
        f"{generated * 1000:>10.1f} {checked * 1000:>10.1f} {problems:>8}"
    )


HEADER = (
    f"{'teams':>6} {'tables':>6} {'sides':>9} {'rounds':>6} {'max':>5} {'bound':>5} "
    f"{'gen ms':>10} {'check ms':>10} {'problems':>8}"
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip K = 3..60")
    args = parser.parse_args()
    print("2K teams at K tables, fixed sides ('bound': ⌈K/n⌉ for n teams a side; K = 2, 6: 2)")
    print(HEADER)
    for k in ([] if args.quick else list(range(3, 61))) + [100, 250, 500]:
        print(row(2 * k, k))
    print()
    print("other team counts")
    print(HEADER)
    others = [
        (999, 500, "fixed"),
        (1000, 500, "balanced"),
        (2000, 500, "fixed"),
        (1500, 1000, "fixed"),
        (41, 20, "fixed"),
        (30, 20, "fixed"),
        (24, 20, "fixed"),
        (20, 13, "fixed"),
        (12, 6, "fixed"),
        (11, 6, "balanced"),
        (64, 20, "balanced"),
        (200, 150, "fixed"),
    ]
    for teams, tables, sides in others:
        print(row(teams, tables, sides))
    _, generated, _, _ = measure(1000, 500)
    verdict = "met" if generated < TARGET_SECONDS_K500 else "MISSED"
    print(f"\nK = 500, 1,000 teams: {generated:.3f} s (target {TARGET_SECONDS_K500} s: {verdict})")
    print(f"the same through the command line: {command_line_seconds(1000, 500)}")


def command_line_seconds(teams: int, tables: int) -> str:
    """Wall time of ``python -m engine schedule`` and ``check-schedule`` on its output."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "schedule.json"
        start = time.perf_counter()
        with path.open("w") as out:
            command = ["schedule", "--teams", str(teams), "--tables", str(tables)]
            subprocess.run([sys.executable, "-m", "engine", *command], cwd=ROOT, stdout=out)
        written = time.perf_counter() - start
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "engine", "check-schedule", str(path)], cwd=ROOT)
        checked = time.perf_counter() - start
    return f"schedule {written:.2f} s, check-schedule {checked:.2f} s (interpreter start included)"


if __name__ == "__main__":
    main()
