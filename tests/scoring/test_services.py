"""North enters, East checks, the director rules: the whole cycle through the services."""

import pytest
from django.db import IntegrityError, transaction

from scoring import services, states
from scoring.errors import InvalidEntry, NotAllowed, NotFound, WrongState
from scoring.models import Result, Review, StandingsState, Submission
from tests.scoring.conftest import GAM_MADE, RY_LOST, new_id
from tournaments.models import ActionLog, Status


def submit(cup, round_, table, facts=GAM_MADE, entrant=None, client_id=None):
    match = cup.match(round_, table)
    return services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=entrant or match.north_entrant,
        facts=facts,
        client_id=client_id or new_id(),
        remote_addr="127.0.0.1",
    )


def accept(cup, round_, table, submission, entrant=None, client_id=None):
    match = cup.match(round_, table)
    return services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=entrant or match.east_entrant,
        submission_id=submission.pk,
        client_id=client_id or new_id(),
    )


def reject(cup, round_, table, submission, reason="wrong tricks"):
    match = cup.match(round_, table)
    return services.reject_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=submission.pk,
        reason=reason,
        client_id=new_id(),
    )


def state_of(cup, round_, table):
    match = cup.match(round_, table)
    return services.board_state(match, services.board_of(match, 1))


def test_north_enters_east_accepts_and_standings_follow(cup, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        entry = submit(cup, 1, 1)
    assert entry.score["ns"] == 21 and entry.record["ruleset"] == "manual-2016"
    assert entry.record["opening"] == "N" and entry.remote_addr == "127.0.0.1"
    assert state_of(cup, 1, 1).state == states.AWAITING_EAST
    with django_capture_on_commit_callbacks(execute=True):
        result = accept(cup, 1, 1, entry)
    assert (result.north_result, result.east_result, result.kind) == (21, -21, "confirmed")
    assert state_of(cup, 1, 1).state == states.CONFIRMED
    stored = StandingsState.objects.get(tournament=cup.tournament)
    assert not stored.stale and stored.provisional
    rows = {row["team"]: row for row in stored.standings["standings"]}
    team1, team2 = (str(cup.entrants[0].pk), str(cup.entrants[1].pk))
    assert rows[team1]["matches"] == 1 and rows[team2]["matches"] == 1
    cup.tournament.refresh_from_db()
    assert cup.tournament.status == Status.RUNNING


def test_a_resend_is_never_a_duplicate(cup):
    first = submit(cup, 1, 1, client_id="phone-entry-0001")
    again = submit(cup, 1, 1, client_id="phone-entry-0001")
    assert first.pk == again.pk
    assert Submission.objects.count() == 1
    confirmed = accept(cup, 1, 1, first, client_id="phone-check-0001")
    assert accept(cup, 1, 1, first, client_id="phone-check-0001").pk == confirmed.pk
    assert Result.objects.count() == 1 and Review.objects.count() == 1


def test_only_north_south_enters(cup):
    match = cup.match(1, 1)
    with pytest.raises(NotAllowed, match="North-South"):
        submit(cup, 1, 1, entrant=match.east_entrant)
    with pytest.raises(NotAllowed, match="North-South"):
        submit(cup, 1, 1, entrant=cup.entrants[2])
    assert Submission.objects.count() == 0


def test_only_east_west_confirms(cup):
    entry = submit(cup, 1, 1)
    match = cup.match(1, 1)
    for entrant in (match.north_entrant, cup.entrants[2], cup.entrants[3]):
        with pytest.raises(NotAllowed, match="East-West"):
            accept(cup, 1, 1, entry, entrant=entrant)
    assert Result.objects.count() == 0


def test_a_later_match_cannot_be_entered_first(cup):
    with pytest.raises(NotAllowed, match="round 2 is not played yet"):
        submit(cup, 2, 2)  # team 1's round-2 match before its round-1 match
    submit(cup, 1, 1)
    assert submit(cup, 2, 2).pk  # now round 2 is its current match


def test_rejection_returns_to_north_and_a_second_calls_the_director(cup):
    entry = submit(cup, 1, 1)
    reject(cup, 1, 1, entry)
    board = state_of(cup, 1, 1)
    assert board.state == states.RETURNED and board.last_reason == "wrong tricks"
    corrected = submit(cup, 1, 1, facts=RY_LOST)
    reject(cup, 1, 1, corrected, reason="still wrong")
    assert state_of(cup, 1, 1).state == states.DISPUTED
    with pytest.raises(WrongState, match="with the director"):
        submit(cup, 1, 1)


def test_reject_needs_a_reason(cup):
    entry = submit(cup, 1, 1)
    with pytest.raises(InvalidEntry, match="reason"):
        reject(cup, 1, 1, entry, reason="   ")
    assert Review.objects.count() == 0


def test_east_checks_the_latest_entry_only(cup):
    first = submit(cup, 1, 1)
    submit(cup, 1, 1, facts=RY_LOST)  # North corrects before East looks
    with pytest.raises(WrongState, match="North has changed the entry"):
        accept(cup, 1, 1, first)


def test_nothing_twice_confirmed(cup):
    entry = submit(cup, 1, 1)
    accept(cup, 1, 1, entry)
    with pytest.raises(WrongState):
        accept(cup, 1, 1, entry)
    with pytest.raises(WrongState, match="already has a confirmed result"):
        submit(cup, 1, 1)


def test_database_allows_one_current_result_per_board(cup):
    entry = submit(cup, 1, 1)
    result = accept(cup, 1, 1, entry)
    review = Review.objects.create(
        match=result.match, board=result.board, action="adjust", reason="test"
    )
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(
            match=result.match,
            board=result.board,
            kind="adjusted",
            review=review,
            north_result=0,
            east_result=0,
        )


def test_bad_entries_store_nothing(cup):
    bad = [
        ({"auctions": [["N:G", "E:G+2"]]}, "auctions[0]"),
        ({**GAM_MADE, "tricks": {"NS": 10, "EW": 6}}, "tricks"),
        ({**GAM_MADE, "ruleset": "rules-1709"}, "ruleset"),
        ({**GAM_MADE, "opening": "E"}, "opening"),
        ("garbage", "record"),
    ]
    for facts, field in bad:
        with pytest.raises(InvalidEntry) as caught:
            submit(cup, 1, 1, facts=facts)
        assert caught.value.field == field
    assert Submission.objects.count() == 0


def test_unknown_match_and_board(cup):
    entrant = cup.entrants[0]
    with pytest.raises(NotFound):
        services.submit_entry(
            match_id=999999, board_number=1, entrant=entrant, facts=GAM_MADE, client_id=new_id()
        )
    with pytest.raises(NotFound, match="no board 2"):
        services.submit_entry(
            match_id=cup.match(1, 1).pk,
            board_number=2,
            entrant=entrant,
            facts=GAM_MADE,
            client_id=new_id(),
        )


def test_final_tournament_refuses_entries(cup):
    cup.tournament.status = Status.FINAL
    cup.tournament.save()
    with pytest.raises(WrongState, match="final"):
        submit(cup, 1, 1)


def test_director_adjusts_erases_and_enters_with_history_kept(cup, director):
    match = cup.match(1, 1)
    entry = submit(cup, 1, 1)
    accept(cup, 1, 1, entry)
    adjusted = services.director_adjust(
        match_id=match.pk, board_number=1, user=director, ns=50, ew=-30, reason="slow play"
    )
    assert state_of(cup, 1, 1).state == states.ADJUSTED
    assert Result.objects.filter(match=match, current=True).get().pk == adjusted.pk
    services.director_erase(match_id=match.pk, board_number=1, user=director, reason="misboard")
    assert state_of(cup, 1, 1).state == states.EMPTY
    assert not Result.objects.filter(match=match, current=True).exists()
    result = services.director_enter_result(
        match_id=match.pk, board_number=1, user=director, facts=RY_LOST, client_id=new_id()
    )
    assert (result.north_result, result.kind) == (150, "director")
    assert Result.objects.filter(match=match).count() == 3  # every result kept
    actions = list(
        ActionLog.objects.filter(tournament=cup.tournament).values_list("action", flat=True)
    )
    assert {"adjust", "erase", "director_entry"} <= set(actions)


def test_director_call_by_either_entrant(cup):
    match = cup.match(1, 1)
    services.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        reason="revoke claimed",
        client_id=new_id(),
    )
    assert state_of(cup, 1, 1).state == states.DISPUTED
    with pytest.raises(NotAllowed):
        services.call_director(
            match_id=match.pk,
            board_number=1,
            entrant=cup.entrants[2],
            reason="",
            client_id=new_id(),
        )


