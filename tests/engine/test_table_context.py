"""What a scorer's page says of play at a table names only the seats the table has."""

from __future__ import annotations

import pytest

from engine.core.seats import SEAT_LETTERS
from engine.games import game_ids, get_game
from engine.games.base import play_in_words


def test_play_in_words_follows_the_tables_seats_and_direction():
    assert play_in_words("clockwise", 4) == "clockwise (N → E → S → W)"
    assert play_in_words("counterclockwise", 4) == "counter-clockwise (N → W → S → E)"
    assert play_in_words("clockwise", 3) == "clockwise (N → E → S)"
    assert play_in_words("counterclockwise", 3) == "counter-clockwise (N → S → E)"
    assert play_in_words("clockwise", 2) == "clockwise (N → E)"


@pytest.mark.parametrize("game_id", game_ids())
def test_a_tables_facts_name_only_its_seats(game_id):
    game = get_game(game_id)
    for players in game.table_sizes:
        absent = SEAT_LETTERS[players:]
        for direction in ("clockwise", "counterclockwise"):
            settings = game.settings({})
            if "direction" in settings:
                settings = game.settings({**settings, "direction": direction})
            for _label, text in game.table_context(settings, 1, players)["facts"]:
                assert not any(f" {seat} " in f" {text} " or f"{seat})" in text for seat in absent)
