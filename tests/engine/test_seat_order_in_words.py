"""A score read back from PostgreSQL (jsonb) has its keys sorted: E, N, S, W. The words of a
board and of an entry keep the table's order whatever order the keys come in."""

from __future__ import annotations

import random
import re

import pytest

from engine.games import get_game


def reordered(value):
    """``value`` with every dict's keys sorted, as jsonb gives them back."""
    if isinstance(value, dict):
        return {key: reordered(value[key]) for key in sorted(value)}
    if isinstance(value, list):
        return [reordered(item) for item in value]
    return value


@pytest.mark.parametrize("game_id", ["twenty", "pysngtaut"])
def test_words_follow_the_table_not_the_keys(game_id):
    game = get_game(game_id)
    rng = random.Random(7)
    for _ in range(30):
        deal = game.deal_cards(rng, players=4, dealer="N")
        record = game.simulate_record(deal, rng)
        score = game.score(record)
        assert game.describe(reordered(score)) == game.describe(score)
        assert game.entry_in_words(reordered(record), reordered(score)) == game.entry_in_words(
            record, score
        )
        seats = re.findall(r"\b([NESW]) [+−-]?\d", game.describe(reordered(score)))
        assert seats == [seat for seat in "NESW" if seat in score["seats"]], seats
