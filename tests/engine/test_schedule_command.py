"""``python -m engine schedule`` and ``python -m engine check-schedule``, run as processes."""

import json
import subprocess
import sys
from pathlib import Path

from engine.schedule import check_schedule

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_schedule_prints_a_valid_schedule():
    done = run("schedule", "--teams", "16", "--tables", "8")
    assert done.returncode == 0
    schedule = json.loads(done.stdout)
    assert (schedule["teams"], schedule["tables"], schedule["sides"]) == (16, 8, "fixed")
    assert schedule["max_meetings"] == 1
    assert check_schedule(schedule) == []


def test_schedule_balanced_sides():
    done = run("schedule", "--teams", "9", "--tables", "5", "--sides", "balanced")
    assert done.returncode == 0
    schedule = json.loads(done.stdout)
    assert schedule["sides"] == "balanced"
    assert len(schedule["byes"]) == 5
    assert check_schedule(schedule) == []


def test_schedule_refuses_impossible_requests():
    done = run("schedule", "--teams", "1", "--tables", "4")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "error: teams must be between 2 and 2000, not 1"
    done = run("schedule", "--teams", "8", "--tables", "4", "--sides", "mixed")
    assert done.returncode == 2
    assert "invalid choice" in done.stderr


def test_check_schedule_round_trip(tmp_path):
    path = tmp_path / "schedule.json"
    path.write_text(run("schedule", "--teams", "9", "--tables", "4").stdout)
    done = run("check-schedule", str(path))
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")


def test_check_schedule_names_every_problem(tmp_path):
    schedule = json.loads(run("schedule", "--teams", "6", "--tables", "3").stdout)
    schedule["matches"][0]["table"] = 2
    schedule["matches"][4]["ns"] = 6
    schedule["max_meetings"] = 3
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(schedule))
    done = run("check-schedule", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "match #5: team 6 faces itself",
        "round 1: table 2 hosts 2 matches (matches #1, #2)",
        "team 4 plays table 2 twice (matches #1, #8)",
        "team 1 never plays table 1",
        "team 4 never plays table 1",
        "team 6 sits NS once and EW 3 times; under fixed sides a team keeps its side",
        "team 1 neither plays nor has a bye in round 2",
        "'max_meetings' is 3, but the most two teams meet is 1 (teams 1 and 4 meet once)",
    ]


def test_check_schedule_reads_standard_input():
    done = run("check-schedule", stdin='{"teams": 4}')
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert "missing key 'matches'" in lines
    assert "teams 1-4 appear in no match and no bye" not in lines  # no tables to check against


def test_check_schedule_on_a_file_that_is_not_json(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text("round 1: 1 v 4\n")
    done = run("check-schedule", str(path))
    assert done.returncode == 1
    assert done.stdout.startswith("not JSON: ")


def test_check_schedule_on_json_that_is_not_a_schedule(tmp_path):
    path = tmp_path / "list.json"
    path.write_text("[1, 2, 3]")
    done = run("check-schedule", str(path))
    assert done.returncode == 1
    assert done.stdout.splitlines() == ["a schedule must be a JSON object, not a list"]


def test_check_schedule_on_a_missing_file(tmp_path):
    done = run("check-schedule", str(tmp_path / "nowhere.json"))
    assert done.returncode == 2
    assert "error:" in done.stderr
