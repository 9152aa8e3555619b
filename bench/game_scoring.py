"""What the benches of a game's scoring share: records scored per second in process, from
JSON lines and through ``python -m engine score --game G FILE``, printed the same way with
the ratio to the target of 50,000 records a second in process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGET_IN_PROCESS = 50_000


def rate(records: list, score: Callable[[Any], Any]) -> float:
    """Records scored per second."""
    start = time.perf_counter()
    for record in records:
        score(record)
    return len(records) / (time.perf_counter() - start)


def command_line_rate(game: str, lines: list[str]) -> float | None:
    """Records a second through the command line, process start included; None (and why,
    printed) when the command failed."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as handle:
        handle.write("\n".join(lines) + "\n")
    try:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "engine", "score", "--game", game, handle.name],
            cwd=ROOT,
            capture_output=True,
            check=False,
        )
        elapsed = time.perf_counter() - start
    finally:
        os.unlink(handle.name)
    if done.returncode == 0 and done.stdout.count(b"\n") == len(lines):
        return len(lines) / elapsed
    problem = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["?"]
    print(f"command line: not measured ({problem[0]})")
    return None


def measure_and_report(
    game: str,
    description: str,
    records: list[dict[str, Any]],
    score: Callable[[Any], Any],
    subsets: Mapping[str, list[dict[str, Any]]],
) -> None:
    """Time ``score`` on the records (decoded, as JSON lines, per subset, on the command line)
    and print the figures."""
    lines = [json.dumps(record) for record in records]
    in_process = rate(records, score)
    with_json = rate(lines, lambda line: score(json.loads(line)))
    per_subset = {name: rate(chosen, score) for name, chosen in subsets.items() if chosen}
    command_line = command_line_rate(game, lines)
    print(f"records: {len(records):,} {description}")
    print(f"in process (decoded records):  {in_process:>10,.0f} records/s")
    print(f"in process (JSON lines):       {with_json:>10,.0f} records/s")
    for name, value in per_subset.items():
        print(f"  records {name + ':':<22} {value:>10,.0f} records/s")
    if command_line is not None:
        print(f"command line (python -m engine score --game {game} FILE): {command_line:>10,.0f}")
    print(
        f"ratio to the target of {TARGET_IN_PROCESS:,}/s in process: "
        f"{in_process / TARGET_IN_PROCESS:.2f}"
    )