def test_rules_1709_passed_out_result(db):
    from tests.scoring.conftest import build_cup

    cup = build_cup(slug="sheet", ruleset="rules-1709")
    entry = submit(cup, 1, 1, facts={"auctions": [["N:P", "E:P", "S:P", "W:P"]]})
    result = accept(cup, 1, 1, entry)
    assert result.passed_out and result.north_result is None


def test_disqualification_and_finalisation_reach_the_stored_standings(
    cup, director, django_capture_on_commit_callbacks
):
    from tournaments import services as organiser

    entry = submit(cup, 1, 1)
    with django_capture_on_commit_callbacks(execute=True):
        accept(cup, 1, 1, entry)
    team1 = cup.entrants[0]
    with django_capture_on_commit_callbacks(execute=True):
        organiser.disqualify_entrant(by=director, entrant=team1, reason="signalling")
    stored = StandingsState.objects.get(tournament=cup.tournament)
    rows = {row["team"]: row for row in stored.standings["standings"]}
    assert rows[str(team1.pk)]["status"] == "disqualified" and rows[str(team1.pk)]["place"] is None
    assert not stored.stale
    with django_capture_on_commit_callbacks(execute=True):
        organiser.finalise_tournament(
            by=director, tournament=cup.tournament, anyway=True, reason="one board played"
        )
    stored.refresh_from_db()
    assert stored.final and not stored.stale
