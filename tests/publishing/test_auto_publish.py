"""Automatic publication of the standings workbook after every round, and when final."""

from __future__ import annotations

from django.urls import reverse

from publishing import services
from publishing.models import Export, PublishingSettings
from tests.publishing.conftest import RY_LOST, data_rows, workbook
from tournaments import services as organiser_services


def switch_on(cup) -> None:
    PublishingSettings.objects.create(tournament=cup.tournament, auto_publish_standings=True)


def published(cup):
    return list(
        Export.objects.filter(tournament=cup.tournament, published=True).order_by("created_at")
    )


def test_nothing_is_published_while_the_setting_is_off(cup, play_all):
    play_all(cup)
    assert published(cup) == []


def test_the_standings_are_published_when_a_round_is_complete(cup, confirm, client):
    switch_on(cup)
    confirm(cup, 1, 1)
    assert published(cup) == []  # table 2 of round 1 is still playing
    confirm(cup, 1, 2, RY_LOST)
    [after_round_1] = published(cup)
    assert after_round_1.kind == "standings" and after_round_1.format == "xlsx"
    assert after_round_1.after_round == 1
    response = client.get(
        reverse("publishing:latest-download", args=[cup.tournament.slug, "standings", "xlsx"])
    )
    assert response.status_code == 200
    book = workbook(b"".join(response.streaming_content))
    assert [row[1] for row in data_rows(book["Standings"])] != []
    confirm(cup, 2, 1)
    assert len(published(cup)) == 1  # round 2 is not complete yet
    confirm(cup, 2, 2, RY_LOST)
    rounds = [export.after_round for export in published(cup)]
    assert rounds == [1, 2]
    assert cup.tournament.log_entries.filter(action="auto_publish").count() == 2


def test_the_final_standings_are_published_once(
    cup, play_all, organiser, django_capture_on_commit_callbacks
):
    switch_on(cup)
    play_all(cup)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_services.finalise_tournament(by=organiser, tournament=cup.tournament)
    final = [e for e in published(cup) if e.tournament_status == "final"]
    assert len(final) == 1
    cup.tournament.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        cup.tournament.save()  # a later save of the final tournament publishes nothing new
    assert len([e for e in published(cup) if e.tournament_status == "final"]) == 1
    book = workbook(services.export_path(final[0]).read_bytes())
    assert book["Standings"]["A2"].value.startswith("Final standings")


def test_switching_it_on_publishes_the_rounds_played(
    organiser_client, cup, confirm, django_capture_on_commit_callbacks
):
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    assert published(cup) == []
    with django_capture_on_commit_callbacks(execute=True):
        organiser_client.post(
            reverse("publishing:organiser", args=[cup.tournament.slug]),
            {"auto_publish_standings": "on", "hand_records": "hidden"},
        )
    assert [export.after_round for export in published(cup)] == [1]


def test_a_file_published_after_a_round_says_it_holds_a_later_result(
    cup, confirm, django_capture_on_commit_callbacks
):
    """A fast table finishes round 2 before the slow one finishes round 1: the file made when
    round 1 is complete holds that round-2 result, and its label and stamp say so."""
    from scoring import services as scoring
    from tests.scoring.conftest import GAM_MADE, new_id

    switch_on(cup)
    confirm(cup, 1, 1)
    slow = cup.match(1, 2)
    with django_capture_on_commit_callbacks(execute=True):
        entry = scoring.submit_entry(
            match_id=slow.pk,
            board_number=1,
            entrant=slow.north_entrant,
            facts=GAM_MADE,
            client_id=new_id(),
        )
    confirm(cup, 2, 1)
    assert published(cup) == []
    with django_capture_on_commit_callbacks(execute=True):
        scoring.accept_entry(
            match_id=slow.pk,
            board_number=1,
            entrant=slow.east_entrant,
            submission_id=entry.pk,
            client_id=new_id(),
        )
    [export] = published(cup)
    assert export.after_round == 1
    assert export.holds == "round 1 complete; round 2: 1 of 2 matches"
    book = workbook(services.export_path(export).read_bytes())
    assert "Results: round 1 complete; round 2: 1 of 2 matches." in book["Standings"]["A2"].value
    log = cup.tournament.log_entries.get(action="auto_publish")
    assert log.summary == (
        "Published the standings (round 1 complete; round 2: 1 of 2 matches) workbook"
    )
