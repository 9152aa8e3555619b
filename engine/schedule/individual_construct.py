"""Constructions of movements for individuals: who sits where, round by round.

A movement is held here as a *grid*, an integer array of shape (rounds, tables, per_table):
``grid[r, t, s]`` is the player (0-based) at seat s of table t in round r, all 0-based. The
players missing from a round sit out. Every grid built here is *valid*: nobody plays twice in
a round and nobody visits a table twice; each player sits out at most once.

Players are first *slots*: with K tables and n seats, slot (s, v) for s < n and v < K is the
player ``s·K + v``. A family of *columns* tells, for each round, at which table each value of
the column sits; a seat is a column, and a column in which no value ever comes back to a table
keeps the no-revisit rule. Two constructions give columns in which two players of different
columns meet at most once:

- an orthogonal array OA(w, K) (``engine.schedule.orthogonal``): rows (round, table, c_1, ...),
  any two columns showing every pair of symbols once. The round and table columns make each
  other column a Latin square: row r, column t holds the player of that seat. For K a prime
  power this is the finite field: the player of seat s (step m_s ≠ 0) and value v sits at table
  v + r·m_s, so he keeps his seat and moves m_s tables a round;
- steps in the integers modulo K: table (v + r·m_s) mod K. Two players of seats s, s' meet in
  rounds r and r' only if (m_s - m_s')·(r - r') ≡ 0 mod K, and a player comes back to a table
  only if m_s·(r - r') ≡ 0, so steps whose differences (and themselves) have an order of at
  least R modulo K give R rounds without a repeat, for any K (small steps 1, 2, ... n work
  while R ≤ K / n or so).

With b = P - n·K > 0 leftover players, one more column (the *extra* column) carries them: extra
player e follows value e of that column, and in each round he takes the seat of one of the n
slots at his table, who sits out. A slot may sit out only once; which slot an extra replaces is
a bipartite matching (each demand has n candidates and, when the extra column meets every slot
at most once, each slot at most b < n demands, so by Hall's theorem the matching exists).

When neither construction reaches R rounds without a repeat, ``starting_grid`` gives a valid
start for the local search (``engine.schedule.individual_search``): the best steps modulo K,
else a round-by-round assignment by augmenting paths.
"""

from __future__ import annotations

import functools
import itertools
import math
import random

import numpy as np

from engine.schedule import orthogonal

# Difference matrices (K, k; 1) over a group G of order K: k rows, in which any two rows differ,
# column by column, by every element of G once. Developing one (row i, column c, element g ->
# D[i][c] + g) and adding the column number gives an OA(k + 1, K). Normalised: row 0 is zero
# and row 1 the identity, so the rows stored (from row 2) are orthomorphisms of G, any two of
# them orthogonal. Found by a seeded search (a clique search among the 16,512 normalised
# orthomorphisms for order 12, a randomised backtracking for order 15); checked in the tests.
# They reach the orders that the field, product and Wilson constructions of
# ``engine.schedule.orthogonal`` miss: OA(7, 12) (5 mutually orthogonal Latin squares of order
# 12, Johnson, Dulmage and Mendelsohn 1961) and OA(6, 15).
_DIFFERENCE_MATRICES: dict[int, tuple[str, tuple[tuple[int, ...], ...]]] = {
    # Z2 × Z2 × Z3, the element (a, b, c) numbered a + 2b + 4c.
    12: (
        "Z2xZ2xZ3",
        (
            (0, 11, 10, 7, 9, 6, 4, 2, 3, 8, 5, 1),
            (0, 10, 4, 2, 1, 8, 9, 5, 11, 7, 6, 3),
            (0, 3, 11, 8, 7, 4, 10, 9, 6, 5, 1, 2),
            (0, 2, 7, 5, 8, 10, 3, 1, 4, 6, 11, 9),
        ),
    ),
    # Z15.
    15: (
        "Z15",
        (
            (0, 4, 7, 11, 14, 1, 8, 6, 9, 13, 2, 5, 3, 10, 12),
            (0, 7, 6, 13, 12, 8, 4, 3, 2, 14, 11, 10, 9, 5, 1),
            (0, 9, 1, 10, 2, 7, 12, 4, 11, 5, 14, 6, 13, 3, 8),
        ),
    ),
}

