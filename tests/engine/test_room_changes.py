"""Late arrivals and withdrawals in the engine: seating a newcomer in a drawn schedule
(``engine.schedule.arrival``) and ranking a withdrawn entrant (no place, results stand)."""

from __future__ import annotations

import random
from collections import defaultdict

import pytest

from engine.ranking import rank_individuals, rank_results
from engine.schedule import generate_schedule
from engine.schedule.arrival import (
    NEWCOMER,
    ArrivalError,
    displace_pair,
    displace_player,
    seat_pair,
    seat_player,
)
from engine.schedule.individual import generate_individual_schedule


def _pair_rows(schedule):
    return [(m["round"], m["table"], m["ns"], m["ew"]) for m in schedule["matches"]]


def _check_pair_placements(rows, placements, sides):
    """Nobody plays twice in a round or at a table twice; fixed sides hold."""
    seen_round, seen_table = defaultdict(set), defaultdict(set)
    side_of = defaultdict(set)
    busy = defaultdict(set)
    for round_, table, ns, ew in rows:
        seen_round[round_] |= {ns, ew}
        seen_table[ns].add(table)
        seen_table[ew].add(table)
        side_of[ns].add("ns")
        side_of[ew].add("ew")
        busy[round_].add(table)
    for p in placements:
        assert p.table not in busy[p.round], p
        for place, entrant in p.seats.items():
            assert entrant not in seen_round[p.round], p
            assert p.table not in seen_table[entrant], p
            seen_round[p.round].add(entrant)
            seen_table[entrant].add(p.table)
            side_of[entrant].add(place)
        busy[p.round].add(p.table)
    if sides == "fixed":
        assert all(len(places) == 1 for places in side_of.values()), dict(side_of)


