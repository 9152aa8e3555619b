"""Who may start, follow and download exports (pages and API), and what the public gets."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from publishing import services
from publishing.models import Export, HandRecords, PublishingSettings
from tests.publishing.conftest import workbook
from tournaments.models import Status


def url(cup, name, *args):
    return reverse(f"publishing:{name}", args=[cup.tournament.slug, *args])


def finished_export(cup, kind="results", fmt="xlsx") -> Export:
    export, _ = services.request_export(
        tournament=cup.tournament, kind=kind, fmt=fmt, enqueue=False
    )
    return services.run_export(export.pk)


def body(response) -> bytes:
    return b"".join(response.streaming_content)


def test_anonymous_visitors_are_sent_to_sign_in(client, cup):
    export = finished_export(cup)
    for name, args in [
        ("organiser", ()),
        ("export-status", (export.pk,)),
        ("export-download", (export.pk,)),
    ]:
        response = client.get(url(cup, name, *args))
        assert response.status_code == 302 and "/accounts/login/" in response.url, name
    response = client.post(url(cup, "export-start"), {"kind": "results", "format": "xlsx"})
    assert response.status_code == 302 and "/accounts/login/" in response.url
    assert Export.objects.count() == 1


def test_signed_in_players_are_refused(player_client, cup):
    export = finished_export(cup)
    assert player_client.get(url(cup, "organiser")).status_code == 403
    assert player_client.get(url(cup, "export-download", export.pk)).status_code == 403
    assert player_client.get(url(cup, "export-status", export.pk)).status_code == 403
    response = player_client.post(url(cup, "export-publish", export.pk), {"published": "on"})
    assert response.status_code == 403
    export.refresh_from_db()
    assert not export.published


def test_organiser_starts_follows_and_downloads(
    organiser_client, cup, play_all, django_capture_on_commit_callbacks
):
    play_all(cup)
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(
            url(cup, "export-start"), {"kind": "results", "format": "xlsx"}
        )
    export = Export.objects.get()
    assert response.status_code == 302 and response.url.endswith(f"?export={export.pk}")
    status = organiser_client.get(url(cup, "export-status", export.pk)).json()
    assert status["state"] == "done" and status["progress"] == 100
    assert status["download_url"] == url(cup, "export-download", export.pk)
    download = organiser_client.get(status["download_url"])
    assert download.status_code == 200
    assert download["Content-Disposition"].startswith("attachment")
    assert download["X-Content-SHA256"] == export.content_hash
    assert workbook(body(download)).sheetnames[0] == "Standings"
    page = organiser_client.get(url(cup, "organiser")).content.decode()
    assert "Ready" in page and status["download_url"] in page


def test_the_start_answers_json_when_asked(organiser_client, cup):
    first = organiser_client.post(
        url(cup, "export-start"),
        {"kind": "standings", "format": "ods"},
        headers={"Accept": "application/json"},
    )
    assert first.status_code == 202 and first.json()["state"] == "queued"
    again = organiser_client.post(
        url(cup, "export-start"),
        {"kind": "standings", "format": "ods"},
        headers={"Accept": "application/json"},
    )
    assert again.status_code == 200 and again.json()["id"] == first.json()["id"]
    bad = organiser_client.post(
        url(cup, "export-start"),
        {"kind": "standings", "format": "pdf"},
        headers={"Accept": "application/json"},
    )
    assert bad.status_code == 400 and "format" in bad.json()["errors"]


def test_the_page_polls_a_running_export(organiser_client, cup):
    export, _ = services.request_export(
        tournament=cup.tournament, kind="results", fmt="xlsx", enqueue=False
    )
    services.report_progress(export.pk, 40, "Writing the Tables sheet")
    Export.objects.filter(pk=export.pk).update(state=Export.State.RUNNING)
    page = organiser_client.get(url(cup, "organiser")).content.decode()
    assert f'data-export-status="{url(cup, "export-status", export.pk)}"' in page
    assert 'value="40"' in page and "Writing the Tables sheet" in page
    assert "publishing/exports.js" in page


def test_exports_of_another_tournament_are_not_found(organiser_client, cup):
    from tests.scoring.conftest import build_cup

    other = build_cup(slug="other")
    export = finished_export(other)
    assert organiser_client.get(url(cup, "export-download", export.pk)).status_code == 404
    assert organiser_client.get(url(cup, "export-status", export.pk)).status_code == 404


def test_public_gets_only_what_is_published(client, organiser_client, cup, play_all):
    play_all(cup)
    export = finished_export(cup, kind="standings")
    assert client.get(url(cup, "published-download", export.pk)).status_code == 404
    assert client.get(url(cup, "latest-download", "standings", "xlsx")).status_code == 404
    assert "Nothing is published yet" in client.get(url(cup, "downloads")).content.decode()
    response = organiser_client.post(url(cup, "export-publish", export.pk), {"published": "on"})
    assert response.status_code == 302
    client.logout()
    public = client.get(url(cup, "published-download", export.pk))
    assert public.status_code == 200 and body(public)[:2] == b"PK"
    latest = client.get(url(cup, "latest-download", "standings", "xlsx"))
    assert latest.status_code == 200 and latest["X-Content-SHA256"] == export.content_hash
    downloads = client.get(url(cup, "downloads")).content.decode()
    assert url(cup, "published-download", export.pk) in downloads


def test_withdrawn_files_are_no_longer_public(client, organiser, cup):
    export = finished_export(cup, kind="standings")
    services.publish_export(export=export, by=organiser)
    assert client.get(url(cup, "published-download", export.pk)).status_code == 200
    services.publish_export(export=export, by=organiser, published=False)
    assert client.get(url(cup, "published-download", export.pk)).status_code == 404


def test_the_full_workbook_waits_for_the_hand_records(organiser_client, organiser, cup, play_all):
    play_all(cup)
    export = finished_export(cup, kind="results")
    with pytest.raises(services.PublishingError, match="holds every deal"):
        services.publish_export(export=export, by=organiser)
    response = organiser_client.post(url(cup, "export-publish", export.pk), {"published": "on"})
    assert response.status_code == 302
    export.refresh_from_db()
    assert not export.published
    PublishingSettings.objects.create(
        tournament=cup.tournament, hand_records=HandRecords.AFTER_PLAY
    )
    services.publish_export(export=export, by=organiser)  # every table is played out
    export.refresh_from_db()
    assert export.published


def test_settings_form_saves_and_logs(organiser_client, cup):
    response = organiser_client.post(
        url(cup, "organiser"), {"auto_publish_standings": "on", "hand_records": "after_final"}
    )
    assert response.status_code == 302
    found = PublishingSettings.objects.get(tournament=cup.tournament)
    assert found.auto_publish_standings and found.hand_records == "after_final"
    assert cup.tournament.log_entries.filter(action="publishing_settings").exists()
    bad = organiser_client.post(url(cup, "organiser"), {"hand_records": "tomorrow"})
    assert bad.status_code == 400


def test_api_needs_an_organiser(client, cup, player_client):
    api = reverse("publishing:api-exports", args=[cup.tournament.slug])
    assert client.post(api, {"format": "xlsx"}).status_code in (401, 403)
    assert player_client.post(api, {"format": "xlsx"}).status_code == 403
    assert Export.objects.count() == 0


def test_api_starts_reports_and_serves(cup, organiser, client, django_capture_on_commit_callbacks):
    token = Token.objects.create(user=organiser)
    auth = {"HTTP_AUTHORIZATION": f"Token {token.key}"}
    api = reverse("publishing:api-exports", args=[cup.tournament.slug])
    with django_capture_on_commit_callbacks(execute=True):
        started = client.post(
            api, {"kind": "standings", "format": "csv"}, content_type="application/json", **auth
        )
    assert started.status_code == 202, started.content
    export_id = started.json()["id"]
    detail_url = reverse("publishing:api-export", args=[cup.tournament.slug, export_id])
    detail = client.get(detail_url, **auth)
    assert detail.json()["state"] == "done" and detail.json()["download_url"].endswith("/file/")
    served = client.get(detail.json()["download_url"], **auth)
    assert served.status_code == 200 and served["Content-Type"] == "application/zip"
    listed = client.get(api, **auth).json()
    assert [item["id"] for item in listed] == [export_id]
    bad = client.post(
        api, {"kind": "standings", "format": "pdf"}, content_type="application/json", **auth
    )
    assert bad.status_code == 400
    loose = client.post(
        api, {"kind": "standings", "force": "yes"}, content_type="application/json", **auth
    )
    assert loose.status_code == 400 and loose.json()["field"] == "force"  # true or false only
    form = client.post(api, {"kind": "standings"}, **auth)  # the API takes JSON bodies only
    assert form.status_code == 415


def test_final_exports_are_named_final(organiser, cup, play_all):
    from tournaments import services as organiser_services

    play_all(cup)
    organiser_services.finalise_tournament(by=organiser, tournament=cup.tournament)
    cup.tournament.refresh_from_db()
    assert cup.tournament.status == Status.FINAL
    export = finished_export(cup, kind="standings", fmt="ods")
    assert export.download_name.endswith("-standings-final.ods")
