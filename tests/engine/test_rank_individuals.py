"""Standings of games of individuals, against a reference written from the rulebook."""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction

import pytest

from engine.games import get_game
from engine.ranking import RankingInputError, rank_individuals
from engine.schedule.individual import generate_individual_schedule

SEATS = "NESW"


def pyramid_score(rng: random.Random, seats: str) -> dict:
    declarer = rng.choice(seats)
    points = rng.choice([10, 8, 6, 4, 2, 0, -2])
    return {
        "seats": {seat: points if seat == declarer else -points for seat in seats},
        "declarer": declarer,
        "points": points,
        "exact": points == 10,
    }


def random_field(rng: random.Random, *, players: int = 0, per_table: int = 4, missing=0.1):
    per_table = per_table or rng.choice([2, 3, 4])
    players = players or rng.randint(per_table, 4 * per_table + 3)
    movement = generate_individual_schedule(
        players, per_table, rng.randint(1, players // per_table)
    )
    boards = rng.randint(1, 3)
    matches = []
    for seating in movement["seatings"]:
        seats = {seat: f"P{player}" for seat, player in seating["seats"].items()}
        for board in range(1, boards + 1):
            match = {
                "round": seating["round"],
                "table": seating["table"],
                "board": board,
                "seats": seats,
            }
            if rng.random() >= missing:
                match["score"] = pyramid_score(rng, "".join(seats))
            matches.append(match)
    return {
        "game": "pyramid",
        "ties": rng.choice(["min", "average", "max"]),
        "players": [{"id": f"P{i}", "name": f"Player {i}"} for i in range(1, players + 1)],
        "matches": matches,
    }


# -- an independent reading of the rules -------------------------------------------------------


def reference_rank(scores: list[float], mine: float, ties: str) -> float:
    better = sum(1 for s in scores if s > mine)
    equal = sum(1 for s in scores if s == mine)
    first, last = better + 1, better + equal
    return {"min": first, "max": last, "average": (first + last) / 2}[ties]


def reference_duplicate(data: dict) -> dict:
    out = {d["player"] for d in data.get("disqualified", []) if not d.get("after_final")}
    groups = defaultdict(list)
    pending = False
    rounds_boards = defaultdict(lambda: defaultdict(int))
    playing = defaultdict(set)
    for m in data["matches"]:
        rounds_boards[m["round"]][m["table"]] += 1
        playing[m["round"]].update(m["seats"].values())
        dq = [s for s, p in m["seats"].items() if p in out]
        if dq and len(dq) == len(m["seats"]):
            continue
        if dq:
            seat_scores = {s: (-1000 if s in dq else 0) for s in m["seats"]}
        elif "score" in m:
            seat_scores = m["score"]["seats"]
        else:
            pending = True
            continue
        for seat, player in m["seats"].items():
            groups[(m["table"], m["board"], seat)].append((player, m["round"], seat_scores[seat]))
    points, percents = defaultdict(float), defaultdict(list)
    round_ranks = defaultdict(list)
    for results in groups.values():
        values = [r[2] for r in results]
        n = len(values)
        for player, round_, value in results:
            rank = reference_rank(values, value, data.get("ties", "min"))
            points[player] += rank
            exact = Fraction(50) if n == 1 else (n - Fraction(rank)) * 100 / (n - 1)
            percents[player].append(exact)
            round_ranks[round_].append(rank)
    for round_, tables in rounds_boards.items():
        if round_ranks[round_]:
            mean = sum(round_ranks[round_]) / len(round_ranks[round_])
            for p in data["players"]:
                if p["id"] not in playing[round_]:
                    points[p["id"]] += max(tables.values()) * mean
    return {"pending": pending, "points": points, "percents": percents, "out": out}


def expected_places(data: dict, ref: dict) -> dict:
    ids = [p["id"] for p in data["players"] if p["id"] not in ref["out"]]
    places = {}
    if ref["pending"]:
        pct = {
            i: sum(ref["percents"][i]) / len(ref["percents"][i]) for i in ids if ref["percents"][i]
        }
        for i in ids:
            if i in pct:
                places[i] = 1 + sum(1 for j in pct if pct[j] > pct[i])
            else:
                places[i] = len(pct) + 1
    else:
        pts = {i: round(ref["points"][i], 6) for i in ids}
        for i in ids:
            places[i] = 1 + sum(1 for j in ids if pts[j] < pts[i])
    return places


@pytest.mark.parametrize("seed", range(300))
def test_duplicate_standings_match_the_reference(seed):
    rng = random.Random(seed)
    data = random_field(rng, per_table=0, missing=rng.choice([0, 0, 0.2]))
    if rng.random() < 0.3:
        chosen = rng.sample([p["id"] for p in data["players"]], k=rng.randint(1, 2))
        data["disqualified"] = [{"player": p, "after_final": False} for p in chosen]
    standings = rank_individuals(data)
    ref = reference_duplicate(data)
    assert standings["provisional"] == ref["pending"]
    places = expected_places(data, ref)
    rows = {row["player"]: row for row in standings["standings"]}
    assert set(rows) == {p["id"] for p in data["players"]}
    for player, row in rows.items():
        assert row["points"] == pytest.approx(ref["points"][player], abs=1e-6)
        assert row["matches"] == len(ref["percents"][player])
        if ref["percents"][player]:
            mean = sum(ref["percents"][player]) / len(ref["percents"][player])
            assert row["percentage"] == pytest.approx(mean, abs=0.006)
        else:
            assert row["percentage"] is None
        if player in ref["out"]:
            assert (row["place"], row["status"]) == (None, "disqualified")
        else:
            assert (row["place"], row["status"]) == (places[player], "ok")
    order = [row["place"] for row in standings["standings"] if row["place"] is not None]
    assert order == sorted(order)


def test_every_group_ranks_one_seat_of_one_board_and_its_percentages():
    data = random_field(random.Random(7), players=16, missing=0)
    data["ties"] = "min"
    standings = rank_individuals(data)
    for group in standings["groups"]:
        results = group["results"]
        assert group["seat"] in SEATS
        n = len(results)
        for result in results:
            expected = 50 if n == 1 else (n - result["rank"]) / (n - 1) * 100
            assert result["percentage"] == pytest.approx(expected, abs=0.006)
        best = max(r["score"] for r in results)
        assert all(r["rank"] == 1 for r in results if r["score"] == best)


def test_provisional_standings_put_players_without_a_result_last():
    data = random_field(random.Random(3), players=8, missing=0)
    first_round = [m for m in data["matches"] if m["round"] == 1 and m["table"] == 1]
    for m in data["matches"]:
        if m not in first_round:
            m.pop("score")
    standings = rank_individuals(data)["standings"]
    assert rank_individuals(data)["provisional"] is True
    played = {p for m in first_round for p in m["seats"].values()}
    assert {row["player"] for row in standings[:4]} == played
    assert [row["place"] for row in standings[4:]] == [5, 5, 5, 5]
    assert all(row["percentage"] is None for row in standings[4:])


def tricks_of(declarer: str, taken: int) -> dict[str, int]:
    """Six tricks: ``taken`` for the declarer, the rest to the player after him."""
    after = SEATS[(SEATS.index(declarer) + 1) % 4]
    return {
        seat: taken if seat == declarer else (6 - taken if seat == after else 0) for seat in SEATS
    }


def test_totals_rank_the_declarers_own_points_then_exact_calls():
    data = {
        "game": "pyramid",
        "method": "totals",
        "players": [{"id": p} for p in ("A", "B", "C", "D")],
        "matches": [
            {"round": 1, "table": 1, "board": 1, "seats": dict(zip(SEATS, "ABCD", strict=True))},
            {"round": 1, "table": 1, "board": 2, "seats": dict(zip(SEATS, "ABCD", strict=True))},
            {"round": 1, "table": 1, "board": 3, "seats": dict(zip(SEATS, "ABCD", strict=True))},
        ],
    }
    game = get_game("pyramid")
    records = [
        ("N", {"declarer": "E", "declared": 2, "tricks": 2}),
        ("E", {"declarer": "S", "declared": 3, "tricks": 2}),
        ("S", {"declarer": "W", "declared": 1, "tricks": 0}),
    ]
    for match, (dealer, facts) in zip(data["matches"], records, strict=True):
        record = {
            "players": 4,
            "dealer": dealer,
            "trump": "nt",
            "declared": facts["declared"],
            "tricks": tricks_of(facts["declarer"], facts["tricks"]),
        }
        match["record"] = record
        assert game.score(record)["declarer"] == facts["declarer"]
    rows = rank_individuals(data)["standings"]
    assert [(r["player"], r["total"], r["tiebreak"], r["place"]) for r in rows] == [
        ("B", 10, 1, 1),
        ("C", 8, 0, 2),
        ("D", 8, 0, 2),
        ("A", 0, 0, 4),
    ]


def test_a_bye_is_worth_the_rounds_mean_and_no_percentage():
    data = random_field(random.Random(11), players=5, missing=0)
    data["ties"] = "min"
    standings = rank_individuals(data)
    by_player = {row["player"]: row for row in standings["standings"]}
    ref = reference_duplicate(data)
    sat_out = [
        p
        for p in by_player
        if by_player[p]["matches"] < max(r["matches"] for r in by_player.values())
    ]
    assert sat_out, "5 players at a table of 4 leave someone out"
    for player in sat_out:
        assert by_player[player]["points"] == pytest.approx(ref["points"][player], abs=1e-6)
        assert by_player[player]["points"] > 0


def test_disqualified_after_finalisation_moves_the_players_below_up():
    data = random_field(random.Random(5), players=12, missing=0)
    before = rank_individuals(data)["standings"]
    second = before[1]["player"]
    data["disqualified"] = [{"player": second, "after_final": True}]
    after = rank_individuals(data)["standings"]
    places_before = {r["player"]: r for r in before}
    for row in after:
        if row["player"] == second:
            assert (row["place"], row["status"]) == (None, "disqualified")
            continue
        old = places_before[row["player"]]
        assert row["points"] == old["points"]
        moved = old["place"] > places_before[second]["place"]
        assert row["place"] == old["place"] - (1 if moved else 0)


def test_a_match_of_disqualified_players_only_is_left_out():
    data = random_field(random.Random(2), players=4, missing=0)
    data["disqualified"] = [{"player": f"P{i}"} for i in range(1, 5)]
    standings = rank_individuals(data)
    assert standings["groups"] == []
    assert all(row["status"] == "disqualified" for row in standings["standings"])


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.pop("game"), "game: missing"),
        (lambda d: d.update(game="pymtheg"), "ranks pairs"),
        (lambda d: d.update(game="chess"), "unknown game"),
        (lambda d: d.update(method="swiss"), "method: must be duplicate or totals"),
        (lambda d: d.update(ties="best"), "ties:"),
        (lambda d: d.update(players=[]), "players: must be a non-empty list"),
        (lambda d: d["players"].append({"id": "P1"}), "listed twice"),
        (lambda d: d["matches"][0].update(round=0), "matches[0].round"),
        (lambda d: d["matches"][0].update(seats={"N": "P1", "S": "P2"}), "first n of N, E, S, W"),
        (lambda d: d["matches"][0]["seats"].update(E="P99"), "matches[0].seats.E: unknown"),
        (lambda d: d["matches"][0]["seats"].update(E="P1"), "sits at N and E"),
        (lambda d: d["matches"][0].update(scores={"N": 1}), "give one of record, score or scores"),
        (lambda d: d["matches"][0].update(score={"seats": {"N": 1}}), "the result is for seats"),
        (
            lambda d: d["matches"][0].update(score={"seats": dict.fromkeys(SEATS, "ten")}),
            "must be a number",
        ),
        (
            lambda d: (d["matches"][0].pop("score"), d["matches"][0].update(record={"x": 1})),
            "matches[0].record:",
        ),
        (lambda d: d["matches"].append(dict(d["matches"][0])), "is also matches[0]"),
        (lambda d: d.update(byes=[{"round": 1, "player": "P1"}]), "sits out round 1 but plays"),
        (lambda d: d.update(disqualified=[{"player": "P77"}]), "must name a known player"),
        (lambda d: d.update(extra=1), "unknown field 'extra'"),
    ],
)
def test_bad_input_is_refused_naming_the_item(change, message):
    data = random_field(random.Random(1), players=8, missing=0)
    change(data)
    with pytest.raises(RankingInputError, match=re.escape(message)):
        rank_individuals(data)


