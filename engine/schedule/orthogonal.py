"""Orthogonal arrays: the algebra behind the schedules.

An orthogonal array OA(w, n) is an n² × w array over the symbols 0..n-1 in which any two
columns, read side by side, show every ordered pair of symbols exactly once. With columns
(round, table, NS team, EW team), an OA(4, n) is a pair of orthogonal Latin squares of order n:
a schedule of n rounds at n tables in which every NS team meets every EW team exactly once.
An OA(5, n) adds a third square orthogonal to both (used for the "fewer teams than seats"
block, see ``engine.schedule.layout``).

Constructions, tried in this order (``has_orthogonal_array`` says whether one applies):

- n ≤ 1: trivial.
- width 4 and n odd: the cyclic array (r, t, t - r, t + r) mod n.
- n a prime power q ≥ width - 1: the finite field GF(q), columns y, x, x + a·y (a ≠ 0).
- a stored quasi-difference matrix (orders 10 and 14, the two orders ≡ 2 mod 4 that the
  recursive constructions below cannot reach).
- n = a·b with arrays of both orders: the direct product (MacNeish).
- Wilson's construction: from an OA(w+1, t), an OA(w, m), an OA(w, m+1) and an OA(w, u) with
  0 ≤ u ≤ t, an OA(w, m·t + u).

For width 4 these cover every order except 2 and 6, where no orthogonal pair exists
(Euler's 36 officers; Tarry 1900). Every construction is checked by ``is_orthogonal_array`` in
the tests.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable

import numpy as np

# Quasi-difference matrices (n, 4; 1, 1; u) over Z_n, found by a seeded local search and
# stored because they are small. Developing each column over Z_n, with a blank in row i
# standing for the i-th row's own "infinite" symbols n..n+u-1, and adding an OA(4, u) on the
# infinite symbols gives an OA(4, n + u): Z_7 + 3 points for order 10 (Parker's layout),
# Z_11 + 3 points for order 14.
_BLANK = None
_QUASI_DIFFERENCE_MATRICES: dict[int, tuple[int, int, tuple[tuple[int | None, ...], ...]]] = {
    10: (
        7,
        3,
        (
            (_BLANK, _BLANK, _BLANK, 0, 0, 3, 0, 0, 2, 3, 6, 5, 1),
            (3, 2, 1, _BLANK, _BLANK, _BLANK, 3, 4, 0, 5, 6, 4, 2),
            (2, 4, 2, 0, 3, 0, _BLANK, _BLANK, _BLANK, 2, 4, 0, 2),
            (5, 6, 6, 5, 4, 6, 2, 0, 1, _BLANK, _BLANK, _BLANK, 2),
        ),
    ),
    14: (
        11,
        3,
        (
            (_BLANK, _BLANK, _BLANK, 8, 8, 0, 2, 9, 2, 8, 4, 0, 4, 0, 0, 9, 10),
            (0, 6, 7, _BLANK, _BLANK, _BLANK, 7, 5, 3, 1, 1, 2, 10, 3, 10, 9, 8),
            (10, 6, 2, 2, 8, 2, _BLANK, _BLANK, _BLANK, 5, 2, 10, 8, 6, 1, 5, 2),
            (8, 6, 8, 4, 7, 6, 3, 3, 5, _BLANK, _BLANK, _BLANK, 4, 9, 2, 2, 7),
        ),
    ),
}

# Largest prime power built from field tables; larger ones are products of smaller ones.
_MAX_TABLE_FIELD = 64


def prime_power(n: int) -> tuple[int, int] | None:
    """``(p, e)`` with ``n == p**e`` for a prime p, or None."""
    if n < 2:
        return None
    for p in range(2, math.isqrt(n) + 1):
        if n % p == 0:
            e = 0
            while n % p == 0:
                n //= p
                e += 1
            return (p, e) if n == 1 else None
    return n, 1


def has_orthogonal_array(n: int, width: int = 4) -> bool:
    """Whether ``orthogonal_array(n, width)`` has a construction."""
    return _plan(n, width) is not None


def orthogonal_array(n: int, width: int = 4) -> np.ndarray:
    """An OA(width, n) as an ``(n*n, width)`` integer array. Raises LookupError if none known."""
    plan = _plan(n, width)
    if plan is None:
        raise LookupError(f"no orthogonal array OA({width}, {n}) is known to this module")
    kind, *args = plan
    return _BUILDERS[kind](n, width, *args)


def is_orthogonal_array(rows: np.ndarray, n: int) -> bool:
    """Every pair of columns shows every ordered pair of symbols 0..n-1 exactly once."""
    rows = np.asarray(rows)
    if rows.ndim != 2 or rows.shape[0] != n * n:
        return False
    if n == 0:
        return True
    if rows.min() < 0 or rows.max() >= n:
        return False
    return all(
        np.unique(rows[:, i] * n + rows[:, j]).size == n * n
        for i, j in itertools.combinations(range(rows.shape[1]), 2)
    )


@functools.cache
def _plan(n: int, width: int) -> tuple | None:
    """How to build an array of order ``n`` and ``width`` columns: directly, as a product of
    two smaller ones, or by Wilson's construction; None: no construction here builds it."""
    return _direct_plan(n, width) or _product_plan(n, width) or _wilson_plan(n, width)


