"""The namespace cluster's figures (``make cluster``): a round through nginx over three web
hosts, two workers, beat, PostgreSQL and Redis, each host a network namespace of this machine,
with a web host and a worker killed mid-round. Needs root. Prints results lost and
duplicated, how soon the standings are current after the last result, and whether every
export file is served from every web host; see deploy/cluster/run.py.

Run: sudo .venv/bin/python bench/cluster.py [--tables 1000] [--rate 100]
"""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

if __name__ == "__main__":
    script = Path(__file__).resolve().parent.parent / "deploy" / "cluster" / "run.py"
    sys.argv[0] = str(script)
    runpy.run_path(str(script), run_name="__main__")