def test_a_player_at_two_tables_in_one_round_is_refused():
    data = random_field(random.Random(1), players=8, missing=0)
    first = data["matches"][0]
    other = next(
        m for m in data["matches"] if m["round"] == first["round"] and m["table"] != first["table"]
    )
    other["seats"] = {**other["seats"], "N": first["seats"]["N"]}
    other["seats"] = dict(other["seats"])
    with pytest.raises(RankingInputError, match="plays twice in round"):
        rank_individuals(data)


def test_garbage_never_escapes_as_another_error():
    rng = random.Random(0)
    base = random_field(rng, players=8, missing=0)
    values = [None, 1, -1, 0.5, "x", [], {}, True, [1], {"a": 1}, float("nan")]
    for _ in range(2000):
        data = json.loads(json.dumps(base))
        target = rng.choice([data, rng.choice(data["matches"]), rng.choice(data["players"])])
        key = rng.choice([*target, "round", "seats", "score", "id"])
        target[key] = rng.choice(values)
        with contextlib.suppress(RankingInputError):
            rank_individuals(data)


def test_rank_command_ranks_individuals():
    data = random_field(random.Random(4), players=8, missing=0)
    done = subprocess.run(
        [sys.executable, "-m", "engine", "rank"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out == rank_individuals(data)
    assert out["method"] == "duplicate"
    data["matches"][0]["seats"] = {"N": "P1"}
    done = subprocess.run(
        [sys.executable, "-m", "engine", "rank"],
        input=json.dumps(data),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode != 0
    assert "matches[0].seats" in done.stdout + done.stderr
