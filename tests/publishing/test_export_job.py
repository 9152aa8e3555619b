"""The export job: the workbook read back, CSV and ODS, idempotency, progress and failure,
disqualification and finalisation, and the clean-up of old files."""

from __future__ import annotations

import csv
import io
import zipfile

import pandas as pd
import pytest

from publishing import services
from publishing.models import Export
from scoring import standings as scoring_standings
from scoring.models import StandingsState
from tests.publishing.conftest import ALL_MATCHES, data_rows, header, workbook
from tournaments import services as organiser_services
from tournaments.models import Status

RESULT_SHEETS = [
    "Standings",
    "Tables",
    "Teams",
    "Schedule",
    "Deals",
    "Hand diagrams",
    "Places",
    "Places chart",
    "Spread",
    "Rules",
]


def run(cup, kind="results", fmt="xlsx", **extra) -> Export:
    """Request an export and run it as the worker would (tasks are eager in these tests)."""
    export, _started = services.request_export(
        tournament=cup.tournament, kind=kind, fmt=fmt, enqueue=False, **extra
    )
    return services.run_export(export.pk)


def file_bytes(export: Export) -> bytes:
    path = services.export_path(export)
    assert path is not None, f"export {export.pk} has no file ({export.state}: {export.error})"
    return path.read_bytes()


def stored(cup) -> dict:
    return StandingsState.objects.get(tournament=cup.tournament).standings


def test_export_before_any_result(cup):
    export = run(cup)
    assert export.state == Export.State.DONE and export.progress == 100, export.error
    book = workbook(file_bytes(export))
    assert book.sheetnames == RESULT_SHEETS
    standings = book["Standings"]
    assert header(standings) == [
        "Place",
        "Team no.",
        "Team",
        "Players",
        "Ranking points",
        "Percentage",
        "Matches",
        "Status",
    ]
    assert "Provisional standings" in standings["A2"].value
    assert "placed by percentage" in standings["A1"].value
    assert [row[1] for row in data_rows(standings)] == [1, 2, 3, 4]
    assert data_rows(book["Tables"]) == []  # nothing ranked yet
    entrants = data_rows(book["Teams"])
    matches = [row for row in entrants if row[5] != "bye"]
    assert len(matches) == 2 * len(ALL_MATCHES) and {row[11] for row in matches} == {"to come"}
    # Teams 2 and 4 sit EW at one table twice, so each has a bye at the other.
    assert sorted((row[0], row[3]) for row in entrants if row[5] == "bye") == [(2, 2), (4, 1)]
    assert book["Schedule"]["B4"].value == "1 v 2" and book["Schedule"]["C5"].value == "1 v 4"
    assert "not computed" in book["Places"]["A2"].value or "no round" in book["Places"]["A2"].value


def test_workbook_holds_the_stored_standings(cup, play_all):
    play_all(cup)
    export = run(cup)
    book = workbook(file_bytes(export))
    rows = {str(row[1]): row for row in data_rows(book["Standings"])}
    numbers = {str(entrant.pk): str(entrant.number) for entrant in cup.entrants}
    for line in stored(cup)["standings"]:
        row = rows[numbers[line["team"]]]
        assert (row[0], row[4], row[5], row[6], row[7]) == (
            line["place"],
            line["points"],
            line["percentage"],
            line["matches"],
            line["status"],
        )
    assert "Complete standings" in book["Standings"]["A2"].value
    assert "the least total of ranking points wins" in book["Standings"]["A1"].value


def test_provisional_workbook_is_placed_by_percentage(cup, confirm):
    # Round 1 only: table 1 NS +21 (team 1 NS, team 2 EW), table 2 NS +150; every group
    # holds one result so far, so every team has 50 % and they share first place, whatever
    # their points.
    confirm(cup, 1, 1)
    confirm(cup, 1, 2)
    book = workbook(file_bytes(run(cup)))
    sheet = book["Standings"]
    assert "placed by percentage, highest first" in sheet["A1"].value
    rows = data_rows(sheet)
    assert [(row[0], row[5]) for row in rows] == [(1, 50), (1, 50), (1, 50), (1, 50)]
    numbers = {str(entrant.pk): entrant.number for entrant in cup.entrants}
    assert [row[1] for row in rows] == [numbers[line["team"]] for line in stored(cup)["standings"]]


