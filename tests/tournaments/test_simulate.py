"""Simulated play: every result is a real, legal play of the table's deal, entered and checked
through the scorers' services; the dispute path; ``manage.py simulate``."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from engine.games.pymtheg import simulate as pymtheg_simulate
from engine.games.pymtheg.auction import run_auction
from engine.games.pymtheg.cards import Seat, seeded_deal
from engine.games.pymtheg.play import check_play_record
from engine.games.pymtheg.records import read_board_record
from engine.games.pymtheg.scoring import score_record
from operations.management.commands.simulate import describe
from operations.simulation import (
    SimulationError,
    board_rng,
    north_facts,
    simulate_tournament,
)
from scoring import services as scoring
from scoring.models import Result, Review, StandingsState, Submission
from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.models import ActionLog, Match, Status


def play_board_of(match, board, seed: str) -> pymtheg_simulate.PlayedBoard:
    """The play behind the simulation's record of a Pymtheg board (the same seed, the same
    random source): its contract, declarer, trump and cards, for the checks below."""
    tournament = match.table.tournament
    return pymtheg_simulate.play_board(
        board.parsed(),
        opening=tournament.opening_seat_for(match.table.number),
        direction=tournament.direction,
        ruleset=tournament.rules["ruleset"],
        rng=board_rng(seed, match.round, match.table.number, board.number),
    )


pytestmark = pytest.mark.django_db


def small_cup(slug: str = "small", **settings):
    """6 teams at 3 tables: 3 rounds of 3 matches, every board dealt."""
    tournament = make_tournament(entrants=6, tables=3, slug=slug, **settings)
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed="simulation-tests")
    tournament.refresh_from_db()
    return tournament


def current_results(tournament, round_number: int) -> list[Result]:
    return list(
        Result.objects.filter(
            match__table__tournament=tournament, match__round=round_number, current=True
        ).select_related("match__table", "board", "submission")
    )


@pytest.mark.parametrize(
    "chosen",
    [
        {},
        {
            "ruleset": "rules-1709",
            "direction": "counterclockwise",
            "opening_rule": "rotate",
            "boards_per_table": 2,
        },
    ],
    ids=["defaults", "rules-1709-rotating-two-boards"],
)
def test_every_simulated_result_is_a_legal_play_of_the_deal(chosen):
    cup = small_cup(**chosen)
    boards = cup.boards_per_table
    report = simulate_tournament(cup, rounds=1, seed="real-play", dispute=True)
    assert report.rounds == [1]
    assert (report.matches, report.boards) == (3, 3 * boards)
    results = current_results(cup, 1)
    assert len(results) == 3 * boards
    for result in results:
        match, board = result.match, result.board
        played = play_board_of(match, board, "real-play")
        record = result.submission.record
        assert {k: record[k] for k in played.facts} == played.facts
        if played.passed_out:
            assert "tricks" not in record
            continue
        # Replay the card play with the engine: every card legal, and the tricks it gives are
        # the tricks the scorers entered.
        check = check_play_record(
            board.parsed(),
            played.trump,
            cup.opening_seat_for(match.table.number),
            cup.direction,
            cup.rules["ruleset"],
            played.play.record,
            contract=played.contract,
            declarer=played.declarer,
        )
        assert check.revoke is None and not check.illegal_trumps
        assert {seat.name: n for seat, n in check.tricks_per_seat.items()} == record["tricks"]
        total = sum(record["tricks"].values())
        assert total == 15 or (played.contract.startswith("R") and check.ry_lost)
        score = score_record(record).as_dict()
        assert (result.north_result, result.east_result) == (score["ns"], score["ew"])


def test_norths_simulated_entry_is_what_the_play_gives_at_every_table_and_round():
    cup = small_cup(opening_rule="rotate")
    for match in Match.objects.filter(table__tournament=cup).select_related("table"):
        board = match.table.boards.get()
        assert north_facts(match, board, "same") == play_board_of(match, board, "same").facts


def test_the_dispute_ends_with_the_director_and_keeps_its_history():
    cup = small_cup()
    report = simulate_tournament(cup, rounds=1, seed="dispute", dispute=True)
    dispute = report.dispute
    assert dispute is not None and dispute.rejections == 2
    match = Match.objects.get(pk=dispute.match_id)
    kinds = sorted(r.kind for r in current_results(cup, 1))
    assert kinds == ["confirmed", "confirmed", "director"]
    result = Result.objects.get(match=match, current=True)
    assert result.kind == Result.Kind.DIRECTOR and result.reason
    rejections = Review.objects.filter(match=match, action=Review.Action.REJECT)
    assert rejections.count() == 2
    assert all(review.reason and review.entrant == match.east_entrant for review in rejections)
    entries = list(Submission.objects.filter(match=match).order_by("created_at", "id"))
    assert [e.source for e in entries] == ["north", "north", "director"]
    played = play_board_of(match, result.board, "dispute")
    assert entries[-1].record["tricks"] == played.facts["tricks"]
    assert entries[0].record != entries[-1].record and entries[1].record != entries[-1].record
    assert ActionLog.objects.filter(tournament=cup, action="director_entry").count() == 1


def test_the_standings_follow_through_the_task(django_capture_on_commit_callbacks):
    cup = small_cup()
    with django_capture_on_commit_callbacks(execute=True):
        simulate_tournament(cup, rounds=2, seed="standings")
    state = StandingsState.objects.get(tournament=cup)
    assert state.computed_version == state.results_version > 0
    assert state.provisional
    rows = state.standings["standings"]
    assert len(rows) == 6
    assert all(row["matches"] == 2 for row in rows)
    assert cup.standings.count() == 6


def test_rounds_are_played_earliest_first_until_none_is_left():
    cup = small_cup()
    assert simulate_tournament(cup, seed="s").rounds == [1]
    cup.refresh_from_db()
    assert cup.status == Status.RUNNING
    assert ActionLog.objects.filter(tournament=cup, action="start_tournament").count() == 1
    assert simulate_tournament(cup, rounds=1, seed="s").rounds == [2]
    assert simulate_tournament(cup, rounds=None, seed="s").rounds == [3]
    again = simulate_tournament(cup, rounds=None, seed="s")
    assert again.nothing_to_play and again.boards == 0
    assert Result.objects.filter(match__table__tournament=cup, current=True).count() == 9


def test_the_same_seed_gives_the_same_play():
    first, second = small_cup("first"), small_cup("second")
    simulate_tournament(first, rounds=None, seed="same")
    simulate_tournament(second, rounds=None, seed="same")

    def records(cup):
        return [
            (r.match.round, r.match.table.number, r.submission.record)
            for r in Result.objects.filter(match__table__tournament=cup, current=True)
            .select_related("match__table", "submission")
            .order_by("match__round", "match__table__number")
        ]

    assert records(first) == records(second)


def test_boards_left_half_done_by_real_scorers_are_settled_but_a_director_call_is_not():
    cup = small_cup()
    services.start_tournament(by=None, tournament=cup)
    awaiting, disputed, _other = Match.objects.filter(table__tournament=cup, round=1)
    played = play_board_of(awaiting, awaiting.table.boards.get(), "settle")
    entry = scoring.submit_entry(
        match_id=awaiting.pk,
        board_number=1,
        entrant=awaiting.north_entrant,
        facts=played.facts,
        client_id="real-phone-1",
    )
    scoring.call_director(
        match_id=disputed.pk,
        board_number=1,
        entrant=disputed.east_entrant,
        reason="we disagree",
        client_id="real-phone-2",
    )
    report = simulate_tournament(cup, rounds=1, seed="settle")
    assert Result.objects.get(match=awaiting, current=True).submission == entry
    # The open director call is the director's to rule on: left alone, and said so.
    assert not Result.objects.filter(match=disputed).exists()
    assert report.open_calls == [f"round 1, table {disputed.table.number}, board 1"]
    assert Result.objects.filter(match__table__tournament=cup, current=True).count() == 2
    assert "left alone, the director is called: round 1, table" in "\n".join(describe(report, cup))


def test_a_draft_or_final_tournament_is_refused():
    draft = make_tournament(entrants=6, tables=3, slug="draft")
    with pytest.raises(SimulationError, match="is a draft"):
        simulate_tournament(draft)
    cup = small_cup()
    simulate_tournament(cup, rounds=None, seed="f")
    services.finalise_tournament(by=None, tournament=cup)
    with pytest.raises(SimulationError, match="is final"):
        simulate_tournament(cup)
    with pytest.raises(SimulationError, match="at least 1"):
        simulate_tournament(small_cup("other"), rounds=0)


def test_missing_deals_are_refused():
    cup = make_tournament(entrants=6, tables=3, slug="undealt")
    services.draw_schedule(by=None, tournament=cup)
    with pytest.raises(SimulationError, match="3 boards without a deal yet"):
        simulate_tournament(cup)


@pytest.mark.parametrize("ruleset, auctions", [("manual-2016", 2), ("rules-1709", 1)])
def test_a_passed_out_board_follows_the_ruleset(monkeypatch, ruleset, auctions):
    monkeypatch.setattr(pymtheg_simulate, "_choose_call", lambda *args: "P")
    played = pymtheg_simulate.play_board(
        seeded_deal("pass", 1),
        opening=Seat.E,
        direction="counterclockwise",
        ruleset=ruleset,
        rng=random.Random(1),
    )
    assert played.passed_out and played.play is None
    assert played.facts == {"auctions": [["E:P", "N:P", "W:P", "S:P"]] * auctions}
    read_board_record(
        {"ruleset": ruleset, "opening": "E", "direction": "counterclockwise", **played.facts}
    )


def test_auctions_are_legal_and_mostly_gam():
    families = []
    for number in range(200):
        played = pymtheg_simulate.play_board(
            seeded_deal("auctions", number),
            opening=Seat.N,
            direction="clockwise",
            ruleset="manual-2016",
            rng=random.Random(number),
        )
        record = {"ruleset": "manual-2016", **played.facts}
        score_record(record)  # every record is complete and consistent
        for calls in played.facts["auctions"]:
            run_auction(calls)
        families.append((played.contract or "-")[0])
    assert families.count("G") > 0.6 * len(families)
    assert families.count("R") > 0  # some Ry too


def test_mistaken_entries_are_valid_and_wrong():
    for number in range(40):
        played = pymtheg_simulate.play_board(
            seeded_deal("mistakes", number),
            opening=Seat.N,
            direction="clockwise",
            ruleset="manual-2016",
            rng=random.Random(number),
        )
        if played.contract is None or not played.contract.startswith("G"):
            continue
        right = score_record(played.facts).as_dict()
        wrong_entries = pymtheg_simulate.mistaken_entries(played.facts, played.contract)
        assert len(wrong_entries) == 2
        for wrong in wrong_entries:
            assert score_record(wrong).as_dict() != right


def run_command(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("simulate", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_plays_reports_and_shows_progress():
    small_cup()
    out, err = run_command("small", "--rounds", "2", "--seed", "cmd", "--dispute")
    assert "small: started the tournament" in out
    assert "played rounds 1, 2: 6 matches, 6 boards" in out
    assert "seed cmd" in out
    assert "dispute: round 1, table " in out and "East rejected 2 times" in out
    assert "[" + "#" * 30 + "] 6/6" in err
    out, err = run_command("small", "--all", "--quiet")
    assert "played round 3:" in out
    assert err == ""
    out, _err = run_command("small", "--all")
    assert "nothing to play" in out


def test_the_command_explains_refusals():
    with pytest.raises(CommandError, match="there is no tournament 'nope'"):
        run_command("nope")
    make_tournament(entrants=6, tables=3, slug="draft")
    with pytest.raises(CommandError, match="draw up the schedule"):
        run_command("draft")
    with pytest.raises(CommandError):
        run_command("draft", "--rounds", "0")
    with pytest.raises(CommandError):
        run_command("draft", "--rounds", "2", "--all")
