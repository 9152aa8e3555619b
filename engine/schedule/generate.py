"""The draw-up generator: ``generate_schedule(teams, tables, sides)``.

Teams 1..n sit NS and n+1..2n sit EW in the fixed layout (``engine.schedule.layout``), with
n = ⌈teams / 2⌉. An odd number of teams adds a phantom, team 2n (an EW team): its matches
are left out and its opponent has a bye in that round (a round in which only the phantom
would play, possible at one table, is dropped). Every round a team does not play is
listed in ``byes``: the phantom's opponent, and with more teams than seats the teams sitting
out. In ``balanced`` mode the same matches are kept and each match's sides are chosen so
that every team sits NS at half its tables, rounded up or down; the one exception is 11 or 12
teams at 6 tables, where a stored Howell design (which does not split the teams into sides)
lets every pair meet at most once, something no fixed-side schedule of order 6 can do.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from engine.schedule.layout import fixed_layout, howell_6_12

SIDE_MODES = ("fixed", "balanced")
MAX_TEAMS = 2000
MAX_TABLES = 1000


class ScheduleError(ValueError):
    """A schedule that cannot be drawn up (too few teams or tables, unknown side mode...)."""


def generate_schedule(teams: int, tables: int, sides: str = "fixed") -> dict[str, Any]:
    """The docs/formats.md section 5 schedule for ``teams`` teams at ``tables`` tables."""
    _check_request(teams, tables, sides)
    rounds, round_, table, ns, ew = _draw(teams, tables, sides)
    if sides == "balanced":
        ns, ew = balance_sides(ns, ew)
    order = np.lexsort((table, round_))
    matches = [
        {"round": r, "table": t, "ns": a, "ew": b}
        for r, t, a, b in zip(
            round_[order].tolist(),
            table[order].tolist(),
            ns[order].tolist(),
            ew[order].tolist(),
            strict=True,
        )
    ]
    return {
        "teams": teams,
        "tables": tables,
        "rounds": rounds,
        "sides": sides,
        "matches": matches,
        "byes": _byes(teams, rounds, round_, ns, ew),
        "max_meetings": max_meetings(ns, ew),
    }


def _draw(
    teams: int, tables: int, sides: str
) -> tuple[int, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(rounds, round, table, ns, ew) of the real matches, all numbered from 1."""
    n = (teams + 1) // 2
    if sides == "balanced" and n == tables == 6:
        rows = howell_6_12() + 1  # no need to keep sides apart: meet once
    else:
        layout = fixed_layout(n, tables)
        rows = _phantom_last(layout.rows, n) if teams % 2 else layout.rows
        rows = rows + np.array([1, 1, 1, n + 1])
    rows = rows[(rows[:, 2] <= teams) & (rows[:, 3] <= teams)]
    played, rows[:, 0] = np.unique(rows[:, 0], return_inverse=True)
    rows[:, 0] += 1  # a round that only the phantom played (one table) is dropped
    return len(played), *rows.T


def _check_request(teams: Any, tables: Any, sides: Any) -> None:
    for name, value, low, high in (
        ("teams", teams, 2, MAX_TEAMS),
        ("tables", tables, 1, MAX_TABLES),
    ):
        if not isinstance(value, int) or isinstance(value, bool):
            raise ScheduleError(f"{name} must be a whole number, not {value!r}")
        if not low <= value <= high:
            shown = value if value.bit_length() <= 64 else "a number that large"
            raise ScheduleError(f"{name} must be between {low} and {high}, not {shown}")
    if sides not in SIDE_MODES:
        raise ScheduleError(f"sides must be 'fixed' or 'balanced', not {sides!r}")


def _phantom_last(rows: np.ndarray, n: int) -> np.ndarray:
    """Rename EW teams so that the last one, the phantom, is one that meets no NS team twice
    (whoever faced it twice would sit out twice while others never do) and, among those, the
    one whose absence leaves the fewest repeated meetings (it matters where some pairs meet
    more often than others)."""
    meetings = np.zeros((n, n), dtype=np.int64)
    np.add.at(meetings, (rows[:, 2], rows[:, 3]), 1)
    scores = []
    for phantom in range(n):
        rest = np.delete(meetings, phantom, axis=1)
        highest = int(rest.max(initial=0))
        twice = int(meetings[:, phantom].max(initial=0) > 1)
        scores.append((twice, highest, int((rest == highest).sum()), -phantom))
    phantom = -min(scores)[-1]
    names = np.arange(n)
    names[[phantom, n - 1]] = names[[n - 1, phantom]]
    return np.column_stack([rows[:, :3], names[rows[:, 3]]])


def _byes(teams: int, rounds: int, round_: np.ndarray, ns: np.ndarray, ew: np.ndarray) -> list:
    plays = np.zeros((rounds + 1, teams + 1), dtype=bool)
    plays[round_, ns] = True
    plays[round_, ew] = True
    idle_round, idle_team = np.nonzero(~plays[1:, 1:])
    return [
        {"round": r + 1, "team": t + 1}
        for r, t in zip(idle_round.tolist(), idle_team.tolist(), strict=True)
    ]


def max_meetings(first: np.ndarray, second: np.ndarray) -> int:
    """The most times any two teams face each other (0 without matches)."""
    if len(first) == 0:
        return 0
    low, high = np.minimum(first, second), np.maximum(first, second)
    _, counts = np.unique(low * (int(high.max()) + 1) + high, return_counts=True)
    return int(counts.max())


def balance_sides(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(ns, ew) for the matches ``first[i]`` v ``second[i]``, each team NS at half its matches.

    The matches are the edges of a multigraph; joining the odd-degree teams to a dummy vertex
    makes every degree even, so the edges split into closed trails. Walking each trail and
    seating the team we leave NS and the team we reach EW gives every team as many NS as EW
    seats, give or take the one dummy edge.
    """
    ends = [*zip(first.tolist(), second.tolist(), strict=True)]
    degree: dict[int, int] = {}
    for a, b in ends:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    ends += [(team, 0) for team, d in sorted(degree.items()) if d % 2]  # 0 is the dummy
    leave = _trail_directions(ends)
    real = range(len(first))
    ns = np.array([ends[i][0] if leave[i] else ends[i][1] for i in real], dtype=np.int64)
    ew = np.array([ends[i][1] if leave[i] else ends[i][0] for i in real], dtype=np.int64)
    return ns, ew


def _trail_directions(ends: list[tuple[int, int]]) -> list[bool]:
    """For each edge, True if a closed-trail walk crosses it from its first end to its second."""
    incident: dict[int, list[int]] = {}
    for edge, (a, b) in enumerate(ends):
        incident.setdefault(a, []).append(edge)
        incident.setdefault(b, []).append(edge)
    used = [False] * len(ends)
    forward = [True] * len(ends)
    for start in incident:
        _walk_trail(start, ends, incident, used, forward)
    return forward


def _walk_trail(
    start: int,
    ends: list[tuple[int, int]],
    incident: dict[int, list[int]],
    used: list[bool],
    forward: list[bool],
) -> None:
    """Walk from ``start`` along unused edges until none is left, marking each edge used and
    the direction it is crossed in."""
    vertex = start
    while True:
        edges = incident[vertex]
        while edges and used[edges[-1]]:
            edges.pop()
        if not edges:
            return  # every degree is even, so a walk can only stop where it started
        edge = edges.pop()
        used[edge] = True
        a, b = ends[edge]
        forward[edge] = a == vertex
        vertex = b if a == vertex else a