def test_tables_sheet_is_a_traveller_of_the_stored_ranks(cup, play_all):
    play_all(cup)
    book = workbook(file_bytes(run(cup)))
    sheet = book["Tables"]
    assert header(sheet) == [
        "Table",
        "Board",
        "Side",
        "Ranking points",
        "Team no.",
        "Team",
        "Round",
        "Opponent no.",
        "Opponent",
        "Score",
        "Note",
    ]
    rows = data_rows(sheet)
    number = {str(entrant.pk): entrant.number for entrant in cup.entrants}
    expected = [
        (group["table"], group["board"], group["side"], result["rank"], number[result["team"]])
        for group in stored(cup)["groups"]
        for result in group["results"]
    ]
    assert sorted(row[:5] for row in rows) == sorted(expected)
    # Per table: the NS block, then the EW block, each best first.
    table1 = [row for row in rows if row[0] == 1]
    assert [row[2] for row in table1] == ["NS", "NS", "EW", "EW"]
    assert [row[9] for row in table1] == [21, 21, -21, -21]


def test_numbers_are_numbers_panes_frozen_and_filters_set(cup, play_all):
    play_all(cup)
    book = workbook(file_bytes(run(cup)))
    for name in ("Standings", "Tables", "Teams", "Schedule", "Deals", "Spread", "Rules"):
        sheet = book[name]
        assert sheet.freeze_panes == "A4", name
        assert sheet.auto_filter.ref.startswith("A3:"), name
        assert sheet.auto_filter.ref.endswith(str(max(sheet.max_row, 3))), name
    for row in data_rows(book["Tables"]):
        assert all(isinstance(value, int | float) for value in (row[0], row[1], row[3], row[9]))
    for row in data_rows(book["Teams"]):
        assert row[5] == "bye" or isinstance(row[9], int)
        assert isinstance(row[10], int | float)  # a bye's points too: the mean there
    formulas = [
        cell.coordinate
        for sheet in book.worksheets
        for row in sheet.iter_rows()
        for cell in row
        if cell.data_type == "f"
    ]
    assert formulas == []
    assert book["Standings"].column_dimensions["C"].width >= len("Team 1")


def test_entrants_sheet_shows_routes_with_contracts(cup, play_all):
    play_all(cup)
    book = workbook(file_bytes(run(cup)))
    team1 = [row for row in data_rows(book["Teams"]) if row[0] == 1]
    # Team 1: round 1 NS at table 1 against team 2, round 2 NS at table 2 against team 4.
    assert [(row[2], row[3], row[5], row[6]) for row in team1] == [(1, 1, "NS", 2), (2, 2, "NS", 4)]
    assert team1[0][8].startswith("North plays Gâm") and team1[0][9] == 21
    assert "Ry" in team1[1][8] and team1[1][9] == 150


def test_deals_and_rules_sheets(cup):
    book = workbook(file_bytes(run(cup)))
    deals = data_rows(book["Deals"])
    assert [(row[0], row[1], row[2]) for row in deals] == [(1, 1, "North"), (2, 1, "North")]
    board = cup.tournament.tables.get(number=1).boards.get(number=1)
    assert deals[0][3] == board.deal
    assert deals[0][4].splitlines()[0].startswith("Fire ")
    diagram = book["Hand diagrams"]
    assert diagram["A4"].value == "Table 1, board 1" and diagram["B5"].value.startswith("North")
    rules = {(row[0], row[1]): row[2] for row in data_rows(book["Rules"])}
    assert rules[("Ruleset", "Name")] == "manual-2016"
    assert rules[("Ranking", "Ties in a table's ranking")].startswith("Best place")
    assert rules[("Ruleset", "Gâm +1, a trump named after the auction: base")] == 30
    assert rules[("Play", "All-tricks bonus (0 = off)")] == 0


def test_disqualified_entrants_come_last(
    cup, confirm, organiser, django_capture_on_commit_callbacks
):
    confirm(cup, 1, 1)
    team1 = cup.entrants[0]
    with django_capture_on_commit_callbacks(execute=True):
        organiser_services.disqualify_entrant(by=organiser, entrant=team1, reason="signalling")
    scoring_standings.mark_changed(cup.tournament)  # whoever disqualifies marks the change
    book = workbook(file_bytes(run(cup)))
    rows = data_rows(book["Standings"])
    assert rows[-1][1] == 1 and rows[-1][7] == "disqualified" and rows[-1][0] is None
    assert all(row[7] == "ok" for row in rows[:-1])
    notes = {row[11] for row in data_rows(book["Teams"]) if row[0] == 1}
    assert any(note and note.startswith("disqualification") for note in notes)


