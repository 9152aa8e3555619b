"""The API fuzzed against its own OpenAPI schema by schemathesis, on the live test server:
every operation, with an organiser's token and a player's code, a bounded number of examples
from a fixed seed. No answer may be a server error, break the schema (status codes, bodies,
content types), or accept a request the schema forbids. (Run by ``make test-services``: the
live server's threads need a database each.)

One check is left out: "a request the schema allows is accepted". A board record can follow
the schema and still break the game's rules (a call out of turn, tricks that do not add up);
refusing it with 400 and the field is the API's job."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from tests.scoring.conftest import build_cup
from tests.tournaments.factories import OrganiserFactory
from tests.tournaments.test_individual_events import pyramid_event

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

EXAMPLES = 10
SEED = 20261124
# The operations in three parts, each a test of its own so that the suite's processes share
# them: a board's phone operations, a board's director operations, and the rest. Together
# they are every operation of the schema.
PARTS = {
    "phone": ["--include-path-regex", "/boards/", "--exclude-path-regex", "/director/"],
    "director": ["--include-path-regex", "/boards/.*/director/"],
    "the rest": ["--exclude-path-regex", "/boards/"],
}


@pytest.mark.parametrize("part", list(PARTS))
def test_the_api_keeps_its_schema_under_fuzzing(live_server, settings, tmp_path, part):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"
    build_cup(slug="fuzz-cup")
    event = pyramid_event(slug="fuzz-pyramid")
    player = event.entrants.order_by("number").first()
    token = Token.objects.create(user=OrganiserFactory()).key
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "schemathesis.cli",
            "run",
            f"{live_server.url}/api/schema/",
            "--url",
            live_server.url,
            "--checks",
            "all",
            "--exclude-checks",
            "positive_data_acceptance",
            *PARTS[part],
            "--max-examples",
            str(EXAMPLES),
            "--seed",
            str(SEED),
            "--request-timeout",
            "30",
            "-H",
            f"Authorization: Token {token}",
            "-H",
            f"X-Team-Code: {player.access_code}",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
        cwd=tmp_path,  # schemathesis keeps a cache in the folder it runs in
        env={"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    report = done.stdout[-6000:] + done.stderr[-2000:]
    assert done.returncode == 0, report
    assert "passed" in done.stdout and "failures" not in done.stdout.split("SUMMARY")[-1], report
    selected = re.search(r"Selected: (\d+)/(\d+)\s+Tested: (\d+)", done.stdout)
    assert selected, report
    assert 0 < int(selected[1]) == int(selected[3]), report  # the part tested all it selected
