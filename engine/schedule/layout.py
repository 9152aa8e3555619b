"""Fixed-side layouts: who meets whom, at which table, in which round.

A layout for n NS teams and n EW teams (numbered 0..n-1 on each side) at k tables is an array
of rows (round, table, ns, ew), all 0-based, in which every team plays every table exactly once
and no team or table is used twice in a round. Meetings only happen between an NS and an EW
team, so the balance figure is the largest number of rows sharing an (ns, ew) pair.

- n = k: a pair of orthogonal Latin squares (``orthogonal_array(n, 4)``): k rounds, every NS
  team meets every EW team once. None exists for n = 2 and 6; there the stored pairs below
  reach the least possible, 2.
- n > k (more teams than seats): the order-n pair cut to its first k tables: n rounds, every
  team plays its k tables in k of them and sits out the rest, every pair meets at most once.
- n < k (more seats than teams): k = q·n + s. Each full block of n tables is an order-n pair
  played in n rounds of its own. The s spare tables join the last block in a "phase block" of
  n + s tables and n + s rounds built from three mutually orthogonal squares, so that every
  pair meets ⌈k/n⌉ times at most, the least possible, in k rounds. For the team counts without
  three orthogonal squares here (2, 3, 6, 10, 12, 14, 15, 18, 22, ...) a stored optimal block
  serves 2 and 3 teams a side; otherwise the spare tables get n rounds of their own (a cut
  block), which keeps the ⌈k/n⌉ balance at the price of n - s extra rounds.

Blocks of order 2 and 6 meet some pairs twice and others never, so each new block renames its
EW teams to favour the pairs met least so far.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from engine.schedule.orthogonal import has_orthogonal_array, orthogonal_array


@dataclass(frozen=True)
class Layout:
    """Rows (round, table, ns, ew), 0-based, over ``rounds`` rounds and ``tables`` tables."""

    rows: np.ndarray
    rounds: int
    tables: int


# Order 6 has no orthogonal pair. These two squares (row = table, column = round) are
# orthogonal on their first five tables and share only 34 distinct pairs over all six, so no
# pair meets more than twice. Found by a seeded search; checked in the tests.
_ORDER_6_NS = ("401352", "324105", "512034", "140523", "053241", "235410")
_ORDER_6_EW = ("012345", "241503", "130254", "453021", "524130", "305412")

# A Howell design H(6, 12): twelve teams at six tables in six rounds, every team once a round
# and once a table, no pair twice. With balanced sides it replaces the order-6 squares (which
# keep NS and EW apart and so must repeat a pair). One string a round, one cell a table, two
# base-12 digits a cell (teams 0..b). Found by a seeded search; checked in the tests.
_HOWELL_6_12 = (
    "09 17 26 3b 45 8a",
    "1b 04 35 28 7a 69",
    "48 6b 79 5a 02 13",
    "23 59 0a 16 8b 47",
    "6a 38 4b 07 19 25",
    "57 2a 18 49 36 0b",
)

# Optimal blocks for 2 and 3 teams a side at more tables than teams (found by exhaustive
# search): one string a round, one cell a table, "ab" = NS a meets EW b, ".." = idle table.
# Two teams a side at three tables cannot do better than three meetings of the same pair.
_SMALL_BLOCKS = {
    (2, 3): ("00 11 ..", ".. 00 11", "11 .. 00"),
    (3, 4): ("00 11 22 ..", "12 00 .. 21", ".. 22 01 10", "21 .. 10 02"),
    (3, 5): (
        "00 11 22 .. ..",
        "21 02 10 .. ..",
        ".. .. 01 10 22",
        ".. 20 .. 02 11",
        "12 .. .. 21 00",
    ),
}


def fixed_layout(n: int, tables: int) -> Layout:
    """The layout for n teams a side at ``tables`` tables (n ≥ 1, tables ≥ 1)."""
    if n >= tables:
        return _cut_block(n, tables)
    blocks, spare = divmod(tables, n)
    if spare == 0:
        return _concatenate([_full_block(n)] * blocks, n)
    if has_orthogonal_array(n, 5):
        tail = _phase_block(n, spare)
    elif (n, n + spare) in _SMALL_BLOCKS:
        tail = _stored_block(n, n + spare)
    else:
        return _concatenate([_full_block(n)] * blocks + [_cut_block(n, spare)], n)
    return _concatenate([_full_block(n)] * (blocks - 1) + [tail], n)


def square_pair(n: int) -> np.ndarray:
    """Rows (round, table, ns, ew) of an n × n pair of Latin squares, orthogonal if possible."""
    if has_orthogonal_array(n, 4):
        return orthogonal_array(n, 4)
    if n == 2:
        return np.array([[0, 0, 0, 0], [0, 1, 1, 1], [1, 0, 1, 1], [1, 1, 0, 0]])
    if n == 6:
        return np.array(
            [
                [r, t, int(_ORDER_6_NS[t][r]), int(_ORDER_6_EW[t][r])]
                for r in range(6)
                for t in range(6)
            ]
        )
    raise LookupError(f"no pair of Latin squares of order {n}")  # has_orthogonal_array covers it


def howell_6_12() -> np.ndarray:
    """Rows (round, table, team, team), 0-based, of the stored Howell design H(6, 12)."""
    return np.array(
        [
            [r, t, int(cell[0], 12), int(cell[1], 12)]
            for r, line in enumerate(_HOWELL_6_12)
            for t, cell in enumerate(line.split())
        ]
    )


def _full_block(n: int) -> Layout:
    return Layout(square_pair(n), n, n)


def _cut_block(n: int, tables: int) -> Layout:
    rows = square_pair(n)
    return Layout(rows[rows[:, 1] < tables], n, tables)


def _phase_block(n: int, spare: int) -> Layout:
    """n + spare tables in n + spare rounds from an OA(5, n) with columns (ρ, c, a, b, d).

    Cell (ρ, c) stands for the match of NS a against EW b. The first ``spare`` rounds play the
    rows ρ < spare whole, cell (ρ, c) at table c. Then round ``spare + d`` plays the n cells
    with d in the fifth column: cell (ρ, c) at spare table n + ρ if ρ < spare, else at table
    c. Each NS team has one cell in every row, column and d-class, so it plays every round
    once, tables 0..n-1 once (its columns) and the spare tables once (its rows ρ < spare).
    Pairs in rows ρ < spare meet twice, the others once.
    """
    oa = orthogonal_array(n, 5)
    row, column, ns, ew, d = oa.T
    early = row < spare
    first = np.stack([row[early], column[early], ns[early], ew[early]], axis=1)
    table = np.where(early, n + row, column)
    second = np.stack([spare + d, table, ns, ew], axis=1)
    return Layout(np.concatenate([first, second]), n + spare, n + spare)


def _stored_block(n: int, tables: int) -> Layout:
    rows = [
        [r, t, int(cell[0]), int(cell[1])]
        for r, line in enumerate(_SMALL_BLOCKS[n, tables])
        for t, cell in enumerate(line.split())
        if cell != ".."
    ]
    return Layout(np.array(rows), tables, tables)


def _concatenate(blocks: list[Layout], n: int) -> Layout:
    """Play the blocks one after another, each on its own tables.

    Without an orthogonal pair (n = 2 or 6) a block meets some pairs twice and others never,
    so each block's EW teams are renamed to meet the pairs met least so far.
    """
    parts, rounds, tables = [], 0, 0
    meetings = np.zeros((n, n), dtype=np.int64)
    for block in blocks:
        rows = block.rows
        if n in (2, 6):
            rows = _rename_ew_teams(rows, meetings)
        np.add.at(meetings, (rows[:, 2], rows[:, 3]), 1)
        parts.append(rows + np.array([rounds, tables, 0, 0]))
        rounds += block.rounds
        tables += block.tables
    return Layout(np.concatenate(parts), rounds, tables)


def _rename_ew_teams(rows: np.ndarray, meetings: np.ndarray) -> np.ndarray:
    """The renaming of EW teams that leaves the fewest pairs at the highest meeting count."""
    n = meetings.shape[0]
    block = np.zeros_like(meetings)
    np.add.at(block, (rows[:, 2], rows[:, 3]), 1)
    orders = np.array(list(itertools.permutations(range(n))))  # orders[k][f]: old name of f
    totals = meetings[:, None, :] + block[:, orders]  # (ns, renaming, new EW name)
    highest = totals.max(axis=(0, 2))
    at_highest = (totals == highest[None, :, None]).sum(axis=(0, 2))
    best = np.lexsort((at_highest, highest))[0]
    new_name = np.argsort(orders[best])
    return np.column_stack([rows[:, :3], new_name[rows[:, 3]]])