# Steps tried for the construction modulo K (the smallest ones with a long enough order).
_STEP_CANDIDATES = 64
# Steps compared for the best (not repeat-free) start of the search.
_START_CANDIDATES = 12
# Depth-first search nodes allowed when looking for repeat-free steps.
_STEP_SEARCH_NODES = 20_000


def construct(players: int, per_table: int, rounds: int) -> np.ndarray | None:
    """A valid grid in which no two players meet twice, if a construction reaches it; else None."""
    tables = players // per_table
    extra = players - per_table * tables
    if rounds == 1:
        return _first_round(players, per_table)
    count = per_table + (1 if extra else 0)  # the seats' columns, and one for the extras
    if has_array(tables, count + 2):
        columns = _array_columns(tables, count + 2, rounds)
        grid = _with_extras(columns, players, per_table, rounds)
        if grid is not None:
            return grid
    steps = repeat_free_steps(tables, rounds, count)
    if steps is not None:
        return _with_extras(_step_columns(tables, rounds, steps), players, per_table, rounds)
    return None


def starting_grid(players: int, per_table: int, rounds: int, seed: int) -> np.ndarray:
    """A valid grid to improve: the steps modulo K with the fewest repeats (or the orthogonal
    array's seats when one exists), else a round-by-round assignment."""
    tables = players // per_table
    extra = players - per_table * tables
    count = per_table + (1 if extra else 0)
    if has_array(tables, per_table + 2):
        columns = _array_columns(tables, per_table + 2, rounds)
        step = best_steps(tables, rounds, 1)[0]
        columns = np.concatenate([columns, _step_columns(tables, rounds, [step])], axis=2)
    else:
        columns = _step_columns(tables, rounds, best_steps(tables, rounds, count))
    grid = _with_extras(columns, players, per_table, rounds)
    if grid is not None:
        return grid
    rng = random.Random(seed)
    for _attempt in range(100):
        grid = _assigned_rounds(players, per_table, rounds, rng)
        if grid is not None:
            return grid
    raise AssertionError(f"no valid movement found for {players}/{per_table}/{rounds}")


def _first_round(players: int, per_table: int) -> np.ndarray:
    tables = players // per_table
    return np.arange(tables * per_table, dtype=np.int64).reshape(1, tables, per_table)


# --- columns -----------------------------------------------------------------------------------
# ``columns[r, t, c]`` is the value of column c sitting at table t in round r: every value of a
# column once a round, and never twice at one table.


def has_array(order: int, width: int) -> bool:
    """Whether ``array(order, width)`` has a construction."""
    return _array_plan(order, width) is not None


def array(order: int, width: int) -> np.ndarray:
    """An OA(width, order): ``engine.schedule.orthogonal``'s, a stored difference matrix, or a
    direct product of those (rows of the first factor times the order of the second, plus a
    row of the second)."""
    plan = _array_plan(order, width)
    if plan is None:
        raise LookupError(f"no orthogonal array OA({width}, {order}) is known here")
    if plan[0] == "orthogonal":
        return orthogonal.orthogonal_array(order, width)
    if plan[0] == "difference":
        return _developed(order, width)
    _, first, second = plan
    a, b = array(first, width), array(second, width)
    return (a[:, None, :] * second + b[None, :, :]).reshape(-1, width)


