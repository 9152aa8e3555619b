"""RankingState.to_standings_json writes the byes of a mode once and slices them per team; its
text must stay that of the builder it replaced (every entry written for every team) and of
``json.dumps(to_standings())``, byte for byte, through random events."""

import json
import random

import numpy as np
import pytest

from engine.ranking import RankingState
from engine.ranking.core import POINT_DECIMALS, bye_value_table
from engine.ranking.state import _json_number, _numbers
from engine.ranking.stored import expand_standings

SCORES = [-5000, -1000, -150, -30, -21, 0, 21, 30, 150, 2.5]
SIDE_TEXTS = ('"NS"', '"EW"', "null")


def entry_text(table, board, side, round_, rank, score, bye) -> str:
    round_text = "null" if round_ is None else str(round_)
    return (
        f'{{"table": {table}, "board": {board}, "side": {SIDE_TEXTS[side]}, '
        f'"round": {round_text}, "rank": {_json_number(rank)}, '
        f'"score": {_json_number(score)}, "bye": {"true" if bye else "false"}}}'
    )


def former_tables_json(state: RankingState) -> list[str]:
    """The builder ``_tables_json`` replaced: every entry of every team written, then sorted
    by team, table and board, and round."""
    slots = np.flatnonzero(state.half > 0)
    bye_teams, bye_tbs = np.nonzero(state.appearances == 0)
    values = np.round(bye_value_table(state.means), POINT_DECIMALS)
    entries = []  # (team, table and board, round, text)
    for slot in slots.tolist():
        tb = int(state.slot_group[slot]) // 2
        table, board = state.table_boards[tb]
        round_ = int(state.slot_round[slot])
        rank, score = _numbers(np.array([state.half[slot] / 2, state.slot_score[slot]]))
        side = int(state.slot_group[slot]) % 2
        text = entry_text(table, board, side, round_, rank, score, False)
        entries.append((int(state.slot_team[slot]), tb, round_, text))
    for team, tb in zip(bye_teams.tolist(), bye_tbs.tolist(), strict=True):
        mode = int(state.modes[team])
        table, board = state.table_boards[tb]
        (rank,) = _numbers(np.array([values[mode, tb]]))
        entries.append((team, tb, 0, entry_text(table, board, mode, None, rank, None, True)))
    entries.sort(key=lambda entry: entry[:3])  # stable: a team's slots keep their order
    per_team = [[] for _ in state.teams.ids]
    for team, _tb, _round, text in entries:
        per_team[team].append(text)
    return [f"[{', '.join(texts)}]" for texts in per_team]


def former_standings_json(state: RankingState) -> str:
    placing = state._placing()
    rows = state._rows_out(tables=False, placing=placing)
    tables = former_tables_json(state)
    head = json.dumps({"provisional": bool(state.pending.any()), "groups": state._groups_out()})
    lines = ", ".join(
        f'{json.dumps(row)[:-1]}, "tables": {tables[team]}}}'
        for team, row in zip(placing.order, rows, strict=True)
    )
    return f'{head[:-1]}, "standings": [{lines}]}}'


def random_result(rng: random.Random) -> dict:
    if rng.random() < 0.25:
        return {}
    ns = rng.choice(SCORES)
    return {"scores": {"ns": ns, "ew": -ns if rng.random() < 0.7 else rng.choice(SCORES)}}


def random_tournament(rng: random.Random) -> dict:
    """Teams seated at random tables (some left empty: byes), the same table and board met
    again in later rounds, several boards, some results missing."""
    n_teams = rng.randint(2, 30)
    ids = [f"T{n}" for n in range(1, n_teams + 1)] if rng.random() < 0.5 else list(range(1, 31))
    ids = ids[:n_teams]
    n_tables, n_boards = rng.randint(1, 8), rng.randint(1, 3)
    matches = []
    for round_ in range(1, rng.randint(1, 5) + 1):
        seated = rng.sample(ids, len(ids))
        for k, table in enumerate(rng.sample(range(1, n_tables + 1), n_tables)):
            if 2 * k + 1 >= len(seated) or rng.random() < 0.3:
                continue
            for board in range(1, n_boards + 1):
                seats = {"ns": seated[2 * k], "ew": seated[2 * k + 1]}
                match = {"round": round_, "table": table, "board": board, **seats}
                matches.append(match | random_result(rng))
    return {
        "ties": rng.choice(["min", "average", "max"]),
        "teams": [{"id": team, "name": f"team {team}"} for team in ids],
        "matches": matches,
    }


