"""The movement search in C (engine/schedule/_search.c) against the Python search it stands for
(``individual_search.improve_in_python``): the very same grids on random fields, rectangular
and ragged, tiny to the largest the product searches, with little and much work; the same
random draws as ``random.Random``; the Python search where the C one cannot be exact; clear
errors for malformed grids."""

from __future__ import annotations

import random

import numpy as np
import pytest

from engine.schedule import _search, individual_search
from engine.schedule.individual import starting_grid
from engine.schedule.individual_search import improve, improve_in_python

# Every random case below is drawn from this seed (the failing case's arguments are in the
# assertion's message).
SEED = 20_261_128


def _random_round(held: list[set[int]], sizes: list[int], rng: random.Random) -> list | None:
    """One round: players at tables of these sizes (the rest sitting out), nobody at a place
    (a table, or the bye as place len(sizes)) he held before; None if the draws fail."""
    players, bye = len(held), len(sizes)
    for _attempt in range(200):
        order = list(range(players))
        rng.shuffle(order)
        slots = [t for t, size in enumerate(sizes) for _ in range(size)]
        slots += [bye] * (players - len(slots))
        tables: list[list[int]] = [[] for _ in sizes]
        sat = {}
        for p in order:
            free = [i for i, t in enumerate(slots) if t not in held[p]]
            if not free:
                break
            t = slots.pop(rng.choice(free))
            sat[p] = t
            if t != bye:
                tables[t].append(p)
        else:
            for p, t in sat.items():
                held[p].add(t)
            return tables
    return None


def _random_grid(
    players: int, sizes: list[int], rounds: int, rng: random.Random, together: float = 0.4
) -> list:
    """A valid grid of up to ``rounds`` rounds (fewer where the draws run out); in some rounds
    (a share ``together`` of them) the players keep their company of the round before, moving
    on a table together, so pairs meet many times."""
    held: list[set[int]] = [set() for _ in range(players)]
    grid: list[list[list[int]]] = []
    for _r in range(rounds):
        tables = None
        if grid and rng.random() < together:
            tables = _moved_on(grid[-1], held)
        if tables is None:
            tables = _random_round(held, sizes, rng)
        if tables is None:
            break
        grid.append(tables)
    return grid


def _moved_on(tables: list[list[int]], held: list[set[int]]) -> list[list[int]] | None:
    """The company of each table of a round moved on to the next table, if nobody (nor anyone
    sitting out) comes to a place he held before; noted in ``held``."""
    moved = [list(tables[(t - 1) % len(tables)]) for t in range(len(tables))]
    if any(len(g) != len(h) for g, h in zip(moved, tables, strict=True)):
        return None
    seated = {p: t for t, g in enumerate(moved) for p in g}
    places = {p: seated.get(p, len(tables)) for p in range(len(held))}
    if any(t in held[p] for p, t in places.items()):
        return None
    for p, t in places.items():
        held[p].add(t)
    return moved


