"""Proposals before a draw (engine.schedule.proposals), tables of several sizes
(engine.schedule.mixed) and the ``propose`` command: the fields of GAMES.md "Real rooms"."""

import copy
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from engine.schedule import check_individual_schedule, generate_schedule
from engine.schedule.generate import ScheduleError
from engine.schedule.mixed import generate_mixed_schedule
from engine.schedule.proposals import check_proposal, draw, propose

ROOT = Path(__file__).resolve().parents[2]


def keys(found):
    return [p["key"] for p in found["proposals"]]


def test_thirteen_pairs_one_pair_out_a_round_first():
    found = propose("pymtheg", 13)
    assert keys(found) == ["one-out:6", "mitchell:7:fixed"]
    one_out, mitchell = found["proposals"]
    assert one_out["sitting_out"] == [1, 1] and one_out["idle_tables"] == 0
    assert one_out["byes"] == [0, 1] and one_out["sides"] == "balanced"
    assert mitchell["sitting_out"] == [1, 1] and mitchell["idle_tables"] == 7
    assert one_out["sentence"].startswith("Six tables, six rounds; one pair sits out each round")
    drawn = draw("pymtheg", 13, "one-out:6")
    assert check_proposal(one_out, drawn, 13) == []
    for round_ in range(1, 7):
        assert sum(m["round"] == round_ for m in drawn["matches"]) == 6


def test_a_room_of_six_tables_for_thirteen_pairs_gets_the_one_pair_out():
    found = propose("pymtheg", 13, tables=6)
    assert keys(found) == ["one-out:6"]
    assert found["proposals"][0]["unused_tables"] == 0


def test_eleven_pairs_at_six_tables_never_give_one_pair_two_byes():
    schedule = generate_schedule(11, 6)
    byes = Counter(bye["team"] for bye in schedule["byes"])
    assert max(byes.values()) == 1


def test_ten_pyramid_players_get_tables_of_several_sizes_first():
    found = propose("pyramid", 10)
    assert keys(found) == ["players:4-3-3", "players:3-3-2-2", "players:2x5"]
    mixed = found["proposals"][0]
    assert mixed["sizes"] == [4, 3, 3] and mixed["rounds"] == 2
    assert mixed["sitting_out"] == [0, 0]
    assert mixed["rounds_at_size"] == {"4": [0, 1], "3": [1, 2]}
    assert "three tables (one of 4 and two of 3 players)" in mixed["sentence"].lower()
    # 2 tables of 4 with 2 out in 2 rounds and 3 tables of 3 with one out in 3 rounds lose to
    # the proposals of the same rounds that seat everyone
    assert "players:4x2" not in keys(found) and "players:3x3" not in keys(found)


def test_totals_ranking_offers_one_size_only():
    found = propose("pyramid", 10, ranking="totals")
    assert all(len(set(p["sizes"])) == 1 for p in found["proposals"])
    assert keys(found)[0] == "players:2x5"


@pytest.mark.parametrize(("game", "players", "per_table"), [("twenty", 12, 4), ("pysngtaut", 9, 3)])
def test_three_tables_for_three_rounds_meet_at_every_table_the_least_possible(
    game, players, per_table
):
    found = propose(game, players)
    first = found["proposals"][0]
    assert first["key"] == f"players:{per_table}x3"
    assert first["max_meetings"] == 3 and first["least_possible"] is True
    assert "meet 3 times, in every round, the least possible" in first["sentence"]


def test_thirteen_twenty_players_in_a_room_of_four_tables():
    found = propose("twenty", 13, tables=4)
    (only,) = found["proposals"]
    assert only["key"] == "players:4x3" and only["unused_tables"] == 1
    assert "one player sits out each round" in only["sentence"]
    assert "one table of the room stays unused" in only["sentence"]


@pytest.mark.parametrize(
    ("game", "entrants", "tables", "words"),
    [
        ("pyramid", 1, None, "one player cannot play: Pyramid is played by 2, 3 or 4 players"),
        ("twenty", 3, None, "three players cannot play: Twenty is played by 4 players"),
        ("pymtheg", 1, None, "one pair cannot play: Pymtheg needs two pairs at a table"),
        ("twenty", 40, 4, "40 players need at least 10 tables of 4"),
        ("pyramid", 2001, None, "more than the 2000 a movement can hold"),
    ],
)
def test_fields_nobody_can_seat_say_why_and_what_would_work(game, entrants, tables, words):
    found = propose(game, entrants, tables)
    assert found["proposals"] == []
    assert words in found["problem"]
    assert (
        "register at least" in found["problem"]
        or "add" in found["problem"]
        or ("more than" in found["problem"])
    )


