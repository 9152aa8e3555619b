"""Scoring speed: 100,000 random valid board records, in process and through the command line.

Prints records per second. Target: at least 50,000 records/s in process on one core.
Run: .venv/bin/python bench/score.py [--records N]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.games.pymtheg.auction import AuctionState, parse_call  # noqa: E402
from engine.games.pymtheg.cards import SEATS, Seat  # noqa: E402
from engine.games.pymtheg.scoring import score_record  # noqa: E402

TARGET_IN_PROCESS = 50_000


def random_auction(rng: random.Random, opening: Seat, direction: str) -> list[str]:
    state = AuctionState.start(opening, direction)
    calls = []
    while not state.ended:
        options = state.legal_calls()
        choice = "P" if rng.random() < 0.6 else rng.choice(options)
        call = f"{state.next_seat.name}:{choice}"
        state.apply(parse_call(call))
        calls.append(call)
    return calls


def random_tricks(rng: random.Random) -> dict[str, int]:
    cuts = sorted(rng.randint(0, 15) for _ in range(3))
    parts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 15 - cuts[2]]
    return {seat.name: n for seat, n in zip(SEATS, parts, strict=True)}


def random_record(rng: random.Random) -> dict:
    """A valid record; Ry contracts get tricks that fit them (won or lost)."""
    while True:
        opening = rng.choice(SEATS)
        direction = rng.choice(("clockwise", "counterclockwise"))
        ruleset = rng.choice(("manual-2016", "rules-1709"))
        auctions = [random_auction(rng, opening, direction)]
        if all(c.endswith(":P") for c in auctions[0]) and ruleset == "manual-2016":
            auctions.append(random_auction(rng, opening, direction))
        record = {
            "ruleset": ruleset,
            "opening": opening.name,
            "direction": direction,
            "auctions": auctions,
            "double": rng.choice(("none", "none", "x", "xx")),
            "tricks": random_tricks(rng),
        }
        last = [c for c in auctions[-1] if not c.endswith(":P")]
        if not last:
            del record["tricks"]
            record["double"] = "none"
        elif "/" not in last[-1] and ":R" not in last[-1]:
            record["trump"] = rng.choice(("fire", "earth", "water", "wind", "nt"))
        try:
            score_record(record)
        except ValueError:
            continue  # e.g. a won Ry needs all 15 tricks; draw again
        return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    args = parser.parse_args()
    rng = random.Random(2016)
    records = [random_record(rng) for _ in range(args.records)]
    lines = [json.dumps(r) for r in records]

    start = time.perf_counter()
    for record in records:
        score_record(record)
    in_process = len(records) / (time.perf_counter() - start)

    start = time.perf_counter()
    for line in lines:
        score_record(json.loads(line))
    with_json = len(records) / (time.perf_counter() - start)

    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "engine", "score", handle.name],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            check=True,
        )
        command_line = len(records) / (time.perf_counter() - start)
        assert done.stdout.count(b"\n") == len(records)
    finally:
        os.unlink(handle.name)

    print(f"records: {len(records):,} random valid board records, both rulesets")
    print(f"in process (decoded records):  {in_process:>10,.0f} records/s")
    print(f"in process (JSON lines):       {with_json:>10,.0f} records/s")
    print(f"command line (python -m engine score FILE): {command_line:>10,.0f} records/s")
    print(
        f"ratio to the target of {TARGET_IN_PROCESS:,}/s in process: "
        f"{in_process / TARGET_IN_PROCESS:.2f}"
    )


if __name__ == "__main__":
    main()