def test_after_finalisation_the_stamp_says_final(cup, play_all, organiser):
    play_all(cup)
    before = run(cup)
    organiser_services.finalise_tournament(by=organiser, tournament=cup.tournament)
    cup.tournament.refresh_from_db()
    after = run(cup)
    assert after.pk != before.pk and after.tournament_status == Status.FINAL
    assert "Final standings" in workbook(file_bytes(after))["Standings"]["A2"].value
    assert after.download_name == f"{cup.tournament.slug}-results-final.xlsx"


def test_same_state_same_file(cup, play_all):
    play_all(cup)
    first = run(cup)
    again, started = services.request_export(
        tournament=cup.tournament, kind="results", fmt="xlsx", enqueue=False
    )
    assert not started and again.pk == first.pk
    forced = run(cup, force=True)
    assert forced.pk != first.pk
    assert forced.content_hash == first.content_hash
    assert file_bytes(forced) == file_bytes(first)


def test_a_written_file_is_the_same_bytes_every_time(cup, play_all, export_root):
    """Writing again (not reusing) gives identical bytes: times inside are fixed."""
    play_all(cup)
    hashes = set()
    for fmt in ("xlsx", "ods", "csv"):
        first = run(cup, fmt=fmt)
        content = file_bytes(first)
        services.export_path(first).unlink()  # force a real rewrite of the same state
        second = run(cup, fmt=fmt, force=True)
        assert file_bytes(second) == content, fmt
        hashes.add(second.content_hash)
    assert len(hashes) == 3


def test_a_new_result_makes_a_new_file(cup, confirm):
    confirm(cup, 1, 1)
    first = run(cup)
    confirm(cup, 1, 2)
    second = run(cup)
    assert second.pk != first.pk and second.content_hash != first.content_hash
    assert second.results_version > first.results_version


def test_stale_standings_are_brought_up_to_date_first(cup, confirm):
    confirm(cup, 1, 1)
    scoring_standings.mark_changed(cup.tournament)
    export = run(cup)
    state = StandingsState.objects.get(tournament=cup.tournament)
    assert not state.stale and export.results_version == state.results_version


def test_progress_goes_from_queued_to_done(cup, play_all, monkeypatch):
    play_all(cup)
    seen = []
    report = services.report_progress

    def watch(export_id, percent, step):
        report(export_id, percent, step)
        export = Export.objects.get(pk=export_id)
        seen.append((export.state, export.progress))

    monkeypatch.setattr(services, "report_progress", watch)
    export, _ = services.request_export(
        tournament=cup.tournament, kind="results", fmt="xlsx", enqueue=False
    )
    assert export.state == Export.State.QUEUED and export.progress == 0
    done = services.run_export(export.pk)
    assert {state for state, _ in seen} == {Export.State.RUNNING}
    percents = [percent for _, percent in seen]
    assert percents == sorted(percents) and percents[0] > 0 and percents[-1] < 100
    assert done.state == Export.State.DONE and done.progress == 100 and done.step == "Ready"
    assert done.started_at and done.finished_at and done.rows > 0


def test_a_failed_export_says_why(cup, monkeypatch):
    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setitem(services.WRITERS, Export.Format.XLSX, broken)
    export = run(cup)
    assert export.state == Export.State.FAILED and "disk full" in export.error
    assert services.export_path(export) is None
    monkeypatch.undo()
    retry, started = services.request_export(
        tournament=cup.tournament, kind="results", fmt="xlsx", enqueue=False
    )
    assert started and retry.pk != export.pk  # a failed export is not reused


def test_unknown_kind_or_format_is_refused(cup):
    with pytest.raises(services.PublishingError, match="unknown export format 'pdf'"):
        services.request_export(tournament=cup.tournament, kind="results", fmt="pdf")
    with pytest.raises(services.PublishingError, match="unknown export kind"):
        services.request_export(tournament=cup.tournament, kind="everything", fmt="xlsx")


def test_csv_zip_has_one_file_per_sheet(cup, play_all):
    play_all(cup)
    export = run(cup, fmt="csv")
    archive = zipfile.ZipFile(io.BytesIO(file_bytes(export)))
    names = archive.namelist()
    assert names[0] == "about.csv"
    assert [name.split("-", 1)[1] for name in names[1:]] == [
        "standings.csv",
        "tables.csv",
        "teams.csv",
        "schedule.csv",
        "deals.csv",
        "places.csv",
        "spread.csv",
        "rules.csv",
    ]
    standings = pd.read_csv(archive.open(names[1]), encoding="utf-8-sig")
    assert list(standings.columns)[:3] == ["Place", "Team no.", "Team"]
    assert len(standings) == 4
    tables = list(csv.reader(io.TextIOWrapper(archive.open(names[2]), encoding="utf-8-sig")))
    assert len(tables) == 1 + 2 * len(ALL_MATCHES)
    assert {info.date_time for info in archive.infolist()} == {archive.infolist()[0].date_time}


