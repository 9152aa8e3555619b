"""Hand records state the tricks taken: Pymtheg's through ``tricks_in_words`` (its result
words do not say them), the other games in their result words or not at all."""

from engine.games import get_game


def test_pymtheg_says_each_sides_or_each_seats_tricks():
    game = get_game("pymtheg")
    assert game.tricks_in_words({"tricks": {"NS": 10, "EW": 5}}) == (
        "Tricks: North–South 10, East–West 5"
    )
    assert game.tricks_in_words({"tricks": {"N": 1, "E": 1, "S": 0, "W": 0}}) == (
        "Tricks: North 1, East 1, South 0, West 0"
    )
    assert game.tricks_in_words({}) == ""


def test_games_whose_words_say_the_tricks_add_nothing():
    for name in ("pyramid", "twenty", "pysngtaut"):
        assert get_game(name).tricks_in_words({"tricks": 3}) == ""
