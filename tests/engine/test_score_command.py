"""`python -m engine score`: JSON lines in, one board score or error line out, in order."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOOD = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 10, "EW": 5}}
BAD_AUCTION = {"auctions": [["N:G", "E:G+2"]], "trump": "fire", "tricks": {"NS": 9, "EW": 6}}


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )


def test_scores_from_stdin_in_order():
    lines = [json.dumps(GOOD), json.dumps({**GOOD, "tricks": {"NS": 5, "EW": 10}})]
    done = run("score", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert [o["ns"] for o in out] == [21, -24]
    assert out[0]["contract"] == "G" and out[0]["made"] is True


def test_bad_lines_give_error_lines_and_exit_status_1():
    lines = [
        json.dumps(GOOD),
        "{not json",
        json.dumps(BAD_AUCTION),
        "[1, 2]",
        json.dumps(GOOD),
    ]
    done = run("score", stdin="\n".join(lines))
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(out) == 5
    assert out[0]["ns"] == 21 and out[4]["ns"] == 21
    assert out[1]["error"].startswith("not JSON")
    assert out[2] == {"error": "auctions[0]: E:G+2 at call 2: a Gâm bid over G must be G+1"}
    assert out[3] == {"error": "record: must be a JSON object"}
    assert done.stderr == ""


def test_reads_a_file(tmp_path):
    path = tmp_path / "boards.jsonl"
    path.write_text(json.dumps(GOOD) + "\n\n" + json.dumps(GOOD) + "\n", encoding="utf-8")
    done = run("score", str(path))
    assert done.returncode == 0
    assert len(done.stdout.splitlines()) == 2


def test_missing_file_is_a_clear_error(tmp_path):
    done = run("score", str(tmp_path / "nope.jsonl"))
    assert done.returncode == 2
    assert "nope.jsonl" in done.stderr


def test_deeply_nested_json_does_not_crash():
    done = run("score", stdin="[" * 100_000 + "]" * 100_000 + "\n")
    assert done.returncode == 1
    assert "error" in json.loads(done.stdout)


def test_sample_file_scores_cleanly():
    done = run("score", "samples/boards.jsonl")
    assert done.returncode == 0, done.stdout
    assert all("error" not in json.loads(line) for line in done.stdout.splitlines())


def test_undecodable_bytes_give_an_error_line():
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score"],
        input=b'{"auctions": "\xff\xfe"}\n' + json.dumps(GOOD).encode() + b"\n",
        capture_output=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1
    out = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert "error" in out[0] and out[1]["ns"] == 21
