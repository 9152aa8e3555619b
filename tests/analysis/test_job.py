"""The analysis job: every dealt board solved part by part (in-process here, the suite's
default), its status from pending to done, a part out of time leaving "not analysed" until the
organiser starts it again, dealing again replacing the tables, a bad deal refused with the
game's own deal error."""

from __future__ import annotations

import pytest
from django.urls import reverse

from analysis import services
from analysis.models import BoardAnalysis
from engine.games.pymtheg.cards import parse_deal
from engine.games.pymtheg.solver import analyse as pymtheg_analyse
from engine.games.pyramid.solver import sure_tricks
from tests.tournaments.conftest import make_tournament
from tournaments import services as organiser_services
from tournaments.imports import EntrantRow
from tournaments.models import Board

Status = BoardAnalysis.Status

# Each hand holds one whole suit: the search ends at once, so the suite solves it in no time.
ONE_SUIT_EACH = "N:FEDCBA987654321... .FEDCBA987654321.. ..FEDCBA987654321. ...FEDCBA987654321"


@pytest.fixture(autouse=True)
def analyse_after_dealing(settings):
    settings.ANALYSIS_AFTER_DEALING = "always"
    settings.ANALYSIS_PART_SECONDS = 60


def pyramid(slug: str = "pyr-an", tables: int = 2):
    tournament = organiser_services.create_tournament(
        by=None,
        name="Pyramid",
        slug=slug,
        tables=tables,
        game="pyramid",
        table_size=3,
        declarations_per_round=1,
    )
    organiser_services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, 7)],
    )
    tournament.refresh_from_db()
    return tournament


def deal(tournament, capture, *, replace: bool = False, run: bool = True):
    with capture(execute=run):
        organiser_services.deal_boards(
            by=None, tournament=tournament, seed="analysis", replace=replace
        )


def analyses(tournament):
    return list(
        BoardAnalysis.objects.filter(board__table__tournament=tournament).select_related("board")
    )


def test_dealing_leaves_every_board_pending_until_the_job_runs(
    db, django_capture_on_commit_callbacks
):
    tournament = pyramid()
    deal(tournament, django_capture_on_commit_callbacks, run=False)
    boards = Board.objects.filter(table__tournament=tournament).count()
    found = analyses(tournament)
    assert boards > 0 and len(found) == boards
    assert {analysis.status for analysis in found} == {Status.PENDING}
    assert all(analysis.table is None for analysis in found)


def test_the_job_solves_every_board_as_the_engine_does(db, django_capture_on_commit_callbacks):
    tournament = pyramid()
    deal(tournament, django_capture_on_commit_callbacks)
    found = analyses(tournament)
    assert found and {analysis.status for analysis in found} == {Status.DONE}
    for analysis in found:
        board = analysis.board
        assert analysis.deal == board.deal
        assert analysis.table["tricks"] == sure_tricks(board.parsed())
        assert analysis.nodes > 0 and analysis.seconds > 0
        assert analysis.finished_at is not None


def test_a_pymtheg_table_is_the_strains_and_ry_put_together(db, django_capture_on_commit_callbacks):
    tournament = make_tournament(slug="pym-an", entrants=4, tables=1)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_services.set_deal(
            by=None, tournament=tournament, table_number=1, board_number=1, deal_text=ONE_SUIT_EACH
        )
    analysis = BoardAnalysis.objects.get(board__table__tournament=tournament)
    assert analysis.status == Status.DONE
    assert sorted(analysis.parts) == ["earth", "fire", "nt", "ry", "water", "wind"]
    whole = pymtheg_analyse(parse_deal(ONE_SUIT_EACH))
    assert analysis.table["tricks"] == whole["tricks"]
    assert analysis.table["contracts"] == whole["contracts"]
    assert analysis.table["opening"] == "N"


def test_a_part_out_of_time_leaves_the_board_not_analysed_until_retried(
    db, settings, django_capture_on_commit_callbacks, organiser_client
):
    tournament = pyramid()
    settings.ANALYSIS_PART_SECONDS = 1e-6  # no process starts and answers within it
    deal(tournament, django_capture_on_commit_callbacks)
    found = analyses(tournament)
    assert {analysis.status for analysis in found} == {Status.TIMED_OUT}
    assert all(analysis.table is None for analysis in found)
    assert all("time ran out" in analysis.error for analysis in found)
    page = organiser_client.get(reverse("tournaments:deals", args=[tournament.slug]))
    text = page.content.decode()
    assert f"analysed 0 of {len(found)} boards" in text
    assert "not analysed: the solver&#x27;s time ran out" in text.lower()
    assert "Double dummy: not analysed" in text

    settings.ANALYSIS_PART_SECONDS = 60
    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(reverse("analysis:analyse", args=[tournament.slug]))
    assert response.status_code == 302
    assert {analysis.status for analysis in analyses(tournament)} == {Status.DONE}
    text = organiser_client.get(reverse("tournaments:deals", args=[tournament.slug])).content
    assert f"analysed {len(found)} of {len(found)} boards".encode() in text


def test_dealing_again_replaces_the_tables(db, django_capture_on_commit_callbacks):
    tournament = pyramid()
    deal(tournament, django_capture_on_commit_callbacks)
    before = {analysis.board_id: analysis.deal for analysis in analyses(tournament)}
    with django_capture_on_commit_callbacks(execute=False):
        organiser_services.deal_boards(by=None, tournament=tournament, seed="other", replace=True)
    after = analyses(tournament)
    assert {analysis.status for analysis in after} == {Status.PENDING}
    assert all(analysis.table is None and analysis.parts == {} for analysis in after)
    assert any(analysis.deal != before[analysis.board_id] for analysis in after)
    assert all(analysis.deal == analysis.board.deal for analysis in after)


def test_a_task_for_a_replaced_deal_stores_nothing(db, django_capture_on_commit_callbacks):
    tournament = pyramid(tables=1)
    deal(tournament, django_capture_on_commit_callbacks, run=False)
    analysis = analyses(tournament)[0]
    assert services.run_part(analysis.pk, "table", "N:not the deal on file") == "replaced"
    analysis.refresh_from_db()
    assert analysis.status == Status.PENDING and analysis.parts == {}


def test_a_bad_deal_is_refused_with_the_games_deal_error(db, django_capture_on_commit_callbacks):
    tournament = pyramid(tables=1)
    deal(tournament, django_capture_on_commit_callbacks, run=False)
    board = Board.objects.filter(table__tournament=tournament).first()
    Board.objects.filter(pk=board.pk).update(deal="N:AKQ.J.T.9 x")  # past the services' check
    with django_capture_on_commit_callbacks(execute=True):
        services.analyse(tournament)
    analysis = BoardAnalysis.objects.get(board=board)
    assert analysis.status == Status.FAILED and analysis.table is None
    game = tournament.game_rules
    with pytest.raises(ValueError) as refused:
        game.parse_deal("N:AKQ.J.T.9 x")
    assert analysis.error == str(refused.value)


def test_a_game_without_an_analysis_keeps_no_rows(db, django_capture_on_commit_callbacks):
    tournament = organiser_services.create_tournament(
        by=None, name="Twenty", slug="twenty-an", tables=1, game="twenty", table_size=4
    )
    deal(tournament, django_capture_on_commit_callbacks)
    assert Board.objects.filter(table__tournament=tournament).exists()
    assert not analyses(tournament)
