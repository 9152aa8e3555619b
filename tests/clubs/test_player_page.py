"""A player's page: every event he played, public only for published events and only while
he has not opted out; his percentages drawn over time."""

from __future__ import annotations

import re
from datetime import date

from django.urls import reverse

from clubs import services
from clubs.charts import percentages_svg
from publishing.models import Export


def rows(page) -> list[list[str]]:
    body = page.content.decode().split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_the_public_page_shows_the_published_events_only(client, season):
    page = client.get(reverse("clubs:player", args=["rivertown", "101"]))
    assert page.status_code == 200
    found = rows(page)
    assert [row[1:6] for row in found] == [
        ["Cup monday", "Pymtheg", "2", "56.25 %", "Bob Jones"],
        ["Cup pyramid-night", "Pyramid", "1", "61.50 %", "–"],
    ]
    assert "Cup unpublished" not in page.content.decode()
    assert "101@x" not in page.content.decode()  # the contact is private


def test_the_partner_links_to_his_page_and_a_guest_is_named(client, season):
    page = client.get(reverse("clubs:player", args=["rivertown", "101"])).content.decode()
    assert reverse("clubs:player", args=["rivertown", "102"]) in page
    cy = client.get(reverse("clubs:player", args=["rivertown", "103"]))
    assert rows(cy)[0][5] == "Player 2b"  # his partner is a guest: the entrant's name for him


def test_the_organiser_sees_every_event_and_whether_it_is_published(client, organiser, season):
    client.force_login(organiser)
    ann = season["pairs"].entrants.get(number=1).member_links.get(seat=1).member
    page = client.get(reverse("clubs:history", args=["rivertown", ann.pk]))
    assert [(row[1], row[-1]) for row in rows(page)] == [
        ("Cup monday", "yes"),
        ("Cup pyramid-night", "yes"),
        ("Cup unpublished", "no"),
    ]


def test_an_opted_out_or_merged_member_has_no_public_page(client, organiser, members, season):
    services.update_member(by=organiser, member=members[0], public=False)
    assert client.get(reverse("clubs:player", args=["rivertown", "101"])).status_code == 404
    page = client.get(reverse("clubs:player", args=["rivertown", "102"])).content.decode()
    assert reverse("clubs:player", args=["rivertown", "101"]) not in page  # no link to him
    services.merge_members(by=organiser, kept=members[3], merged=members[2])
    assert client.get(reverse("clubs:player", args=["rivertown", "103"])).status_code == 404
    assert client.get(reverse("clubs:player", args=["hillside", "101"])).status_code == 404


def test_withdrawing_the_published_file_takes_the_event_off_the_public_page(client, season):
    Export.objects.filter(tournament=season["pairs"]).update(published=False)
    page = client.get(reverse("clubs:player", args=["rivertown", "101"]))
    assert [row[1] for row in rows(page)] == ["Cup pyramid-night"]


def test_the_chart_draws_the_public_percentages(client, season):
    page = client.get(reverse("clubs:player", args=["rivertown", "101"])).content.decode()
    assert page.count("<circle") == 2 and "56.25 %" in page and "70 %</title>" not in page


def test_the_chart_puts_a_higher_percentage_higher():
    svg = percentages_svg([(date(2026, 1, 5), "A", 40.0), (date(2026, 1, 12), "B <C>", 65.0)])
    ys = [float(y) for y in re.findall(r'<circle cx="[\d.]+" cy="([\d.]+)"', svg)]
    assert len(ys) == 2 and ys[1] < ys[0]
    assert "B &lt;C&gt;" in svg and 'role="img"' in svg
    assert percentages_svg([]) == ""