def _direct_plan(n: int, width: int) -> tuple | None:
    """A construction that needs no smaller array: trivial, cyclic (n odd, four columns at
    most), over a finite field, or from a known quasi-difference matrix."""
    if n <= 1:
        return ("trivial",)
    if width <= 4 and n % 2 == 1:
        return ("cyclic",)
    power = prime_power(n)
    if power and n + 1 >= width and (power[1] == 1 or n <= _MAX_TABLE_FIELD):
        return ("field",)
    if width <= 4 and n in _QUASI_DIFFERENCE_MATRICES:
        return ("quasi_difference",)
    return None


def _product_plan(n: int, width: int) -> tuple | None:
    """The product of two arrays whose orders multiply to ``n``, the smallest factor first."""
    for a in range(2, math.isqrt(n) + 1):
        if n % a == 0 and _plan(a, width) and _plan(n // a, width):
            return ("product", a, n // a)
    return None


def _wilson_plan(n: int, width: int) -> tuple | None:
    """Smallest m first: the sub-arrays stay small and the recursion shallow."""
    for m in range(2, n // 2 + 1):
        if _plan(m, width) and _plan(m + 1, width):
            plan = _wilson_groups(n, width, m)
            if plan is not None:
                return plan
    return None


def _wilson_groups(n: int, width: int, m: int) -> tuple | None:
    """Wilson's construction with groups inflated m-fold: the largest t of an OA(w+1, t)
    whose last group truncated to u points gives n = m·t + u."""
    for t in range(n // m, max(2, -(-n // (m + 1))) - 1, -1):
        u = n - m * t
        if 0 <= u <= t and u < n and _plan(u, width) and _plan(t, width + 1):
            return ("wilson", t, m, u)
    return None


def _trivial(n: int, width: int) -> np.ndarray:
    return np.zeros((n, width), dtype=np.int64)


def _cyclic(n: int, width: int) -> np.ndarray:
    """Round r, table t: NS team t - r, EW team t + r (mod n); orthogonal because n is odd."""
    r, t = np.divmod(np.arange(n * n, dtype=np.int64), n)
    columns = [r, t, (t - r) % n, (t + r) % n]
    return np.stack(columns[:width], axis=1)


def _field_tables(q: int) -> tuple[np.ndarray, np.ndarray]:
    """Addition and multiplication tables of GF(q), elements numbered 0..q-1 (0 and 1 as usual)."""
    p, e = prime_power(q)  # type: ignore[misc]
    if e == 1:
        values = np.arange(q, dtype=np.int64)
        return np.add.outer(values, values) % q, np.multiply.outer(values, values) % q
    digits = np.array([[(v // p**k) % p for k in range(e)] for v in range(q)], dtype=np.int64)
    weights = p ** np.arange(e, dtype=np.int64)
    add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
    powers = _powers_of_x(p, e)
    log = np.zeros(q, dtype=np.int64)
    log[powers] = np.arange(q - 1)
    exponent = (log[:, None] + log[None, :]) % (q - 1)
    mul = np.array(powers, dtype=np.int64)[exponent]
    mul[0, :] = 0
    mul[:, 0] = 0
    return add, mul


def _powers_of_x(p: int, e: int) -> list[int]:
    """1, x, x², ... modulo the first primitive polynomial of degree e over GF(p) (as numbers)."""
    q = p**e
    for low in range(1, q):
        coefficients = [(low // p**k) % p for k in range(e)]  # x^e + sum c_k x^k
        if coefficients[0] != 0:
            powers = _primitive_powers(p, e, coefficients)
            if powers is not None:
                return powers
    raise AssertionError(f"GF({q}) has no primitive polynomial")  # impossible


def _primitive_powers(p: int, e: int, coefficients: list[int]) -> list[int] | None:
    """1, x, x², ... modulo x^e + sum c_k x^k over GF(p) (as numbers), if x is primitive
    there (its q - 1 powers all different, x^(q-1) = 1); else None."""
    q = p**e
    powers, element = [], [1] + [0] * (e - 1)
    for _ in range(q - 1):
        powers.append(sum(d * p**k for k, d in enumerate(element)))
        top = element[-1]
        element = [0, *element[:-1]]
        element = [(d - top * c) % p for d, c in zip(element, coefficients, strict=True)]
    if element == [1] + [0] * (e - 1) and len(set(powers)) == q - 1:
        return powers
    return None


def _field(n: int, width: int) -> np.ndarray:
    """Columns y, x, x + a·y for the nonzero elements a = 1, 2, ... of GF(n)."""
    add, mul = _field_tables(n)
    x, y = np.divmod(np.arange(n * n, dtype=np.int64), n)
    columns = [y, x] + [add[x, mul[a, y]] for a in range(1, width - 1)]
    return np.stack(columns, axis=1)


def _quasi_difference(n: int, width: int) -> np.ndarray:
    group, holes, matrix = _QUASI_DIFFERENCE_MATRICES[n]
    entries = np.array([[-1 if v is None else v for v in row] for row in matrix], dtype=np.int64)
    blank = entries < 0
    infinite = group + np.cumsum(blank, axis=1) - 1  # the i-th blank of a row is symbol group+i
    shifts = np.arange(group, dtype=np.int64)[:, None, None]
    developed = np.where(blank, infinite, (entries + shifts) % group)  # (group, width, columns)
    rows = developed.transpose(0, 2, 1).reshape(-1, entries.shape[0])
    hole = orthogonal_array(holes, entries.shape[0]) + group
    return np.concatenate([rows, hole])[:, :width]


def _product(n: int, width: int, a: int, b: int) -> np.ndarray:
    """Symbol pairs (x, y) of the two factors become x·b + y."""
    first, second = orthogonal_array(a, width), orthogonal_array(b, width)
    return (first[:, None, :] * b + second[None, :, :]).reshape(-1, width)


def _wilson(n: int, width: int, t: int, m: int, u: int) -> np.ndarray:
    """Wilson (1974): truncate the last group of an OA(w+1, t) to u points.

    Each point x of the first w groups is inflated to the m symbols x·m..x·m+m-1. A row that
    lost its last point becomes an OA(w, m) on the inflated symbols; a row that kept point y
    becomes an OA(w, m+1) minus its constant row, the (m+1)-th symbol being the new symbol
    t·m + y in every column. An OA(w, u) on the new symbols fills the rest.
    """
    design = orthogonal_array(t, width + 1)
    last = design[:, width]
    short, long_ = design[last >= u, :width], design[last < u]
    small = orthogonal_array(m, width)
    bigger = _without_constant_row(orthogonal_array(m + 1, width), m)
    inflated = (short[:, None, :] * m + small[None, :, :]).reshape(-1, width)
    extra = t * m + long_[:, width][:, None, None]
    grown = np.where(bigger[None] == m, extra, long_[:, None, :width] * m + bigger[None])
    hole = orthogonal_array(u, width) + t * m
    return np.concatenate([inflated, grown.reshape(-1, width), hole])


def _without_constant_row(rows: np.ndarray, symbol: int) -> np.ndarray:
    """Rename symbols column by column so that row 0 reads ``symbol`` everywhere; drop it."""
    rows = rows.copy()
    for column, value in enumerate(rows[0].tolist()):
        values = rows[:, column]
        is_value, is_symbol = values == value, values == symbol
        values[is_value], values[is_symbol] = symbol, value
    return rows[1:]


_BUILDERS: dict[str, Callable[..., np.ndarray]] = {
    "trivial": _trivial,
    "cyclic": _cyclic,
    "field": _field,
    "quasi_difference": _quasi_difference,
    "product": _product,
    "wilson": _wilson,
}
