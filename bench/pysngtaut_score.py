"""Pys'ngtaut scoring speed: random valid board records, in process and through the command line.

The records are the simple player's boards (a deal, every seat's sets and hands, the god card)
at 2, 3 and 4 players in both directions, some with options, and a share of them with
penalties added. Prints records per second. Target: at least 50,000 records/s in process on
one core. Run: .venv/bin/python bench/pysngtaut_score.py [--records N]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.game_scoring import measure_and_report  # noqa: E402
from engine.games.pysngtaut.game import GAME  # noqa: E402
from engine.games.pysngtaut.records import score_record  # noqa: E402

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
    subsets = {
        "with up (no deal)": [r for r in records if "deal" not in r],
        "with deal": [r for r in records if "deal" in r],
    }
    measure_and_report(
        "pysngtaut",
        f"valid Pys'ngtaut board records ({len(distinct):,} distinct simulated boards; "
        f"{len(subsets['with deal']):,} with the deal)",
        records,
        score_record,
        subsets,
    )


if __name__ == "__main__":
    main()
