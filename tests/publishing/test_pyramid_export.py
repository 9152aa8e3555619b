"""The export of a Pyramid event: its own sheets (standings per player, boards by seat,
routes, the movement, the deals, the players' score sheets, the rules), read back from the
workbook, from the CSV archive and through LibreOffice."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from operations.simulation import simulate_tournament
from publishing import services
from scoring import sheets as score_sheets
from scoring import standings as scoring_standings
from scoring.models import Result, StandingsState
from tests.conftest import rows_for_the_scope
from tests.publishing.conftest import data_rows, header, workbook
from tests.publishing.test_libreoffice import convert_to_csv, libreoffice  # noqa: F401
from tests.tournaments.test_individual_events import pyramid_event
from tournaments import services as organiser_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

PLAYER_SHEETS = ["Standings", "Boards", "Routes", "Schedule", "Deals", "Sheets", "Rules"]


def export_file(tournament, fmt="xlsx", kind="results") -> bytes:
    export, _ = services.request_export(tournament=tournament, kind=kind, fmt=fmt, enqueue=False)
    export = services.run_export(export.pk)
    path = services.export_path(export)
    assert path is not None, f"{export.state}: {export.error}"
    return path.read_bytes()


def play_two_rounds() -> int:
    tournament = pyramid_event(per_round=4, slug="pyr-export")
    simulate_tournament(tournament, rounds=2, seed="export")
    scoring_standings.recompute(tournament.pk)
    return tournament.pk


@pytest.fixture(scope="module")
def played_once(django_db_setup, django_db_blocker):
    """The event is played once for the module; each test's own writes are rolled back."""
    yield from rows_for_the_scope(django_db_blocker, play_two_rounds)


@pytest.fixture
def played(played_once, db):
    return Tournament.objects.get(pk=played_once)


def test_the_workbook_holds_the_games_own_sheets(played):
    book = workbook(export_file(played))
    assert book.sheetnames == PLAYER_SHEETS
    stored = StandingsState.objects.get(tournament=played).standings["standings"]
    numbers = {str(entrant.pk): entrant.number for entrant in played.entrants.all()}
    standings = book["Standings"]
    assert header(standings)[:5] == ["Place", "No.", "Player", "Ranking points", "Percentage"]
    # Two rounds of four played: provisional, so the places follow the percentage.
    assert "placed by percentage, highest first" in standings["A1"].value
    rows = data_rows(standings)
    assert [(row[0], row[1], row[3], row[4]) for row in rows] == [
        (entry["place"], numbers[str(entry["player"])], entry["points"], entry["percentage"])
        for entry in stored
    ]
    # Boards: a row per visit of every board, every seat's player and table result.
    boards = book["Boards"]
    columns = header(boards)
    assert columns[:5] == ["Table", "Board", "Dealer", "Round", "Result"]
    rows = data_rows(boards)
    assert len(rows) == 4 * 16 * 4  # 4 tables, 16 boards, 4 rounds (2 played, 2 to come)
    results = Result.objects.filter(match__table__tournament=played, current=True)
    assert results.count() == 4 * 16 * 2
    for result in results.select_related("board", "match__table")[:40]:
        row = next(
            r
            for r in rows
            if (r[0], r[1], r[3])
            == (result.match.table.number, result.board.number, result.match.round)
        )
        for seat, value in result.seats.items():
            assert row[columns.index(f"{seat} score")] == value
        assert row[4] != "to come"
    assert sum(1 for row in rows if row[4] == "to come") == 4 * 16 * 2
    # Routes: every player in every round, each at a table and seat.
    routes = data_rows(book["Routes"])
    assert len(routes) == 16 * 4 and all(row[3] and row[4] in "NESW" for row in routes)
    assert len(data_rows(book["Schedule"])) == 4 * 4
    assert len(data_rows(book["Deals"])) == 4 * 16
    # Sheets: seven rows (declarations 0-6) for each player's sheet, as the page draws it.
    sheet_rows = data_rows(book["Sheets"])
    player = played.entrants.get(number=1)
    drawn = score_sheets.player_sheets(played, player)[0]
    mine = [row for row in sheet_rows if row[0] == 1]
    assert [row[4] for row in mine] == [1, 2, 3, 4, 3, 2, 1]
    assert [row[5] for row in mine] == drawn["remaining"]
    assert {row[7] for row in mine} == {drawn["total"]}


def test_totals_ranking_exports_totals_and_exact_calls(played):
    organiser_services.update_tournament(by=None, tournament=played, changes={"ranking": "totals"})
    scoring_standings.recompute(played.pk)
    book = workbook(export_file(played))
    assert header(book["Standings"])[3:5] == ["Total", "Exact calls"]
    stored = StandingsState.objects.get(tournament=played).standings["standings"]
    assert [row[3] for row in data_rows(book["Standings"])] == [e["total"] for e in stored]


def test_the_csv_archive_has_a_file_per_sheet(played):
    with zipfile.ZipFile(io.BytesIO(export_file(played, fmt="csv"))) as archive:
        names = archive.namelist()
        assert len(names) == len(PLAYER_SHEETS) + 1 and "about.csv" in names
        boards = next(name for name in names if "boards" in name)
        rows = list(csv.reader(io.StringIO(archive.read(boards).decode("utf-8-sig"))))
    assert any("N score" in row for row in rows)


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_libreoffice_reads_every_sheet(libreoffice, played, tmp_path, fmt):  # noqa: F811
    source = tmp_path / f"pyramid.{fmt}"
    source.write_bytes(export_file(played, fmt=fmt))
    sheets = convert_to_csv(libreoffice, source, tmp_path)
    assert len(sheets) == len(PLAYER_SHEETS)
    standings = next(rows for name, rows in sheets.items() if "Standings" in name)
    assert sum(1 for row in standings if row and row[2].startswith("Player ")) == 16


def test_standings_export_is_standings_and_rules(played):
    book = workbook(export_file(played, kind="standings"))
    assert book.sheetnames == ["Standings", "Rules"]
    assert len(data_rows(book["Standings"])) == 16
