"""Commands that read one JSON document never crash on input that is not JSON they can read."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BAD_FILES = {
    "not JSON": "{oops",
    "nested too deeply": "[" * 100_000 + "]" * 100_000,
    "an integer of 5,000 digits": '{"teams": 1' + "0" * 5000 + "}",
}


@pytest.mark.parametrize("command", ["rank", "check-schedule"])
@pytest.mark.parametrize("kind", sorted(BAD_FILES))
def test_unreadable_json_is_a_clear_error(tmp_path, command, kind):
    path = tmp_path / "input.json"
    path.write_text(BAD_FILES[kind], encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "engine", command, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1
    message = done.stdout + done.stderr
    assert "not JSON" in message
    assert "Traceback" not in message
