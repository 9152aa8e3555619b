"""The charts' five-number summary and mean of a group, computed in plain Python, are the
floats numpy gives (``np.percentile`` at 0, 25, 50, 75, 100 and ``np.mean``), so the spread
chart is unchanged."""

from __future__ import annotations

import random

import numpy as np
import pytest

from publishing.charts import _mean, five_numbers, spread_groups

SEED = 20261127


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5, 7, 8, 9, 16, 33, 120])
def test_five_numbers_and_mean_are_numpys(size):
    print("seed", SEED, "size", size)
    rnd = random.Random(SEED + size)
    for _ in range(300):
        scores = [
            rnd.choice([rnd.randint(-3000, 3000), rnd.randint(-30, 30) / 2, rnd.random() * 100])
            for _ in range(size)
        ]
        values = np.asarray(scores, dtype=float)
        expected = tuple(float(v) for v in np.percentile(values, [0, 25, 50, 75, 100]))
        assert five_numbers(scores) == expected, scores
        assert _mean(scores) == float(values.mean()), scores


def test_spread_groups_keeps_the_complete_tables_summaries():
    standings = {
        "groups": [
            {"table": 1, "board": 1, "side": "NS", "results": [{"score": s} for s in (10, 40, 20)]},
            {"table": 2, "board": 1, "side": "NS", "results": [{"score": 5}]},
        ]
    }
    (group,) = spread_groups(standings, complete=[1])
    assert (group["low"], group["q1"], group["median"], group["q3"], group["high"]) == (
        10,
        15,
        20,
        30,
        40,
    )
    assert group["mean"] == 23.3 and group["scores"] == [10, 20, 40]
