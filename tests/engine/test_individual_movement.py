"""Movements for individual players: generate_individual_schedule, check_individual_schedule and
the ``schedule --game pyramid`` / ``check-schedule`` commands (docs/movement.md).

Every generated movement is checked twice: by the module's checker and by ``recount`` below,
written separately from both modules.
"""

import copy
import functools
import itertools
import json
import random
import subprocess
import sys
from collections import Counter, defaultdict
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schedule import ScheduleError, check_individual_schedule, generate_individual_schedule
from engine.schedule.individual import kept_grid, movement_grid

ROOT = Path(__file__).resolve().parents[2]
KEYS = {
    "players",
    "per_table",
    "tables",
    "rounds",
    "seatings",
    "byes",
    "max_meetings",
    "repeated_pairs",
}


def recount(movement):
    """Assert every rule of a generated movement from scratch; (max_meetings, repeated_pairs)."""
    assert set(movement) == KEYS
    players, per_table = movement["players"], movement["per_table"]
    tables, rounds = movement["tables"], movement["rounds"]
    for value in (players, per_table, tables, rounds):
        assert type(value) is int
    assert per_table in (2, 3, 4)
    assert tables == players // per_table
    assert 1 <= rounds <= tables
    seat_names = ["N", "E", "S", "W"][:per_table]
    listed = set()
    playing = defaultdict(set)  # round -> players at a table
    visited = defaultdict(list)  # player -> tables
    together = Counter()  # (a, b), a < b -> rounds at one table
    for seating in movement["seatings"]:
        assert set(seating) == {"round", "table", "seats"}
        round_, table = seating["round"], seating["table"]
        assert type(round_) is int and 1 <= round_ <= rounds
        assert type(table) is int and 1 <= table <= tables
        assert (round_, table) not in listed, f"round {round_}, table {table} listed twice"
        listed.add((round_, table))
        assert list(seating["seats"]) == seat_names
        group = list(seating["seats"].values())
        assert all(type(p) is int and 1 <= p <= players for p in group)
        assert len(set(group)) == per_table, f"round {round_}, table {table}: {group}"
        assert not playing[round_] & set(group), f"round {round_}: someone plays twice"
        playing[round_] |= set(group)
        for player in group:
            visited[player].append(table)
        for a, b in itertools.combinations(sorted(group), 2):
            together[a, b] += 1
    assert len(listed) == rounds * tables
    sat_out = defaultdict(list)  # player -> rounds
    for bye in movement["byes"]:
        assert set(bye) == {"round", "player"}
        assert type(bye["round"]) is int and 1 <= bye["round"] <= rounds
        assert type(bye["player"]) is int and 1 <= bye["player"] <= players
        sat_out[bye["player"]].append(bye["round"])
    everybody = set(range(1, players + 1))
    for round_ in range(1, rounds + 1):
        out = {player for player, when in sat_out.items() if round_ in when}
        assert out == everybody - playing[round_], f"round {round_}: byes {sorted(out)}"
        assert len(out) == players - per_table * tables
    assert all(len(when) == 1 for when in sat_out.values()), "somebody sits out twice"
    assert len(movement["byes"]) == rounds * (players - per_table * tables)
    for player, tables_seen in visited.items():
        assert len(tables_seen) == len(set(tables_seen)), f"player {player} revisits a table"
    # Round 1 reads 1, 2, 3, ... table by table and seat by seat; its byes come last.
    first = [p for s in movement["seatings"] if s["round"] == 1 for p in s["seats"].values()]
    assert first == list(range(1, per_table * tables + 1))
    most = max(together.values(), default=0)
    repeated = sum(1 for count in together.values() if count > 1)
    return most, repeated


# --- every size ------------------------------------------------------------------------------


def sampled_rounds(players, per_table):
    """Every R for tables of 2 (cheap); for 3 and 4: 1, 2, one more that moves with P, and R = K
    for P a multiple of 5 or K ≤ 5 (the searches for large K take a second or two each)."""
    tables = players // per_table
    if per_table == 2:
        return list(range(1, tables + 1))
    chosen = {1, min(tables, 2), 1 + (players * 5) % tables}
    if players % 5 == 0 or tables <= 5:
        chosen.add(tables)
    return sorted(chosen)


SIZES = [
    (players, per_table, rounds)
    for per_table in (2, 3, 4)
    for players in range(per_table, 61)
    for rounds in sampled_rounds(players, per_table)
]


