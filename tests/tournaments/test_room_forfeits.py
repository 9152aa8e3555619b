"""A player who withdraws before his round, in each game of individuals: the table he was
to sit at is not played in that round (its boards were dealt for the full table), and the
others there sit out, scored as every bye (GAMES.md "Real rooms", RULES.md §6, ranking
rulings in docs/ranking.md): in duplicate each board of the round is worth the mean of the
ranking points given in that round, in totals a bye adds nothing. The leaver's results
stand, without a place."""

from __future__ import annotations

from collections import defaultdict

import pytest

from operations.simulation import simulate_tournament
from scoring.models import StandingsState
from scoring.selectors import current_results
from scoring.standings import recompute
from tests.tournaments.test_room import _event, _played
from tournaments import room
from tournaments.models import Match

pytestmark = pytest.mark.django_db

# Small boards so that a whole evening plays in a second or two.
GAMES = [
    ("pyramid", {"declarations_per_round": 1}),
    ("twenty", {"boards_per_table": 2}),
    ("pysngtaut", {"boards_per_table": 2}),
]


def _evening(organiser, game: str, extra: dict, ranking: str):
    """12 players at 3 tables of 4, round 1 played; player 2 withdraws after it; then the
    rest of the evening is played. Returns the tournament, the seats taken out, the rows."""
    tournament = _played(
        organiser,
        _event(
            organiser,
            entrants=12,
            tables=3,
            slug=f"ff-{game}-{ranking}",
            game=game,
            table_size=4,
            ranking=ranking,
            **extra,
        ),
    )
    change = room.withdraw(by=organiser, entrant=tournament.entrants.get(number=2), after_round=1)
    assert change.matches, "player 2 had rounds left to play"
    simulate_tournament(tournament, rounds=None, seed="forfeits", by=organiser)
    recompute(tournament.pk)
    state = StandingsState.objects.get(tournament=tournament).standings
    numbers = dict(tournament.entrants.values_list("pk", "number"))
    rows = {numbers[int(row["player"])]: row for row in state["standings"]}
    left = {(number, kept["round"]) for kept in change.matches for number in kept["seats"].values()}
    return tournament, state, rows, {(n, r) for n, r in left if n != 2}


@pytest.mark.parametrize(("game", "extra"), GAMES, ids=[g for g, _ in GAMES])
def test_in_duplicate_the_others_at_his_table_get_the_rounds_mean(organiser, game, extra):
    tournament, state, rows, left = _evening(organiser, game, extra, "duplicate")
    assert len(left) == 3 * len({r for _, r in left})  # three others at each table taken out
    numbers = dict(tournament.entrants.values_list("pk", "number"))
    ranks: dict[int, list[float]] = defaultdict(list)  # round: every rank given in it
    own: dict[int, float] = defaultdict(float)
    played_rounds: dict[int, set[int]] = defaultdict(set)
    for group in state["groups"]:
        for result in group["results"]:
            number = numbers[int(result["player"])]
            ranks[result["round"]].append(result["rank"])
            own[number] += result["rank"]
            played_rounds[number].add(result["round"])
    boards = tournament.tables.first().boards.count()
    for number, round_ in left:
        assert round_ not in played_rounds[number]  # the table taken out was not played
        sat_out = set(ranks) - played_rounds[number]
        expected = own[number] + sum(boards * sum(ranks[r]) / len(ranks[r]) for r in sat_out)
        assert rows[number]["points"] == pytest.approx(expected, abs=1e-6), (number, sat_out)
        assert rows[number]["place"] is not None
        assert rows[number]["matches"] == boards * len(played_rounds[number])
    gone = rows[2]
    assert gone["status"] == "withdrawn" and gone["place"] is None
    assert gone["matches"] == boards and played_rounds[2] == {1}  # round 1 stands
    assert not state["provisional"]  # nothing waits for the match taken out


@pytest.mark.parametrize(("game", "extra"), GAMES, ids=[g for g, _ in GAMES])
def test_in_totals_the_others_at_his_table_add_nothing_for_that_round(organiser, game, extra):
    tournament, state, rows, left = _evening(organiser, game, extra, "totals")
    rules = tournament.game_rules
    totals: dict[int, float] = defaultdict(float)
    rounds_of: dict[int, set[int]] = defaultdict(set)
    matches = {
        m.pk: m
        for m in Match.objects.filter(table__tournament=tournament).prefetch_related("seats")
    }
    for (match_id, _board), result in current_results(tournament).items():
        match = matches[match_id]
        for seat in match.seats.all():
            totals[seat.entrant.number] += rules.totals_entry(result.submission.score, seat.seat)[0]
            rounds_of[seat.entrant.number].add(match.round)
    for number, round_ in left:
        assert round_ not in rounds_of[number]
        assert rows[number]["total"] == pytest.approx(totals[number], abs=1e-6)
    assert rows[2]["status"] == "withdrawn" and rows[2]["place"] is None
    assert rows[2]["total"] == pytest.approx(totals[2], abs=1e-6) and rounds_of[2] == {1}
    assert not state["provisional"]
