"""Orthogonal arrays and the fixed-side layouts built from them, checked independently."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest

from engine.schedule.layout import (
    _ORDER_6_EW,
    _ORDER_6_NS,
    fixed_layout,
    howell_6_12,
    square_pair,
)
from engine.schedule.orthogonal import (
    _field_tables,
    has_orthogonal_array,
    is_orthogonal_array,
    orthogonal_array,
    prime_power,
)

LARGE_ORDERS = [98, 100, 102, 166, 250, 498, 500]


def assert_orthogonal(rows, n):
    """Independent of the module: every two columns show all n² symbol pairs once."""
    rows = np.asarray(rows)
    assert rows.shape[0] == n * n
    assert rows.min() >= 0
    assert rows.max() < n
    for i, j in itertools.combinations(range(rows.shape[1]), 2):
        pairs = set(zip(rows[:, i].tolist(), rows[:, j].tolist(), strict=True))
        assert len(pairs) == n * n, (n, i, j)


@pytest.mark.parametrize("n", range(3, 61))
def test_an_orthogonal_pair_for_every_order_up_to_60_but_6(n):
    if n == 6:
        assert not has_orthogonal_array(6, 4)
        return
    rows = orthogonal_array(n, 4)
    assert_orthogonal(rows, n)
    assert is_orthogonal_array(rows, n)


@pytest.mark.parametrize("n", LARGE_ORDERS)
def test_an_orthogonal_pair_for_large_orders(n):
    rows = orthogonal_array(n, 4)
    assert_orthogonal(rows, n)


@pytest.mark.parametrize("n", [n for n in range(2, 200) if n % 4 == 2 and n > 6])
def test_every_order_two_mod_four_from_10_has_a_pair(n):
    assert is_orthogonal_array(orthogonal_array(n, 4), n)


def test_no_pair_for_2_and_6():
    assert not has_orthogonal_array(2, 4)
    assert not has_orthogonal_array(6, 4)
    with pytest.raises(LookupError):
        orthogonal_array(6, 4)


@pytest.mark.parametrize("n", [n for n in range(3, 61) if has_orthogonal_array(n, 5)])
def test_three_orthogonal_squares_where_constructed(n):
    assert_orthogonal(orthogonal_array(n, 5), n)


def test_three_orthogonal_squares_for_the_usual_orders():
    for n in [4, 5, 7, 8, 9, 11, 13, 16, 20, 21, 24, 28, 35, 40, 48, 50, 60]:
        assert has_orthogonal_array(n, 5), n
    for n in [2, 3, 6]:  # known not to exist
        assert not has_orthogonal_array(n, 5)


@pytest.mark.parametrize("n", range(3, 40, 2))
def test_odd_orders_are_the_cyclic_squares(n):
    rows = orthogonal_array(n, 4)
    for r, t, ns, ew in rows.tolist():
        assert ns == (t - r) % n
        assert ew == (t + r) % n


@pytest.mark.parametrize("q", [4, 8, 9, 16, 25, 27, 32, 49])
def test_field_tables_are_fields(q):
    add, mul = _field_tables(q)
    elements = range(q)
    assert all(sorted(add[a]) == list(elements) for a in elements)
    assert all(sorted(mul[a, 1:]) == list(range(1, q)) for a in range(1, q))
    assert (add == add.T).all()
    assert (mul == mul.T).all()
    assert (mul[1] == np.arange(q)).all()
    for a, b, c in itertools.product(range(0, q, 3), range(q), range(1, q, 5)):
        assert mul[a, add[b, c]] == add[mul[a, b], mul[a, c]]


def test_prime_power():
    assert prime_power(8) == (2, 3)
    assert prime_power(49) == (7, 2)
    assert prime_power(13) == (13, 1)
    assert prime_power(12) is None
    assert prime_power(1) is None


def test_stored_quasi_difference_orders_10_and_14():
    for n in (10, 14):
        assert_orthogonal(orthogonal_array(n, 4), n)


def test_stored_order_6_pair_is_latin_and_nearly_orthogonal():
    rows = square_pair(6)
    for column in (2, 3):  # every team once a round and once a table
        assert len(set(zip(rows[:, 0].tolist(), rows[:, column].tolist(), strict=True))) == 36
        assert len(set(zip(rows[:, 1].tolist(), rows[:, column].tolist(), strict=True))) == 36
    pairs = Counter(zip(rows[:, 2].tolist(), rows[:, 3].tolist(), strict=True))
    assert max(pairs.values()) == 2
    assert len(pairs) == 34
    first_five = rows[rows[:, 1] < 5]
    assert len(set(zip(first_five[:, 2].tolist(), first_five[:, 3].tolist(), strict=True))) == 30
    assert len(_ORDER_6_NS) == len(_ORDER_6_EW) == 6


def test_stored_howell_design_meets_every_pair_at_most_once():
    rows = howell_6_12().tolist()
    assert len(rows) == 36
    for key in (0, 1):  # every team once a round, once a table
        seats = Counter((row[key], team) for row in rows for team in row[2:])
        assert set(seats) == {(k, team) for k in range(6) for team in range(12)}
        assert max(seats.values()) == 1
    assert len({(row[0], row[1]) for row in rows}) == 36
    assert len({frozenset(row[2:]) for row in rows}) == 36
    assert all(row[2] != row[3] for row in rows)


def layout_problems(n, tables):
    layout = fixed_layout(n, tables)
    rows = layout.rows.tolist()
    problems = []
    if layout.tables != tables:
        problems.append("table count")
    for side in (2, 3):
        visits = Counter((row[side], row[1]) for row in rows)
        if set(visits) != {(team, t) for team in range(n) for t in range(tables)}:
            problems.append(f"side {side}: not every team at every table")
        if max(visits.values()) > 1:
            problems.append(f"side {side}: a table twice")
        if max(Counter((row[side], row[0]) for row in rows).values()) > 1:
            problems.append(f"side {side}: twice in a round")
    if max(Counter((row[0], row[1]) for row in rows).values()) > 1:
        problems.append("a table twice in a round")
    if not all(0 <= row[0] < layout.rounds for row in rows):
        problems.append("round out of range")
    return problems, layout, Counter((row[2], row[3]) for row in rows)


@pytest.mark.parametrize("n", range(1, 14))
def test_layouts_are_valid_and_as_balanced_as_promised(n):
    for tables in range(1, 3 * n + 3):
        problems, layout, meetings = layout_problems(n, tables)
        assert problems == [], (n, tables)
        best = math.ceil(tables / n)
        if n not in (2, 6):
            assert max(meetings.values()) == best, (n, tables)
        if n >= tables:
            assert layout.rounds == n
        elif tables % n == 0 or has_orthogonal_array(n, 5) or n in (2, 3):
            assert layout.rounds == tables, (n, tables)
        else:
            assert layout.rounds <= tables + n


def test_phase_block_for_large_counts():
    for n, tables in [(20, 31), (25, 49), (16, 17), (40, 79)]:
        problems, layout, meetings = layout_problems(n, tables)
        assert problems == []
        assert layout.rounds == tables
        assert max(meetings.values()) == 2
