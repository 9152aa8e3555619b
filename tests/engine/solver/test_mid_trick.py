"""Solving from the middle of a trick (cards already on the table) against plain minimax
from the same position, and the budgets that stop a search cleanly."""

from __future__ import annotations

import random

import pytest

from engine.solver import PlayRules, Solver, card_index, hand_mask
from tests.engine.solver.reference import legal_cards, minimax

SEED = 20261128


def _deal(rng: random.Random, players: int, cards: int, ranks: int) -> list[list[tuple[int, int]]]:
    pack = [(suit, rank) for suit in range(4) for rank in range(ranks)]
    rng.shuffle(pack)
    return [sorted(pack[i * cards : (i + 1) * cards]) for i in range(players)]


def _play_into_trick(rng, hands, leader, count, trump, rules):
    """Plays ``count`` random legal cards to the first trick; the hands lose them."""
    hands = [list(hand) for hand in hands]
    played: list[tuple[int, int]] = []
    for place in range(count):
        player = (leader + place) % len(hands)
        options = legal_cards(frozenset(hands[player]), played, trump, **rules)
        card = rng.choice(options)
        hands[player].remove(card)
        played.append(card)
    return hands, played


@pytest.mark.parametrize(
    ("players", "cards", "ranks", "rules"),
    [
        (4, 4, 4, {}),
        (4, 4, 15, {}),
        (4, 4, 6, {"undertrump": False}),
        (4, 4, 6, {"must_trump": True}),
        (3, 5, 6, {"must_trump": True}),
        (2, 6, 6, {"must_trump": True}),
    ],
)
def test_mid_trick_positions_equal_minimax(players, cards, ranks, rules):
    seed = f"{SEED}:{players}:{cards}:{ranks}:{sorted(rules.items())}"
    print("seed", seed)
    rng = random.Random(seed)
    solver = Solver(memory_mib=16)
    full = {"must_trump": False, "undertrump": True, **rules}
    for _ in range(15):
        trump = rng.choice([None, 0, 1, 2, 3])
        leader = rng.randrange(players)
        count = rng.randrange(1, players)
        hands, played = _play_into_trick(
            rng, _deal(rng, players, cards, ranks), leader, count, trump, full
        )
        side = {0, 2} if players == 4 else {rng.randrange(players)}
        weights = [1 if p in side else 0 for p in range(players)]
        expected = minimax(
            hands,
            leader=leader,
            weights=weights,
            maximisers=side,
            trump=trump,
            played=played,
            **full,
        )
        got = solver.side_tricks(
            [hand_mask(hand) for hand in hands],
            side,
            leader=leader,
            rules=PlayRules(trump=trump, **rules),
            played=played,
        )
        assert got == expected, (hands, played, trump, leader, side, rules)


def test_a_trick_start_is_the_same_with_or_without_an_empty_trick():
    rng = random.Random(SEED)
    print("seed", SEED)
    hands = [hand_mask(hand) for hand in _deal(rng, 4, 6, 15)]
    rules = PlayRules(trump=2)
    solver = Solver(memory_mib=8)
    assert solver.side_tricks(hands, {0, 2}, leader=1, rules=rules, played=()) == (
        Solver(memory_mib=8).side_tricks(hands, {0, 2}, leader=1, rules=rules)
    )


def _trick_deal() -> list[int]:
    # North led the spade ace; East still holds spades.
    return [
        hand_mask([(0, 1), (1, 5)]),
        hand_mask([(0, 3), (0, 4), (2, 2)]),
        hand_mask([(1, 9), (3, 2), (3, 3)]),
        hand_mask([(2, 7), (2, 8), (3, 9)]),
    ]


def test_the_cards_of_the_trick_are_checked():
    solver = Solver(memory_mib=1)
    rules = PlayRules(trump=None)
    hands = _trick_deal()
    assert solver.side_tricks(hands, {0, 2}, leader=0, rules=rules, played=[(0, 12)]) in range(4)
    # East plays a diamond while he holds spades: refused.
    east_short = [hands[0], hand_mask([(0, 3), (0, 4)]), hands[2], hands[3]]
    with pytest.raises(ValueError, match="not a legal card"):
        solver.side_tricks(east_short, {0, 2}, leader=0, rules=rules, played=[(0, 12), (2, 2)])
    with pytest.raises(ValueError, match="both in a hand and in the trick"):
        solver.side_tricks(hands, {0, 2}, leader=0, rules=rules, played=[(0, 1)])
    with pytest.raises(ValueError, match="less the one in the trick"):
        solver.side_tricks(hands, {0, 2}, leader=1, rules=rules, played=[(0, 12)])
    with pytest.raises(ValueError, match="at most 3 cards"):
        solver.side_tricks(hands, {0, 2}, leader=0, rules=rules, played=[(0, 12)] * 4)
    assert card_index(3, 14) == 62
    with pytest.raises(ValueError):
        card_index(0, 15)


