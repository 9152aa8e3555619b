"""Hypothesis properties: a won board's results sum to zero, a simulated hand always ends (won
or dead, never the player's turn limit), and the classifier never gives a set two rows: of the
rows of the value table, as the rulebook words them, it gives the first that fits, and only a
natural set of four or more fits several."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.games.pysngtaut.cards import CARD_CODES, RANK_CHARS
from engine.games.pysngtaut.play import play_board
from engine.games.pysngtaut.sets import CATEGORY_IDS, SetFault, read_set
from tests.engine.pysngtaut.test_properties import GAME, random_record

FACES = "JQK"
CARDS = [rank + suit for rank in RANK_CHARS for suit in "SHDC"]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_won_board_sums_to_zero(seed):
    rng = random.Random(seed)
    record = None
    while record is None:
        record = random_record(rng)
    score = GAME.score(record)
    pot = sum(p["amount"] for p in score["payments"] if p["to"] == "pot")
    if score["winner"] is not None:
        assert sum(score["seats"].values()) == 0 and pot == 0
    else:
        assert sum(score["seats"].values()) == -pot


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.sampled_from((2, 3, 4)),
    board=st.integers(1, 4),
    direction=st.sampled_from(("clockwise", "counterclockwise")),
    flags=st.sets(st.sampled_from(("god_draws_seven", "pickup_draws_seven", "same_colour_sets"))),
)
def test_a_simulated_hand_always_ends(seed, players, board, direction, flags):
    deal = GAME.seeded_deal(seed, 1, board, players)
    played = play_board(
        deal, random.Random(seed), direction=direction, flags=dict.fromkeys(flags, True)
    )
    assert (played.winner is None) == played.dead
    if played.winner is not None:
        assert not played.hands[played.winner]


def rows_that_fit(cards: list[str], wild: str | None) -> list[str]:
    """Every row of the value table (4.3) whose words fit the set, in table order."""
    naturals = [c for c in cards if c[0] != wild]
    wilds = len(cards) - len(naturals)
    face = naturals[0][0] in FACES
    red = all(c[1] in "HD" for c in cards)
    black = all(c[1] in "SC" for c in cards)
    three = len(cards) == 3
    fits = {
        "3-natural-face": three and face and not wilds,
        "3-face-wild": three and face and wilds > 0,
        "3-natural-number": three and not face and not wilds,
        "3-number-wild": three and not face and wilds > 0,
        "4-natural-face": not three and face and not wilds,
        "4-natural-red": not three and not wilds and red,
        "4-natural-black": not three and not wilds and black,
        "4-face-wild": not three and face and wilds > 0,
        "4-natural": not three and not wilds,
        "4-number-wild": not three and not face and wilds > 0,
    }
    return [row for row in CATEGORY_IDS if fits[row]]


@settings(max_examples=500, deadline=None)
@given(
    rank=st.sampled_from(RANK_CHARS),
    wild=st.sampled_from([*RANK_CHARS, None]),
    suits=st.lists(st.sampled_from("SHDC"), min_size=3, max_size=8),
    wild_count=st.integers(0, 4),
)
def test_the_classifier_never_gives_a_set_two_rows(rank, wild, suits, wild_count):
    cards = [rank + suit for suit in suits]
    if wild is not None:
        cards[:wild_count] = [wild + suit for suit in suits[:wild_count]]
    try:
        natural, index, _has_wild = read_set([CARD_CODES[c] for c in cards], _code(wild))
    except SetFault:
        assert all(c[0] == wild for c in cards)  # only an all-wild set fails without options
        return
    fitting = rows_that_fit(cards, wild)
    assert fitting, cards
    assert CATEGORY_IDS[index] == fitting[0], cards  # the first row that fits, and only it
    if len(fitting) > 1:  # several rows fit only a natural number set of four or more
        assert len(cards) >= 4 and all(c[0] == RANK_CHARS[natural] for c in cards)
        assert fitting[-1] == "4-natural"  # "4 Natural Cards" fits them all


def _code(wild: str | None) -> int | None:
    return None if wild is None else RANK_CHARS.index(wild)
