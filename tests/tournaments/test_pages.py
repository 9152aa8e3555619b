"""The organiser's path through the pages: create, teams, draw up, edit, deal, run."""

from __future__ import annotations

import pytest
from django.urls import reverse

from engine.games.pymtheg.cards import Seat, format_deal, seeded_deal
from tournaments import selectors
from tournaments.models import Board, Match, Status, Tournament

pytestmark = pytest.mark.django_db


def url(name: str, *args) -> str:
    return reverse(f"tournaments:{name}", args=args)


def text(response) -> str:
    return response.content.decode()


def test_sign_in_page_and_home_redirect(client):
    response = client.get("/")
    assert response.status_code == 302
    assert response.url == url("list")
    assert client.get(reverse("login")).status_code == 200


def test_create_a_tournament_through_the_form(organiser_client):
    response = organiser_client.post(
        url("create"),
        {
            "name": "Autumn cup",
            "slug": "autumn",
            "tables": 3,
            "ruleset": "manual-2016",
            "direction": "counterclockwise",
            "opening_rule": "rotate",
            "opening_seat": "N",
            "boards_per_table": 1,
            "side_mode": "fixed",
            "ties": "average",
            "all_tricks_bonus": 0,
            "heavy_failure_penalty": 0,
            "illegal_trump_penalty": 500,
        },
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(slug="autumn")
    assert (tournament.direction, tournament.ties, tournament.rules["illegal_trump_penalty"]) == (
        "counterclockwise",
        "average",
        500,
    )
    assert tournament.tables.count() == 3
    assert response.url == url("teams", "autumn")
    assert "Autumn cup" in text(organiser_client.get(url("list")))


def test_create_form_shows_errors(organiser_client, draft):
    response = organiser_client.post(
        url("create"), {"name": "", "slug": draft.slug, "tables": 0, "illegal_trump_penalty": -1}
    )
    assert response.status_code == 200
    page = text(response)
    assert "This field is required" in page
    assert "Tournament with this Slug already exists" in page
    assert Tournament.objects.count() == 1


def test_add_edit_and_remove_entrants(organiser_client, draft):
    response = organiser_client.post(
        url("teams", draft.slug), {"number": "", "name": "Newcomers", "player1": "Ada"}
    )
    assert response.status_code == 302
    assert draft.entrants.get(number=5).name == "Newcomers"
    response = organiser_client.post(url("teams", draft.slug), {"number": 2, "name": "Clash"})
    assert "already used by" in text(response)
    organiser_client.post(
        url("team_edit", draft.slug, 5), {"number": 6, "name": "Renamed", "player1": "Ada"}
    )
    assert draft.entrants.get(number=6).name == "Renamed"
    asked = organiser_client.post(url("team_delete", draft.slug, 6))
    assert "Remove team 6 (Renamed)?" in text(asked)
    assert draft.entrants.filter(number=6).exists(), "nothing is removed before the confirmation"
    organiser_client.post(url("team_delete", draft.slug, 6), {"confirmed": "yes"})
    assert not draft.entrants.filter(number=6).exists()
    page = text(organiser_client.get(url("teams", draft.slug)))
    for entrant in draft.entrants.all():
        assert entrant.access_code in page


def test_close_gaps_button(organiser_client, draft):
    draft.entrants.get(number=2).delete()
    page = text(organiser_client.get(url("teams", draft.slug)))
    assert "missing: 2" in page
    organiser_client.post(url("teams_renumber", draft.slug), {"confirmed": "yes"})
    assert list(draft.entrants.values_list("number", flat=True)) == [1, 2, 3]


def test_draw_up_from_the_schedule_page(organiser_client, draft):
    response = organiser_client.post(
        url("schedule_draw", draft.slug), {"side_mode": "fixed"}, follow=True
    )
    page = text(response)
    assert "Schedule drawn up" in page
    assert "The validator finds no problem" in page
    draft.refresh_from_db()
    assert draft.status == Status.SCHEDULED
    for match in selectors.tournament_matches(draft):
        assert url("match_edit", draft.slug, match.pk) in page


def test_draw_up_refusal_is_shown(organiser_client, draft):
    draft.entrants.get(number=3).delete()
    response = organiser_client.post(
        url("schedule_draw", draft.slug), {"side_mode": "fixed"}, follow=True
    )
    assert "missing: 3" in text(response)
    assert not Match.objects.exists()


def test_hand_edit_refused_and_accepted_with_problems(organiser_client, scheduled):
    match = selectors.tournament_matches(scheduled).get(round=1, table__number=1)
    other = selectors.tournament_matches(scheduled).get(round=1, table__number=2)
    edit = url("match_edit", scheduled.slug, match.pk)
    assert "Change the match of round 1, table 1" in text(organiser_client.get(edit))
    response = organiser_client.post(
        edit,
        {
            "round_number": 1,
            "table_number": 1,
            "ns_number": match.north_entrant.number,
            "ew_number": other.east_entrant.number,
        },
    )
    assert response.status_code == 200
    assert "Not saved" in text(response)
    assert f"team {other.east_entrant.number} already plays in round 1" in text(response)
    # Removing a match is allowed, and the validator's problems are shown prominently.
    response = organiser_client.post(
        url("match_delete", scheduled.slug, match.pk), {"confirmed": "yes"}, follow=True
    )
    page = text(response)
    assert "The schedule now breaks" in page
    assert 'class="problems"' in page
    for problem in selectors.schedule_problems(scheduled):
        assert problem.replace("'", "&#x27;") in page


def test_add_match_form_prefills_round_and_table(organiser_client, scheduled):
    page = text(organiser_client.get(url("match_add", scheduled.slug), {"round": 8, "table": 3}))
    assert 'name="round_number" value="8"' in page
    assert '<option value="3" selected>' in page


def test_deals_page_generate_and_type(organiser_client, draft):
    response = organiser_client.post(
        url("deals_generate", draft.slug), {"seed": "abc"}, follow=True
    )
    assert "2 boards dealt" in text(response)
    deal = format_deal(seeded_deal("typed"), Seat.S)
    response = organiser_client.post(url("deal_edit", draft.slug, 2, 1), {"deal": deal})
    assert response.status_code == 302
    board = Board.objects.get(table__tournament=draft, table__number=2)
    assert board.deal == format_deal(seeded_deal("typed"))
    page = text(organiser_client.get(url("deals", draft.slug)))
    assert board.deal in page
    assert page.count('<figure class="diagram"') == 2


def test_typing_a_bad_deal_shows_the_reason(organiser_client, draft):
    response = organiser_client.post(url("deal_edit", draft.slug, 1, 1), {"deal": "N:123"})
    assert response.status_code == 200
    assert "the deal is not valid" in text(response)
    assert not Board.objects.exists()
    assert organiser_client.get(url("deal_edit", draft.slug, 1, 2)).status_code == 404
    assert organiser_client.get(url("deal_edit", draft.slug, 9, 1)).status_code == 404


def test_start_finalise_reopen_from_the_dashboard(organiser_client, scheduled):
    page = text(organiser_client.get(url("dashboard", scheduled.slug)))
    assert "Start the tournament" in page
    assert "7 of 7 boards dealt" in page
    assert "Getting ready" in page
    organiser_client.post(url("start", scheduled.slug))
    scheduled.refresh_from_db()
    assert scheduled.status == Status.RUNNING
    page = text(organiser_client.get(url("dashboard", scheduled.slug)))
    assert "Set-up" in page and "Getting ready" not in page
    page = text(organiser_client.get(url("finalise", scheduled.slug)))
    assert "49 results missing" in page
    assert "Round 1: " in page and 'href="/tournaments/seven/director/' in page
    response = organiser_client.post(url("finalise", scheduled.slug))
    assert "49 results missing: finalise anyway, with a reason, or settle them" in text(response)
    response = organiser_client.post(url("finalise", scheduled.slug), {"anyway": "on"})
    assert "give the reason for finalising anyway" in text(response)
    scheduled.refresh_from_db()
    assert scheduled.status == Status.RUNNING
    organiser_client.post(
        url("finalise", scheduled.slug), {"anyway": "on", "reason": "The hall closes"}
    )
    scheduled.refresh_from_db()
    assert scheduled.status == Status.FINAL
    log = text(organiser_client.get(url("log", scheduled.slug)))
    assert "Approved the standings as final with 49 results missing: The hall closes" in log
    response = organiser_client.post(url("reopen", scheduled.slug), {"reason": ""})
    assert "This field is required" in text(response)
    organiser_client.post(url("reopen", scheduled.slug), {"reason": "Wrong score at table 3"})
    scheduled.refresh_from_db()
    assert scheduled.status == Status.RUNNING
    log = text(organiser_client.get(url("log", scheduled.slug)))
    assert "Reopened the tournament: Wrong score at table 3" in log


def test_start_with_problems_asks_for_confirmation(organiser_client, scheduled):
    Match.objects.filter(table__tournament=scheduled, round=1).first().delete()
    page = text(organiser_client.get(url("dashboard", scheduled.slug)))
    assert "The schedule breaks" in page
    assert "accept_problems" in page
    response = organiser_client.post(url("start", scheduled.slug), follow=True)
    assert "confirm starting anyway" in text(response)
    organiser_client.post(url("start", scheduled.slug), {"accept_problems": "on"})
    scheduled.refresh_from_db()
    assert scheduled.status == Status.RUNNING


def test_disqualify_and_reinstate_from_the_entrants_page(organiser_client, scheduled):
    response = organiser_client.post(
        url("team_disqualify", scheduled.slug, 4), {"reason": "Undeclared signals"}
    )
    assert response.status_code == 302
    page = text(organiser_client.get(url("teams", scheduled.slug)))
    assert "Undeclared signals" in page
    assert "disqualified" in page
    organiser_client.post(url("team_reinstate", scheduled.slug, 4))
    assert not scheduled.entrants.get(number=4).is_disqualified


def test_settings_page_disables_what_cannot_change(organiser_client, scheduled):
    page = text(organiser_client.get(url("settings", scheduled.slug)))
    assert 'name="boards_per_table"' in page
    assert "disabled" in page.split('name="boards_per_table"')[1].split(">")[0]
    response = organiser_client.post(
        url("settings", scheduled.slug),
        {
            "name": "Renamed cup",
            "ruleset": "rules-1709",
            "direction": "clockwise",
            "opening_rule": "fixed",
            "opening_seat": "W",
            "ties": "max",
            "all_tricks_bonus": 10,
            "heavy_failure_penalty": 0,
            "illegal_trump_penalty": 0,
            "boards_per_table": 5,  # disabled: ignored
            "tables": 1,  # disabled: ignored
        },
    )
    assert response.status_code == 302
    scheduled.refresh_from_db()
    assert (
        scheduled.name,
        scheduled.rules["ruleset"],
        scheduled.rules["opening_seat"],
        scheduled.ties,
    ) == (
        "Renamed cup",
        "rules-1709",
        "W",
        "max",
    )
    assert scheduled.boards_per_table == 1
    assert scheduled.tables.count() == 7


def test_table_labels(organiser_client, draft):
    organiser_client.post(url("tables", draft.slug), {"table_1": "Window", "table_2": ""})
    assert list(draft.tables.values_list("label", flat=True)) == ["Window", ""]
    assert "Table 1 (Window)" in text(organiser_client.get(url("deals", draft.slug)))


def test_unknown_tournament_is_404(organiser_client):
    assert organiser_client.get(url("dashboard", "nope")).status_code == 404


def test_a_new_access_code_asks_first_and_says_the_card_stops_working(organiser_client, draft):
    entrant = draft.entrants.get(number=2)
    old = entrant.access_code
    asked = text(organiser_client.post(url("team_new_code", draft.slug, 2)))
    assert "A new access code for team 2" in asked
    assert "printed route card stop working" in asked
    assert 'name="confirmed" value="yes"' in asked
    entrant.refresh_from_db()
    assert entrant.access_code == old, "nothing changes before the confirmation"
    organiser_client.post(url("team_new_code", draft.slug, 2), {"confirmed": "yes"})
    entrant.refresh_from_db()
    assert entrant.access_code != old


def test_clearing_the_schedule_and_dealing_again_ask_first(organiser_client, scheduled):
    asked = text(organiser_client.post(url("schedule_clear", scheduled.slug)))
    assert "Clear the whole schedule?" in asked
    assert Match.objects.filter(table__tournament=scheduled).exists()
    deals = list(Board.objects.filter(table__tournament=scheduled).values_list("deal", flat=True))
    asked = text(
        organiser_client.post(url("deals_generate", scheduled.slug), {"seed": "x", "replace": "on"})
    )
    assert "Deal every board again?" in asked
    assert 'name="seed" value="x"' in asked and 'name="replace" value="on"' in asked
    again = Board.objects.filter(table__tournament=scheduled).values_list("deal", flat=True)
    assert list(again) == deals
    organiser_client.post(url("schedule_clear", scheduled.slug), {"confirmed": "yes"})
    assert not Match.objects.filter(table__tournament=scheduled).exists()


def test_the_web_address_is_made_from_the_name_when_left_empty(organiser_client):
    form = text(organiser_client.get(url("create")))
    assert "Web address" in form and "/t/&lt;this&gt;/" in form
    fields = {
        "tables": 2,
        "boards_per_table": 1,
        "side_mode": "fixed",
        "ties": "min",
        "ruleset": "manual-2016",
        "direction": "clockwise",
        "opening_rule": "fixed",
        "opening_seat": "N",
        "all_tricks_bonus": 0,
        "heavy_failure_penalty": 0,
        "illegal_trump_penalty": 0,
    }
    for _ in range(2):
        response = organiser_client.post(
            url("create"), {"name": "Club night, 3 May", "slug": "", **fields}
        )
        assert response.status_code == 302, text(response)
    slugs = set(Tournament.objects.values_list("slug", flat=True))
    assert {"club-night-3-may", "club-night-3-may-2"} <= slugs


def test_every_kind_of_page_has_the_favicon(client, organiser_client, draft):
    for page in (
        client.get(url("list"), follow=True),
        organiser_client.get(url("dashboard", draft.slug)),
        organiser_client.get(url("print_routes", draft.slug)),
    ):
        assert 'rel="icon" href="/static/favicon.svg"' in text(page)
    found = client.get("/favicon.ico")
    assert found.status_code == 301 and found["Location"] == "/static/favicon.svg"


def test_the_action_log_shows_what_changed_as_old_and_new_values(organiser_client, scheduled):
    organiser_client.post(url("start", scheduled.slug))
    log = text(organiser_client.get(url("log", scheduled.slug)))
    assert 'Status: <span class="old">scheduled</span> → <span class="new">running</span>' in log
    assert "{&#x27;status&#x27;" not in log  # no raw dictionaries


def test_log_changes_words():
    changes = selectors.log_changes(
        {"name": "Old", "ties": "min", "teams": [1, 2]},
        {"name": "New", "ties": "min", "final": True, "teams": []},
    )
    assert [(c.label, c.old, c.new) for c in changes] == [
        ("Name", "Old", "New"),
        ("Teams", "1, 2", "—"),
        ("Final", "—", "yes"),
    ]
    assert selectors.log_changes(None, None) == []
    [long] = selectors.log_changes(None, {"reason": "x" * 400})
    assert len(long.new) == 160 and long.new.endswith("…")


def test_the_list_counts_entrants_and_tables_and_the_dashboard_names_number_gaps(
    organiser, organiser_client, draft
):
    from tournaments import services

    listed = text(organiser_client.get(url("list")))
    row = listed[listed.index(draft.name) :].split("</tr>", 1)[0]
    assert [cell.split("</td>")[0] for cell in row.split("<td>")[2:4]] == ["4", "2"]
    services.delete_entrant(by=organiser, entrant=draft.entrants.get(number=2))
    dashboard = text(organiser_client.get(url("dashboard", draft.slug)))
    assert "numbers have gaps (2)" in dashboard