def _case(rng: random.Random, most_players: int) -> tuple[list, int, int, int]:
    """A random ragged field: (grid, players, seed, work)."""
    per_table = [rng.randint(2, 4) for _ in range(rng.randint(1, max(1, most_players // 3)))]
    players = sum(per_table) + rng.choice([0, 0, 1, 2, 3])
    rounds = rng.randint(1, min(12, len(per_table) + 2))
    grid = _random_grid(players, per_table, rounds, rng)
    seed = rng.choice([0, 1, rng.randrange(2**32), rng.randrange(2**64 - 3)])
    work = rng.choice([0, 1, 500, 20_000, 200_000])
    return grid, players, seed, work


def _same(grid, players: int, seed: int, work: int) -> None:
    found = improve(grid, players, seed, work)
    reference = improve_in_python(grid, players, seed, work)
    message = f"SEED {SEED}: improve({grid!r}, {players}, {seed}, {work})"
    if isinstance(grid, np.ndarray):
        assert isinstance(found, np.ndarray), message
        assert found.dtype == reference.dtype and np.array_equal(found, reference), message
    else:
        assert found == reference, message
    assert (found is grid) == (reference is grid), message


def test_the_random_draws_are_those_of_random_random():
    rng = random.Random(SEED)
    seeds = [0, 1, 2, 2**32 - 1, 2**32, 2**32 + 1, 2**64 - 1]
    seeds += [rng.randrange(2**32) for _ in range(60)] + [rng.randrange(2**64) for _ in range(30)]
    for seed in seeds:
        large = [1, 2, 3, 9, 2**31, 2**32 - 1, rng.randrange(1, 2**32)]
        bounds = [rng.choice(large) for _ in range(400)]
        bounds += [rng.randrange(1, 50) for _ in range(1000)]
        python = random.Random(seed)
        expected = [python.randrange(n) for n in bounds]
        assert _search.draws(seed, bounds) == expected, f"seed {seed}"


def test_small_ragged_fields_give_the_python_grids():
    rng = random.Random(SEED)
    cases = 0
    while cases < 250:
        grid, players, seed, work = _case(rng, 20)
        if grid:
            _same(grid, players, seed, work)
            cases += 1


def test_medium_ragged_fields_give_the_python_grids():
    rng = random.Random(SEED + 1)
    for _ in range(25):
        grid, players, seed, work = _case(rng, 70)
        if grid:
            _same(grid, players, seed, work)


@pytest.mark.parametrize(
    ("players", "per_table", "rounds", "work"),
    [
        (8, 4, 2, None),
        (16, 4, 4, None),
        (13, 4, 3, None),
        (18, 3, 6, None),
        (30, 3, 10, 300_000),
        (40, 4, 10, 300_000),
        (57, 4, 12, 200_000),
        (17, 2, 8, 100_000),
        (24, 4, 6, None),
        (17, 4, 4, None),
    ],
)
def test_the_product_starts_give_the_python_grids(players, per_table, rounds, work):
    """Rectangular numpy grids, as engine.schedule.individual searches them (default work for
    the small fields)."""
    seed = (players * 1_000_003 + per_table * 10_007 + rounds) % 2**32
    start = starting_grid(players, per_table, rounds, seed)
    if work is None:
        found = improve(start, players, seed)
        assert np.array_equal(found, improve_in_python(start, players, seed))
    else:
        _same(start, players, seed, work)


@pytest.mark.parametrize(
    ("players", "sizes", "rounds", "work"),
    [
        (203, [4] * 50, 12, 300_000),
        (1001, [4] * 200 + [3] * 66, 12, 300_000),
        (2000, [4] * 450 + [3] * 66, 6, 100_000),
    ],
)
def test_large_fields_give_the_python_grids(players, sizes, rounds, work):
    grid = _random_grid(players, sizes, rounds, random.Random(SEED + players))
    assert len(grid) == rounds
    _same(grid, players, SEED % 1000, work)
    if len(set(sizes)) == 1:
        _same(np.array(grid), players, SEED % 1000, work // 10)


def test_companies_meeting_often_give_the_python_grids():
    """200 players meeting their table's company 8 times (the most 128 bits hold for 200)."""
    grid = _grid_of_companies(200, 4, 8)
    _same(grid, 200, 1, 300_000)
    _same(np.array(grid), 200, 2, 300_000)


def test_a_start_that_cannot_improve_is_given_back():
    grid = [[[0, 1], [2, 3]], [[0, 2], [1, 3]]]
    assert improve(grid, 4, 5) is grid
    array = np.array(grid)
    assert improve(array, 4, 5, work=0) is array


def test_a_list_gives_a_list_and_an_array_an_int64_array():
    grid = _random_grid(16, [4, 4, 4, 4], 4, random.Random(3))
    assert isinstance(improve(grid, 16, 3), list)
    found = improve(np.array(grid, dtype=np.int32), 16, 3)
    assert isinstance(found, np.ndarray) and found.dtype == np.int64 and found.shape == (4, 4, 4)


def _grid_of_companies(players: int, per_table: int, rounds: int) -> list:
    """The same players at each table in every round, moving on a table together: every pair
    of a table meets every round."""
    tables = players // per_table
    company = [list(range(t * per_table, (t + 1) * per_table)) for t in range(tables)]
    return [[company[(t - r) % tables] for t in range(tables)] for r in range(rounds)]


def test_the_python_search_runs_where_the_weights_outgrow_the_c_integers(monkeypatch):
    """200 players who meet 12 times: a pair's weight (19901**10) and the sums over it do not
    fit in 128 bits."""
    grid = _grid_of_companies(200, 4, 12)
    bits, settings = individual_search._C_BITS, individual_search._C_SETTINGS
    assert _search.improve(grid, 200, 9, 3_000, bits, settings) is None
    called = []

    def spy(*arguments):
        called.append(arguments)
        return improve_in_python(*arguments)

    monkeypatch.setattr(individual_search, "improve_in_python", spy)
    found = improve(grid, 200, 9, 3_000)
    assert called and found == improve_in_python(grid, 200, 9, 3_000)


def test_the_python_search_runs_for_what_the_c_search_refuses(monkeypatch):
    called = []

    def spy(*arguments):
        called.append(arguments)
        return improve_in_python(*arguments)

    monkeypatch.setattr(individual_search, "improve_in_python", spy)
    grid = _random_grid(16, [4, 4, 4, 4], 4, random.Random(8))
    reference = improve_in_python(grid, 16, 8, 50_000)
    assert improve(grid, 16, 8, 50_000) == reference and not called
    # a seed the C generator does not take (Python's random takes its absolute value)
    assert improve(grid, 16, -8, 50_000) == improve_in_python(grid, 16, -8, 50_000)
    assert improve(grid, 16, 2**64, 50_000) == improve_in_python(grid, 16, 2**64, 50_000)
    assert len(called) == 2
    # weights beyond a few bits: a pair meeting twice already stops the C search
    monkeypatch.setattr(individual_search, "_C_BITS", 8)
    assert improve(grid, 16, 8, 50_000) == reference and len(called) == 3
    monkeypatch.setattr(individual_search, "_C_BITS", 126)
    monkeypatch.setattr(individual_search, "_C_PLAYERS", 15)
    assert improve(grid, 16, 8, 50_000) == reference and len(called) == 4


def test_a_c_search_that_meets_a_weight_too_large_midway_is_redone_in_python(monkeypatch):
    """With costs of 24 bits the weights of 16 players hold up to 4 meetings: a search that
    makes a pair meet 4 times, and weighs one more, stops there and the Python search answers
    (the grids of 16 players at 6 tables of 3 over 5 rounds start with up to 5)."""
    called = []

    def spy(*arguments):
        called.append(arguments)
        return improve_in_python(*arguments)

    monkeypatch.setattr(individual_search, "improve_in_python", spy)
    monkeypatch.setattr(individual_search, "_C_BITS", 24)
    rng = random.Random(SEED + 2)
    fallbacks = searches = 0
    for _ in range(40):
        grid = _random_grid(16, [3] * 6, 5, rng, together=0)
        before = len(called)
        _same(grid, 16, rng.randrange(1000), 30_000)
        fallbacks += len(called) > before
        searches += len(called) == before
    assert fallbacks >= 5 and searches >= 5


@pytest.mark.parametrize(
    ("grid", "error", "words"),
    [
        (np.zeros((4, 4), dtype=np.int64), ValueError, "a grid is"),
        (np.zeros((2, 2, 2, 2), dtype=np.int64), ValueError, "a grid is"),
        ([], ValueError, "at least one round"),
        ([[[0, 1], [2, 3]], [[0, 2]]], ValueError, "round 2 has 1 tables, round 1 has 2"),
        ([[[0, 1], [2, 4]]], ValueError, "player 4 is not between 0 and 3"),
        ([[[0, 1], [2, -1]]], ValueError, "player -1 is not between 0 and 3"),
        ([[[0, 1], [2, 1]]], ValueError, "player 1 sits twice in round 1"),
        ([[0, 1]], TypeError, "a table is a list of players"),
        ([[[0, "1"]]], TypeError, "integer"),
        (None, TypeError, "a grid is a list of rounds"),
    ],
)
def test_a_malformed_grid_is_refused(grid, error, words):
    with pytest.raises(error, match=words):
        improve(grid, 4, 1)
