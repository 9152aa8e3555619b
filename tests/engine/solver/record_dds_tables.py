"""Writes ``dds_tables.json``: DDS's table (through endplay, the version pinned in
constraints.txt) of each of the 200 seeded deals of ``test_bridge_dds.py``, which the solver's
tables are compared with. Run it again when the deals or the pinned endplay change:

    python -m tests.engine.solver.record_dds_tables
"""

from __future__ import annotations

import json

from tests.engine.solver.test_bridge_dds import RECORDED, dds_table, random_deals


def main() -> None:
    tables = [{"pbn": pbn, "table": dds_table(pbn)} for pbn in random_deals()]
    RECORDED.write_text("[\n" + ",\n".join(json.dumps(entry) for entry in tables) + "\n]\n")
    print(f"{len(tables)} tables written to {RECORDED}")


if __name__ == "__main__":
    main()
