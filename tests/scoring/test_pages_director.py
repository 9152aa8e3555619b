"""The director's pages: organisers only, every action through a form and the services."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring import services, states
from scoring.models import Result, Review, Submission
from tests.scoring.conftest import GAM_MADE, new_id
from tests.tournaments.factories import UserFactory
from tournaments.models import ActionLog, Status


def board_args(cup, round_=1, table=1):
    return [cup.tournament.slug, cup.match(round_, table).pk, 1]


def director_urls(cup) -> list[tuple[str, str]]:
    """Every director URL with the method it answers."""
    board = board_args(cup)
    return [
        ("get", reverse("scoring:director", args=[cup.tournament.slug])),
        ("get", reverse("scoring:director-board", args=board)),
        ("post", reverse("scoring:director-enter", args=board)),
        ("post", reverse("scoring:director-preview", args=board)),
        ("post", reverse("scoring:director-adjust", args=board)),
        ("post", reverse("scoring:director-erase", args=board)),
    ]


def state_of(cup, round_=1, table=1) -> str:
    match = cup.match(round_, table)
    return services.board_state(match, services.board_of(match, 1)).state


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client


def test_anonymous_visitors_are_sent_to_sign_in_everywhere(client, cup):
    for method, url in director_urls(cup):
        for verb in {method, "get"}:
            response = getattr(client, verb)(url)
            assert response.status_code == 302, (verb, url)
            assert response.url.startswith(reverse("login")), url
    assert Review.objects.count() == 0 and Result.objects.count() == 0


def test_signed_in_players_get_403_everywhere(client, cup):
    client.force_login(UserFactory())
    bodies = {
        "ns": "10",
        "ew": "-10",
        "reason": "slow play",
        "calls": "N:P E:P S:P W:P",
        "client_id": new_id(),
    }
    for method, url in director_urls(cup):
        for verb in {method, "get"}:
            response = getattr(client, verb)(url, bodies if verb == "post" else None)
            assert response.status_code == 403, (verb, url)
    assert Review.objects.count() == 0 and Result.objects.count() == 0


def test_actions_answer_post_only(td, cup):
    for method, url in director_urls(cup):
        if method == "post":
            assert td.get(url).status_code == 405


def test_the_overview_lists_every_board_with_disputed_first(td, cup):
    match = cup.match(2, 2)
    services.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        reason="revoke at trick 3",
        client_id=new_id(),
    )
    response = td.get(reverse("scoring:director", args=[cup.tournament.slug]))
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("R1 · T1 · B1") == 1 and "R2 · T2 · B1" in html
    assert html.index("R2 · T2 · B1") < html.index("R1 · T1 · B1")
    assert "revoke at trick 3" in html and "Disputed: director called (1)" in html
    only = td.get(reverse("scoring:director", args=[cup.tournament.slug]), {"state": "disputed"})
    assert "R2 · T2 · B1" in only.content.decode()
    assert "R1 · T1 · B1" not in only.content.decode()
    round1 = td.get(reverse("scoring:director", args=[cup.tournament.slug]), {"round": "1"})
    assert "R2 · T2" not in round1.content.decode() and "R1 · T2 · B1" in round1.content.decode()


def test_the_board_page_shows_the_whole_history(td, cup):
    match = cup.match(1, 1)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
        remote_addr="10.0.0.7",
    )
    services.reject_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        reason="we took six",
        client_id=new_id(),
        remote_addr="10.0.0.8",
    )
    html = td.get(reverse("scoring:director-board", args=board_args(cup))).content.decode()
    assert f"Entry {entry.pk}" in html and "by North (team 1)" in html and "10.0.0.7" in html
    assert "Rejected by East" in html and "we took six" in html and "10.0.0.8" in html
    assert "Returned to North" in html
    # The bidding box starts from the entry to correct.
    draft = html.split('id="draft-director-entry" type="application/json">')[1].split("<")[0]
    assert json.loads(draft)["auctions"] == [["N:G", "E:P", "S:P", "W:P"]]


def test_adjust_changes_the_state_and_is_logged(td, cup):
    url = reverse("scoring:director-adjust", args=board_args(cup))
    response = td.post(url, {"ns": "50", "ew": "-50", "reason": "slow play"})
    assert response.status_code == 302
    assert response.url == reverse("scoring:director-board", args=board_args(cup))
    assert state_of(cup) == states.ADJUSTED
    result = Result.objects.get(current=True)
    assert (result.kind, result.north_result, result.east_result) == ("adjusted", 50, -50)
    assert ActionLog.objects.filter(action="adjust").count() == 1
    page = td.get(response.url).content.decode()
    assert "Adjusted result stored." in page and "slow play" in page


def test_enter_through_the_bidding_box_form(td, cup):
    """The page runs North's bidding box; saving posts the facts it built in record_json."""
    url = reverse("scoring:director-enter", args=board_args(cup))
    facts = {
        "auctions": [["N:G", "E:P", "S:P", "W:P"]],
        "trump": "fire",
        "double": "x",
        "tricks": {"NS": 10, "EW": 5},
    }
    response = td.post(
        url,
        {"client_id": new_id(), "record_json": json.dumps(facts), "reason": "phone broke"},
    )
    assert response.status_code == 302
    result = Result.objects.get(current=True)
    assert (result.kind, result.north_result, result.east_result) == ("director", 42, -42)
    assert state_of(cup) == states.CONFIRMED
    assert Submission.objects.get().record["double"] == "x"
    assert ActionLog.objects.filter(action="director_entry").count() == 1


