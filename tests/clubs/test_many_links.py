"""Many entrants linked at once, and new entrants registered from the list: all or nothing,
every problem named by its line."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs import selectors, services
from clubs.imports import parse_link_lines
from clubs.models import EntrantMember
from clubs.services import ClubError


def seats(tournament):
    return {
        row.entrant.number: {seat: m.number for seat, m in row.members.items()}
        for row in selectors.entrant_links(tournament)
    }


def test_lines_are_read_with_their_numbers():
    rows, problems = parse_link_lines("1, 101, 102\n\n2;103\nx 104\n3 1 2 3\n4\t105 106")
    assert [(r.line, r.entrant, r.numbers) for r in rows] == [
        (1, 1, ("101", "102")),
        (3, 2, ("103",)),
        (6, 4, ("105", "106")),
    ]
    assert problems == [
        "line 4: 'x' is not an entrant's number",
        "line 5: more than two member numbers",
    ]


def test_many_links_at_once(club, organiser, members, pairs_event):
    rows, _ = parse_link_lines("1, 101, 102\n2, 103")
    assert services.link_entrants(by=organiser, club=club, tournament=pairs_event, rows=rows) == 2
    assert seats(pairs_event) == {1: {1: "101", 2: "102"}, 2: {1: "103"}, 3: {}, 4: {}}


def test_a_member_twice_refuses_every_line_by_number(club, organiser, members, pairs_event):
    services.link_entrant(
        by=organiser, club=club, entrant=pairs_event.entrants.get(number=4), numbers=["104"]
    )
    rows, _ = parse_link_lines("1, 101, 102\n2, 103, 101\n3, 104\n9, 102\n1, 103")
    with pytest.raises(ClubError) as refused:
        services.link_entrants(by=organiser, club=club, tournament=pairs_event, rows=rows)
    assert refused.value.messages == [
        "line 2: Ann Smith (101) is also on line 1",
        "line 3: Di Brown (104) already plays in team 4 'Team 4' of this event",
        "line 4: no entrant numbered 9",
        "line 5: entrant 1 is also on line 1",
    ]
    assert EntrantMember.objects.count() == 1


def test_relinking_moves_a_member_between_entrants_of_the_rows(
    club, organiser, members, pairs_event
):
    first, _ = parse_link_lines("1, 101\n2, 102")
    services.link_entrants(by=organiser, club=club, tournament=pairs_event, rows=first)
    swapped, _ = parse_link_lines("1, 102\n2, 101")
    services.link_entrants(by=organiser, club=club, tournament=pairs_event, rows=swapped)
    assert seats(pairs_event)[1] == {1: "102"} and seats(pairs_event)[2] == {1: "101"}


def test_register_new_entrants_from_the_list(club, organiser, members, pairs_event):
    rows, _ = parse_link_lines("101 102\n103 104", numbered=False)
    created = services.register_from_members(
        by=organiser, club=club, tournament=pairs_event, rows=rows
    )
    assert [(t.number, t.name, t.player1, t.player2) for t in created] == [
        (5, "Ann Smith & Bob Jones", "Ann Smith", "Bob Jones"),
        (6, "Cy Smith & Di Brown", "Cy Smith", "Di Brown"),
    ]
    assert seats(pairs_event)[6] == {1: "103", 2: "104"}


def test_register_refuses_all_on_one_bad_line(club, organiser, members, pairs_event):
    rows, _ = parse_link_lines("101 102\n103 999", numbered=False)
    with pytest.raises(ClubError, match="line 2: player 2: no member numbered 999"):
        services.register_from_members(by=organiser, club=club, tournament=pairs_event, rows=rows)
    assert pairs_event.entrants.count() == 4 and not EntrantMember.objects.exists()
    rows, _ = parse_link_lines("101", numbered=False)
    with pytest.raises(ClubError, match="line 1: a team needs 2 member numbers"):
        services.register_from_members(by=organiser, club=club, tournament=pairs_event, rows=rows)


def test_the_page_forms(client, organiser, members, players_event):
    client.force_login(organiser)
    url = reverse("clubs:event_links", args=["rivertown", players_event.slug])
    page = client.post(url, {"form": "register", "register-lines": "101\n102"})
    assert page.status_code == 302
    assert seats(players_event)[5] == {1: "101"}
    page = client.post(url, {"form": "many", "many-lines": "1, 103\n2, 103"})
    assert page.status_code == 400 and b"line 2: Cy Smith (103) is also on line 1" in page.content
    assert seats(players_event)[1] == {}


def member_queries(queries) -> int:
    return sum('FROM "clubs_member"' in query["sql"] for query in queries)


def test_registering_reads_the_members_in_one_query(club, organiser, pairs_event):
    for n in range(201, 229):
        services.add_member(by=organiser, club=club, number=str(n), name=f"Player {n}")
    for lines in ("201 202\n203 204", "\n".join(f"{n} {n + 1}" for n in range(205, 229, 2))):
        rows, _ = parse_link_lines(lines, numbered=False)
        with CaptureQueriesContext(connection) as queries:
            services.register_from_members(
                by=organiser, club=club, tournament=pairs_event, rows=rows
            )
        assert member_queries(queries) == 1, [q["sql"] for q in queries]
    assert len(seats(pairs_event)) == 4 + 2 + 12
    assert seats(pairs_event)[18] == {1: "227", 2: "228"}