@pytest.mark.parametrize(("players", "per_table", "rounds"), SIZES)
def test_every_size_keeps_every_rule(players, per_table, rounds):
    movement = generate_individual_schedule(players, per_table, rounds)
    assert check_individual_schedule(movement) == []
    assert (movement["players"], movement["per_table"]) == (players, per_table)
    assert movement["rounds"] == rounds
    assert recount(movement) == (movement["max_meetings"], movement["repeated_pairs"])


@pytest.mark.parametrize(
    ("players", "per_table", "rounds"),
    [(4, 4, 1), (9, 4, 2), (16, 4, 4), (36, 4, 9), (50, 4, 12), (100, 4, 12), (7, 2, 3)],
)
def test_default_rounds_visit_every_table_up_to_twelve(players, per_table, rounds):
    movement = generate_individual_schedule(players, per_table)
    assert movement["rounds"] == rounds
    assert check_individual_schedule(movement) == []


# --- known figures ---------------------------------------------------------------------------


def test_sixteen_players_four_tables_four_rounds_reach_the_best():
    movement = generate_individual_schedule(16, 4, 4)
    assert (movement["max_meetings"], movement["repeated_pairs"]) == (2, 24)
    assert recount(movement) == (2, 24)


PRIME_POWERS = (3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25)


@pytest.mark.parametrize(
    ("players", "per_table"),
    [
        (per_table * tables + extra, per_table)
        for per_table in (2, 3, 4)
        for tables in PRIME_POWERS
        for extra in range(per_table)
        # n·K players need K > n; leftover players one more column: K ≥ n + 2.
        if tables > per_table + (1 if extra else 0) and per_table * tables <= 100
    ],
)
def test_prime_power_tables_meet_nobody_twice(players, per_table):
    """The finite field gives every R ≤ K without a repeat (R sampled)."""
    tables = players // per_table
    for rounds in sorted({1, 2, tables // 2, tables - 1, tables} - {0}):
        movement = generate_individual_schedule(players, per_table, rounds)
        assert (movement["max_meetings"], movement["repeated_pairs"]) == (1, 0), rounds
        assert recount(movement) == (1, 0)


@pytest.mark.parametrize(
    ("players", "per_table", "rounds", "figures"),
    [
        # Round 2: table 1 takes the four players of table 2, and the other way round.
        (8, 4, 2, (2, 12)),
        # With K = 3 a player's third table follows from his first two, so two players who
        # share tables in rounds 1 and 2 share round 3's too; and in round 2 each table takes
        # its n players from the two other tables of round 1, two of them from the same one.
        (9, 3, 3, (3, 3)),
        (12, 4, 3, (3, 6)),
        # No movement has max_meetings 2 here either (an exhaustive search, not run here).
        (10, 3, 3, (3, 4)),
        (13, 4, 3, (3, 7)),
        (14, 4, 3, (3, 8)),
        # Tables of 2: round 2 of two tables can only swap the pairs round.
        (4, 2, 2, (2, 2)),
    ],
)
def test_forced_repeats(players, per_table, rounds, figures):
    movement = generate_individual_schedule(players, per_table, rounds)
    assert (movement["max_meetings"], movement["repeated_pairs"]) == figures
    assert recount(movement) == figures


def test_the_same_arguments_give_the_same_movement():
    first = generate_individual_schedule(17, 4, 4)  # a search, not a construction
    kept_grid.cache_clear()  # searched again, not served from the movements kept
    generate_individual_schedule(16, 4, 4)
    assert generate_individual_schedule(17, 4, 4) == first
    assert generate_individual_schedule(20, 4) == generate_individual_schedule(20, 4, 5)


def test_a_caller_changing_its_movement_leaves_the_kept_one_alone():
    first = movement_grid(17, 4, 4)
    expected = first.copy()
    first[:] = 0
    assert (movement_grid(17, 4, 4) == expected).all()
    assert not kept_grid(17, 4, 4, None).flags.writeable


# --- bad requests ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((3, 4), "players must be between 4 (one table of 4) and 2000, not 3"),
        ((1, 2), "players must be between 2 (one table of 2) and 2000, not 1"),
        ((2001, 4), "players must be between 4 (one table of 4) and 2000, not 2001"),
        ((20, 5), "players at a table must be 2, 3 or 4, not 5"),
        ((20, 1), "players at a table must be 2, 3 or 4, not 1"),
        ((16, 4, 0), "rounds must be at least 1, not 0"),
        ((16, 4, -2), "rounds must be at least 1, not -2"),
        (
            (16, 4, 5),
            "16 players at tables of 4 fill 4 tables, so at most 4 rounds "
            "(nobody visits a table twice), not 5",
        ),
        (
            (5, 4, 2),
            "5 players at tables of 4 fill 1 table, so at most 1 round "
            "(nobody visits a table twice), not 2",
        ),
        (("16", 4), "players must be a whole number, not '16'"),
        ((16.0, 4), "players must be a whole number, not 16.0"),
        ((16, None), "per_table must be a whole number, not None"),
        ((16, 4, 2.0), "rounds must be a whole number, not 2.0"),
        ((True, 2), "players must be a whole number, not True"),
        ((16, True), "per_table must be a whole number, not True"),
        ((16, 4, True), "rounds must be a whole number, not True"),
    ],
)
def test_bad_requests(args, message):
    with pytest.raises(ScheduleError) as caught:
        generate_individual_schedule(*args)
    assert str(caught.value) == message


