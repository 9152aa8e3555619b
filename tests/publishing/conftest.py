"""Fixtures of the publishing tests: the scorer side's small cup (4 teams, 2 tables, 2 rounds),
results confirmed through the real services, export files in a temporary folder, and tasks
run in-process."""

from __future__ import annotations

import io
from pathlib import Path

import openpyxl
import pytest

from scoring import services as scoring
from tests.scoring.conftest import GAM_MADE, RY_LOST, Cup, build_cup, new_id
from tests.tournaments.factories import OrganiserFactory, UserFactory

__all__ = ["GAM_MADE", "RY_LOST"]

ALL_MATCHES = [(1, 1), (1, 2), (2, 1), (2, 2)]


@pytest.fixture(autouse=True)
def export_root(settings, tmp_path) -> Path:
    root = tmp_path / "exports"
    settings.PUBLISHING_EXPORT_ROOT = root
    return root


@pytest.fixture
def cup(db) -> Cup:
    return build_cup()


@pytest.fixture
def organiser(db):
    return OrganiserFactory()


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


@pytest.fixture
def player_client(client, db):
    client.force_login(UserFactory())
    return client


@pytest.fixture
def confirm(django_capture_on_commit_callbacks):
    """Confirm a board result the way the tables do: North enters, East accepts; the
    standings task (and what follows it) runs when the transaction commits."""

    def confirm_result(cup: Cup, round_: int, table: int, facts=GAM_MADE):
        match = cup.match(round_, table)
        with django_capture_on_commit_callbacks(execute=True):
            entry = scoring.submit_entry(
                match_id=match.pk,
                board_number=1,
                entrant=match.north_entrant,
                facts=facts,
                client_id=new_id(),
            )
            scoring.accept_entry(
                match_id=match.pk,
                board_number=1,
                entrant=match.east_entrant,
                submission_id=entry.pk,
                client_id=new_id(),
            )

    return confirm_result


@pytest.fixture
def play_all(confirm):
    """Every match of the cup: table 1 a Gâm made (NS +21), table 2 a Ry lost (NS +150)."""

    def play(cup: Cup):
        for round_, table in ALL_MATCHES:
            confirm(cup, round_, table, GAM_MADE if table == 1 else RY_LOST)

    return play


def workbook(data: bytes) -> openpyxl.Workbook:
    return openpyxl.load_workbook(io.BytesIO(data))


def data_rows(sheet, header_row: int = 3) -> list[tuple]:
    """The rows under the header, as values."""
    return [row for row in sheet.iter_rows(min_row=header_row + 1, values_only=True)]


def header(sheet, header_row: int = 3) -> list:
    return [cell.value for cell in sheet[header_row]]
