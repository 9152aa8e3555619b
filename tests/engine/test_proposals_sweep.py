"""``propose`` and the movement checker agree on every field of 4 to 200 entrants, for every
game: every proposal is drawn, the drawn schedule or movement keeps every rule, and every
figure the proposal claims (tables, sizes, rounds, who sits out, idle tables, meetings, rounds
at each size) is recounted from it. Timings: bench/movement.py."""

import pytest

from engine.games import GAME_IDS
from engine.schedule.proposals import check_proposal, draw, propose

FIELDS = range(4, 201)
# The fields in slices, each a test of its own, so that the test processes share them (the
# larger fields of the games of individuals take seconds each).
SLICE = 20
SLICES = [FIELDS[start : start + SLICE] for start in range(0, len(FIELDS), SLICE)]


def test_the_slices_cover_every_field_once():
    assert [entrants for part in SLICES for entrants in part] == list(FIELDS)


@pytest.mark.parametrize("fields", SLICES, ids=lambda part: f"{part.start}-{part.stop - 1}")
@pytest.mark.parametrize("game", GAME_IDS)
def test_every_field_from_4_to_200(game, fields):
    for entrants in fields:
        found = propose(game, entrants)
        assert found["problem"] is None, (entrants, found["problem"])
        assert found["proposals"], entrants
        for proposal in found["proposals"]:
            drawn = draw(game, entrants, proposal["key"])
            assert check_proposal(proposal, drawn, entrants) == [], (entrants, proposal["key"])
            assert proposal["byes"][1] - proposal["byes"][0] <= 1, (entrants, proposal["key"])
            if found["entrant"] == "pair" and entrants % 2:
                # an odd number of pairs: one pair out a round, never three
                assert proposal["sitting_out"] == [1, 1], (entrants, proposal["key"])