# --- the checker -----------------------------------------------------------------------------

# Ten players at three tables of three, three rounds; one sits out each round. Players 4 and 6
# meet three times, which no movement of this size avoids (see test_forced_repeats).
TEN_PLAYERS = {
    "players": 10,
    "per_table": 3,
    "tables": 3,
    "rounds": 3,
    "seatings": [
        {"round": 1, "table": 1, "seats": {"N": 1, "E": 2, "S": 3}},
        {"round": 1, "table": 2, "seats": {"N": 4, "E": 5, "S": 6}},
        {"round": 1, "table": 3, "seats": {"N": 7, "E": 8, "S": 9}},
        {"round": 2, "table": 1, "seats": {"N": 5, "E": 9, "S": 7}},
        {"round": 2, "table": 2, "seats": {"N": 10, "E": 3, "S": 8}},
        {"round": 2, "table": 3, "seats": {"N": 6, "E": 4, "S": 1}},
        {"round": 3, "table": 1, "seats": {"N": 8, "E": 6, "S": 4}},
        {"round": 3, "table": 2, "seats": {"N": 7, "E": 1, "S": 2}},
        {"round": 3, "table": 3, "seats": {"N": 3, "E": 10, "S": 5}},
    ],
    "byes": [{"round": 1, "player": 10}, {"round": 2, "player": 2}, {"round": 3, "player": 9}],
    "max_meetings": 3,
    "repeated_pairs": 4,
}


def bare(**changes):
    """TEN_PLAYERS without its (optional) figures, so that an edit reports only its rule."""
    data = copy.deepcopy(TEN_PLAYERS)
    del data["max_meetings"], data["repeated_pairs"]
    data.update(changes)
    return data


def seats_of(data, index):
    return data["seatings"][index]["seats"]


def test_the_sample_is_valid_and_figures_are_optional():
    assert recount(TEN_PLAYERS) == (3, 4)
    assert check_individual_schedule(TEN_PLAYERS) == []
    assert check_individual_schedule(bare()) == []


@pytest.mark.parametrize(
    ("data", "kind"),
    [([], "a list"), ("x", "a string"), (None, "null"), (3.5, "a number"), (False, "true/false")],
)
def test_not_an_object(data, kind):
    assert check_individual_schedule(data) == [f"a movement must be a JSON object, not {kind}"]


def test_missing_and_unknown_keys():
    data = bare(notes="bring pencils")
    del data["byes"], data["per_table"]
    assert check_individual_schedule(data) == [
        "missing key 'per_table'",
        "missing key 'byes'",
        'unknown key "notes"',
    ]
    assert check_individual_schedule({"seatings": []})[:2] == [
        "missing key 'players'",
        "missing key 'per_table'",
    ]


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("players", True, "'players' must be a whole number, not true"),
        ("players", "10", "'players' must be a whole number, not \"10\""),
        ("players", 1, "'players' must be between 2 and 1000000, not 1"),
        ("per_table", 5, "'per_table' must be 2, 3 or 4, not 5"),
        ("per_table", 3.0, "'per_table' must be 2, 3 or 4, not 3.0"),
        ("per_table", True, "'per_table' must be 2, 3 or 4, not true"),
        ("tables", 4, "'tables' is 4, but 10 players at tables of 3 fill 3 tables"),
        ("tables", None, "'tables' must be a whole number, not null"),
        ("rounds", 0, "'rounds' must be between 1 and 1000000, not 0"),
        ("max_meetings", -1, "'max_meetings' must be between 0 and 1000000, not -1"),
        ("repeated_pairs", False, "'repeated_pairs' must be a whole number, not false"),
    ],
)
def test_header_types_and_ranges(key, value, message):
    assert check_individual_schedule(bare(**{key: value})) == [message]


