"""The services: status rules, the schedule and its validator, deals, disqualification, log."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.games.pymtheg.cards import Seat, format_deal, parse_deal, seeded_deal
from tests.tournaments.conftest import make_tournament
from tournaments import selectors, services
from tournaments.imports import EntrantRow
from tournaments.models import ActionLog, Board, Entrant, Match, Status, Tournament
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db


def log_actions(tournament: Tournament) -> list[str]:
    return list(
        tournament.log_entries.order_by("created_at", "id").values_list("action", flat=True)
    )


def set_status(tournament: Tournament, status: str) -> Tournament:
    Tournament.objects.filter(pk=tournament.pk).update(status=status)
    tournament.refresh_from_db()
    return tournament


# --- tournaments --------------------------------------------------------------------------


def test_create_tournament_makes_numbered_tables_and_logs(organiser):
    tournament = services.create_tournament(
        by=organiser,
        name="Spring cup",
        slug="spring",
        tables=3,
        table_labels=["Window"],
        ruleset="rules-1709",
        boards_per_table=2,
        opening_rule="rotate",
    )
    assert tournament.status == Status.DRAFT
    assert list(tournament.tables.values_list("number", "label")) == [
        (1, "Window"),
        (2, ""),
        (3, ""),
    ]
    entry = tournament.log_entries.get()
    assert entry.action == "create_tournament"
    assert entry.user == organiser
    assert entry.actor == organiser.username
    assert entry.after["ruleset"] == "rules-1709"
    assert entry.after["tables"] == 3


def test_create_tournament_reports_every_problem(organiser):
    with pytest.raises(ServiceError) as refused:
        services.create_tournament(
            by=organiser, name="", slug="not a slug", tables=0, ruleset="chess"
        )
    text = " | ".join(refused.value.messages)
    for expected in ("tables", "name", "slug", "ruleset"):
        assert expected in text
    assert not Tournament.objects.exists()
    assert not ActionLog.objects.exists()


def test_table_labels_are_checked(organiser, draft):
    with pytest.raises(ServiceError, match="table 1: the label is longer than 50"):
        services.create_tournament(
            by=organiser, name="Long", slug="long", tables=2, table_labels=["x" * 51]
        )
    with pytest.raises(ServiceError) as refused:
        services.update_table_labels(
            by=organiser, tournament=draft, labels={2: "y" * 51, 9: "Nine"}
        )
    assert refused.value.messages == [
        "there is no table 9",
        "table 2: the label is longer than 50 characters",
    ]
    services.update_table_labels(by=organiser, tournament=draft, labels={2: "  Bar  "})
    assert draft.tables.get(number=2).label == "Bar"
    entry = draft.log_entries.get(action="update_table_labels")
    assert (entry.before, entry.after) == ({"2": ""}, {"2": "Bar"})


def test_create_tournament_refuses_a_taken_slug(organiser, draft):
    with pytest.raises(ServiceError, match="slug"):
        services.create_tournament(by=organiser, name="Again", slug=draft.slug, tables=1)


def test_update_tournament_changes_tables_and_boards_in_draft(organiser, draft):
    services.deal_boards(by=organiser, tournament=draft, seed="s")
    services.update_tournament(
        by=organiser, tournament=draft, changes={"tables": 3, "boards_per_table": 2, "name": "X"}
    )
    draft.refresh_from_db()
    assert draft.name == "X"
    assert list(draft.tables.values_list("number", flat=True)) == [1, 2, 3]
    assert selectors.missing_boards(draft) == [(1, 2), (2, 2), (3, 1), (3, 2)]
    services.update_tournament(
        by=organiser, tournament=draft, changes={"tables": 1, "boards_per_table": 1}
    )
    assert draft.tables.count() == 1
    assert Board.objects.filter(table__tournament=draft).count() == 1
    entry = draft.log_entries.filter(action="update_tournament").first()
    assert entry.before == {"tables": 3, "boards_per_table": 2}
    assert entry.after == {"tables": 1, "boards_per_table": 1}


def test_update_tournament_respects_the_status(organiser, scheduled):
    with pytest.raises(ServiceError, match="boards_per_table: cannot change"):
        services.update_tournament(
            by=organiser, tournament=scheduled, changes={"boards_per_table": 2}
        )
    services.update_tournament(by=organiser, tournament=scheduled, changes={"ties": "average"})
    set_status(scheduled, Status.RUNNING)
    with pytest.raises(ServiceError, match="ruleset"):
        services.update_tournament(
            by=organiser, tournament=scheduled, changes={"ruleset": "rules-1709"}
        )
    set_status(scheduled, Status.FINAL)
    with pytest.raises(ServiceError, match="name"):
        services.update_tournament(by=organiser, tournament=scheduled, changes={"name": "Late"})


def test_update_tournament_with_no_change_writes_nothing(organiser, draft):
    before = ActionLog.objects.count()
    services.update_tournament(by=organiser, tournament=draft, changes={"name": draft.name})
    assert ActionLog.objects.count() == before


# --- teams --------------------------------------------------------------------------------


def test_add_entrant_numbers_after_the_last_and_refuses_taken_numbers(organiser, draft):
    entrant = services.add_entrant(by=organiser, tournament=draft, name="  Fifth  ", player1="A")
    assert (entrant.number, entrant.name) == (5, "Fifth")
    with pytest.raises(ServiceError, match="already used by 'Team 2'"):
        services.add_entrant(by=organiser, tournament=draft, name="Clash", number=2)
    assert "add_team" in log_actions(draft)


def test_entrants_change_only_in_draft_but_can_be_renamed_later(organiser, scheduled):
    with pytest.raises(ServiceError, match="add teams"):
        services.add_entrant(by=organiser, tournament=scheduled, name="Late")
    entrant = scheduled.entrants.get(number=1)
    with pytest.raises(ServiceError, match="remove a team"):
        services.delete_entrant(by=organiser, entrant=entrant)
    with pytest.raises(ServiceError, match="renumber"):
        services.update_entrant(by=organiser, entrant=entrant, name=entrant.name, number=99)
    renamed = services.update_entrant(by=organiser, entrant=entrant, name="Renamed", player1="Zed")
    assert (renamed.number, renamed.name, renamed.player1) == (1, "Renamed", "Zed")


def test_renumber_entrants_closes_gaps_in_order(organiser, draft):
    services.delete_entrant(by=organiser, entrant=draft.entrants.get(number=2))
    services.add_entrant(by=organiser, tournament=draft, name="Nine", number=9)
    moves = services.renumber_entrants(by=organiser, tournament=draft)
    assert moves == {3: 2, 4: 3, 9: 4}
    assert list(draft.entrants.values_list("number", "name")) == [
        (1, "Team 1"),
        (2, "Team 3"),
        (3, "Team 4"),
        (4, "Nine"),
    ]


def test_regenerate_access_code_keeps_the_code_out_of_the_log(organiser, draft):
    entrant = draft.entrants.get(number=1)
    old = entrant.access_code
    new = services.regenerate_access_code(by=organiser, entrant=entrant).access_code
    assert new != old
    entry = draft.log_entries.get(action="regenerate_access_code")
    assert entry.before is None and entry.after is None
    assert old not in entry.summary and new not in entry.summary


def test_import_entrants_is_all_or_nothing(organiser, draft):
    rows = [
        EntrantRow(2, 7, "Seven"),
        EntrantRow(3, 3, "Clash with team 3"),
        EntrantRow(4, None, "Next"),
    ]
    with pytest.raises(ServiceError) as refused:
        services.import_teams(by=organiser, tournament=draft, rows=rows)
    assert refused.value.messages == ["line 3: team number 3 is already used by 'Team 3'"]
    assert draft.entrants.count() == 4
    entrants = services.import_teams(by=organiser, tournament=draft, rows=[rows[0], rows[2]])
    assert [(entrant.number, entrant.name) for entrant in entrants] == [(7, "Seven"), (8, "Next")]
    codes = list(draft.entrants.values_list("access_code", flat=True))
    assert len(set(codes)) == len(codes) == 6


def test_import_entrants_can_replace_the_current_entrants(organiser, draft):
    services.import_teams(
        by=organiser, tournament=draft, rows=[EntrantRow(2, 1, "Only")], replace=True
    )
    assert list(draft.entrants.values_list("number", "name")) == [(1, "Only")]
    entry = draft.log_entries.filter(action="import_teams").first()
    assert entry.before == {"teams": 4}


# --- schedule -----------------------------------------------------------------------------


def test_draw_schedule_fixed_sides_every_entrant_at_every_table(organiser, scheduled):
    matches = list(selectors.tournament_matches(scheduled))
    assert scheduled.status == Status.SCHEDULED
    assert len(matches) == 49
    visits = Counter((m.north_entrant.number, m.table.number) for m in matches) + Counter(
        (m.east_entrant.number, m.table.number) for m in matches
    )
    assert set(visits.values()) == {1}
    assert len(visits) == 14 * 7
    north_entrants = {m.north_entrant.number for m in matches}
    east_entrants = {m.east_entrant.number for m in matches}
    assert not north_entrants & east_entrants  # fixed sides
    pairs = Counter(frozenset((m.north_entrant.number, m.east_entrant.number)) for m in matches)
    assert max(pairs.values()) == 1
    assert selectors.schedule_problems(scheduled) == []
    assert "draw_schedule" in log_actions(scheduled)


def test_draw_schedule_balanced_sides(organiser, draft):
    schedule, problems = services.draw_schedule(
        by=organiser, tournament=draft, side_mode="balanced"
    )
    draft.refresh_from_db()
    assert draft.side_mode == "balanced"
    assert problems == []
    ns_count = Counter(m["ns"] for m in schedule["matches"])
    for entrant in range(1, 5):
        assert abs(ns_count[entrant] - 1) <= 1  # NS at half of its 2 tables, ±1


def test_draw_schedule_again_replaces_the_matches(organiser, scheduled):
    services.draw_schedule(by=organiser, tournament=scheduled)
    assert Match.objects.filter(table__tournament=scheduled).count() == 49


def test_draw_schedule_needs_entrants_numbered_without_gaps(organiser, draft):
    services.delete_entrant(by=organiser, entrant=draft.entrants.get(number=2))
    with pytest.raises(ServiceError, match="missing: 2"):
        services.draw_schedule(by=organiser, tournament=draft)
    empty = make_tournament(by=organiser, entrants=1, slug="tiny")
    with pytest.raises(ServiceError, match="at least 2 teams"):
        services.draw_schedule(by=organiser, tournament=empty)


def test_clear_schedule_goes_back_to_draft(organiser, scheduled):
    services.clear_schedule(by=organiser, tournament=scheduled)
    scheduled.refresh_from_db()
    assert scheduled.status == Status.DRAFT
    assert not Match.objects.filter(table__tournament=scheduled).exists()
    assert services.add_entrant(by=organiser, tournament=scheduled, name="Late").number == 15


def test_save_match_refuses_an_entrant_on_both_sides_in_one_round(organiser, scheduled):
    """The database has one unique constraint per column; the service covers the pair."""
    match = selectors.tournament_matches(scheduled).filter(round=1, table__number=1).get()
    other = selectors.tournament_matches(scheduled).filter(round=1, table__number=2).get()
    with pytest.raises(ServiceError) as refused:
        services.save_match(
            by=organiser,
            tournament=scheduled,
            match=match,
            round_number=1,
            table_number=1,
            ns_number=match.north_entrant.number,
            ew_number=other.north_entrant.number,  # NS at table 2 in round 1 already
        )
    assert refused.value.messages == [
        f"team {other.north_entrant.number} already plays in round 1 (table 2, NS)"
    ]
    match.refresh_from_db()
    assert match.east_entrant != other.north_entrant


def test_save_match_reports_all_hard_problems(organiser, scheduled):
    taken = selectors.tournament_matches(scheduled).filter(round=2, table__number=3).get()
    with pytest.raises(ServiceError) as refused:
        services.save_match(
            by=organiser,
            tournament=scheduled,
            round_number=2,
            table_number=3,
            ns_number=taken.north_entrant.number,
            ew_number=taken.east_entrant.number,
        )
    messages = refused.value.messages
    assert any("table 3 already hosts a match in round 2" in m for m in messages)
    assert any(f"team {taken.north_entrant.number} already plays in round 2" in m for m in messages)
    assert any(f"team {taken.east_entrant.number} already plays in round 2" in m for m in messages)
    with pytest.raises(ServiceError, match="a team cannot play against itself"):
        services.save_match(
            by=organiser,
            tournament=scheduled,
            round_number=8,
            table_number=1,
            ns_number=1,
            ew_number=1,
        )
    with pytest.raises(ServiceError) as refused:
        services.save_match(
            by=organiser,
            tournament=scheduled,
            round_number=20,
            table_number=9,
            ns_number=1,
            ew_number=99,
        )
    assert refused.value.messages == [
        "the round must be from 1 to 8",
        "there is no table 9",
        "there is no team 99",
    ]


def test_save_match_accepts_what_only_the_validator_minds_and_reports_it(organiser, scheduled):
    match = selectors.tournament_matches(scheduled).filter(round=1, table__number=1).get()
    ns, ew = match.north_entrant.number, match.east_entrant.number
    swapped, problems = services.save_match(
        by=organiser,
        tournament=scheduled,
        match=match,
        round_number=1,
        table_number=1,
        ns_number=ew,
        ew_number=ns,
    )
    assert (swapped.north_entrant.number, swapped.east_entrant.number) == (ew, ns)
    assert problems, "swapping sides under fixed sides breaks a rule the validator reports"
    assert problems == selectors.schedule_problems(scheduled)
    entry = scheduled.log_entries.filter(action="edit_match").get()
    assert entry.before == {"round": 1, "table": 1, "ns": ns, "ew": ew}
    assert entry.after == {"round": 1, "table": 1, "ns": ew, "ew": ns}


def test_delete_match_and_add_it_back(organiser, scheduled):
    match = selectors.tournament_matches(scheduled).filter(round=3, table__number=4).get()
    ns, ew = match.north_entrant.number, match.east_entrant.number
    problems = services.delete_match(by=organiser, match=match)
    assert problems  # two teams now miss table 4
    _match, problems = services.save_match(
        by=organiser,
        tournament=scheduled,
        round_number=3,
        table_number=4,
        ns_number=ns,
        ew_number=ew,
    )
    assert problems == []
    assert log_actions(scheduled)[-2:] == ["delete_match", "add_match"]


def test_schedule_cannot_be_edited_in_draft_or_final(organiser, scheduled, draft):
    with pytest.raises(ServiceError, match="edit the schedule"):
        services.save_match(
            by=organiser, tournament=draft, round_number=1, table_number=1, ns_number=1, ew_number=2
        )
    set_status(scheduled, Status.FINAL)
    match = selectors.tournament_matches(scheduled).first()
    with pytest.raises(ServiceError, match="edit the schedule"):
        services.delete_match(by=organiser, match=match)


def test_schedule_data_is_the_engine_format(scheduled):
    data = selectors.schedule_data(scheduled)
    assert (data["teams"], data["tables"], data["rounds"], data["sides"]) == (14, 7, 7, "fixed")
    assert len(data["matches"]) == 49
    assert set(data["matches"][0]) == {"round", "table", "ns", "ew"}
    assert data["byes"] == []
    assert data["max_meetings"] == 1


# --- deals --------------------------------------------------------------------------------


def test_deal_boards_with_a_seed_is_reproducible(organiser, draft):
    other = make_tournament(by=organiser, slug="other")
    assert services.deal_boards(by=organiser, tournament=draft, seed="42") == 2
    services.deal_boards(by=organiser, tournament=other, seed="42")
    deals = list(Board.objects.filter(table__tournament=draft).values_list("deal", flat=True))
    assert deals == list(
        Board.objects.filter(table__tournament=other).values_list("deal", flat=True)
    )
    assert deals[0] == format_deal(seeded_deal("42", 1, 1))
    entry = draft.log_entries.get(action="deal_boards")
    assert entry.after == {"boards_dealt": 2, "seeded": True}
    assert "42" not in str(entry.after)


def test_deal_boards_fills_missing_boards_then_refuses_without_replace(organiser, draft):
    services.set_deal(
        by=organiser,
        tournament=draft,
        table_number=1,
        board_number=1,
        deal_text=format_deal(seeded_deal("typed")),
    )
    assert services.deal_boards(by=organiser, tournament=draft) == 1
    typed = Board.objects.get(table__tournament=draft, table__number=1)
    assert typed.deal == format_deal(seeded_deal("typed"))
    with pytest.raises(ServiceError, match="every board is dealt already"):
        services.deal_boards(by=organiser, tournament=draft)
    assert services.deal_boards(by=organiser, tournament=draft, replace=True) == 2
    typed.refresh_from_db()
    assert typed.deal != format_deal(seeded_deal("typed"))


def test_deals_are_fixed_once_running(organiser, scheduled):
    services.start_tournament(by=organiser, tournament=scheduled)
    with pytest.raises(ServiceError, match="deal the boards"):
        services.deal_boards(by=organiser, tournament=scheduled, replace=True)
    with pytest.raises(ServiceError, match="change a deal"):
        services.set_deal(
            by=organiser,
            tournament=scheduled,
            table_number=1,
            board_number=1,
            deal_text=format_deal(seeded_deal("x")),
        )


def test_set_deal_normalises_to_north_first(organiser, draft):
    deal = seeded_deal("east")
    board = services.set_deal(
        by=organiser,
        tournament=draft,
        table_number=2,
        board_number=1,
        deal_text=format_deal(deal, Seat.E).lower(),
    )
    assert board.deal == format_deal(deal)
    assert board.deal.startswith("N:")
    entry = draft.log_entries.get(action="set_deal")
    assert (entry.before, entry.after) == (None, board.deal)


def test_set_deal_refuses_bad_deals_with_the_engines_reason(organiser, draft):
    text = format_deal(seeded_deal("bad"))
    broken = text[:-1] + ("1" if text[-1] != "1" else "2")  # a card twice, one missing
    with pytest.raises(ServiceError) as refused:
        services.set_deal(
            by=organiser, tournament=draft, table_number=1, board_number=1, deal_text=broken
        )
    assert refused.value.messages[0].startswith("the deal is not valid:")
    with pytest.raises(ServiceError, match="board must be from 1 to 1"):
        services.set_deal(
            by=organiser, tournament=draft, table_number=1, board_number=2, deal_text=text
        )
    with pytest.raises(ServiceError, match="no table 5"):
        services.set_deal(
            by=organiser, tournament=draft, table_number=5, board_number=1, deal_text=text
        )
    assert not Board.objects.filter(table__tournament=draft).exists()
    parse_deal(text)  # the unbroken deal was fine


# --- disqualification and status ----------------------------------------------------------


def test_disqualify_before_and_after_final(organiser, scheduled):
    first, second = scheduled.entrants.get(number=1), scheduled.entrants.get(number=2)
    with pytest.raises(ServiceError, match="reason"):
        services.disqualify_entrant(by=organiser, entrant=first, reason="  ")
    before_final = services.disqualify_entrant(by=organiser, entrant=first, reason="Signals")
    assert before_final.after_final is False
    assert before_final.by == organiser
    with pytest.raises(ServiceError, match="disqualified already"):
        services.disqualify_entrant(by=organiser, entrant=first, reason="Again")
    set_status(scheduled, Status.FINAL)
    after_final = services.disqualify_entrant(by=organiser, entrant=second, reason="Found later")
    assert after_final.after_final is True
    with pytest.raises(ServiceError, match="lift a disqualification"):
        services.reinstate_entrant(by=organiser, entrant=second)


def test_no_disqualification_in_draft_and_reinstating(organiser, draft, scheduled):
    with pytest.raises(ServiceError, match="remove the team instead"):
        services.disqualify_entrant(by=organiser, entrant=draft.entrants.first(), reason="x")
    entrant = scheduled.entrants.get(number=3)
    services.disqualify_entrant(by=organiser, entrant=entrant, reason="Mistake")
    services.reinstate_entrant(by=organiser, entrant=entrant)
    assert not Entrant.objects.get(pk=entrant.pk).is_disqualified
    assert log_actions(scheduled)[-2:] == ["disqualify_team", "reinstate_team"]


def test_start_needs_every_board_dealt(organiser, draft):
    services.draw_schedule(by=organiser, tournament=draft)
    with pytest.raises(ServiceError, match="missing: table 1 board 1, table 2 board 1"):
        services.start_tournament(by=organiser, tournament=draft)


def test_start_with_schedule_problems_needs_confirmation(organiser, scheduled):
    services.delete_match(by=organiser, match=selectors.tournament_matches(scheduled).first())
    with pytest.raises(ServiceError) as refused:
        services.start_tournament(by=organiser, tournament=scheduled)
    assert "confirm starting anyway" in refused.value.messages[0]
    assert len(refused.value.messages) > 1  # the problems themselves follow
    services.start_tournament(by=organiser, tournament=scheduled, accept_problems=True)
    scheduled.refresh_from_db()
    assert scheduled.status == Status.RUNNING
    assert scheduled.log_entries.first().after["schedule_problems"]


def test_status_runs_draft_scheduled_running_final_and_reopens_with_a_reason(organiser, draft):
    with pytest.raises(ServiceError, match="start"):
        services.start_tournament(by=organiser, tournament=draft)
    with pytest.raises(ServiceError, match="finalise"):
        services.finalise_tournament(by=organiser, tournament=draft)
    services.draw_schedule(by=organiser, tournament=draft)
    services.deal_boards(by=organiser, tournament=draft)
    services.start_tournament(by=organiser, tournament=draft)
    with pytest.raises(ServiceError, match="reopen"):
        services.reopen_tournament(by=organiser, tournament=draft, reason="why")
    with pytest.raises(ServiceError, match=r"^4 results missing: finalise anyway"):
        services.finalise_tournament(by=organiser, tournament=draft)
    with pytest.raises(ServiceError, match="give the reason for finalising anyway"):
        services.finalise_tournament(by=organiser, tournament=draft, anyway=True, reason=" ")
    draft.refresh_from_db()
    assert draft.status == Status.RUNNING
    services.finalise_tournament(by=organiser, tournament=draft, anyway=True, reason="Late")
    finalised = draft.log_entries.first()
    assert finalised.summary == "Approved the standings as final with 4 results missing: Late"
    assert len(finalised.after["missing"]) == 4
    assert finalised.after["missing"][0] == "round 1, table 1, board 1"
    draft.refresh_from_db()
    assert draft.status == Status.FINAL
    with pytest.raises(ServiceError, match="reason"):
        services.reopen_tournament(by=organiser, tournament=draft, reason="")
    services.reopen_tournament(by=organiser, tournament=draft, reason="Score typo at table 2")
    draft.refresh_from_db()
    assert draft.status == Status.RUNNING
    entry = draft.log_entries.first()
    assert entry.action == "reopen_tournament"
    assert entry.before == {"status": "final"}
    assert entry.after == {"status": "running", "reason": "Score typo at table 2"}
    assert log_actions(draft)[-4:] == [
        "deal_boards",
        "start_tournament",
        "finalise_tournament",
        "reopen_tournament",
    ]


def test_command_line_actions_are_logged_without_a_user(draft):
    services.add_entrant(by=None, tournament=draft, name="Scripted")
    entry = draft.log_entries.first()
    assert (entry.user, entry.actor) == (None, "command line")


def test_delete_tournament_keeps_a_log_entry(organiser, draft):
    services.delete_tournament(by=organiser, tournament=draft)
    assert not Tournament.objects.exists()
    entry = ActionLog.objects.get(action="delete_tournament")
    assert entry.tournament_slug == "cup"
    assert entry.before["teams"] == 4
    # Earlier entries survive, detached from the deleted tournament.
    assert ActionLog.objects.filter(tournament_slug="cup", tournament=None).count() > 1