def test_the_board_page_runs_the_bidding_box_from_norths_entry(td, cup):
    match = cup.match(1, 1)
    services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    page = td.get(reverse("scoring:director-board", args=board_args(cup))).content.decode()
    assert "games/pymtheg/entry.js" in page and "scorer.js" in page
    assert 'name="calls"' not in page and "whole entry as JSON" not in page  # nothing typed
    config = json.loads(page.split('id="scorer-config" type="application/json">')[1].split("<")[0])
    assert config["director"] is True and config["opening"] in "NESW"
    draft = page.split('id="draft-director-entry" type="application/json">')[1].split("<")[0]
    assert json.loads(draft)["auctions"] == GAM_MADE["auctions"]


def test_enter_as_json_and_a_resent_form_stores_once(td, cup):
    url = reverse("scoring:director-enter", args=board_args(cup))
    body = {"client_id": new_id(), "double": "none", "record_json": json.dumps(GAM_MADE)}
    assert td.post(url, body).status_code == 302
    assert td.post(url, body).status_code == 302  # the same form sent twice
    assert Submission.objects.count() == 1 and Result.objects.get(current=True).north_result == 21


@pytest.mark.parametrize(
    ("body", "field_text"),
    [
        ({"record_json": json.dumps({"auctions": [["N:G", "E:G+2"]]})}, "must be G+1"),
        (
            {
                "record_json": json.dumps(
                    {
                        "auctions": [["N:G", "E:P", "S:P", "W:P"]],
                        "trump": "fire",
                        "tricks": {"NS": 16, "EW": 0},
                    }
                )
            },
            "tricks",
        ),
        ({}, "Enter the result in the entry above"),
        ({"record_json": "{not json"}, "not valid JSON"),
        ({"record_json": "[1, 2]"}, "must be a JSON object"),
        ({"record_json": json.dumps({"auctions": [["N:G"]], "score": 5})}, "not entered by"),
    ],
)
def test_bad_entries_show_an_error_and_store_nothing(td, cup, body, field_text):
    url = reverse("scoring:director-enter", args=board_args(cup))
    response = td.post(url, {"client_id": new_id(), "double": "none", **body})
    assert response.status_code == 400
    html = response.content.decode()
    assert field_text in html and "The result was not saved" in html
    assert Submission.objects.count() == 0 and Result.objects.count() == 0
    assert ActionLog.objects.count() == 0


def test_bad_adjust_and_erase_show_errors_and_store_nothing(td, cup):
    adjust = reverse("scoring:director-adjust", args=board_args(cup))
    no_reason = td.post(adjust, {"ns": "10", "ew": "-10", "reason": " "})
    assert no_reason.status_code == 400 and "This field is required" in no_reason.content.decode()
    not_a_number = td.post(adjust, {"ns": "ten", "ew": "-10", "reason": "x"})
    assert not_a_number.status_code == 400 and "whole number" in not_a_number.content.decode()
    erase = reverse("scoring:director-erase", args=board_args(cup))
    assert td.post(erase, {"reason": ""}).status_code == 400
    assert Review.objects.count() == 0 and Result.objects.count() == 0


def test_erase_takes_the_result_away(td, cup, django_capture_on_commit_callbacks):
    match = cup.match(1, 1)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )
    assert state_of(cup) == states.CONFIRMED
    url = reverse("scoring:director-erase", args=board_args(cup))
    with django_capture_on_commit_callbacks(execute=True):
        response = td.post(url, {"reason": "wrong board played"})
    assert response.status_code == 302
    assert state_of(cup) == states.EMPTY
    assert not Result.objects.filter(current=True).exists()
    assert Result.objects.count() == 1  # kept, no longer current
    page = td.get(response.url).content.decode()
    assert "Result erased" in page and "wrong board played" in page


