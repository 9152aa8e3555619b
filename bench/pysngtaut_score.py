"""Pys'ngtaut scoring speed: random valid board records, in process and through the command line.

The records are the simple player's boards (a deal, every seat's sets and hands, the god card)
at 2, 3 and 4 players in both directions, some with options, and a share of them with
penalties added. Prints records per second. Target: at least 50,000 records/s in process on
one core. Run: .venv/bin/python bench/pysngtaut_score.py [--records N]
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

from engine.games.pysngtaut.game import GAME  # noqa: E402
from engine.games.pysngtaut.records import score_record  # noqa: E402

TARGET_IN_PROCESS = 50_000
FLAGS = ("same_colour_sets", "face_wild_triple", "own_sets_offset", "god_draws_seven")
KINDS = ("improper_meld", "out_of_turn")


def random_record(rng: random.Random, with_deal: bool) -> dict:
    players = rng.choice((2, 3, 4))
    dealer = "NESW"[rng.randrange(players)]
    settings = {"direction": rng.choice(("clockwise", "counterclockwise"))}
    for name in FLAGS:
        if rng.random() < 0.1:
            settings[name] = "on"
    deal = GAME.deal_cards(rng, players=players, dealer=dealer)
    record = GAME.simulate_record(deal, rng, GAME.settings(settings))
    if rng.random() < 0.2:
        seat = rng.choice("NESW"[:players])
        kind = rng.choice(KINDS)
        if kind == "out_of_turn" or seat != record.get("winner"):
            record["penalties"] = [{"seat": seat, "kind": kind}]
    if not with_deal:
        # What the scorer sends: the turned-up card and the players instead of the deal.
        text = record.pop("deal")
        record["players"] = players
        record["up"] = text.split()[0][2:]
    return record


def rate(records: list, score) -> float:
    start = time.perf_counter()
    for record in records:
        score(record)
    return len(records) / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=20_000)
    parser.add_argument(
        "--with-deal", type=float, default=0.1, help="share of records carrying the deal"
    )
    args = parser.parse_args()
    rng = random.Random(2024)
    distinct = [random_record(rng, rng.random() < args.with_deal) for _ in range(2000)]
    records = [distinct[i % len(distinct)] for i in range(args.records)]
    for record in distinct:
        score_record(record)  # every record is valid
    lines = [json.dumps(r) for r in records]
    with_deal = [r for r in records if "deal" in r]
    without = [r for r in records if "deal" not in r]

    in_process = rate(records, score_record)
    with_json = rate(lines, lambda line: score_record(json.loads(line)))
    per_kind = {
        "up (no deal)": rate(without, score_record),
        "deal": rate(with_deal, score_record) if with_deal else None,
    }

    command_line = None
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "engine", "score", "--game", "pysngtaut", handle.name],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        elapsed = time.perf_counter() - start
        if done.returncode == 0 and done.stdout.count(b"\n") == len(records):
            command_line = len(records) / elapsed
        else:
            problem = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
            print(f"command line: not measured ({problem[0]})")
    finally:
        os.unlink(handle.name)

    print(
        f"records: {len(records):,} valid Pys'ngtaut board records "
        f"({len(distinct):,} distinct simulated boards; {len(with_deal):,} with the deal)"
    )
    print(f"in process (decoded records):  {in_process:>10,.0f} records/s")
    print(f"in process (JSON lines):       {with_json:>10,.0f} records/s")
    for kind, value in per_kind.items():
        if value is not None:
            print(f"  records with {kind + ':':<14}      {value:>10,.0f} records/s")
    if command_line is not None:
        print(
            f"command line (python -m engine score --game pysngtaut FILE): {command_line:>10,.0f}"
        )
    print(
        f"ratio to the target of {TARGET_IN_PROCESS:,}/s in process: "
        f"{in_process / TARGET_IN_PROCESS:.2f}"
    )


if __name__ == "__main__":
    main()
