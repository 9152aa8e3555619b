"""The mixed movements' own shuffle (engine/schedule/mixed.py): it draws exactly as
``random.shuffle`` of CPython 3.11 did when the movements were first drawn, so that the same
arguments keep giving the same movement, whatever a later Python does to its library."""

import random

import pytest

from engine.schedule.mixed import _shuffle

# random.Random(seed).shuffle(list(range(12))) under CPython 3.11, recorded.
RECORDED = {
    0: [1, 9, 8, 5, 10, 2, 3, 7, 4, 0, 11, 6],
    7: [7, 11, 3, 10, 8, 4, 9, 1, 0, 6, 2, 5],
    2026: [0, 6, 2, 3, 10, 4, 7, 11, 9, 8, 5, 1],
}


@pytest.mark.parametrize("seed", sorted(RECORDED))
def test_the_shuffle_draws_as_recorded(seed):
    items = list(range(12))
    _shuffle(items, random.Random(seed))
    assert items == RECORDED[seed]


def test_every_length_gives_a_permutation_the_seed_decides():
    for seed in range(200):
        for length in range(0, 40, 3):
            first, again = list(range(length)), list(range(length))
            _shuffle(first, random.Random(seed))
            _shuffle(again, random.Random(seed))
            assert sorted(first) == list(range(length))
            assert first == again