@pytest.mark.parametrize("teams", [5, 7, 9, 11, 13])
@pytest.mark.parametrize("start", [2, 3])
def test_a_late_pair_takes_the_phantoms_place_in_every_round_left(teams, start):
    schedule = generate_schedule(teams, (teams + 1) // 2)
    rows = _pair_rows(schedule)
    rounds = list(range(start, schedule["rounds"] + 1))
    placements = seat_pair(
        rows, range(1, teams + 1), range(1, schedule["tables"] + 1), rounds, "fixed"
    )
    assert [p.round for p in placements] == rounds
    byes = {(b["round"], b["team"]) for b in schedule["byes"]}
    for p in placements:
        (opponent,) = p.opponents
        assert (p.round, opponent) in byes  # the pair that faced the phantom
    _check_pair_placements(rows, placements, "fixed")


def test_a_full_schedule_has_no_place_and_says_what_to_redraw():
    schedule = generate_schedule(8, 4)
    with pytest.raises(ArrivalError, match=r"rounds 2-4.*Redraw the rounds not yet started"):
        seat_pair(_pair_rows(schedule), range(1, 9), range(1, 5), [2, 3, 4])


def test_no_round_left_is_refused():
    with pytest.raises(ArrivalError, match="every round has started"):
        seat_pair(_pair_rows(generate_schedule(7, 4)), range(1, 8), range(1, 5), [])


def test_a_late_pair_takes_the_place_a_withdrawn_pair_left():
    schedule = generate_schedule(8, 4)
    withdrawn = 3
    rows = [r for r in _pair_rows(schedule) if r[0] <= 2 or withdrawn not in r[2:]]
    entrants = [t for t in range(1, 9) if t != withdrawn]
    placements = seat_pair(rows, entrants, range(1, 5), [3, 4], "fixed")
    assert [p.round for p in placements] == [3, 4]
    _check_pair_placements(rows, placements, "fixed")


def test_balanced_sides_may_seat_the_newcomer_on_either_side():
    schedule = generate_schedule(7, 4, "balanced")
    rows = _pair_rows(schedule)
    placements = seat_pair(rows, range(1, 8), range(1, 5), [2, 3, 4], "balanced")
    assert len(placements) == 3
    _check_pair_placements(rows, placements, "balanced")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_late_player_fills_an_idle_table_with_players_sitting_out(seed):
    print("seed", seed)
    rng = random.Random(seed)
    players, size = rng.choice([(11, 4), (15, 4), (19, 4), (8, 3), (11, 3), (14, 3)])
    movement = generate_individual_schedule(players, size, players // size)
    tables = {t: size for t in range(1, movement["tables"] + 2)}  # one table more than used
    seatings = [(s["round"], s["table"], s["seats"]) for s in movement["seatings"]]
    rounds = list(range(2, movement["rounds"] + 1))
    placements = seat_player(seatings, range(1, players + 1), tables, rounds)
    assert placements, "a round with size-1 players out and a free table seats the newcomer"
    playing = defaultdict(set)
    visited = defaultdict(set)
    for round_, table, seats in seatings:
        playing[round_] |= set(seats.values())
        for player in seats.values():
            visited[player].add(table)
    for p in placements:
        assert len(p.seats) == size and NEWCOMER in p.seats.values()
        assert p.seats[p.own] == NEWCOMER
        for player in p.opponents:
            assert player not in playing[p.round] and p.table not in visited[player]
    assert len({p.table for p in placements}) == len(placements)


def test_a_movement_without_a_free_table_is_refused():
    movement = generate_individual_schedule(16, 4, 3)
    seatings = [(s["round"], s["table"], s["seats"]) for s in movement["seatings"]]
    with pytest.raises(ArrivalError, match="no phantom's place in rounds 2-3"):
        seat_player(seatings, range(1, 17), {t: 4 for t in range(1, 5)}, [2, 3])


# -- displacement: no phantom's place ---------------------------------------------------------


@pytest.mark.parametrize(("teams", "tables", "sides"), [(8, 4, "fixed"), (10, 5, "balanced")])
def test_where_no_table_is_free_a_late_pair_takes_one_pairs_place_a_round(teams, tables, sides):
    rows = _pair_rows(generate_schedule(teams, tables, sides))
    rounds = sorted({r for r, *_ in rows})[1:]
    placements = displace_pair(rows, range(1, teams + 1), rounds, sides)
    assert [p.round for p in placements] == rounds  # seated in every round left
    assert len({p.replaces for p in placements}) == len(rounds)  # a different pair sits out
    assert len({p.table for p in placements}) == len(rounds)  # no table twice
    if sides == "fixed":
        assert len({p.own for p in placements}) == 1
    drawn = {(r, t): {"ns": ns, "ew": ew} for r, t, ns, ew in rows}
    for p in placements:
        match = drawn[(p.round, p.table)]
        assert match[p.own] == p.replaces  # it takes the place of the pair on its side
        (other,) = p.opponents
        assert other == match["ew" if p.own == "ns" else "ns"]


def test_where_no_table_is_free_a_late_player_takes_one_players_seat_a_round():
    movement = generate_individual_schedule(16, 4, 4)
    seatings = [(s["round"], s["table"], s["seats"]) for s in movement["seatings"]]
    rounds = list(range(2, movement["rounds"] + 1))
    placements = displace_player(seatings, range(1, 17), rounds)
    assert [p.round for p in placements] == rounds
    assert len({p.replaces for p in placements}) == len(rounds)
    assert len({p.table for p in placements}) == len(rounds)
    drawn = {(r, t): seats for r, t, seats in seatings}
    for p in placements:
        before = drawn[(p.round, p.table)]
        assert before[p.own] == p.replaces and p.seats[p.own] == NEWCOMER
        assert {k: v for k, v in p.seats.items() if k != p.own} == {
            k: v for k, v in before.items() if k != p.own
        }


def test_no_match_in_play_to_join_is_refused_with_the_reason():
    rows = _pair_rows(generate_schedule(8, 4))
    with pytest.raises(ArrivalError, match="no match left to join"):
        displace_pair(rows, [1, 2], [2, 3, 4])  # every match has a pair out of play
    with pytest.raises(ArrivalError, match="every round has started"):
        displace_pair(rows, range(1, 9), [])


# -- ranking a withdrawn entrant ----------------------------------------------------------------


def _pair_results(seed: int) -> dict:
    rng = random.Random(seed)
    schedule = generate_schedule(8, 4)
    return {
        "teams": [{"id": f"T{n}", "name": f"Team {n}"} for n in range(1, 9)],
        "matches": [
            {
                "round": m["round"],
                "table": m["table"],
                "board": 1,
                "ns": f"T{m['ns']}",
                "ew": f"T{m['ew']}",
                "scores": {"ns": (s := rng.randint(-30, 30) * 10), "ew": -s},
            }
            for m in schedule["matches"]
            if m["round"] <= 2 or 5 not in (m["ns"], m["ew"])
        ],
    }


def test_a_withdrawn_pair_has_no_place_and_its_results_stand_for_the_others():
    data = _pair_results(7)
    plain = rank_results(data)
    withdrawn = rank_results({**data, "withdrawn": [{"team": "T5", "after_round": 2}]})
    assert withdrawn["groups"] == plain["groups"]  # every result still ranked
    rows = {row["team"]: row for row in withdrawn["standings"]}
    assert rows["T5"]["place"] is None
    assert rows["T5"]["status"] == "withdrawn" and rows["T5"]["withdrew_after"] == 2
    assert rows["T5"]["percentage"] is not None  # listed with its percentage
    assert withdrawn["standings"][-1]["team"] == "T5"
    placed = [row for row in withdrawn["standings"] if row["place"] is not None]
    assert len(placed) == 7 and max(row["place"] for row in placed) <= 7
    # The others keep their order; only the places below the withdrawn pair move up.
    before = [row["team"] for row in plain["standings"] if row["team"] != "T5"]
    assert [row["team"] for row in placed] == before


def test_withdrawn_come_before_the_disqualified():
    data = _pair_results(3)
    out = rank_results(
        {
            **data,
            "withdrawn": [{"team": "T5", "after_round": 2}],
            "disqualified": [{"team": "T1", "after_final": False}],
        }
    )
    assert [row["team"] for row in out["standings"][-2:]] == ["T5", "T1"]
    assert [row["status"] for row in out["standings"][-2:]] == ["withdrawn", "disqualified"]


@pytest.mark.parametrize(
    "bad", [[{"team": "T9", "after_round": 1}], [{"team": "T1", "after_round": -1}], {"T1": 1}]
)
def test_a_bad_withdrawal_is_refused(bad):
    from engine.ranking import RankingInputError

    with pytest.raises(RankingInputError, match="withdrawn"):
        rank_results({**_pair_results(1), "withdrawn": bad})


def test_a_withdrawn_player_has_no_place_in_either_method():
    movement = generate_individual_schedule(12, 4, 3)
    rng = random.Random(5)
    matches = []
    for seating in movement["seatings"]:
        seats = {seat: f"P{p}" for seat, p in seating["seats"].items()}
        if seating["round"] == 3 and "P2" in seats.values():
            continue  # P2 withdrew after round 2: that table's match is not played
        points = rng.choice([10, 6, 2, -2])
        declarer = rng.choice("NESW")
        matches.append(
            {
                "round": seating["round"],
                "table": seating["table"],
                "board": 1,
                "seats": seats,
                "score": {
                    "seats": {s: points if s == declarer else -points for s in "NESW"},
                    "declarer": declarer,
                    "points": points,
                    "exact": points == 10,
                },
            }
        )
    data = {
        "game": "pyramid",
        "players": [{"id": f"P{n}", "name": f"P{n}"} for n in range(1, 13)],
        "matches": matches,
        "withdrawn": [{"player": "P2", "after_round": 2}],
    }
    for method in ("duplicate", "totals"):
        rows = rank_individuals({**data, "method": method})["standings"]
        assert rows[-1]["player"] == "P2" and rows[-1]["place"] is None
        assert rows[-1]["status"] == "withdrawn" and rows[-1]["withdrew_after"] == 2
        assert all(row["place"] is not None for row in rows[:-1])


def test_a_withdrawn_row_survives_the_compact_storage():
    from engine.ranking import RankingState
    from engine.ranking.stored import expand_standings

    data = {**_pair_results(11), "withdrawn": [{"team": "T5", "after_round": 2}]}
    state = RankingState.build(data)
    assert expand_standings(state.to_stored_standings()) == state.to_standings()
