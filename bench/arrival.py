"""Seating a late arrival (engine.schedule.arrival): how long the search takes on fields of
pairs with a phantom and of players with a table freed by a withdrawal, from round 2 on.
Figures only: nothing fails on timing.
Run: .venv/bin/python bench/arrival.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.schedule import generate_schedule  # noqa: E402
from engine.schedule.arrival import seat_pair, seat_player  # noqa: E402
from engine.schedule.individual import generate_individual_schedule  # noqa: E402


def pairs(teams: int) -> tuple[float, int, int]:
    schedule = generate_schedule(teams, (teams + 1) // 2)
    rows = [(m["round"], m["table"], m["ns"], m["ew"]) for m in schedule["matches"]]
    rounds = list(range(2, schedule["rounds"] + 1))
    start = time.perf_counter()
    placed = seat_pair(rows, range(1, teams + 1), range(1, schedule["tables"] + 1), rounds)
    return time.perf_counter() - start, len(placed), len(rounds)


def players(count: int, size: int) -> tuple[float, int, int]:
    """``count`` players, player 1 withdrawn after round 1: his tables are free from round 2."""
    movement = generate_individual_schedule(count, size, min(8, count // size))
    seatings = [
        (s["round"], s["table"], s["seats"])
        for s in movement["seatings"]
        if s["round"] == 1 or 1 not in s["seats"].values()
    ]
    tables = {t: size for t in range(1, movement["tables"] + 1)}
    rounds = list(range(2, movement["rounds"] + 1))
    start = time.perf_counter()
    placed = seat_player(seatings, range(2, count + 1), tables, rounds)
    return time.perf_counter() - start, len(placed), len(rounds)


def main() -> None:
    print("pairs (phantom):  teams  seconds  rounds seated / rounds left")
    for teams in (7, 15, 31, 63, 127, 199):
        seconds, placed, rounds = pairs(teams)
        print(f"  {teams:>4}  {seconds:8.4f}  {placed}/{rounds}")
    print("players (one withdrawn after round 1):  players/size  seconds  seated / left")
    for count, size in ((16, 4), (40, 4), (100, 4), (30, 3), (99, 3)):
        seconds, placed, rounds = players(count, size)
        print(f"  {count:>4}/{size}  {seconds:8.4f}  {placed}/{rounds}")


if __name__ == "__main__":
    main()
