"""The management commands for scripting."""

from __future__ import annotations

import json
from io import StringIO

import openpyxl
import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments import selectors
from tournaments.models import ActionLog, Board, Match, Status, Tournament
from tournaments.permissions import is_organiser

pytestmark = pytest.mark.django_db

DESCRIPTION = """
name: Scripted cup
slug: scripted
ruleset: rules-1709
options: {all_tricks_bonus: 25}
direction: counterclockwise
opening: rotate
boards_per_table: 2
sides: balanced
ties: average
tables: [Window, ""]
teams:
  - {number: 1, name: One, players: [Ann, Al]}
  - {name: Two}
  - Three
  - {number: 7, name: Seven, players: [Sue]}
"""


def run(*args) -> str:
    out = StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


def test_create_tournament_from_yaml(tmp_path):
    path = tmp_path / "cup.yaml"
    path.write_text(DESCRIPTION, encoding="utf-8")
    assert "Created 'scripted': 2 tables, 4 teams" in run("create_tournament", str(path))
    cup = Tournament.objects.get(slug="scripted")
    assert (
        cup.rules["ruleset"],
        cup.direction,
        cup.rules["opening_rule"],
        cup.side_mode,
        cup.ties,
    ) == (
        "rules-1709",
        "counterclockwise",
        "rotate",
        "balanced",
        "average",
    )
    assert (cup.boards_per_table, cup.rules["all_tricks_bonus"]) == (2, 25)
    assert list(cup.tables.values_list("number", "label")) == [(1, "Window"), (2, "")]
    assert list(cup.entrants.values_list("number", "name", "player1", "player2")) == [
        (1, "One", "Ann", "Al"),
        (7, "Seven", "Sue", ""),
        (8, "Two", "", ""),
        (9, "Three", "", ""),
    ]
    assert ActionLog.objects.filter(tournament=cup, actor="command line").count() == 2


def test_create_tournament_from_json(tmp_path):
    path = tmp_path / "cup.json"
    path.write_text(json.dumps({"name": "J", "slug": "j", "tables": 2, "opening": "W"}))
    run("create_tournament", str(path))
    cup = Tournament.objects.get(slug="j")
    assert (cup.rules["opening_rule"], cup.rules["opening_seat"]) == ("fixed", "W")


@pytest.mark.parametrize(
    "content, expected",
    [
        ("name: x\n", "slug: required"),
        ("- a list\n", "must be a mapping"),
        ("name: x\nslug: x\ntables: 2\ncolour: red\n", "unknown keys: colour"),
        ("name: x\nslug: x\ntables: many\n", "tables: give the number of tables"),
        ("name: x\nslug: x\ntables: 2\nopening: dealer\n", "opening: 'dealer' is not a seat"),
        ("name: x\nslug: x\ntables: 2\noptions: {bonus: 5}\n", "unknown house rule 'bonus'"),
        (
            "name: x\nslug: x\ntables: 2\nteams: [{number: 1, name: A}, {number: 1, name: B}]\n",
            "teams entry 2: team number 1 is also entry 1",
        ),
        ("name: x\nslug: bad slug\ntables: 2\n", "slug"),
        ("name: x\nslug: x\ntables: 2\nruleset: chess\n", "ruleset"),
        ("name: [unclosed\n", "not valid YAML"),
    ],
)
def test_bad_descriptions_are_refused_and_create_nothing(tmp_path, content, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CommandError, match=expected.replace("[", r"\[")):
        run("create_tournament", str(path))
    assert not Tournament.objects.exists()


def test_create_tournament_missing_file(tmp_path):
    with pytest.raises(CommandError, match="No such file"):
        run("create_tournament", str(tmp_path / "none.yaml"))


