"""One part of a deal's double-dummy table, solved in a process of its own so that a time
limit can stop it (the solver's C search cannot be interrupted from Python).

``python -m engine.games.deal_analysis`` reads one JSON object on standard input, ``{"game",
"deal", "inputs", "part"}`` (``inputs`` from ``Game.analysis_inputs``, ``part`` one of
``Game.analysis_parts``), and writes one JSON object: ``{"table": the part, "nodes": positions
searched, "seconds": time solving}``, or ``{"error": words}`` with the game's own deal error
for a deal that is not one (exit status 1). Whoever started it kills it when its time is up.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Mapping
from typing import Any

from engine.core.errors import DealError
from engine.games import get_game
from engine.solver import Solver


def solve_part(game_id: str, deal_text: str, inputs: Mapping[str, Any], part: str) -> dict:
    """The part's table, the positions searched and the seconds taken; ``DealError`` for a
    deal that is not one of the game's, ``ValueError`` for a part the game has not."""
    game = get_game(game_id)
    deal = game.parse_deal(deal_text)
    if part not in game.analysis_parts(inputs):
        raise ValueError(f"{game.title} has no analysis part {part!r}")
    solver = Solver(memory_mib=game.analysis_memory_mib)
    started = time.perf_counter()
    table = game.analyse_deal(deal, inputs, part=part, solver=solver)
    return {"table": table, "nodes": solver.nodes, "seconds": time.perf_counter() - started}


def main() -> int:
    try:
        request = json.load(sys.stdin)
        answer = solve_part(request["game"], request["deal"], request["inputs"], request["part"])
    except (DealError, ValueError, KeyError) as exc:
        json.dump({"error": str(exc)}, sys.stdout)
        return 1
    json.dump(answer, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
