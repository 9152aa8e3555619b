"""A Pymtheg board whose Ry part runs out of time: the strains solved are kept and shown, the
Ry contracts and the par read "not analysed", never a number; the organiser's retry gives the
missing part the longer limit and completes the table."""

from __future__ import annotations

import subprocess

import pytest
from django.urls import reverse

from analysis import services
from analysis.models import BoardAnalysis
from engine.games.pymtheg.cards import parse_deal
from engine.games.pymtheg.solver import analyse as pymtheg_analyse
from tests.analysis.test_job import ONE_SUIT_EACH
from tests.tournaments.conftest import make_tournament
from tournaments import services as organiser_services

Status = BoardAnalysis.Status


@pytest.fixture(autouse=True)
def analyse_after_dealing(settings):
    settings.ANALYSIS_AFTER_DEALING = "always"
    settings.ANALYSIS_PART_SECONDS = 60
    settings.ANALYSIS_RETRY_SECONDS = 600


@pytest.fixture
def limits(monkeypatch):
    """Each part solved for real; the parts named in ``slow`` run out of their time when it
    is the first try's. Records the limit every part was given."""
    real = services._solve
    given: dict[str, list[float]] = {}
    slow: set[str] = set()

    def solve(game_id, deal, inputs, part, seconds):
        given.setdefault(part, []).append(seconds)
        if part in slow and seconds < 600:
            raise subprocess.TimeoutExpired("engine.games.deal_analysis", seconds)
        return real(game_id, deal, inputs, part, seconds)

    monkeypatch.setattr(services, "_solve", solve)
    return given, slow


def test_a_part_out_of_time_leaves_the_rest_shown_and_the_board_retryable(
    db, django_capture_on_commit_callbacks, organiser_client, limits
):
    given, slow = limits
    slow.add("ry")
    tournament = make_tournament(slug="pym-partial", entrants=4, tables=1)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_services.set_deal(
            by=None, tournament=tournament, table_number=1, board_number=1, deal_text=ONE_SUIT_EACH
        )
    analysis = BoardAnalysis.objects.get(board__table__tournament=tournament)
    assert analysis.status == Status.TIMED_OUT and analysis.table is None
    # The part out of time did not stop the others: every strain is solved and kept.
    assert sorted(analysis.parts) == ["earth", "fire", "nt", "water", "wind"]
    assert "time ran out on ry" in analysis.error

    deals = reverse("tournaments:deals", args=[tournament.slug])
    text = organiser_client.get(deals).content.decode()
    assert "analysed 0 of 1 board" in text
    assert "The parts solved so far, the rest not analysed" in text
    whole = pymtheg_analyse(parse_deal(ONE_SUIT_EACH))
    north = text[text.index("<th>North</th>") :]
    north = north[: north.index("</tr>")]
    cells = [cell.split("</td>")[0] for cell in north.split('<td class="num">')[1:]]
    assert cells == [str(whole["tricks"][strain]["N"]) for strain in whole["tricks"]]
    assert "Ry: not analysed" in text and "Par: not analysed" in text
    assert "Ry made by" not in text
    assert "Analyse the boards without a table" in text  # the organiser's retry

    with django_capture_on_commit_callbacks(execute=True):
        response = organiser_client.post(reverse("analysis:analyse", args=[tournament.slug]))
    assert response.status_code == 302
    analysis.refresh_from_db()
    assert analysis.status == Status.DONE and analysis.error == ""
    assert analysis.table["contracts"] == whole["contracts"]
    # The retry solved only the missing part, and gave it the longer limit.
    assert given["ry"] == [60, 600]
    assert all(given[strain] == [60] for strain in ("fire", "earth", "water", "wind", "nt"))
    text = organiser_client.get(deals).content.decode()
    assert "analysed 1 of 1 board" in text
    assert "not analysed" not in text.lower()
    assert "Par: " in text


def test_a_board_with_every_part_but_left_not_analysed_is_put_together_on_retry(
    db, django_capture_on_commit_callbacks, limits
):
    given, _slow = limits
    tournament = make_tournament(slug="pym-late", entrants=4, tables=1)
    with django_capture_on_commit_callbacks(execute=True):
        organiser_services.set_deal(
            by=None, tournament=tournament, table_number=1, board_number=1, deal_text=ONE_SUIT_EACH
        )
    # A part that came in after the board was marked out of time (a late task).
    BoardAnalysis.objects.update(status=Status.TIMED_OUT, table=None, error="time ran out")
    solved = sum(len(times) for times in given.values())
    with django_capture_on_commit_callbacks(execute=True):
        assert services.analyse(tournament) == 1
    analysis = BoardAnalysis.objects.get(board__table__tournament=tournament)
    assert analysis.status == Status.DONE and analysis.table is not None
    assert sum(len(times) for times in given.values()) == solved  # nothing solved again
