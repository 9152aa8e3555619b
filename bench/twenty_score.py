"""Twenty scoring speed: random valid board records, in process and through the command line.

The records mix what a scorer enters without a deal (dealer, auction, partner, side totals),
the same with per-seat points and tricks, and full boards with the deal (from the simulation,
with the partner, the called card and the held bonus derived from it). Prints records per
second. Target: at least 50,000 records/s in process on one core.
Run: .venv/bin/python bench/twenty_score.py [--records N] [--dealt SHARE]
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.game_scoring import measure_and_report  # noqa: E402
from engine.games.twenty.cards import FEWEST_POINTS, MOST_POINTS  # noqa: E402
from engine.games.twenty.game import GAME  # noqa: E402
from engine.games.twenty.records import score_record  # noqa: E402

SEATS = "NESW"
LEVELS = ("none", "contra", "re", "sub")


def random_record(rng: random.Random, kind: str, deals: list) -> dict:
    if kind == "dealt":
        return GAME.simulate_record(rng.choice(deals), rng, {})
    dealer = rng.choice(SEATS)
    # A random legal auction, read from the bidding box.
    auction: list[str] = []
    while True:
        options = GAME.entry_options(dealer=dealer, auction=auction)
        if options["complete"]:
            break
        calls = options["calls"]
        weights = [5 if call == "P" else 1 if "+" not in call else 0.2 for call in calls]
        auction.append(f"{options['seat']}:{rng.choices(calls, weights)[0]}")
    eldest = options["eldest"]
    record: dict = {"game": "twenty", "dealer": dealer, "auction": auction}
    if options["contract"] == "PART" and options["partner_sparrow"] is None:
        record["partner"] = rng.choice([s for s in SEATS if s != eldest])
    contras = {item: rng.choice(LEVELS) for item in options["contras"]["items"]}
    record["contras"] = {item: level for item, level in contras.items() if level != "none"}
    tricks = rng.randint(1, 9)
    record["tricks"] = tricks
    record["points"] = rng.randint(FEWEST_POINTS[tricks], MOST_POINTS[tricks])
    if kind == "per_seat":
        record["tricks"] = {"N": tricks, "E": 10 - tricks, "S": 0, "W": 0}
        points = rng.randint(FEWEST_POINTS[tricks], MOST_POINTS[tricks])
        record["points"] = {"N": points, "E": 102 - points, "S": 0, "W": 0}
        record.pop("partner", None)
        record["dealer"], record["auction"] = "W", ["N:PART", "E:P", "S:P", "W:P"]
        record["partner"] = "E"
        record["contras"] = {}
    if options["needs_last"] and kind != "per_seat":
        if options["contract"] == "PART":
            side = [options["declarer"], record.get("partner") or options["partner_sparrow"]]
        else:
            side = [options["declarer"]]
        record["last"] = {"seat": rng.choice(side), "card": rng.choice(("T1", "F", "SK"))}
    if rng.random() < 0.1:
        record["held"] = rng.choice(SEATS)
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument(
        "--dealt", type=float, default=0.2, help="share of records with the deal (default 0.2)"
    )
    args = parser.parse_args()
    rng = random.Random(2024)
    # A tournament's boards: few deals, each scored many times.
    deals = [GAME.seeded_deal("bench", table, board, 4) for table in (1, 2) for board in (1, 2)]
    deals += [GAME.deal_cards(rng, players=4, dealer=rng.choice(SEATS)) for _ in range(28)]
    kinds = rng.choices(
        ("entered", "per_seat", "dealt"),
        weights=(0.8 * (1 - args.dealt), 0.2 * (1 - args.dealt), args.dealt),
        k=args.records,
    )
    records = [random_record(rng, kind, deals) for kind in kinds]
    for record in records:
        score_record(record)  # every record is valid
    by_kind = {
        kind: [r for r, k in zip(records, kinds, strict=True) if k == kind]
        for kind in ("entered", "per_seat", "dealt")
    }
    shares = ", ".join(f"{len(chosen):,} {kind}" for kind, chosen in by_kind.items())
    measure_and_report(
        "twenty", f"random valid Twenty board records ({shares})", records, score_record, by_kind
    )


if __name__ == "__main__":
    main()