def test_a_key_that_is_not_a_proposal_is_refused():
    with pytest.raises(ScheduleError, match="not a way to seat"):
        draw("pyramid", 10, "players:4x3")
    with pytest.raises(ScheduleError):
        draw("pymtheg", 14, "one-out:7")


def test_a_drawn_proposal_is_a_copy():
    drawn = draw("pyramid", 10, "players:4-3-3")
    drawn["seatings"].clear()
    assert draw("pyramid", 10, "players:4-3-3")["seatings"]


def test_wrong_claims_are_caught():
    found = propose("pyramid", 10)
    proposal = copy.deepcopy(found["proposals"][0])
    drawn = draw("pyramid", 10, proposal["key"])
    for name, value in [
        ("max_meetings", 1),
        ("pairs_at_most", 0),
        ("sitting_out", [1, 1]),
        ("byes", [0, 1]),
        ("idle_tables", 3),
        ("rounds_at_size", {"4": [1, 1], "3": [1, 1]}),
    ]:
        wrong = {**proposal, name: value}
        problems = check_proposal(wrong, drawn, 10)
        assert any(name in problem for problem in problems), (name, problems)


# --- tables of several sizes ---------------------------------------------------------------


def test_mixed_movements_keep_every_rule():
    for players, sizes in [(7, [4, 3]), (10, [4, 3, 3]), (13, [4, 3, 3, 3]), (26, [3] * 8 + [2])]:
        movement = generate_mixed_schedule(players, sizes)
        assert check_individual_schedule(movement) == [], (players, sizes)
        for seating in movement["seatings"]:
            size = sizes[seating["table"] - 1]
            assert list(seating["seats"]) == ["N", "E", "S", "W"][:size]


def test_mixed_rounds_are_bounded_by_the_largest_table():
    with pytest.raises(ScheduleError, match="between 1 and 2"):
        generate_mixed_schedule(10, [4, 3, 3], rounds=3)
    with pytest.raises(ScheduleError, match="seat 9 players, not 10"):
        generate_mixed_schedule(10, [3, 3, 3])
    with pytest.raises(ScheduleError, match="2, 3 or 4"):
        generate_mixed_schedule(10, [5, 5])


def test_the_checker_reads_tables_of_several_sizes():
    movement = generate_mixed_schedule(10, [4, 3, 3])
    bad = copy.deepcopy(movement)
    bad["seatings"][1]["seats"]["W"] = 4
    bad["tables"] = 4
    bad["rounds_at_size"] = {"4": [1, 1]}
    problems = check_individual_schedule(bad)
    assert "'tables' is 4, but 'sizes' lists 3 tables" in problems
    assert any("a table of 3 has no seat W (only N, E, S)" in p for p in problems)
    assert any(p.startswith("'rounds_at_size' is an object, but a player spends") for p in problems)
    both = {**copy.deepcopy(movement), "per_table": 4}
    assert "give 'per_table' or 'sizes', not both" in check_individual_schedule(both)
    over = {**copy.deepcopy(movement), "rounds": 3}
    assert any("allow at most 2 rounds" in p for p in check_individual_schedule(over))


def test_the_same_arguments_give_the_same_mixed_movement():
    assert generate_mixed_schedule(13, [4, 3, 3, 3]) == generate_mixed_schedule(13, [4, 3, 3, 3])


# --- the command ---------------------------------------------------------------------------


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_propose_prints_the_proposals_as_json():
    result = run("propose", "--game", "pyramid", "--entrants", "10")
    assert result.returncode == 0, result.stderr
    found = json.loads(result.stdout)
    assert keys(found) == ["players:4-3-3", "players:3-3-2-2", "players:2x5"]


def test_propose_draws_a_proposal_the_checker_accepts(tmp_path):
    result = run("propose", "--game", "pyramid", "--entrants", "10", "--draw", "players:4-3-3")
    assert result.returncode == 0, result.stderr
    path = tmp_path / "movement.json"
    path.write_text(result.stdout)
    checked = run("check-schedule", str(path))
    assert checked.returncode == 0 and checked.stdout == ""


def test_propose_explains_a_field_nobody_can_seat():
    result = run("propose", "--game", "twenty", "--entrants", "40", "--tables", "4")
    assert result.returncode == 1
    assert "add six tables" in json.loads(result.stdout)["problem"]
    drawn = run("propose", "--game", "pyramid", "--entrants", "10", "--draw", "players:9x9")
    assert drawn.returncode == 2 and "the proposals are players:4-3-3" in drawn.stderr
