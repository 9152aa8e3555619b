"""Pyramid scoring speed: random valid board records, in process and through the command line.

The records mix what a scorer enters (``won``), a cross-check per seat (``tricks``) and full
played boards (``deal`` and ``play``, from the simulation), at 2, 3 and 4 players, in both
directions. Prints records per second. Target: at least 50,000 records/s in process on one core.
Run: .venv/bin/python bench/pyramid_score.py [--records N] [--played SHARE]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.game_scoring import measure_and_report  # noqa: E402
from engine.games.pyramid.game import GAME  # noqa: E402
from engine.games.pyramid.records import score_record  # noqa: E402

TRUMPS = ("spades", "hearts", "diamonds", "clubs", "nt", "S", "h", "NT")
DIRECTIONS = ("clockwise", "counterclockwise")


def random_tricks(rng: random.Random, players: int) -> dict[str, int]:
    cuts = sorted(rng.randint(0, 6) for _ in range(players - 1))
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, 6], strict=True)]
    return dict(zip("NESW"[:players], parts, strict=False))


def random_record(rng: random.Random, kind: str) -> dict:
    players = rng.choice((2, 3, 4))
    dealer = "NESW"[rng.randrange(players)]
    direction = rng.choice(DIRECTIONS)
    if kind == "play":
        deal = GAME.deal_cards(rng, players=players, dealer=dealer)
        return GAME.simulate_record(deal, rng, {"direction": direction})
    record = {
        "game": "pyramid",
        "players": players,
        "dealer": dealer,
        "direction": direction,
        "declared": rng.randint(0, 6),
        "trump": rng.choice(TRUMPS),
    }
    if kind == "won":
        record["won"] = rng.randint(0, 6)
    else:
        record["tricks"] = random_tricks(rng, players)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument(
        "--played", type=float, default=0.05, help="share of full played records (default 0.05)"
    )
    args = parser.parse_args()
    rng = random.Random(2024)
    kinds = rng.choices(
        ("won", "tricks", "play"),
        weights=(0.7 * (1 - args.played), 0.3 * (1 - args.played), args.played),
        k=args.records,
    )
    records = [random_record(rng, kind) for kind in kinds]
    for record in records[:1000]:
        score_record(record)  # every record is valid
    by_kind = {
        f"with {kind}": [r for r, k in zip(records, kinds, strict=True) if k == kind]
        for kind in ("won", "tricks", "play")
    }
    shares = ", ".join(f"{len(chosen):,} {kind[5:]}" for kind, chosen in by_kind.items())
    measure_and_report(
        "pyramid", f"random valid Pyramid board records ({shares})", records, score_record, by_kind
    )


if __name__ == "__main__":
    main()