def test_import_entrants_command(tmp_path, organiser):
    run_path = tmp_path / "cup.json"
    run_path.write_text(json.dumps({"name": "C", "slug": "c", "tables": 2}))
    run("create_tournament", str(run_path))
    book = openpyxl.Workbook()
    for row in (["number", "name", "player1"], [1, "A", "x"], [2, "B", "y"], [3, "C", "z"]):
        book.active.append(row)
    sheet = tmp_path / "teams.xlsx"
    book.save(sheet)
    assert "3 teams, no problems (dry run)" in run("import_teams", "c", str(sheet), "--dry-run")
    assert not Tournament.objects.get(slug="c").entrants.exists()
    run("import_teams", "c", str(sheet), "--by", organiser.username)
    cup = Tournament.objects.get(slug="c")
    assert cup.entrants.count() == 3
    assert cup.log_entries.filter(action="import_teams").get().user == organiser
    bad = tmp_path / "bad.csv"
    bad.write_text("number,name\n4,D\n3,Clash\n5,\n", encoding="utf-8")
    with pytest.raises(CommandError) as refused:
        run("import_teams", "c", str(bad))
    message = str(refused.value)
    assert "nothing imported" in message
    assert "line 3: team number 3 is already used by 'C'" in message
    assert "line 4: the team name is missing" in message
    assert cup.entrants.count() == 3


def test_import_entrants_unknown_tournament_or_user(tmp_path):
    with pytest.raises(CommandError, match="there is no tournament 'nope'"):
        run("import_teams", "nope", str(tmp_path / "x.csv"))


def test_draw_and_deal_commands(tmp_path):
    path = tmp_path / "cup.yaml"
    path.write_text(DESCRIPTION.replace("sides: balanced", "sides: fixed"), encoding="utf-8")
    run("create_tournament", str(path))
    with pytest.raises(CommandError, match="missing: 2, 3, 4, 5, 6"):
        run("draw_schedule", "scripted")
    cup = Tournament.objects.get(slug="scripted")
    from tournaments import services

    services.renumber_entrants(by=None, tournament=cup)
    output = run("draw_schedule", "scripted", "--sides", "balanced")
    assert "rounds" in output
    cup.refresh_from_db()
    assert cup.status == Status.SCHEDULED and cup.side_mode == "balanced"
    assert Match.objects.filter(table__tournament=cup).exists()
    assert selectors.schedule_problems(cup) == []
    assert "dealt 4 boards" in run("deal", "scripted", "--seed", "s1")
    with pytest.raises(CommandError, match="every board is dealt already"):
        run("deal", "scripted")
    first = list(Board.objects.filter(table__tournament=cup).values_list("deal", flat=True))
    run("deal", "scripted", "--replace")
    assert first != list(Board.objects.filter(table__tournament=cup).values_list("deal", flat=True))


def test_create_organiser(monkeypatch):
    run("create_organiser", "olga", "--password", "a-long-Passphrase-9", "--email", "o@x.org")
    olga = get_user_model().objects.get(username="olga")
    assert is_organiser(olga)
    assert olga.check_password("a-long-Passphrase-9")
    monkeypatch.setenv("ORGANISER_PASSWORD", "another-long-Passphrase-7")
    assert "Updated organiser 'olga'" in run("create_organiser", "olga", "--noinput")
    olga.refresh_from_db()
    assert olga.check_password("another-long-Passphrase-7")


def test_create_organiser_refuses_weak_or_missing_passwords(monkeypatch):
    monkeypatch.delenv("ORGANISER_PASSWORD", raising=False)
    with pytest.raises(CommandError, match="password refused"):
        run("create_organiser", "weak", "--password", "123")
    with pytest.raises(CommandError, match="needs a password"):
        run("create_organiser", "nopass", "--noinput")
    assert not get_user_model().objects.filter(username__in=["weak", "nopass"]).exists()


def test_load_demo():
    output = run("load_demo")
    assert "14 teams, 7 tables" in output
    demo = Tournament.objects.get(slug="demo")
    assert demo.status == Status.SCHEDULED
    assert demo.entrants.count() == 14
    assert demo.tables.count() == 7
    assert Match.objects.filter(table__tournament=demo).count() == 49
    assert selectors.missing_boards(demo) == []
    assert selectors.schedule_problems(demo) == []
    deals = list(Board.objects.filter(table__tournament=demo).values_list("deal", flat=True))
    with pytest.raises(CommandError, match="--replace"):
        run("load_demo")
    run("load_demo", "--replace")
    again = Tournament.objects.get(slug="demo")
    assert again.pk != demo.pk
    assert deals == list(
        Board.objects.filter(table__tournament=again).values_list("deal", flat=True)
    )
    assert ActionLog.objects.filter(action="delete_tournament", tournament_slug="demo").exists()