def random_event(rng: random.Random, state: RankingState, data: dict) -> None:
    """A result entered, changed or erased, a burst of them, or a disqualification."""
    count = len(state.matches)
    if rng.random() < 0.05:
        team = rng.choice(data["teams"])["id"]
        if team not in data.setdefault("disqualified_ids", set()):
            data["disqualified_ids"].add(team)
            state.disqualify(team)
        return
    picked = rng.sample(range(count), min(count, rng.choice([1, 1, 1, 3, 10])))
    state.set_results({index: random_result(rng) for index in picked})


@pytest.mark.parametrize("seed", range(40))
def test_the_standings_json_is_the_former_builders_through_random_events(seed):
    print(f"seed {seed}")
    rng = random.Random(seed)
    data = random_tournament(rng)
    if not data["matches"]:
        first, second = (team["id"] for team in data["teams"][:2])
        data["matches"].append({"round": 1, "table": 1, "ns": first, "ew": second})
    state = RankingState.build(data)
    for _event in range(25):
        text = state.to_standings_json()
        assert text == former_standings_json(state)
        assert text == json.dumps(state.to_standings())
        random_event(rng, state, data)


def test_a_round_of_many_tables_each_team_at_one():
    """The shape of one round of a big event: every team has a bye at all tables but one."""
    rng = random.Random(7)
    tables = 60
    matches = [
        {"round": 1, "table": t, "ns": t, "ew": tables + t} | random_result(rng)
        for t in range(1, tables + 1)
    ]
    data = {"teams": [{"id": n} for n in range(1, 2 * tables + 1)], "matches": matches}
    state = RankingState.build(data)
    for index in rng.sample(range(tables), 10):
        state.set_results({index: random_result(rng)})
        text = state.to_standings_json()
        assert text == former_standings_json(state)
        assert text == json.dumps(state.to_standings())
    row = json.loads(text)["standings"][0]
    assert sum(entry["bye"] for entry in row["tables"]) == tables - 1


def stored_and_back(state: RankingState) -> dict:
    """The compact standings through JSON (as the database keeps them) and expanded."""
    return expand_standings(json.loads(json.dumps(state.to_stored_standings())))


@pytest.mark.parametrize("seed", range(40))
def test_the_stored_standings_expand_to_the_standings_through_random_events(seed):
    print(f"seed {seed}")
    rng = random.Random(1000 + seed)
    data = random_tournament(rng)
    if not data["matches"]:
        first, second = (team["id"] for team in data["teams"][:2])
        data["matches"].append({"round": 1, "table": 1, "ns": first, "ew": second})
    state = RankingState.build(data)
    for _event in range(25):
        expanded = stored_and_back(state)
        assert expanded == state.to_standings()
        assert json.dumps(expanded) == state.to_standings_json()
        random_event(rng, state, data)


def test_the_stored_standings_of_a_round_of_many_tables_are_small():
    tables = 200
    matches = [{"round": 1, "table": t, "ns": t, "ew": tables + t} for t in range(1, tables + 1)]
    data = {"teams": [{"id": n} for n in range(1, 2 * tables + 1)], "matches": matches}
    state = RankingState.build(data)
    state.set_results({t: {"scores": {"ns": 10 * t, "ew": -10 * t}} for t in range(0, tables, 3)})
    stored = json.dumps(state.to_stored_standings())
    assert len(stored) * 20 < len(state.to_standings_json())
    assert stored_and_back(state) == state.to_standings()


def test_standings_stored_whole_or_in_part_are_read_as_they_are():
    whole = {"provisional": True, "groups": [], "standings": [{"team": "A", "tables": []}]}
    assert expand_standings(whole) is whole
    assert expand_standings([{"table": 1}]) == [{"table": 1}]
    assert expand_standings(None) is None


def test_a_disqualification_after_the_final_round_stores_the_standings_whole():
    data = {
        "teams": [{"id": team} for team in "ABCD"],
        "matches": [
            {"round": 1, "table": 1, "ns": "A", "ew": "B", "scores": {"ns": 30, "ew": -30}},
            {"round": 1, "table": 2, "ns": "C", "ew": "D", "scores": {"ns": 20, "ew": -20}},
        ],
    }
    state = RankingState.build(data)
    state.disqualify("A", after_final=True)
    assert "team_tables" not in state.to_stored_standings()
    assert stored_and_back(state) == state.to_standings()