def _big_deal() -> list[int]:
    rng = random.Random(SEED)
    return [hand_mask(hand) for hand in _deal(rng, 4, 13, 13)]


def test_a_search_past_its_time_gives_no_number():
    solver = Solver(memory_mib=16)
    rules = PlayRules(trump=None)
    with pytest.raises(TimeoutError):
        solver.side_tricks(_big_deal(), {0, 2}, leader=1, rules=rules, max_seconds=1e-6)
    # The solver stays usable and right afterwards.
    hands = _big_deal()
    expected = Solver(memory_mib=16).side_tricks(hands, {0, 2}, leader=1, rules=rules)
    assert solver.side_tricks(hands, {0, 2}, leader=1, rules=rules) == expected


def test_a_mid_trick_search_past_its_limit_gives_no_number():
    hands = _big_deal()
    north = hands[0]
    lead = max(range(64), key=lambda bit: (north >> bit) & 1 and bit % 16)
    hands[0] = north & ~(1 << lead)
    solver = Solver(memory_mib=16)
    rules = PlayRules(trump=None)
    played = [(lead // 16, lead % 16)]
    with pytest.raises(TimeoutError):
        solver.side_tricks(hands, {0, 2}, leader=0, rules=rules, played=played, max_nodes=500)
    expected = Solver(memory_mib=16).side_tricks(
        hands, {0, 2}, leader=0, rules=rules, played=played
    )
    assert solver.side_tricks(hands, {0, 2}, leader=0, rules=rules, played=played) == expected
    with pytest.raises(ValueError, match="max_seconds"):
        solver._c.solve(_big_deal(), -1, 0, (1, 0, 1, 0), (1, 0, 1, 0), max_seconds=-1.0)


def test_a_trick_start_is_the_best_of_its_leads():
    """On Pymtheg-sized ranks: the value at a trick start equals the best, for the leader's
    side, of the values after each of his possible leads."""
    rng = random.Random(SEED + 2)
    print("seed", SEED + 2)
    solver = Solver(memory_mib=16)
    for _ in range(6):
        cards = _deal(rng, 4, 8, 15)
        trump = rng.choice([None, 0, 1, 2, 3])
        rules = PlayRules(trump=trump)
        leader = rng.randrange(4)
        hands = [hand_mask(hand) for hand in cards]
        whole = solver.side_tricks(hands, {0, 2}, leader=leader, rules=rules)
        after = []
        for card in cards[leader]:
            rest = list(hands)
            rest[leader] &= ~hand_mask([card])
            after.append(
                solver.side_tricks(rest, {0, 2}, leader=leader, rules=rules, played=[card])
            )
        assert whole == (max(after) if leader % 2 == 0 else min(after)), (cards, trump, leader)


def test_following_hands_with_cards_of_the_trick_between_theirs():
    """Every card a following hand may play after each lead and each second card, on dense
    deals (every card of a 16-card pack dealt), where a hand's cards often have only cards of
    the trick between them: the search treats those as one card when both lose to the trick's
    winning card, and must still equal plain minimax."""
    seed = f"{SEED}:across-the-trick"
    print("seed", seed)
    rng = random.Random(seed)
    solver = Solver(memory_mib=16)
    full = {"must_trump": False, "undertrump": True}
    for _ in range(10):
        hands = _deal(rng, 4, 4, 4)
        trump = rng.choice([None, 0, 1])
        leader = rng.randrange(4)
        for first in legal_cards(frozenset(hands[leader]), [], trump, **full):
            second_hand = hands[(leader + 1) % 4]
            for second in legal_cards(frozenset(second_hand), [first], trump, **full):
                left = [list(hand) for hand in hands]
                left[leader].remove(first)
                left[(leader + 1) % 4].remove(second)
                played = [first, second]
                for weights, side in (([1, 0, 1, 0], {0, 2}), ([0, 16, 0, 1], {0, 2})):
                    expected = minimax(
                        left,
                        leader=leader,
                        weights=weights,
                        maximisers=side,
                        trump=trump,
                        played=played,
                        **full,
                    )
                    got = solver.value(
                        [hand_mask(hand) for hand in left],
                        leader=leader,
                        weights=weights,
                        maximisers=side,
                        rules=PlayRules(trump=trump),
                        played=played,
                    )
                    assert got == expected, (hands, played, trump, leader, weights)
