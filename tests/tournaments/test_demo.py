"""``manage.py demo --no-serve``: the demo tournament from end to end on the embedded
defaults, and again; the demo's club with its season of past evenings, its ladder and a
player's page."""

from __future__ import annotations

import re
from io import StringIO
from itertools import pairwise
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client, RequestFactory
from django.utils import timezone

from scoring.models import Result, Standing, StandingsState
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


def club_lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith(("club:", "ladder:"))]


def check_the_club(output: str, base: str, organiser) -> None:
    """The club of 30 members, its six past Monday evenings (four of Pymtheg, two of Twenty)
    final and published, the season's ladder computed from them, and the printed pages of
    the club, the ladder and a player answering."""
    from clubs import seasons
    from clubs.models import Club, EntrantMember, Member
    from publishing.models import Export

    club = Club.objects.get(slug="harbour")
    assert club.members.count() == 30 and club.organisers.filter(pk=organiser.pk).exists()
    events = list(Tournament.objects.filter(club_event__club=club).order_by("created_at"))
    assert [event.game for event in events] == ["pymtheg"] * 2 + ["twenty", "pymtheg"] * 2
    assert all(event.status == Status.FINAL for event in events)
    days = [timezone.localdate(event.created_at) for event in events]
    assert all(day.weekday() == 0 for day in days) and days[-1] < timezone.localdate()
    assert [(later - earlier).days for earlier, later in pairwise(days)] == [7] * 5
    for event in events:
        published = Export.objects.filter(tournament=event, kind="standings", published=True)
        assert published.exists(), event.slug
        assert Standing.objects.filter(tournament=event).count() == event.entrants.count()
    # Every entrant is linked to its members but the first evening's guest pair.
    links = EntrantMember.objects.filter(tournament__in=events)
    unlinked = [
        entrant.name for e in events for entrant in e.entrants.exclude(member_links__isnull=False)
    ]
    assert unlinked == ["Visitors from Eastholm"]
    # Four Pymtheg evenings of 6 pairs (one of them the guests), two Twenty nights of 20.
    assert links.count() == 4 * 6 * 2 - 2 + 2 * 20

    season = club.seasons.get()
    view = seasons.ladder_view(season, public=True)
    assert [event.pk for event in view.events] == [event.pk for event in events]
    assert view.lines and view.lines[0].place == 1
    regular = Member.objects.get(club=club, number="101")
    assert next(line for line in view.lines if line.member == regular).events == 6

    ladder = f"/c/harbour/seasons/{season.slug}/"
    player = "/c/harbour/players/101/"
    for path in ("/clubs/harbour/members/", ladder, player):
        assert base + path in output, path
    public = Client()
    page = public.get(player)
    assert page.status_code == 200
    assert all(event.name in page.content.decode() for event in events)
    assert public.get(ladder).status_code == 200
    assert public.get(ladder + "ladder.xlsx").status_code == 200
    assert public.get("/clubs/harbour/members/").status_code == 302  # organisers only
    organiser_client = Client()
    organiser_client.force_login(organiser)
    members_page = organiser_client.get("/clubs/harbour/members/")
    assert members_page.status_code == 200 and "Orla Brenn" in members_page.content.decode()


def test_demo_plays_the_first_rounds_and_prints_what_to_open(settings):
    output = run_demo("--port", "8123")
    demo = Tournament.objects.get(slug="demo")
    assert demo.status == Status.RUNNING
    assert (demo.entrants.count(), demo.tables.count()) == (14, 7)
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
    check_the_club(output, base, user)


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
    # The club is made again, the same: one club, its six evenings, the same ladder.
    assert club_lines(first) == club_lines(second) and len(club_lines(first)) == 2
    assert Tournament.objects.filter(slug__startswith="harbour-week-").count() == 6


def test_without_the_club_and_served_without_nagles_delay(monkeypatch):
    """The development server answers the phones at once (config/devserver.py)."""
    from django.core.servers.basehttp import WSGIRequestHandler

    from operations.management.commands import demo

    served = []

    def call(name, *args, **kwargs):
        if name != "runserver":
            return call_command(name, *args, **kwargs)
        served.append((args, WSGIRequestHandler.disable_nagle_algorithm))

    monkeypatch.setattr(WSGIRequestHandler, "disable_nagle_algorithm", False)
    monkeypatch.setattr(demo, "call_command", call)
    out = StringIO()
    call_command("demo", "--quiet", "--no-club", "--port", "8124", stdout=out, stderr=StringIO())
    assert served == [(("127.0.0.1:8124",), True)]
    from clubs.models import Club

    assert not Club.objects.exists()
    assert club_lines(out.getvalue()) == [] and "/c/harbour/" not in out.getvalue()


def test_the_pyramid_demo_plays_its_rounds_through_the_same_services():
    output = run_demo("--game", "pyramid", "--no-club")
    demo = Tournament.objects.get(slug="demo-pyramid")
    assert (demo.game, demo.of_players, demo.status) == ("pyramid", True, Status.RUNNING)
    assert demo.entrants.count() == 16 and demo.tables.count() == 4
    played = Result.objects.filter(match__table__tournament=demo, current=True)
    assert played.count() == 3 * 4 * demo.boards_per_table
    assert all(len(result.seats) == 4 for result in played)
    state = StandingsState.objects.get(tournament=demo)
    assert state.provisional and len(state.standings["standings"]) == 16
    assert "declarations exact" in output and "contracts made" not in output
    standings = next(line for line in output.splitlines() if line.startswith("standings:"))
    assert "16 players" in standings and "%" in standings
    north = Match.objects.filter(table__tournament=demo, round=4).order_by("table__number")[0]
    assert scorer_path(north.seats.get(seat="N").entrant) in output
    assert "/t/demo-pyramid/standings/" in output


def test_on_the_local_network_the_links_carry_this_machines_address(settings):
    from operations.management.commands.demo import local_network_address

    settings.PUBLIC_BASE_URL = ""
    settings.ALLOWED_HOSTS = list(settings.ALLOWED_HOSTS)  # both restored after the test
    address = local_network_address()
    assert re.fullmatch(r"\d{1,3}(\.\d{1,3}){3}", address), address
    output = run_demo("--host", "0.0.0.0", "--port", "8124", "--no-club")
    links = re.findall(r"https?://\S+", output)
    assert links and all(link.startswith(f"http://{address}:8124/") for link in links), links
    # The route cards' QR codes and the server's allowed hosts follow.
    assert f"http://{address}:8124" == settings.PUBLIC_BASE_URL
    assert address in settings.ALLOWED_HOSTS
    north = Match.objects.filter(table__tournament__slug="demo", round=4).first().north_entrant
    assert f"http://{address}:8124{scorer_path(north)}" in output
