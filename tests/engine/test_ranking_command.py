"""`python -m engine rank`: tournament results in, standings out; bad input is exit status 1."""

import json
import subprocess
import sys
from pathlib import Path

from engine.ranking import rank_results
from tests.engine.test_ranking import manual_example

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "engine", "rank", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_ranks_a_file(tmp_path):
    path = tmp_path / "results.json"
    path.write_text(json.dumps(manual_example(), ensure_ascii=False), encoding="utf-8")
    done = run(str(path))
    assert done.returncode == 0, done.stderr
    standings = json.loads(done.stdout)
    assert standings == rank_results(manual_example())
    assert [(r["team"], r["place"]) for r in standings["standings"]][:2] == [("T3", 1), ("T6", 1)]


def test_ranks_standard_input():
    done = run(stdin=json.dumps(manual_example()))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["provisional"] is False
    assert done.stderr == ""


def test_non_ascii_names_pass_through(tmp_path):
    data = manual_example()
    data["teams"][0]["id"] = "Aziëlla"
    data["matches"][0]["ns"] = "Aziëlla"
    done = run(stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    assert "Aziëlla" in done.stdout


def test_bad_input_names_the_item_on_stderr():
    data = manual_example()
    data["matches"][2]["ns"] = "T9"
    done = run(stdin=json.dumps(data))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.strip() == "error: matches[2]: team 'T9' is not in teams"


def test_a_bad_record_is_named_with_its_match():
    data = manual_example()
    data["matches"][0]["record"]["tricks"] = {"NS": 10, "EW": 4}
    done = run(stdin=json.dumps(data))
    assert done.returncode == 1
    assert done.stderr.strip() == "error: matches[0].record: tricks: add up to 14, not 15"


def test_not_json():
    done = run(stdin="{teams: []}")
    assert done.returncode == 1
    assert done.stderr.startswith("error: not JSON")


def test_disqualification_after_final_through_the_command_line():
    data = manual_example()
    data["disqualified"] = [{"team": "T3", "after_final": True}]
    done = run(stdin=json.dumps(data))
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["standings"]
    assert [(r["team"], r["place"], r["status"]) for r in rows] == [
        ("T6", 1, "ok"),
        ("T1", 2, "ok"),
        ("T2", 2, "ok"),
        ("T4", 4, "ok"),
        ("T5", 4, "ok"),
        ("T3", None, "disqualified"),
    ]
