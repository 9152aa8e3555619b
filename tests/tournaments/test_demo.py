"""``manage.py demo --no-serve``: the demo tournament from end to end on the embedded
defaults, and again."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import RequestFactory

from scoring.models import Result, StandingsState
from tournaments.models import Match, Status, Tournament
from tournaments.permissions import is_organiser
from tournaments.printing import scorer_path

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _exports_in_tmp(settings, tmp_path):
    """Export files in a temporary folder, whatever the run's settings."""
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"


def run_demo(*args) -> str:
    out = StringIO()
    call_command("demo", "--no-serve", "--quiet", *args, stdout=out, stderr=StringIO())
    return out.getvalue()


def sign_in_request():
    """What the sign-in page hands to ``authenticate`` (the sign-in throttle needs it)."""
    return RequestFactory().post("/accounts/login/")


def password_in(output: str) -> str:
    found = re.search(r"Sign in as 'organiser' with the password (\S+)", output)
    assert found, output
    return found.group(1)


def test_demo_plays_the_first_rounds_and_prints_what_to_open(settings):
    output = run_demo("--port", "8123")
    demo = Tournament.objects.get(slug="demo")
    assert demo.status == Status.RUNNING
    assert (demo.teams.count(), demo.tables.count()) == (14, 7)
    for round_number in (1, 2, 3):
        matches = Match.objects.filter(table__tournament=demo, round=round_number)
        assert matches.count() == 7
        assert Result.objects.filter(match__in=matches, current=True).count() == 7
    assert not Result.objects.filter(match__table__tournament=demo, match__round=4).exists()
    director = Result.objects.get(match__table__tournament=demo, kind=Result.Kind.DIRECTOR)
    assert director.match.reviews.filter(action="reject").count() == 2
    state = StandingsState.objects.get(tournament=demo)
    assert state.computed_version == state.results_version
    assert all(row["matches"] == 3 for row in state.standings["standings"])

    base = "http://127.0.0.1:8123"
    nxt = Match.objects.filter(table__tournament=demo, round=4).order_by("table__number").first()
    assert base + scorer_path(nxt.north_entrant) in output
    assert base + scorer_path(nxt.east_entrant) in output
    assert f"{base}/accounts/login/?next=/tournaments/demo/" in output
    assert f"{base}/t/demo/standings/" in output
    assert f"{base}/tournaments/demo/director/" in output
    assert "played rounds 1, 2, 3: 21 matches, 21 boards" in output
    workbook = next(line for line in output.splitlines() if line.startswith("workbook:"))
    if apps.is_installed("publishing"):
        path = Path(workbook.removeprefix("workbook: "))
        assert path.is_file() and path.is_relative_to(settings.PUBLISHING_EXPORT_ROOT)
    else:
        assert "skipped" in workbook

    user = authenticate(sign_in_request(), username="organiser", password=password_in(output))
    assert user is not None and is_organiser(user)


def test_demo_runs_again_with_a_fresh_tournament_and_password():
    first = run_demo()
    old = Tournament.objects.get(slug="demo").pk
    second = run_demo()
    assert Tournament.objects.filter(slug="demo").count() == 1
    assert Tournament.objects.get(slug="demo").pk != old
    assert password_in(first) != password_in(second)
    assert (
        authenticate(sign_in_request(), username="organiser", password=password_in(first)) is None
    )
    assert (
        authenticate(sign_in_request(), username="organiser", password=password_in(second))
        is not None
    )

    # Fixed seeds: the same deals and the same play on every run.
    def standings_line(output: str) -> str:
        return next(line for line in output.splitlines() if line.startswith("standings:"))

    assert standings_line(first) == standings_line(second)


def test_the_pyramid_demo_plays_its_rounds_through_the_same_services():
    output = run_demo("--game", "pyramid")
    demo = Tournament.objects.get(slug="demo-pyramid")
    assert (demo.game, demo.of_players, demo.status) == ("pyramid", True, Status.RUNNING)
    assert demo.teams.count() == 16 and demo.tables.count() == 4
    played = Result.objects.filter(match__table__tournament=demo, current=True)
    assert played.count() == 3 * 4 * demo.boards_per_table
    assert all(len(result.seats) == 4 for result in played)
    state = StandingsState.objects.get(tournament=demo)
    assert state.provisional and len(state.standings["standings"]) == 16
    assert "declarations exact" in output and "contracts made" not in output
    standings = next(line for line in output.splitlines() if line.startswith("standings:"))
    assert "16 players" in standings and "%" in standings
    north = Match.objects.filter(table__tournament=demo, round=4).order_by("table__number")[0]
    assert scorer_path(north.seats.get(seat="N").team) in output
    assert "/t/demo-pyramid/standings/" in output


def test_on_the_local_network_the_links_carry_this_machines_address(settings):
    from operations.management.commands.demo import local_network_address

    settings.PUBLIC_BASE_URL = ""
    settings.ALLOWED_HOSTS = list(settings.ALLOWED_HOSTS)  # both restored after the test
    address = local_network_address()
    assert re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", address), address
    output = run_demo("--host", "0.0.0.0", "--port", "8124")
    links = re.findall(r"https?://\S+", output)
    assert links and all(link.startswith(f"http://{address}:8124/") for link in links), links
    # The route cards' QR codes and the server's allowed hosts follow.
    assert f"http://{address}:8124" == settings.PUBLIC_BASE_URL
    assert address in settings.ALLOWED_HOSTS
    north = Match.objects.filter(table__tournament__slug="demo", round=4).first().north_entrant
    assert f"http://{address}:8124{scorer_path(north)}" in output
