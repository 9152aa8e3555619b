"""Entrants linked to members: a pair to two, a player to one, a guest unless linked, a
member once an event; merging two members, logged and undoable."""

from __future__ import annotations

import pytest

from clubs import selectors, services
from clubs.models import ClubEvent, EntrantMember, Member
from clubs.services import ClubError, NotAllowed
from tournaments.models import ActionLog


def entrant(tournament, number):
    return tournament.entrants.get(number=number)


def seats(tournament):
    return {
        row.entrant.number: {seat: m.number for seat, m in row.members.items()}
        for row in selectors.entrant_links(tournament)
    }


def test_a_pair_links_to_two_members_and_a_blank_stays_a_guest(
    club, organiser, members, pairs_event
):
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101", "102"]
    )
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(pairs_event, 2), numbers=["", "103"]
    )
    assert seats(pairs_event) == {1: {1: "101", 2: "102"}, 2: {2: "103"}, 3: {}, 4: {}}
    assert ClubEvent.objects.get(tournament=pairs_event).club == club


def test_a_player_links_to_one_member(club, organiser, members, players_event):
    with pytest.raises(ClubError, match="has 1 player"):
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(players_event, 1), numbers=["101", "102"]
        )
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(players_event, 1), numbers=["101"]
    )
    assert seats(players_event)[1] == {1: "101"}


def test_a_member_twice_in_one_event_is_refused_and_nothing_stored(
    club, organiser, members, pairs_event
):
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101", "102"]
    )
    with pytest.raises(ClubError) as refused:
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(pairs_event, 2), numbers=["103", "101"]
        )
    assert refused.value.messages == [
        "Ann Smith (101) already plays in team 1 'Team 1' of this event"
    ]
    assert seats(pairs_event)[2] == {}
    with pytest.raises(ClubError, match="already player 1"):
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(pairs_event, 3), numbers=["104", "104"]
        )
    assert seats(pairs_event)[3] == {}


def test_an_unknown_number_is_named(club, organiser, members, pairs_event):
    with pytest.raises(ClubError, match="player 2: no member numbered 999 in Rivertown Club"):
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101", "999"]
        )
    assert not EntrantMember.objects.exists()


def test_another_clubs_event_and_members_are_out_of_reach(
    club, organiser, members, pairs_event, rival
):
    services.link_entrant(by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101"])
    hillside = selectors.clubs_of(rival)[0]
    services.add_member(by=rival, club=hillside, number="101", name="Hill Person")
    with pytest.raises(ClubError, match="event of another club"):
        services.link_entrant(
            by=rival, club=hillside, entrant=entrant(pairs_event, 2), numbers=["101"]
        )
    with pytest.raises(NotAllowed):
        services.link_entrant(by=rival, club=club, entrant=entrant(pairs_event, 2), numbers=["102"])


def test_relinking_replaces_the_entrants_links(club, organiser, members, pairs_event):
    linked = entrant(pairs_event, 1)
    services.link_entrant(by=organiser, club=club, entrant=linked, numbers=["101", "102"])
    services.link_entrant(by=organiser, club=club, entrant=linked, numbers=["102", ""])
    assert seats(pairs_event)[1] == {1: "102"}
    assert ActionLog.objects.filter(action="link_entrant", tournament=pairs_event).count() == 2


def test_merge_moves_the_links_and_undo_gives_them_back(
    club, organiser, members, pairs_event, players_event
):
    ann, cy = members[0], members[2]
    services.link_entrant(by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["103"])
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(players_event, 2), numbers=["101"]
    )
    merge = services.merge_members(by=organiser, kept=ann, merged=cy)
    assert seats(pairs_event)[1] == {1: "101"}
    cy.refresh_from_db()
    assert cy.merged_into == ann and not cy.active
    assert cy not in selectors.members_of(club)
    assert ActionLog.objects.filter(action="merge_members").exists()
    services.undo_merge(by=organiser, merge=merge)
    assert seats(pairs_event)[1] == {1: "103"} and seats(players_event)[2] == {1: "101"}
    cy.refresh_from_db()
    assert cy.merged_into is None and cy.active
    with pytest.raises(ClubError, match="already undone"):
        services.undo_merge(by=organiser, merge=merge)
    assert ActionLog.objects.filter(action="undo_merge").count() == 1


def test_two_members_of_one_event_are_not_merged(club, organiser, members, pairs_event):
    ann, bob = members[:2]
    services.link_entrant(
        by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101", "102"]
    )
    with pytest.raises(ClubError, match="both played in Cup monday"):
        services.merge_members(by=organiser, kept=ann, merged=bob)
    assert Member.objects.get(pk=bob.pk).merged_into is None
    assert not ActionLog.objects.filter(action="merge_members").exists()


def test_a_merged_member_cannot_be_linked(club, organiser, members, pairs_event):
    services.merge_members(by=organiser, kept=members[0], merged=members[1])
    with pytest.raises(ClubError, match="merged into another member"):
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["102"]
        )


def test_merges_are_undone_latest_first(club, organiser, members, pairs_event):
    ann, bob, cy = members[:3]
    services.link_entrant(by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["103"])
    first = services.merge_members(by=organiser, kept=bob, merged=cy)
    second = services.merge_members(by=organiser, kept=ann, merged=bob)
    assert seats(pairs_event)[1] == {1: "101"}
    with pytest.raises(ClubError, match="undo that merge first"):
        services.undo_merge(by=organiser, merge=first)
    services.undo_merge(by=organiser, merge=second)
    services.undo_merge(by=organiser, merge=first)
    assert seats(pairs_event)[1] == {1: "103"}


def test_a_link_made_meanwhile_is_refused_by_the_database_and_nothing_changes(
    club, organiser, members, pairs_event, monkeypatch
):
    services.link_entrant(by=organiser, club=club, entrant=entrant(pairs_event, 1), numbers=["101"])
    services.link_entrant(by=organiser, club=club, entrant=entrant(pairs_event, 2), numbers=["102"])
    monkeypatch.setattr(services, "_already_linked", lambda entrant, chosen: [])  # the race
    with pytest.raises(ClubError, match="linked to this event meanwhile"):
        services.link_entrant(
            by=organiser, club=club, entrant=entrant(pairs_event, 2), numbers=["101"]
        )
    assert seats(pairs_event)[1] == {1: "101"} and seats(pairs_event)[2] == {1: "102"}
