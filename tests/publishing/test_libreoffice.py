"""The exported files open cleanly in LibreOffice: it converts every sheet back to CSV, and the
values are those of the stored standings.

Needs ``libreoffice`` (Debian/Ubuntu package ``libreoffice-calc-nogui``). Without it the tests
are skipped on a developer's machine and fail in CI (``CI=true``), where it must be installed.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
from pathlib import Path

import pytest

from publishing import services
from scoring.models import StandingsState
from tests.conftest import skip_or_fail

APT_PACKAGE = "libreoffice-calc-nogui"
# Calc's CSV filter: comma, double quote, UTF-8, from line 1, ..., -1 = every sheet to a file.
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1"


@pytest.fixture
def libreoffice() -> str:
    found = shutil.which("libreoffice") or shutil.which("soffice")
    if found is None:
        skip_or_fail(
            f"libreoffice is not on PATH (install the {APT_PACKAGE} package)",
            "it must be installed",
        )
    return found


def convert_to_csv(libreoffice: str, source: Path, work: Path) -> dict[str, list[list[str]]]:
    """Every sheet of ``source`` as LibreOffice reads it: {sheet name: rows}."""
    out = work / "out"
    result = subprocess.run(
        [
            libreoffice,
            f"-env:UserInstallation={(work / 'profile').as_uri()}",
            "--headless",
            "--norestore",
            "--convert-to",
            CSV_FILTER,
            "--outdir",
            str(out),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Error" not in result.stdout + result.stderr.replace("javaldx", ""), result.stderr
    sheets = {}
    for path in sorted(out.glob("*.csv")):
        sheet = path.stem.removeprefix(source.stem + "-")
        with open(path, encoding="utf-8", newline="") as handle:
            sheets[sheet] = list(csv.reader(handle))
    assert sheets, f"LibreOffice wrote nothing: {result.stdout} {result.stderr}"
    return sheets


def exported(cup, fmt: str) -> Path:
    export, _ = services.request_export(
        tournament=cup.tournament, kind="results", fmt=fmt, enqueue=False
    )
    export = services.run_export(export.pk)
    path = services.export_path(export)
    assert path is not None, export.error
    return path


def expected_standings(cup) -> list[list[str]]:
    numbers = {str(entrant.pk): entrant.number for entrant in cup.entrants}
    rows = StandingsState.objects.get(tournament=cup.tournament).standings["standings"]
    return [
        [
            str(row["place"] or ""),
            str(numbers[row["team"]]),
            str(row["points"]),
            f"{row['percentage']:g}",
            row["status"],
        ]
        for row in rows
    ]


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_libreoffice_reads_every_sheet(libreoffice, cup, play_all, tmp_path, fmt):
    play_all(cup)
    sheets = convert_to_csv(libreoffice, exported(cup, fmt), tmp_path)
    assert {"Standings", "Tables", "Teams", "Schedule", "Deals", "Rules"} <= set(sheets)
    standings = sheets["Standings"]
    assert standings[2][:3] == ["Place", "Team no.", "Team"]
    got = [[row[0], row[1], row[4], row[5], row[7]] for row in standings[3:]]
    assert got == expected_standings(cup)
    tables = sheets["Tables"][3:]
    assert len(tables) == 8 and {row[2] for row in tables} == {"NS", "EW"}
    assert sheets["Schedule"][3][:3] == ["1", "1 v 2", "3 v 4"]


@pytest.mark.parametrize("suffix", ["xlsx", "ods"])
def test_the_standings_of_30_entrants_print_on_one_page(libreoffice, tmp_path, suffix):
    """LibreOffice prints the workbooks as their page setup says: the standings of 30 teams
    on one page; the long Tables sheet at the page's width, on several pages."""
    import re

    from publishing.exports.ods import write_ods
    from publishing.exports.synthetic import synthetic_tournament
    from publishing.exports.workbook import build_sheets
    from publishing.exports.xlsx import write_xlsx

    data = synthetic_tournament(15)  # 30 teams, 450 lines
    write = write_xlsx if suffix == "xlsx" else write_ods
    pages = {}
    for name in ("Standings", "Tables"):
        source = tmp_path / f"{name.lower()}.{suffix}"
        write([sheet for sheet in build_sheets(data) if sheet.name == name], source, data.stamp)
        done = subprocess.run(
            [
                libreoffice,
                f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
                "--headless",
                "--norestore",
                "--convert-to",
                "pdf",
                "--outdir",
                str(tmp_path),
                str(source),
            ],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        pdf = (tmp_path / f"{name.lower()}.pdf").read_bytes()
        pages[name] = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages["Standings"] == 1, pages
    assert 1 < pages["Tables"] < 40, pages  # fitted to the width, not shrunk to one page