def test_rounds_beyond_the_tables():
    assert check_individual_schedule(bare(rounds=4)) == [
        "'rounds' is 4, but nobody may visit a table twice, so 3 tables allow at most 3 rounds",
        "round 4 has no seatings",
    ]


def test_too_few_players_for_a_table():
    problems = check_individual_schedule(bare(players=2))
    assert problems[0] == "'players' is 2, too few for one table of 3"
    assert "seatings[0].seats.S (round 1, table 1) must be between 1 and 2, not 3" in problems


def test_a_wrong_per_table():
    problems = check_individual_schedule(bare(per_table=4))
    assert problems[0] == "'tables' is 3, but 10 players at tables of 4 fill 2 tables"
    assert "seatings[0].seats (round 1, table 1): nobody sits at W" in problems
    problems = check_individual_schedule(bare(per_table=2))
    assert problems[0] == "'tables' is 3, but 10 players at tables of 2 fill 5 tables"
    assert (
        "seat S is not used at tables of 2 (only N, E), but seatings[0], seatings[1], "
        "seatings[2], seatings[3] and 5 more fill it"
    ) in problems


def test_seatings_and_byes_must_be_lists_of_objects():
    assert check_individual_schedule(bare(seatings={"round": 1}, byes="none")) == [
        "'seatings' must be a list, not an object",
        "'byes' must be a list, not a string",
        "rounds 1-3 have no seatings",
    ]
    data = bare()
    data["seatings"][2] = [7, 8, 9]
    data["byes"][0] = 10
    assert check_individual_schedule(data) == [
        "seatings[2] must be an object, not a list",
        "byes[0] must be an object, not a number",
        "round 1: no seating for table 3",
        "round 1: players 7-10 neither play nor are listed as sitting out",
    ]


def test_seating_fields():
    data = bare()
    del data["seatings"][0]["seats"]
    data["seatings"][1]["note"] = "late"
    data["seatings"][2]["round"] = True
    data["seatings"][3]["seats"] = [5, 9, 7]
    problems = check_individual_schedule(data)
    assert problems[:5] == [
        "seatings[0]: missing 'seats'",
        'seatings[1]: unknown key "note"',
        "seatings[2].round must be a whole number, not true",
        "seatings[3].seats (round 2, table 1) must be an object, not a list",
        "round 1: no seating for table 3",
    ]


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round", 0, "seatings[0].round must be between 1 and 3, not 0"),
        ("round", 4, "seatings[0].round must be between 1 and 3, not 4"),
        ("round", "1", 'seatings[0].round must be a whole number, not "1"'),
        ("table", 4, "seatings[0].table must be between 1 and 3, not 4"),
        ("table", -1, "seatings[0].table must be between 1 and 3, not -1"),
        ("table", 1.5, "seatings[0].table must be a whole number, not 1.5"),
    ],
)
def test_round_and_table_out_of_range(field, value, message):
    data = bare()
    data["seatings"][0][field] = value
    assert check_individual_schedule(data) == [
        message,
        "round 1: no seating for table 1",
        "round 1: players 1-3 neither play nor are listed as sitting out",
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (11, "seatings[0].seats.N (round 1, table 1) must be between 1 and 10, not 11"),
        (0, "seatings[0].seats.N (round 1, table 1) must be between 1 and 10, not 0"),
        (True, "seatings[0].seats.N (round 1, table 1) must be a whole number, not true"),
        (None, "seatings[0].seats.N (round 1, table 1) must be a whole number, not null"),
        ("1", 'seatings[0].seats.N (round 1, table 1) must be a whole number, not "1"'),
        (10**40, "seatings[0].seats.N (round 1, table 1) must be between 1 and 10, not "),
    ],
)
def test_players_out_of_range(value, message):
    data = bare()
    seats_of(data, 0)["N"] = value
    problems = check_individual_schedule(data)
    assert problems[0].startswith(message)
    assert problems[1:] == ["round 1: player 1 neither plays nor is listed as sitting out"]


