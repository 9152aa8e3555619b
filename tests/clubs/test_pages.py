"""The organisers' club pages: each club's list only to its own organisers."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from clubs import services
from clubs.models import Member
from tests.tournaments.factories import OrganiserFactory, UserFactory


def test_the_list_page_shows_members_and_contacts_to_the_clubs_organiser(
    client, organiser, members
):
    client.force_login(organiser)
    page = client.get(reverse("clubs:members", args=["rivertown"]))
    assert page.status_code == 200
    assert b"Ann Smith" in page.content and b"101@x" in page.content


def test_another_clubs_organiser_gets_404_everywhere(client, rival, members, pairs_event):
    client.force_login(rival)
    for name, args in [
        ("clubs:members", ["rivertown"]),
        ("clubs:members_import", ["rivertown"]),
        ("clubs:suggest", ["rivertown"]),
        ("clubs:member_edit", ["rivertown", members[0].pk]),
        ("clubs:history", ["rivertown", members[0].pk]),
        ("clubs:event_links", ["rivertown", pairs_event.slug]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404, name
    mine = client.get(reverse("clubs:list"))
    assert b"Hillside Club" in mine.content and b"Rivertown" not in mine.content


def test_an_organiser_creates_a_club_and_lands_on_its_member_list(client, organiser):
    client.force_login(organiser)
    page = client.post(reverse("clubs:list"), {"name": "Quayside Club", "slug": ""})
    assert page.status_code == 302
    assert page["Location"] == reverse("clubs:members", args=["quayside-club"])
    assert client.get(page["Location"]).status_code == 200


def test_every_organiser_page_links_to_the_clubs(client, organiser):
    client.force_login(organiser)
    page = client.get(reverse("tournaments:list")).content.decode()
    assert f'href="{reverse("clubs:list")}"' in page


def test_anonymous_visitors_are_sent_to_sign_in(client, club):
    page = client.get(reverse("clubs:members", args=["rivertown"]))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


def test_adding_a_member_with_a_taken_number_says_why(client, organiser, members):
    client.force_login(organiser)
    url = reverse("clubs:members", args=["rivertown"])
    page = client.post(url, {"number": "101", "name": "Again", "active": "on", "public": "on"})
    assert page.status_code == 200 and b"already" in page.content
    assert client.post(url, {"number": "120", "name": "Eve", "active": "on"}).status_code == 302
    assert Member.objects.get(number="120").public is False


def test_editing_a_member(client, organiser, members):
    client.force_login(organiser)
    url = reverse("clubs:member_edit", args=["rivertown", members[0].pk])
    client.post(url, {"number": "101", "name": "Ann Smyth", "active": "on"})
    assert Member.objects.get(pk=members[0].pk).name == "Ann Smyth"


def test_import_preview_then_confirm(client, organiser, club):
    client.force_login(organiser)
    url = reverse("clubs:members_import", args=["rivertown"])
    upload = SimpleUploadedFile("list.csv", b"number,name\n1,Ann\n2,Bob\n")
    preview = client.post(url, {"file": upload})
    assert b"Preview: 2 members" in preview.content and not club.members.exists()
    client.post(reverse("clubs:members_import_confirm", args=["rivertown"]))
    assert list(club.members.values_list("name", flat=True)) == ["Ann", "Bob"]


def test_an_import_with_duplicate_numbers_names_the_lines_and_stores_nothing(
    client, organiser, club
):
    client.force_login(organiser)
    url = reverse("clubs:members_import", args=["rivertown"])
    upload = SimpleUploadedFile("list.csv", b"number,name\n1,Ann\n1,Bob\n")
    page = client.post(url, {"file": upload})
    assert b"line 3: member number 1 is also on line 2" in page.content
    confirm = client.post(reverse("clubs:members_import_confirm", args=["rivertown"]))
    assert confirm.status_code == 302 and not club.members.exists()


def test_the_suggestion_fragment(client, organiser, members):
    client.force_login(organiser)
    page = client.get(reverse("clubs:suggest", args=["rivertown"]), {"q": "smith"})
    assert page.status_code == 200 and b"<html" not in page.content
    assert b'data-number="101"' in page.content and b'data-number="103"' in page.content
    assert b'data-number="102"' not in page.content


def test_the_link_page_links_and_refuses_with_the_reason(client, organiser, members, pairs_event):
    client.force_login(organiser)
    url = reverse("clubs:event_links", args=["rivertown", pairs_event.slug])
    assert client.post(url, {"entrant": 1, "player1": "101", "player2": "102"}).status_code == 302
    page = client.post(url, {"entrant": 2, "player1": "101", "player2": ""})
    assert page.status_code == 400 and b"already plays in team 1" in page.content
    assert b"Ann Smith (101)" in client.get(url).content


def test_merge_and_undo_through_the_page(client, organiser, members):
    client.force_login(organiser)
    client.post(reverse("clubs:merge", args=["rivertown"]), {"kept": "101", "merged": "103"})
    assert Member.objects.get(number="103").merged_into_id == members[0].pk
    merge = members[0].club.merges.get()
    page = client.get(reverse("clubs:members", args=["rivertown"])).content.decode()
    assert "Cy Smith (103) into Ann Smith (101)" in page and ">Undo</button>" in page
    client.post(reverse("clubs:merge_undo", args=["rivertown", merge.pk]))
    page = client.get(reverse("clubs:members", args=["rivertown"])).content.decode()
    assert "(undone)" in page
    assert Member.objects.get(number="103").merged_into_id is None


def test_a_second_organiser_shares_the_list(client, organiser, members):
    other = OrganiserFactory(username="second")
    player = UserFactory(username="just-a-player")
    client.force_login(organiser)
    url = reverse("clubs:add_organiser", args=["rivertown"])
    client.post(url, {"username": player.username})  # not an organiser: refused
    assert not members[0].club.organisers.filter(pk=player.pk).exists()
    client.post(url, {"username": "second"})
    client.force_login(other)
    assert client.get(reverse("clubs:members", args=["rivertown"])).status_code == 200


def test_the_entrants_page_leads_to_the_clubs_page_of_who_played(
    client, organiser, rival, club, members, pairs_event
):
    entrants = reverse("tournaments:teams", args=[pairs_event.slug])
    link = reverse("clubs:event_links", args=["rivertown", pairs_event.slug]).encode()
    client.force_login(organiser)
    # A tournament of no club: a link for each club the organiser runs.
    page = client.get(entrants)
    assert page.status_code == 200 and link in page.content
    assert b"from the members of Rivertown Club" in page.content
    services.link_entrant(
        by=organiser, club=club, entrant=pairs_event.entrants.get(number=1), numbers=["101"]
    )
    page = client.get(entrants)
    assert link in page.content and b"An event of Rivertown Club" in page.content
    # Another club's organiser is offered nothing of this club (nor his own: it is taken).
    client.force_login(rival)
    page = client.get(entrants)
    assert page.status_code == 200 and b"/events/monday/" not in page.content
    # An organiser of no club sees no link at all.
    client.force_login(OrganiserFactory())
    assert b"/events/monday/" not in client.get(entrants).content
