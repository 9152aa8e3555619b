"""The first guess a partnership's search starts from (``Solver.estimate``): the value found is
the same whatever the guess, and the cut-down deal it solves is the hands' top cards."""

from __future__ import annotations

import random

import pytest

import engine.solver as solver_module
from engine.solver import PlayRules, Solver, _top_cards, hand_mask

SEED = 20261127


def test_top_cards_keep_the_trumps_then_the_highest():
    hand = hand_mask([(0, 1), (0, 2), (1, 14), (1, 3), (2, 13), (3, 0)])
    assert _top_cards(hand, 3, trump=0) == hand_mask([(0, 1), (0, 2), (1, 14)])
    assert _top_cards(hand, 3, trump=None) == hand_mask([(1, 14), (2, 13), (1, 3)])
    assert _top_cards(hand, 6, trump=3) == hand


def test_no_estimate_below_its_size():
    hands = [hand_mask([(suit, rank) for rank in range(12)]) for suit in range(4)]
    assert Solver(memory_mib=8).estimate(hands, {0, 2}, leader=0, rules=PlayRules()) is None


@pytest.mark.parametrize("trump", [None, 0, 3])
def test_the_estimate_changes_no_value(monkeypatch, trump):
    """With estimates made for 8-card deals, every partnership's tricks equal the search's
    from every other first guess, on seeded deals of 8 cards a hand from the 60-card pack."""
    monkeypatch.setattr(solver_module, "ESTIMATE_FROM", 8)
    seed = f"{SEED}:estimate:{trump}"
    print("seed", seed)
    rng = random.Random(seed)
    pack = [(suit, rank) for suit in range(4) for rank in range(15)]
    rules = PlayRules(trump=trump)
    solver = Solver(memory_mib=8)
    for _ in range(4):
        rng.shuffle(pack)
        hands = [hand_mask(pack[8 * p : 8 * p + 8]) for p in range(4)]
        leader = rng.randrange(4)
        guess = solver.estimate(hands, {0, 2}, leader=leader, rules=rules)
        assert guess is not None and 0 <= guess <= 8
        got = solver.side_tricks(hands, {0, 2}, leader=leader, rules=rules)
        for first in range(9):
            fresh = Solver(memory_mib=8)
            assert (
                fresh.side_tricks(hands, {0, 2}, leader=leader, rules=rules, guess=first) == got
            ), (hands, leader, first)