def test_seats_other_than_the_first_per_table():
    data = bare()
    seats_of(data, 0)["W"] = 10
    seats_of(data, 1)["X"] = 10
    seats_of(data, 2)["w"] = 10
    assert check_individual_schedule(data) == [
        'seatings[1].seats (round 1, table 2): unknown seat "X" (seats are N, E, S)',
        'seatings[2].seats (round 1, table 3): unknown seat "w" (seats are N, E, S)',
        "seat W is not used at tables of 3 (only N, E, S), but seatings[0] fills it",
    ]
    data = bare()
    seats_of(data, 4)["W"] = seats_of(data, 4).pop("S")
    assert check_individual_schedule(data) == [
        "seatings[4].seats (round 2, table 2): nobody sits at S",
        "seat W is not used at tables of 3 (only N, E, S), but seatings[4] fills it",
        "round 2: player 8 neither plays nor is listed as sitting out",
    ]


def test_a_player_at_two_seats_of_one_table():
    data = bare()
    seats_of(data, 3)["S"] = 5
    assert check_individual_schedule(data) == [
        "round 2, table 1: player 5 sits at N and S",
        "round 2: player 7 neither plays nor is listed as sitting out",
    ]


def test_a_player_at_two_tables_of_one_round():
    data = bare()
    seats_of(data, 3)["S"] = 3
    assert check_individual_schedule(data) == [
        "round 2: player 3 plays at tables 1 and 2",
        "player 3 visits table 1 twice (rounds 1 and 2)",
        "round 2: player 7 neither plays nor is listed as sitting out",
    ]


def test_a_player_visiting_a_table_twice():
    data = bare()
    seats_of(data, 3)["N"], seats_of(data, 5)["E"] = 4, 5  # round 2: 5 and 4 change tables
    assert check_individual_schedule(data) == [
        "player 4 visits table 1 twice (rounds 2 and 3)",
        "player 5 visits table 3 twice (rounds 2 and 3)",
    ]
    data = bare(rounds=3)
    for index in (3, 6):  # round 1's table 1 again in rounds 2 and 3
        data["seatings"][index]["seats"] = dict(seats_of(data, 0))
    problems = check_individual_schedule(data)
    assert "player 1 visits table 1 3 times (rounds 1, 2 and 3)" in problems


def test_a_table_listed_twice_in_a_round():
    data = bare()
    data["seatings"][4]["table"] = 1
    assert check_individual_schedule(data) == [
        "round 2: table 1 is listed twice (seatings[3] and seatings[4])",
        "round 2: no seating for table 2",
        "round 2: players 3, 8, 10 neither play nor are listed as sitting out",
    ]


def test_a_table_missing_in_a_round():
    data = bare()
    del data["seatings"][4]
    assert check_individual_schedule(data) == [
        "round 2: no seating for table 2",
        "round 2: players 3, 8, 10 neither play nor are listed as sitting out",
    ]
    data = bare()
    data["seatings"] = data["seatings"][:6]
    assert check_individual_schedule(data) == ["round 3 has no seatings"]


def test_a_player_neither_playing_nor_sitting_out():
    data = bare()
    del data["byes"][1]
    assert check_individual_schedule(data) == [
        "round 2: player 2 neither plays nor is listed as sitting out"
    ]


def test_a_player_sitting_out_twice():
    data = bare()
    seats_of(data, 7)["S"] = 9  # round 3: 9 plays instead of 2, who sits out again
    data["byes"][2]["player"] = 2
    assert check_individual_schedule(data) == ["player 2 sits out twice (rounds 2 and 3)"]


def test_a_player_listed_as_sitting_out_who_plays():
    data = bare()
    data["byes"].append({"round": 1, "player": 1})
    assert check_individual_schedule(data) == [
        "round 1: player 1 is listed as sitting out but plays at table 1"
    ]


def test_bye_fields():
    data = bare()
    data["byes"] += [
        {"round": 1, "player": 10},
        {"round": 2},
        {"round": 4, "player": 2, "why": "late"},
        {"round": 3, "player": 11},
        {"round": 3, "player": False},
    ]
    assert check_individual_schedule(data) == [
        "byes[3] repeats byes[0] (round 1, player 10)",
        "byes[4]: missing 'player'",
        'byes[5]: unknown key "why"',
        "byes[5].round must be between 1 and 3, not 4",
        "byes[6].player must be between 1 and 10, not 11",
        "byes[7].player must be a whole number, not false",
    ]


