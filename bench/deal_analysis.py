"""The analysis job's time on the demo tournament: every part of every board's double-dummy
table solved as the job solves it (a process a part, killed at the time limit), one after
another, with the time, the positions searched and whether the part ran out of time.

    python bench/deal_analysis.py [--seconds 120] [--seed pymtheg-demo] [--tables 7]

The deals are the demo's (``manage.py load_demo`` deals them from the same seed), the table's
opening seat North and the ruleset manual-2016 as in fixtures/demo.yaml. Never fails on timing.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.games import get_game


def solve(game_id: str, deal: str, inputs: dict, part: str, seconds: float) -> dict:
    request = json.dumps({"game": game_id, "deal": deal, "inputs": inputs, "part": part})
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "engine.games.deal_analysis"],
            input=request,
            capture_output=True,
            text=True,
            timeout=seconds,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return {"timed_out": True, "wall": time.perf_counter() - started}
    answer = json.loads(done.stdout)
    answer["wall"] = time.perf_counter() - started
    return answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120.0, help="each part's time limit")
    parser.add_argument("--seed", default="pymtheg-demo")
    parser.add_argument("--tables", type=int, default=7)
    parser.add_argument("--game", default="pymtheg")
    args = parser.parse_args()
    game = get_game(args.game)
    settings = game.settings({"ruleset": "manual-2016"} if args.game == "pymtheg" else {})
    players = max(game.table_sizes)
    boards: list[float] = []
    timed_out = 0
    for table, board, deal in game.generate_deals(args.tables, 1, players, args.seed):
        inputs = game.analysis_inputs(
            settings, table=table, players=players, dealer=game.dealer(board, players)
        )
        assert inputs is not None, f"{game.title} has no analysis"
        total, nodes, late = 0.0, 0, []
        for part in game.analysis_parts(inputs):
            answer = solve(game.id, game.format_deal(deal), inputs, part, args.seconds)
            total += answer["wall"]
            if answer.get("timed_out"):
                late.append(part)
                continue
            nodes += answer["nodes"]
            print(
                f"table {table} board {board} {part:>5}: {answer['seconds']:7.2f} s solving, "
                f"{answer['wall']:7.2f} s with its process, {answer['nodes']:>12,} nodes",
                flush=True,
            )
        timed_out += bool(late)
        state = f"not analysed (out of time: {', '.join(late)})" if late else "analysed"
        print(f"table {table} board {board}: {total:.1f} s, {nodes:,} nodes, {state}", flush=True)
        boards.append(total)
    print(
        f"{len(boards)} boards: {sum(boards):.1f} s one after another, median "
        f"{statistics.median(boards):.1f} s, worst {max(boards):.1f} s a board; "
        f"{len(boards) - timed_out} of {len(boards)} analysed within {args.seconds:g} s a part"
    )


if __name__ == "__main__":
    main()
