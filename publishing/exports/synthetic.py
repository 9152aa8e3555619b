"""A made-up tournament of any size, built straight in the columns the export writers read
(no database): for the benchmark and for tests of big sheets.

Mitchell shape: K tables, K NS teams and K EW teams, K rounds, one board a table; every team
plays every table once (NS team t - r and EW team t + r at table t in round r, mod K), so
K x K matches and 2 K x K table results.
Scores are drawn from typical table results; ranking points are ranked per table and side
with the engine's ranking core; the places after every round follow the running totals.
"""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pandas as pd

from engine.games import DEFAULT_GAME, get_game
from engine.ranking import rank_groups
from publishing.exports.sheets import Stamp
from publishing.exports.workbook import Places, WorkbookData, empty_byes

#: The game played: the default game, whose typical scores and contracts are drawn below.
GAME = get_game(DEFAULT_GAME)
TYPICAL_SCORES = np.array(
    [-5000, -1000, -300, -276, -150, -60, -40, -30, -24, -21, -20, 0, 20, 21, 22, 30, 40,
     60, 62, 100, 150, 200, 248, 1000, 2500]
)  # fmt: skip
CONTRACTS = [
    "North plays Gâm, Fire named after the auction: made, +21 to NS",
    "South plays Gâm +1, no trump named in the bid: made, +100 to NS",
    "East plays Ry: lost, -150 to EW",
    "West plays Gâm +4, Water named after the auction, doubled: lost, -128 to EW",
    "North plays Lon, no trump named after the auction: made, +5000 to NS",
]


def synthetic_tournament(tables: int, seed: int = 1, places: bool = True) -> WorkbookData:
    """The tournament of ``tables`` tables (see the module docstring)."""
    k = tables
    rng = np.random.default_rng(seed)
    entrant_count = 2 * k
    entrants = pd.DataFrame(
        {
            "number": np.arange(1, entrant_count + 1, dtype=np.int64),
            "name": [f"Team {n} of the synthetic cup" for n in range(1, entrant_count + 1)],
            "players": [
                f"Player {2 * n - 1} + Player {2 * n}" for n in range(1, entrant_count + 1)
            ],
        }
    )
    round_of = np.repeat(np.arange(1, k + 1, dtype=np.int32), k)
    table_of = np.tile(np.arange(1, k + 1, dtype=np.int32), k)
    # Every team meets every table once: NS team (t - r), EW team (t + r), mod K.
    ns = (table_of - round_of) % k
    ew = k + (table_of + round_of - 2) % k
    ns_score = rng.choice(TYPICAL_SCORES, size=k * k).astype(float)
    matches = k * k
    side_ew = np.concatenate([np.zeros(matches, np.int8), np.ones(matches, np.int8)])
    tables_both = np.concatenate([table_of, table_of])
    score = np.concatenate([ns_score, -ns_score])
    points = rank_groups(tables_both.astype(np.int64) * 2 + side_ew, score, "min")
    entrant = np.concatenate([ns, ew]).astype(np.int32)
    lines = pd.DataFrame(
        {
            "table": tables_both,
            "board": np.ones(2 * matches, dtype=np.int8),
            "side": np.array(["NS", "EW"], dtype=object)[side_ew],  # two shared strings
            "round": np.concatenate([round_of, round_of]),
            "team": entrant,
            "opponent": np.concatenate([ew, ns]).astype(np.int32),
            "score": score,
            "points": points,
            "ranked": np.ones(2 * matches, dtype=bool),
            "contract": np.array(CONTRACTS, dtype=object)[
                rng.integers(0, len(CONTRACTS), 2 * matches)
            ],
            "note": np.full(2 * matches, None, dtype=object),
        }
    )
    totals = np.bincount(entrant, weights=points, minlength=entrant_count)
    # Every group ranks K results, one of each team's K: (K - rank) / (K - 1) × 100 each.
    percent = np.full(points.size, 50.0) if k == 1 else (k - points) / (k - 1) * 100
    percentages = np.round(np.bincount(entrant, weights=percent, minlength=entrant_count) / k, 2)
    order = np.argsort(totals, kind="stable")
    placed = np.searchsorted(np.sort(totals), totals, side="left") + 1
    standings = pd.DataFrame(
        {
            "team": order.astype(np.int64),
            "place": placed[order].astype(float),
            "points": totals[order],
            "percentage": percentages[order],
            "matches": np.full(entrant_count, k, dtype=np.int64),
            "status": ["ok"] * entrant_count,
        }
    )
    schedule = pd.DataFrame({"round": round_of, "table": table_of, "ns": ns, "ew": ew})
    deals = pd.DataFrame(
        {
            "table": np.arange(1, k + 1),
            "board": np.ones(k, dtype=np.int64),
            "opening": ["N"] * k,
            "deal": [_deal(seed, table) for table in range(1, k + 1)],
        }
    )
    computed_at = datetime(2025, 6, 1, 18, 30, tzinfo=UTC)
    return WorkbookData(
        stamp=Stamp(
            tournament=f"Synthetic cup, {k} tables",
            text="Complete standings: every result is in. Computed 2025-06-01 18:30 UTC.",
            computed_at=computed_at,
        ),
        entrants=entrants,
        standings=standings,
        lines=lines,
        byes=empty_byes(),
        schedule=schedule,
        table_numbers=list(range(1, k + 1)),
        deals=deals,
        rules=[("Ruleset", "Name", "manual-2016"), ("Ranking", "Ties", "min")],
        places=_places(entrant, lines["round"].to_numpy(), points, entrant_count, k)
        if places
        else None,
    )


def _places(entrant, rounds, points, entrant_count: int, k: int) -> Places:
    """Places by running totals after every round (shared places, 1, 1, 3)."""
    per_round = np.zeros((k, entrant_count))
    np.add.at(per_round, (rounds - 1, entrant), points)
    running = np.cumsum(per_round, axis=0)
    matrix = np.empty_like(running)
    for index, row in enumerate(running):
        matrix[index] = np.searchsorted(np.sort(row), row, side="left") + 1
    return Places(list(range(1, k + 1)), list(range(entrant_count)), matrix)


def _deal(seed: int, table: int) -> str:
    """The seeded deal of a table's one board, in the game's notation."""
    players = GAME.table_sizes[-1]
    return GAME.format_deal(GAME.seeded_deal(seed, table, 1, players))