def test_ods_opens_with_pandas(cup, play_all):
    play_all(cup)
    export = run(cup, fmt="ods")
    sheets = pd.read_excel(io.BytesIO(file_bytes(export)), engine="odf", sheet_name=None, header=2)
    assert "Places chart" not in sheets and "Hand diagrams" in sheets
    assert [name for name in sheets if name != "Hand diagrams"] == [
        name for name in RESULT_SHEETS if name not in ("Hand diagrams", "Places chart")
    ]
    standings = sheets["Standings"]
    assert list(standings.columns[:3]) == ["Place", "Team no.", "Team"]
    assert pd.api.types.is_numeric_dtype(standings["Ranking points"])
    assert pd.api.types.is_numeric_dtype(standings["Percentage"])
    assert len(sheets["Tables"]) == 2 * len(ALL_MATCHES)


def test_the_standings_workbook_holds_the_standings_alone(cup, play_all):
    play_all(cup)
    book = workbook(file_bytes(run(cup, kind="standings")))
    assert book.sheetnames == ["Standings", "Places", "Places chart", "Rules"]
    places = book["Places"]
    assert header(places)[0] == "Round" and [row[0] for row in data_rows(places)] == [1, 2]
    assert book["Places chart"]._charts, "the places chart is in the workbook"


def test_old_exports_are_cleaned_up(cup, settings, export_root):
    settings.PUBLISHING_EXPORTS_KEEP = 2
    exports = [run(cup, force=True) for _ in range(2)]
    exports += [run(cup, fmt="csv", force=True) for _ in range(2)]
    kept = list(cup.tournament.exports.values_list("pk", flat=True))
    assert sorted(kept) == sorted(e.pk for e in exports[-2:])
    files = sorted(p.name for p in (export_root / str(cup.tournament.pk)).iterdir())
    assert len(files) == 1 and files[0].endswith(".zip")  # both csv exports share one file


def test_long_sheets_are_split_in_a_real_export(cup, play_all, settings):
    settings.PUBLISHING_MAX_SHEET_ROWS = 3 + 4  # title, stamp, header and 4 rows a sheet
    play_all(cup)
    book = workbook(file_bytes(run(cup)))
    tables = [name for name in book.sheetnames if name.startswith("Tables")]
    assert tables == ["Tables 1", "Tables 2"]
    # Each sheet holds whole blocks: one table's NS block and EW block (2 rows each).
    assert [row[0] for row in data_rows(book["Tables 1"])] == [1, 1, 1, 1]
    assert [row[0] for row in data_rows(book["Tables 2"])] == [2, 2, 2, 2]


def test_lost_jobs_and_orphan_files_are_swept(cup, export_root):
    import os
    import time
    from datetime import timedelta

    from django.utils import timezone

    from tests.scoring.conftest import build_cup

    lost, _ = services.request_export(
        tournament=cup.tournament, kind="results", fmt="ods", enqueue=False
    )
    Export.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=2))
    kept = run(cup)
    folder = export_root / str(cup.tournament.pk)
    stray = folder / "left-by-a-crash.xlsx"
    stray.write_bytes(b"x")
    fresh = folder / ".export-99-1.part"  # a worker may be writing this one right now
    fresh.write_bytes(b"x")
    old = time.time() - 2 * 3600
    os.utime(stray, (old, old))
    gone = build_cup(slug="gone")
    run(gone)
    gone_folder = export_root / str(gone.tournament.pk)
    gone.tournament.delete()
    for path in gone_folder.iterdir():
        os.utime(path, (old, old))
    services.cleanup_all()
    lost.refresh_from_db()
    assert lost.state == Export.State.FAILED and "did not finish" in lost.error
    assert services.export_path(kept) is not None
    assert not stray.exists() and fresh.exists()
    assert not gone_folder.exists()


def test_a_failing_chart_task_does_not_undo_a_confirmation(cup, confirm, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("chart exploded")

    monkeypatch.setattr(services, "refresh_chart_data", broken)
    confirm(cup, 1, 1)
    state = StandingsState.objects.get(tournament=cup.tournament)
    assert state.computed_at is not None and not state.stale
    assert cup.match(1, 1).results.filter(current=True).exists()
