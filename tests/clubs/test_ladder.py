"""The ladder's computation (pure): best N, average with a minimum, points per place; ties
shared; disqualified results never count, withdrawn ones count by percentage only."""

from __future__ import annotations

import itertools
import random

import pytest

from clubs.ladder import Result, Rule, ladder


def table(rungs):
    return [(r.member, r.place, r.score, r.events) for r in rungs]


def test_best_n_divides_by_n_so_an_absent_week_counts_zero():
    results = [
        Result(1, 1, 1, 60.0),
        Result(1, 2, 2, 50.0),
        Result(1, 3, 1, 70.0),
        Result(2, 1, 2, 65.0),
    ]
    rungs = ladder(results, Rule("best", best_n=2))
    assert table(rungs) == [(1, 1, 65.0, 3), (2, 2, 32.5, 1)]
    assert rungs[0].counted == [3, 1]


def test_average_with_a_minimum_lists_the_short_ones_unplaced():
    results = [Result(1, e, None, 50.0 + e) for e in (1, 2, 3)] + [Result(2, 1, None, 80.0)]
    assert table(ladder(results, Rule("average", min_events=3))) == [
        (1, 1, 52.0, 3),
        (2, None, 80.0, 1),
    ]


def test_points_per_place_and_beyond_the_table():
    rule = Rule("points", points=(10, 6, 4))
    results = [Result(1, 1, 1, None), Result(1, 2, 5, None), Result(2, 1, 2, 55.0)]
    results += [Result(2, 2, 3, 51.0)]
    assert table(ladder(results, rule)) == [(1, 1, 10.0, 2), (2, 1, 10.0, 2)]


def test_ties_share_the_place_and_the_next_is_skipped():
    results = [Result(m, 1, None, p) for m, p in ((1, 60.0), (2, 55.0), (3, 55.004), (4, 40.0))]
    assert [(r.member, r.place) for r in ladder(results, Rule("average"))] == [
        (1, 1),
        (2, 2),
        (3, 2),
        (4, 4),
    ]


def test_disqualified_never_counts_and_withdrawn_counts_by_percentage_only():
    results = [
        Result(1, 1, None, 70.0, "disqualified"),
        Result(1, 2, None, 45.0, "withdrawn"),
        Result(2, 2, 1, 55.0),
    ]
    assert table(ladder(results, Rule("average"))) == [(2, 1, 55.0, 1), (1, 2, 45.0, 1)]
    assert table(ladder(results, Rule("points", points=(5,)))) == [(2, 1, 5.0, 1)]


def test_a_result_without_a_percentage_counts_only_for_points():
    results = [Result(1, 1, 1, None)]
    assert ladder(results, Rule("best", best_n=3)) == []
    assert table(ladder(results, Rule("points", points=(3,)))) == [(1, 1, 3.0, 1)]


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "elo"},
        {"kind": "best", "best_n": 0},
        {"kind": "average", "min_events": 0},
        {"kind": "points"},
        {"kind": "points", "points": (5, -1)},
    ],
)
def test_a_bad_rule_is_refused(bad):
    with pytest.raises(ValueError):
        Rule(**bad)


def test_random_seasons_keep_the_ladders_invariants():
    seed = random.randrange(2**32)
    print(f"seed {seed}")
    rng = random.Random(seed)
    for _ in range(200):
        results = [
            Result(
                rng.randrange(12),
                event,
                rng.randrange(1, 9),
                round(rng.uniform(20, 80), 2),
                rng.choice(["ok"] * 8 + ["withdrawn", "disqualified"]),
            )
            for event in range(6)
            for _ in range(rng.randrange(1, 9))
        ]
        rule = rng.choice(
            [
                Rule("best", best_n=3),
                Rule("average", min_events=2),
                Rule("points", points=(8, 5, 3, 1)),
            ]
        )
        rungs = ladder(results, rule)
        placed = [r for r in rungs if r.place is not None]
        assert [r.score for r in placed] == sorted((r.score for r in placed), reverse=True), seed
        for index, (before, after) in enumerate(itertools.pairwise(placed), start=2):
            tied = after.score == before.score
            assert after.place == (before.place if tied else index), seed
        assert len({r.member for r in rungs}) == len(rungs), seed
        counted = {r.member for r in results if r.status != "disqualified"}
        assert {r.member for r in rungs} <= counted, seed
