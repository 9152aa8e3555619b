"""The public hand records: hidden until the organiser's setting allows them, then each
table's deal as a diagram with every result played on it."""

from __future__ import annotations

from django.urls import reverse

from publishing.models import HandRecords, PublishingSettings
from tests.publishing.conftest import RY_LOST
from tournaments import services as organiser_services


def page(client, cup):
    return client.get(reverse("publishing:hand-records", args=[cup.tournament.slug]))


def deal_of(cup, table: int) -> str:
    return cup.tournament.tables.get(number=table).boards.get(number=1).deal


def allow(cup, mode: str) -> None:
    PublishingSettings.objects.update_or_create(
        tournament=cup.tournament, defaults={"hand_records": mode}
    )


def test_hidden_by_default(client, cup, play_all):
    play_all(cup)
    response = page(client, cup)
    assert response.status_code == 404
    assert "Not yet published. The organiser has not made the hand records public." in (
        response.content.decode()
    )
    assert deal_of(cup, 1).encode() not in response.content


def test_after_final_waits_for_finalisation(client, cup, play_all, organiser):
    allow(cup, HandRecords.AFTER_FINAL)
    play_all(cup)
    waiting = page(client, cup)
    text = waiting.content.decode()
    assert waiting.status_code == 200 and "Not yet published" in text
    assert deal_of(cup, 1) not in text and deal_of(cup, 2) not in text
    organiser_services.finalise_tournament(by=organiser, tournament=cup.tournament)
    text = page(client, cup).content.decode()
    assert deal_of(cup, 1) in text and deal_of(cup, 2) in text
    assert "Not yet published" not in text


def test_after_play_shows_a_table_once_its_matches_are_done(client, cup, confirm):
    allow(cup, HandRecords.AFTER_PLAY)
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 2, RY_LOST)  # table 2 is played out; table 1 still has round 2 to come
    text = page(client, cup).content.decode()
    assert deal_of(cup, 2) in text and deal_of(cup, 1) not in text
    assert 'id="table-2-board-1"' in text and 'id="table-1-board-1"' not in text
    confirm(cup, 2, 1)
    text = page(client, cup).content.decode()
    assert deal_of(cup, 1) in text


def test_a_record_shows_the_diagram_and_every_result(client, cup, play_all):
    allow(cup, HandRecords.AFTER_PLAY)
    play_all(cup)
    text = page(client, cup).content.decode()
    table2 = text[text.index('id="table-2-board-1"') :]
    assert 'class="diagram"' in table2
    for seat in ("North", "East", "South", "West"):
        assert f"<h4>{seat}" in table2
    for suit in ("Fire", "Earth", "Water", "Wind"):
        assert f'aria-label="{suit}"' in table2  # the glyph has a text label
    assert "East plays Ry" in table2 and "lost" in table2
    assert ">150<" in table2 and ">-150<" in table2
    assert table2.count("<tr>") >= 3  # header and the two matches at the table


def test_organisers_preview_hidden_records(organiser_client, cup, play_all):
    play_all(cup)
    response = page(organiser_client, cup)
    text = response.content.decode()
    assert response.status_code == 200 and "preview" in text
    assert deal_of(cup, 1) in text
