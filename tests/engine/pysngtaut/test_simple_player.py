"""The simple player's pick-up (3.3): the cards below the up card go to his hand."""

import random

from engine.games.pysngtaut.cards import FACE_RANKS
from engine.games.pysngtaut.game import GAME
from engine.games.pysngtaut.play import Board


def _card(rank: int, suit: int) -> int:
    return rank * 4 + suit


def test_the_cards_below_the_up_card_reach_his_hand():
    deal = GAME.seeded_deal("pick-up", 1, 1, 4)
    board = Board(deal, random.Random(1), "counterclockwise", {})
    seat = board.order[0]
    pile = board.piles_of(seat)[0]
    other_pile = 3 - pile
    ranks = [r for r in range(13) if r != board.wild and r not in FACE_RANKS]
    rank, others = ranks[0], ranks[1:]
    # Three naturals of the up card's rank and three odd cards: he makes a set of four with
    # the up card, keeps three cards and cannot go out with one set of four.
    kept = [_card(others[0], 0), _card(others[1], 1), _card(others[2], 2)]
    board.hands[seat] = [_card(rank, 0), _card(rank, 1), _card(rank, 3), *kept]
    below = [_card(others[3 + i // 2], i % 2) for i in range(7)]
    up = _card(rank, 2)
    board.discard[pile] = [*below, up]
    board.discard[other_pile] = []

    assert board.take_up_card(seat)

    assert sorted(board.melds[seat][rank]) == sorted(
        [up, _card(rank, 0), _card(rank, 1), _card(rank, 3)]
    )
    assert sorted(board.hands[seat]) == sorted(kept + below)
    assert board.discard[pile] == []