def test_a_final_tournament_refuses_changes_with_a_message(td, cup):
    cup.tournament.status = Status.FINAL
    cup.tournament.save()
    url = reverse("scoring:director-adjust", args=board_args(cup))
    response = td.post(url, {"ns": "10", "ew": "-10", "reason": "late"})
    assert response.status_code == 400 and "final" in response.content.decode()
    assert Result.objects.count() == 0
    page = td.get(reverse("scoring:director-board", args=board_args(cup))).content.decode()
    assert "reopen it" in page and "Store the adjusted result" not in page


def test_a_board_of_another_tournament_is_not_found(td, cup):
    from tests.scoring.conftest import build_cup

    other = build_cup(slug="other")
    url = reverse("scoring:director-board", args=[cup.tournament.slug, other.match(1, 1).pk, 1])
    assert td.get(url).status_code == 404
    adjust = reverse("scoring:director-adjust", args=[cup.tournament.slug, other.match(1, 1).pk, 1])
    assert td.post(adjust, {"ns": "1", "ew": "-1", "reason": "x"}).status_code == 404
    assert Result.objects.count() == 0


def test_entries_are_described_in_words():
    from engine.games import get_game
    from engine.games.pymtheg.words import call_in_words
    from scoring.views.entries import describe_entry

    assert call_in_words("S:G+4/nt") == ("South", "Gâm +4, no trump")
    assert call_in_words("E:p") == ("East", "Pass")
    game = get_game("pymtheg")
    record = {
        "auctions": [["N:P", "E:R", "S:P", "W:P"]],
        "revoke": "N",
        "tricks": {"N": 1, "E": 0, "S": 0, "W": 0},
    }
    described = describe_entry(record, game.score(record), game)
    assert described["auctions"] == [
        ("Auction", [("North", "Pass"), ("East", "Ry"), ("South", "Pass"), ("West", "Pass")])
    ]
    facts = dict(described["facts"])
    assert facts["Revoke"] == "by North: the round ended there"
    assert facts["Double"] == "Not doubled" and "Trump" not in facts
    assert facts["Tricks"].startswith("North 1 · East 0")
    assert described["words"].startswith("East plays Ry")
    assert described["sides"] == [("NS", -150), ("EW", 150)]


def test_the_overview_refreshes_itself_and_counts_open_calls(td, cup):
    page = td.get(reverse("scoring:director", args=[cup.tournament.slug]))
    html = page.content.decode()
    assert "director.js" in html and "data-director-live" in html
    version = html.split('data-version="')[1].split('"')[0]
    live = reverse("scoring:director-fragment", args=[cup.tournament.slug])
    assert td.get(live, {"v": version}).status_code == 204  # nothing changed
    match = cup.match(1, 2)
    services.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        reason="revoke?",
        client_id=new_id(),
    )
    fresh = td.get(live, {"v": version})
    assert fresh.status_code == 200 and fresh["X-Fragment-Version"] != version
    body = fresh.content.decode()
    assert f'data-open-call="Round 1, table {match.table.number}, board 1"' in body
    assert "Round 1: 0 of" in body and "1 director call" in body
    assert td.get(live, {"v": fresh["X-Fragment-Version"]}).status_code == 204
    title = td.get(reverse("scoring:director", args=[cup.tournament.slug])).content.decode()
    assert "<title>(1) Director" in title


def test_round_progress_names_the_tables_still_out(td, cup):
    from scoring.selectors import number_ranges, round_progress

    assert number_ranges([7, 3, 4, 5, 6]) == "3-7"
    assert number_ranges([1, 3, 4]) == "1, 3-4" and number_ranges([]) == ""
    match = cup.match(1, 1)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )
    [first] = round_progress(cup.tournament)
    tables = cup.tournament.tables.count()
    assert (first.round, first.tables_in, first.tables) == (1, 1, tables)
    assert first.missing_text == (f"2-{tables}" if tables > 2 else "2")
    cup.tournament.status = Status.RUNNING
    cup.tournament.save()
    dashboard = td.get(reverse("tournaments:dashboard", args=[cup.tournament.slug]))
    assert f"Round 1: 1 of {tables} tables in; missing {first.missing_text}" in (
        dashboard.content.decode()
    )
