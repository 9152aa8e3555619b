"""Ry 3 made (engine/games/pymtheg/solver.py ``ry3_made``): the team takes no trick when it
tries to take none and the defenders try to make it take one. That is not "the team takes no
trick when it tries to take some": the defenders can hand a team the lead it does not want,
and a team may duck tricks it could have won. Checked against plain minimax on small deals
(three cards a hand, no trump, as Ry is played)."""

from __future__ import annotations

import random

import pytest

from tests.engine.solver.reference import minimax

pytest.importorskip("engine.solver._dds")
from engine.games.pymtheg.solver import ry3_made
from engine.solver import PlayRules, Solver, hand_mask

SEED = 3


def test_ry3_made_equals_minimax_and_differs_from_the_teams_own_tricks():
    rng = random.Random(SEED)
    print("seed", SEED)
    solver = Solver(16)
    rules = PlayRules(trump=None)
    disagreements = checked = 0
    for _deal in range(100):
        cards = [(suit, rank) for suit in range(4) for rank in range(3)]
        rng.shuffle(cards)
        hands = [cards[3 * player : 3 * player + 3] for player in range(4)]
        masks = tuple(hand_mask(hand) for hand in hands)
        leader = rng.randrange(4)
        for player in (0, 1):
            team = {player, player + 2}
            weights = [1 if index in team else 0 for index in range(4)]
            forced = minimax(
                hands, leader=leader, weights=weights, maximisers={0, 1, 2, 3} - team, trump=None
            )
            trying = minimax(hands, leader=leader, weights=weights, maximisers=team, trump=None)
            assert ry3_made(solver, masks, player, leader=leader, rules=rules) == (forced == 0)
            disagreements += (forced == 0) != (trying == 0)
            checked += 1
    # The two questions part often enough for the check to mean something.
    assert checked == 200 and disagreements >= 10