@functools.cache
def _array_plan(order: int, width: int) -> tuple | None:
    if orthogonal.has_orthogonal_array(order, width):
        return ("orthogonal",)
    if order in _DIFFERENCE_MATRICES and width <= len(_DIFFERENCE_MATRICES[order][1]) + 3:
        return ("difference",)
    for first in range(2, math.isqrt(order) + 1):
        if order % first == 0 and has_array(first, width) and has_array(order // first, width):
            return ("product", first, order // first)
    return None


def _developed(order: int, width: int) -> np.ndarray:
    """The OA(width, K) of a stored difference matrix: columns c, then D[i][c] + g."""
    group, stored = _DIFFERENCE_MATRICES[order]
    elements = np.arange(order, dtype=np.int64)
    if group == "Z2xZ2xZ3":
        a, b, c = elements & 1, (elements >> 1) & 1, elements >> 2
        add = (
            (a[:, None] ^ a[None, :])
            + 2 * (b[:, None] ^ b[None, :])
            + 4 * ((c[:, None] + c[None, :]) % 3)
        )
    else:
        add = (elements[:, None] + elements[None, :]) % order
    matrix = np.array([[0] * order, list(range(order)), *stored], dtype=np.int64)
    column, shift = np.divmod(np.arange(order * order, dtype=np.int64), order)
    columns = [column] + [add[row[column], shift] for row in matrix]
    return np.stack(columns[:width], axis=1)


def _array_columns(tables: int, width: int, rounds: int) -> np.ndarray:
    """Columns from an OA(width, K): rows with round < R, indexed by (round, table)."""
    rows = array(tables, width)
    rows = rows[rows[:, 0] < rounds]
    columns = np.empty((rounds, tables, width - 2), dtype=np.int64)
    columns[rows[:, 0], rows[:, 1]] = rows[:, 2:]
    return columns


def _step_columns(tables: int, rounds: int, steps: list[int]) -> np.ndarray:
    """Column c with step m: value (t - r·m) mod K at table t in round r."""
    r = np.arange(rounds, dtype=np.int64)[:, None, None]
    t = np.arange(tables, dtype=np.int64)[None, :, None]
    m = np.array(steps, dtype=np.int64)[None, None, :]
    return (t - r * m) % tables


def order(step: int, modulus: int) -> int:
    """The additive order of ``step`` modulo ``modulus`` (1 for 0)."""
    return modulus // math.gcd(step, modulus)


def repeat_free_steps(tables: int, rounds: int, count: int) -> list[int] | None:
    """``count`` steps modulo K, each and every difference of order at least R, or None.

    Then R rounds of table (v + r·m) mod K revisit no table and meet no pair twice. Small
    steps first; a bounded depth-first search."""
    candidates = [m for m in range(1, tables) if order(m, tables) >= rounds][:_STEP_CANDIDATES]
    chosen: list[int] = []
    nodes = 0

    def extend(start: int) -> bool:
        nonlocal nodes
        if len(chosen) == count:
            return True
        for index in range(start, len(candidates)):
            nodes += 1
            if nodes > _STEP_SEARCH_NODES:
                return False
            step = candidates[index]
            if all(order(step - other, tables) >= rounds for other in chosen):
                chosen.append(step)
                if extend(index + 1):
                    return True
                chosen.pop()
        return False

    return list(chosen) if extend(0) else None


def best_steps(tables: int, rounds: int, count: int) -> list[int]:
    """``count`` steps that revisit no table (order ≥ R), chosen for the fewest predicted repeats:
    first the most meetings of a pair, then the number of pairs meeting twice or more."""
    candidates = [m for m in range(1, tables) if order(m, tables) >= rounds]
    candidates = candidates[:_START_CANDIDATES] or [0]
    if len(candidates) < count:
        return [candidates[i % len(candidates)] for i in range(count)]
    choices = itertools.combinations(candidates, count)
    return list(min(choices, key=functools.partial(_predicted_repeats, tables, rounds)))


def _predicted_repeats(tables: int, rounds: int, steps: tuple[int, ...]) -> tuple[int, int]:
    """(most meetings of a pair, pairs meeting twice or more) between step columns."""
    most, repeated = 0, 0
    for first, second in itertools.combinations(steps, 2):
        period = order(first - second, tables)
        full, rest = divmod(rounds, period)
        most = max(most, full + (rest > 0))
        repeated += tables * (period if full >= 2 else rest if full == 1 else 0)
    return most, repeated


# --- extras ------------------------------------------------------------------------------------


def _with_extras(
    columns: np.ndarray, players: int, per_table: int, rounds: int
) -> np.ndarray | None:
    """The grid of the first n columns (the seats); the b leftover players follow values
    0..b-1 of column n and take the seat of a slot at their table, who sits out (each slot at
    most once). None when no such choice of slots exists."""
    tables = columns.shape[1]
    grid = columns[:, :, :per_table] + np.arange(per_table, dtype=np.int64) * tables
    extra = players - per_table * tables
    if not extra:
        return grid
    if extra > tables:
        return None  # one or two tables and more leftover players than the column has values
    where = _extras_tables(columns[:, :, per_table], extra, rounds)
    demands = [(e, r) for r in range(rounds) for e in range(extra)]
    options = [
        [int(grid[r, where[e, r], (r + e + k) % per_table]) for k in range(per_table)]
        for e, r in demands
    ]
    matched = _matching(options)
    if matched is None:
        return None
    grid = grid.copy()
    base = per_table * tables
    for (e, r), slot in zip(demands, matched, strict=True):
        t = where[e, r]
        seat = int(np.nonzero(grid[r, t] == slot)[0][0])
        grid[r, t, seat] = base + e
    return grid


def _extras_tables(column: np.ndarray, extra: int, rounds: int) -> dict[tuple[int, int], int]:
    """(leftover player, round) -> the table he follows: where ``column`` (round × table)
    holds his value."""
    where = {}
    for r in range(rounds):
        for t in np.nonzero(column[r] < extra)[0].tolist():
            where[int(column[r, t]), r] = t
    return where


def _matching(options: list[list[int]]) -> list[int] | None:
    """A distinct choice from each list (augmenting paths), or None if there is none."""
    owner: dict[int, int] = {}

    def place(demand: int, seen: set[int]) -> bool:
        # Iterative deepening would be overkill: the lists are short and the paths too.
        for choice in options[demand]:
            if choice in seen:
                continue
            seen.add(choice)
            if choice not in owner or place(owner[choice], seen):
                owner[choice] = demand
                return True
        return False

    for demand in range(len(options)):
        if not place(demand, set()):
            return None
    chosen = [0] * len(options)
    for choice, demand in owner.items():
        chosen[demand] = choice
    return chosen


# --- round by round ----------------------------------------------------------------------------


def _assigned_rounds(
    players: int, per_table: int, rounds: int, rng: random.Random
) -> np.ndarray | None:
    """Round by round, every player to a table he has not visited (or to a bye if he has not had
    one), by augmenting paths over tables of n places and a bye of b places; None if stuck."""
    tables = players // per_table
    extra = players - per_table * tables
    visited: list[set[int]] = [set() for _ in range(players)]
    sat_out = [False] * players
    grid = np.empty((rounds, tables, per_table), dtype=np.int64)
    bye = tables  # the bye's bin number
    for r in range(rounds):
        capacity = [per_table] * tables + [extra]
        options = _round_options(tables, visited, sat_out if extra else None, rng)
        held = _matched_round(options, capacity, rng)
        if held is None:
            return None
        for t in range(tables):
            grid[r, t] = held[t]
            for p in held[t]:
                visited[p].add(t)
        for p in held[bye]:
            sat_out[p] = True
    return grid


def _matched_round(
    options: list[list[int]], capacity: list[int], rng: random.Random
) -> list[list[int]] | None:
    """Each bin's players (the players placed in a shuffled order), or None if one cannot be
    placed."""
    players = len(options)
    held: list[list[int]] = [[] for _ in capacity]
    where = [-1] * players
    order_ = list(range(players))
    rng.shuffle(order_)
    for p in order_:
        if not _place(p, options, capacity, held, where, set()):
            return None
    return held


def _round_options(
    tables: int, visited: list[set[int]], sat_out: list[bool] | None, rng: random.Random
) -> list[list[int]]:
    """Each player's bins for a round, shuffled: the tables he has not visited, then the bye
    (bin ``tables``) if there is one (``sat_out`` not None) and he has not sat out yet."""
    options = []
    for p, seen in enumerate(visited):
        bins = [t for t in range(tables) if t not in seen]
        rng.shuffle(bins)
        if sat_out is not None and not sat_out[p]:
            bins.append(tables)
        options.append(bins)
    return options


def _place(
    player: int,
    options: list[list[int]],
    capacity: list[int],
    held: list[list[int]],
    where: list[int],
    seen: set[int],
) -> bool:
    for bin_ in options[player]:
        if bin_ in seen:
            continue
        seen.add(bin_)
        if len(held[bin_]) < capacity[bin_]:
            held[bin_].append(player)
            where[player] = bin_
            return True
        for index, other in enumerate(held[bin_]):
            if _place(other, options, capacity, held, where, seen):
                held[bin_][index] = player
                where[player] = bin_
                return True
    return False
