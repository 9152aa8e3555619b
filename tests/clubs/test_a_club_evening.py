"""A club evening from end to end, through the product's own services: members registered
as entrants, the evening played by simulation, finalised, its standings file published; the
player's page and the season's ladder follow, and reopening takes the evening out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clubs import seasons, services
from clubs.imports import parse_link_lines
from operations.simulation import simulate_tournament
from publishing import services as publishing
from publishing.models import Export
from scoring.models import Standing
from scoring.standings import recompute
from tournaments import services as tournaments


@pytest.fixture
def evening(organiser, club, settings, tmp_path, django_capture_on_commit_callbacks):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"
    for number in range(1, 9):
        services.add_member(by=organiser, club=club, number=str(number), name=f"Member {number}")
    tournament = tournaments.create_tournament(
        by=organiser, name="Monday", slug="club-monday", tables=2
    )
    rows, _ = parse_link_lines("1 2\n3 4\n5 6\n7 8", numbered=False)
    services.register_from_members(by=organiser, club=club, tournament=tournament, rows=rows)
    autumn = seasons.save_season(
        by=organiser,
        club=club,
        name="Autumn",
        starts=timezone.now().date() - timedelta(days=1),
        ends=timezone.now().date() + timedelta(days=1),
        kind="average",
    )
    tournaments.draw_schedule(by=organiser, tournament=tournament)
    tournaments.deal_boards(by=organiser, tournament=tournament, seed="club")
    simulate_tournament(tournament, rounds=None, seed="club", by=organiser)
    recompute(tournament.pk)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.finalise_tournament(by=organiser, tournament=tournament)
    return tournament, autumn


def test_the_evening_reaches_the_players_pages_once_published_and_the_ladder_once_final(
    client, organiser, evening, django_capture_on_commit_callbacks
):
    tournament, autumn = evening
    standing = Standing.objects.get(entrant__number=1, tournament=tournament)
    assert standing.percentage is not None
    ladder = seasons.ladder_view(autumn, public=True)
    first = {line.member.number: line for line in ladder.lines}
    assert sorted(first) == [str(n) for n in range(1, 9)]
    assert first["1"].score == round(standing.percentage, 2) and first["1"].events == 1
    page = client.get(reverse("clubs:player", args=["rivertown", "1"])).content.decode()
    assert "Monday" not in page  # finalised, not yet published
    export, _ = publishing.request_export(
        tournament=tournament, kind=Export.Kind.STANDINGS, fmt="xlsx", enqueue=False
    )
    publishing.run_export(export.pk)
    publishing.publish_export(export=Export.objects.get(pk=export.pk), by=organiser)
    page = client.get(reverse("clubs:player", args=["rivertown", "1"])).content.decode()
    assert "Monday" in page and f"{standing.percentage:.2f} %" in page and "Member 2" in page
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.reopen_tournament(by=organiser, tournament=tournament, reason="a typo")
    assert seasons.ladder_view(autumn, public=True).lines == []
