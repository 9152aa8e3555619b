"""The position a game gives the solver after any card (``TablePlay.solver_position``): in
the middle of a trick it holds the cards already on the table (``played``), and the count
from it is what the next player's best card leads to."""

from __future__ import annotations

import copy
import random

import pytest

from engine.games import GAME_IDS, get_game

pytest.importorskip("engine.solver._dds")
from engine.solver import PlayRules, Solver

PLAYING = [game_id for game_id in GAME_IDS if get_game(game_id).offers_table_play()]
SEED = 26


def count(play, solver: Solver) -> int:
    position = play.solver_position()
    rules = PlayRules(
        trump=position["trump"],
        must_trump=position["must_trump"],
        undertrump=position["undertrump"],
    )
    found = solver.side_tricks(
        position["hands"], position["side"], leader=0, rules=rules, played=position["played"]
    )
    return position["taken"] + found


def near_the_end(game, rng: random.Random, board: int, tricks_left: int):
    """A board played at random up to ``tricks_left`` tricks from its end (None if the
    contract has no count, a Ry, or play stopped early)."""
    players = max(game.table_sizes)
    dealer = game.dealer(board, players)
    deal = game.seeded_deal(SEED, 1, board, players)
    settings = game.settings({})
    play = game.table_play(deal, settings=settings, table=1, players=players, dealer=dealer)
    total = play.view()["rules"]["tricks"]
    first = True
    while not play.over and len(play.view()["tricks"]) < total - tricks_left:
        options = [option["action"] for option in play.options()]
        if options[0].startswith("call:"):
            bids = [a for a in options if a.startswith(("call:G", "call:L"))]
            action = rng.choice(bids) if first and bids else "call:P"
            first = False
        else:
            action = rng.choice(options)
        play.apply(action)
    if play.over or play.solver_position() is None:
        return None
    return play


@pytest.mark.parametrize("game_id", PLAYING)
def test_a_count_in_the_middle_of_a_trick_is_the_best_next_card(game_id):
    game = get_game(game_id)
    rng = random.Random(f"{SEED}:{game_id}")
    print("seed", SEED)
    solver = Solver(16)
    checked = 0
    for board in range(1, 9):
        play = near_the_end(game, rng, board, 3)
        if play is None:
            continue
        play.apply(rng.choice(play.options())["action"])  # the lead: now within the trick
        position = play.solver_position()
        assert position is not None and len(position["played"]) == 1
        held = [bin(hand).count("1") for hand in position["hands"]]
        assert held[0] == held[1] - 1  # the leader's card is on the table, not in his hand
        view = play.view()
        mine = view["to_act"] in view["declarer_side"]
        after = []
        for option in play.options():
            child = copy.deepcopy(play)
            child.apply(option["action"])
            after.append(count(child, solver))
        assert count(play, solver) == (max(after) if mine else min(after))
        checked += 1
    assert checked >= 3