def test_wrong_figures():
    data = copy.deepcopy(TEN_PLAYERS)
    data.update(max_meetings=2, repeated_pairs=5)
    assert check_individual_schedule(data) == [
        "'max_meetings' is 2, but the most two players meet is 3 (players 4 and 6 meet 3 times)",
        "'repeated_pairs' is 5, but 4 pairs of players meet more than once",
    ]
    data = copy.deepcopy(TEN_PLAYERS)
    data["rounds"] = 1
    data["seatings"] = data["seatings"][:3]
    data["byes"] = data["byes"][:1]
    assert check_individual_schedule(data) == [
        "'max_meetings' is 3, but the most two players meet is 1 (players 1 and 2 meet once)",
        "'repeated_pairs' is 4, but no pair of players meets more than once",
    ]
    data["seatings"] = []
    assert "'max_meetings' is 3, but no two players meet" in check_individual_schedule(data)


def test_generated_movements_with_one_edit_are_caught():
    movement = generate_individual_schedule(17, 4)
    assert check_individual_schedule(movement) == []
    swapped = copy.deepcopy(movement)
    a, b = seats_of(swapped, 4), seats_of(swapped, 8)  # rounds 2 and 3
    a["N"], b["N"] = b["N"], a["N"]
    assert check_individual_schedule(swapped) != []


def test_huge_numbers_are_reported_not_printed():
    assert check_individual_schedule(bare(players=10**5000)) == [
        "'players' must be between 2 and 1000000, not a number too large to print"
    ]


def test_large_movements_are_checked_quickly():
    movement = generate_individual_schedule(2000, 4)
    assert check_individual_schedule(movement) == []
    movement["players"] = 1_000_000
    movement["tables"] = 250_000
    movement["rounds"] = 250_000
    problems = check_individual_schedule(movement)
    assert problems[0] == "rounds 13-250000 have no seatings"
    assert problems[1].startswith("round 1: no seating for tables 501-250000")


