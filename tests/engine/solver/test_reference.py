"""The solver against plain minimax (tests/engine/solver/reference.py) on small random deals:
every objective, trump, leader and rule of play the games use."""

from __future__ import annotations

import random

import pytest

from engine.solver import PlayRules, Solver, hand_mask
from tests.engine.solver.reference import minimax

SEED = 20261127


def _deal(rng: random.Random, players: int, cards: int, ranks: int) -> list[list[tuple[int, int]]]:
    pack = [(suit, rank) for suit in range(4) for rank in range(ranks)]
    rng.shuffle(pack)
    return [sorted(pack[i * cards : (i + 1) * cards]) for i in range(players)]


def _check(solver: Solver, hands, rng: random.Random, trump: int | None = -1, **rules) -> None:
    n = len(hands)
    masks = [hand_mask(hand) for hand in hands]
    if trump == -1:
        trump = rng.choice([None, 0, 1, 2, 3])
    leader = rng.randrange(n)
    objectives = []
    if n == 4:
        objectives.append(([1, 0, 1, 0], {0, 2}))  # a partnership's tricks
        bidder = rng.randrange(4)
        ry = [0, 0, 0, 0]
        ry[bidder] = 16
        ry[(bidder + 2) % 4] = 1
        objectives.append((ry, {(bidder + 1) % 4, (bidder + 3) % 4}))  # Ry 2
        lon = [0, 0, 0, 0]
        lon[bidder] = 1
        objectives.append((lon, {bidder, (bidder + 2) % 4}))  # Lon: the declarer's own tricks
    player = rng.randrange(n)
    alone = [1 if p == player else 0 for p in range(n)]
    objectives.append((alone, {player}))  # one player against all the others
    for weights, maximisers in objectives:
        expected = minimax(
            hands, leader=leader, weights=weights, maximisers=maximisers, trump=trump, **rules
        )
        got = solver.value(
            masks,
            leader=leader,
            weights=weights,
            maximisers=maximisers,
            rules=PlayRules(trump=trump, **rules),
        )
        assert got == expected, (hands, trump, leader, weights, maximisers, rules)


@pytest.mark.parametrize(
    ("players", "cards", "ranks", "rules"),
    [
        (4, 4, 4, {}),  # dense: every card of a 16-card pack
        (4, 4, 15, {}),  # sparse: 16 of Pymtheg's 60 cards
        (4, 4, 6, {"undertrump": False}),  # rules-1709: no under-trumping
        (4, 4, 15, {"undertrump": False}),
        (4, 4, 6, {"must_trump": True}),  # Pyramid's duty to trump
        (3, 5, 6, {"must_trump": True}),
        (2, 6, 6, {"must_trump": True}),
        (3, 5, 15, {}),
    ],
)
def test_small_deals_equal_minimax(players, cards, ranks, rules):
    seed = f"{SEED}:{players}:{cards}:{ranks}:{sorted(rules.items())}"
    print("seed", seed)
    rng = random.Random(seed)
    solver = Solver(memory_mib=16)
    for _ in range(12):
        _check(solver, _deal(rng, players, cards, ranks), rng, **rules)


def _trump_rich_deal(rng: random.Random, players: int, cards: int) -> list[list[tuple[int, int]]]:
    """Half the cards dealt are trumps (suit 0), so that the trump runs and sure trump tricks
    that settle trick starts without a search come up at every depth."""
    trumps = [(0, rank) for rank in range(15)]
    others = [(suit, rank) for suit in (1, 2) for rank in range(6)]
    rng.shuffle(trumps)
    rng.shuffle(others)
    half = players * cards // 2
    pack = trumps[:half] + others[: players * cards - half]
    rng.shuffle(pack)
    return [sorted(pack[i * cards : (i + 1) * cards]) for i in range(players)]


@pytest.mark.parametrize(
    ("players", "cards", "rules"),
    [
        (4, 4, {}),
        (4, 4, {"undertrump": False}),
        (4, 4, {"must_trump": True}),
        (3, 5, {"must_trump": True}),
        (2, 6, {}),
    ],
)
def test_trump_rich_deals_equal_minimax(players, cards, rules):
    seed = f"{SEED}:trumps:{players}:{cards}:{sorted(rules.items())}"
    print("seed", seed)
    rng = random.Random(seed)
    solver = Solver(memory_mib=16)
    for _ in range(12):
        _check(solver, _trump_rich_deal(rng, players, cards), rng, trump=0, **rules)


def test_a_tiny_table_catches_every_collection():
    """A table far too small for the search empties itself again and again; the answers stay
    those of minimax."""
    rng = random.Random(SEED)
    print("seed", SEED)
    solver = Solver(memory_mib=1)
    for _ in range(10):
        _check(solver, _deal(rng, 4, 4, 8), rng)


def test_solvers_in_threads_give_the_answers_of_one():
    """The search releases the GIL; each thread's solver keeps its own table."""
    from concurrent.futures import ThreadPoolExecutor

    rng = random.Random(SEED + 1)
    print("seed", SEED + 1)
    deals = [[hand_mask(hand) for hand in _deal(rng, 4, 6, 15)] for _ in range(8)]
    rules = PlayRules(trump=None)

    def solve(hands):
        return Solver(memory_mib=8).leaders_table(hands, {0, 2}, rules)

    alone = [solve(hands) for hands in deals]
    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(solve, deals)) == alone
    solver = Solver(memory_mib=8)
    assert [solver.leaders_table(hands, {0, 2}, rules) for hands in deals] == alone


def test_one_table_for_many_deals_of_more_than_32_cards():
    """Positions of more than 32 cards keep their entries in two units of the table (the owners
    of the cards that matter past the 32nd in the second): one solver whose table, too small,
    holds and drops the entries of every earlier deal gives each deal the answer of a fresh
    solver, and that answer is the best of the leader's leads searched apart."""
    seed = f"{SEED}:wide"
    print("seed", seed)
    rng = random.Random(seed)
    shared = Solver(memory_mib=1)
    for number in range(12):
        cards = _deal(rng, 4, 9 + number % 3, 15)
        hands = [hand_mask(hand) for hand in cards]
        rules = PlayRules(trump=rng.choice([None, 0, 1, 2, 3]))
        leader = rng.randrange(4)
        fresh = Solver(memory_mib=16).side_tricks(hands, {0, 2}, leader=leader, rules=rules)
        assert shared.side_tricks(hands, {0, 2}, leader=leader, rules=rules) == fresh, cards
        after = []
        for card in cards[leader]:
            rest = list(hands)
            rest[leader] &= ~hand_mask([card])
            after.append(
                shared.side_tricks(rest, {0, 2}, leader=leader, rules=rules, played=[card])
            )
        assert fresh == (max(after) if leader % 2 == 0 else min(after)), (cards, leader)
    assert shared._c.clears > 0  # the table collected its entries on the way