# --- never raises ----------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)
small_numbers = st.integers(min_value=-2, max_value=12) | json_values
seats = st.dictionaries(st.sampled_from(["N", "E", "S", "W", "X", ""]), small_numbers, max_size=5)
seating = st.dictionaries(
    st.sampled_from(["round", "table", "seats", "x"]), small_numbers | seats, max_size=4
)
bye = st.dictionaries(st.sampled_from(["round", "player", "x"]), small_numbers, max_size=3)
movement_like = st.fixed_dictionaries(
    {},
    optional={
        "players": small_numbers,
        "per_table": st.sampled_from([2, 3, 4]) | small_numbers,
        "tables": small_numbers,
        "rounds": small_numbers,
        "seatings": st.lists(seating | json_values, max_size=12) | json_values,
        "byes": st.lists(bye | json_values, max_size=6) | json_values,
        "max_meetings": small_numbers,
        "repeated_pairs": small_numbers,
        "extra": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(data=json_values | movement_like)
def test_garbage_never_raises(data):
    problems = check_individual_schedule(data)
    assert isinstance(problems, list)
    assert all(isinstance(p, str) and p for p in problems)
    if not isinstance(data, dict):
        assert len(problems) == 1


@functools.cache
def generated(players, per_table, rounds):
    return json.dumps(generate_individual_schedule(players, per_table, rounds))


def leaves(value, path=()):
    """Every (path, value) of a JSON value's numbers, strings, lists and objects."""
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from leaves(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from leaves(item, (*path, index))


@settings(max_examples=300, deadline=None)
@given(
    size=st.sampled_from([(10, 3, 3), (17, 4, 4), (16, 4, 4), (9, 2, 4)]),
    pick=st.integers(min_value=0, max_value=10**6),
    value=st.integers(min_value=-2, max_value=20) | json_values,
    delete=st.booleans(),
)
def test_any_single_edit_of_a_movement_is_caught(size, pick, value, delete):
    data = json.loads(generated(*size))
    places = [path for path, _ in leaves(data) if path]
    path = places[pick % len(places)]
    *parent_path, last = path
    parent = data
    for step in parent_path:
        parent = parent[step]
    old = parent[last]
    if delete:
        if path in (("max_meetings",), ("repeated_pairs",)):
            return  # the figures are optional
        del parent[last]
    else:
        if old == value and type(old) is type(value):
            return
        parent[last] = value
    assert check_individual_schedule(data) != [], (path, old, value, delete)


def test_random_edits_never_raise():
    rng = random.Random(20240)
    base = generate_individual_schedule(21, 4, 5)
    replacements = [None, True, 0, -1, 10**20, 2.5, "N", [], {}, [1, 2], {"N": 1}, 5, 21, 22]
    for _ in range(2000):
        data = copy.deepcopy(base)
        for _ in range(rng.randint(1, 6)):
            places = [path for path, _ in leaves(data) if path]
            if not places:
                break
            *parent_path, last = rng.choice(places)
            parent = data
            for step in parent_path:
                parent = parent[step]
            if rng.random() < 0.2:
                del parent[last]
            else:
                parent[last] = rng.choice(replacements)
        problems = check_individual_schedule(data)
        assert all(isinstance(p, str) and p for p in problems)


# --- the command line ------------------------------------------------------------------------


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_schedule_prints_a_valid_movement():
    done = run("schedule", "--game", "pyramid", "--players", "16")
    assert (done.returncode, done.stderr) == (0, "")
    movement = json.loads(done.stdout)
    assert (movement["per_table"], movement["tables"], movement["rounds"]) == (4, 4, 4)
    assert movement == generate_individual_schedule(16, 4)  # the same in another process
    assert check_individual_schedule(movement) == []
    assert recount(movement) == (2, 24)


def test_schedule_per_table_and_rounds():
    done = run("schedule", "--game", "pyramid", "--players", "17", "--per-table", "3")
    assert done.returncode == 0
    movement = json.loads(done.stdout)
    assert (movement["tables"], movement["rounds"], len(movement["byes"])) == (5, 5, 10)
    done = run(
        "schedule", "--game", "pyramid", "--players", "20", "--per-table", "2", "--rounds", "3"
    )
    movement = json.loads(done.stdout)
    assert (movement["per_table"], movement["tables"], movement["rounds"]) == (2, 10, 3)
    assert recount(movement) == (1, 0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--players", "16", "--rounds", "5"],
            "error: 16 players at tables of 4 fill 4 tables, so at most 4 rounds "
            "(nobody visits a table twice), not 5",
        ),
        (["--players", "3"], "error: players must be between 4 (one table of 4) and 2000, not 3"),
        (["--players", "16", "--rounds", "0"], "error: rounds must be at least 1, not 0"),
        (
            ["--players", "16", "--per-table", "5"],
            "error: --per-table: Pyramid is played by 2, 3, 4 players",
        ),
        (
            ["--teams", "16", "--tables", "8"],
            "error: Pyramid seats players: give --players (not --teams)",
        ),
        ([], "error: Pyramid seats players: give --players (not --teams)"),
    ],
)
def test_schedule_refuses_impossible_requests(args, message):
    done = run("schedule", "--game", "pyramid", *args)
    assert (done.returncode, done.stdout, done.stderr.strip()) == (2, "", message)


def test_check_schedule_reads_a_movement_from_standard_input():
    movement = run("schedule", "--game", "pyramid", "--players", "13").stdout
    done = run("check-schedule", stdin=movement)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    done = run("check-schedule", "-", stdin=json.dumps(TEN_PLAYERS))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_check_schedule_names_every_problem(tmp_path):
    data = copy.deepcopy(TEN_PLAYERS)
    seats_of(data, 3)["S"] = 5
    del data["byes"][1]
    data["repeated_pairs"] = 9
    done = run("check-schedule", stdin=json.dumps(data))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "round 2, table 1: player 5 sits at N and S",
        "round 2: players 2, 7 neither play nor are listed as sitting out",
        "'repeated_pairs' is 9, but 3 pairs of players meet more than once",
    ]
    path = tmp_path / "movement.json"
    path.write_text(json.dumps(data))
    assert run("check-schedule", str(path)).stdout == done.stdout


def test_check_schedule_on_a_movement_that_is_not_json():
    done = run("check-schedule", stdin='{"seatings": [')
    assert done.returncode == 1
    assert done.stdout.startswith("not JSON: ")
