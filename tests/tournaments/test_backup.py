"""Backups: a tournament exported as JSON, deleted, imported again, is the same tournament,
and its recomputed standings are the ones it had."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.core.serializers.json import DjangoJSONEncoder

from operations.backup import BackupError, export_tournament, import_tournament
from operations.simulation import simulate_tournament
from scoring import services as scoring
from scoring import standings
from scoring.models import RankingPoints, Result, StandingsState
from tests.tournaments.conftest import make_tournament
from tests.tournaments.factories import OrganiserFactory
from tournaments import services
from tournaments.models import ActionLog, Match, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(db):
    """A tournament with everything a backup must carry: house rules, table labels, a
    dispute, an adjusted result over a confirmed one, an erased result, a disqualification,
    an organiser's and the command line's log entries."""
    organiser = OrganiserFactory(username="alice")
    cup = make_tournament(
        by=organiser,
        entrants=6,
        tables=3,
        slug="spring",
        ruleset="rules-1709",
        all_tricks_bonus=25,
        ties="average",
        opening_rule="rotate",
    )
    services.update_table_labels(by=organiser, tournament=cup, labels={2: "Balcony"})
    services.draw_schedule(by=organiser, tournament=cup)
    services.deal_boards(by=organiser, tournament=cup, seed="backup")
    simulate_tournament(cup, rounds=2, seed="backup", dispute=True, by=organiser)
    adjusted, erased = Match.objects.filter(table__tournament=cup, round=2)[:2]
    scoring.director_adjust(
        match_id=adjusted.pk, board_number=1, user=organiser, ns=40, ew=-40, reason="slow play"
    )
    scoring.director_erase(match_id=erased.pk, board_number=1, user=organiser, reason="wrong")
    entrant = cup.entrants.get(number=6)
    services.disqualify_entrant(by=organiser, entrant=entrant, reason="left early")
    standings.recompute(cup.pk)
    cup.refresh_from_db()
    return cup


def as_json(data) -> dict:
    """Through JSON text and back, as a backup file travels."""
    return json.loads(json.dumps(data, cls=DjangoJSONEncoder))


def stored_standings(tournament: Tournament):
    """The stored standings with team numbers in place of database ids."""
    state = StandingsState.objects.get(tournament=tournament)
    number = {str(pk): n for pk, n in tournament.entrants.values_list("pk", "number")}
    computed = json.loads(json.dumps(state.standings))
    for group in computed["groups"]:
        for result in group["results"]:
            result["team"] = number[result["team"]]
    for row in computed["standings"]:
        row["team"] = number[row["team"]]
    lines = sorted(
        (row.entrant.number, row.place, row.points, row.matches, row.status)
        for row in tournament.standings.select_related("entrant")
    )
    points = sorted(
        (p.match.round, p.match.table.number, p.entrant.number, p.side, p.score, p.points)
        for p in RankingPoints.objects.filter(tournament=tournament).select_related(
            "match__table", "entrant"
        )
    )
    return computed, state.provisional, lines, points


def same_except_restore(before: dict, after: dict) -> None:
    """Every section equal; the restored log has one more entry, the restore itself."""
    for section in before:
        if section in ("exported_at", "action_log"):
            continue
        assert after[section] == before[section], section
    assert after["action_log"][:-1] == before["action_log"]
    assert after["action_log"][-1]["action"] == "import_tournament"


def test_round_trip_keeps_everything(played):
    before = as_json(export_tournament(played))
    standings_before = stored_standings(played)
    assert before["teams"][0]["access_code"]
    assert {r["kind"] for r in before["results"]} == {"confirmed", "director", "adjusted"}
    assert any(not r["current"] for r in before["results"])  # retired results are kept
    assert any(r["action"] == "erase" for r in before["reviews"])
    assert before["disqualifications"][0]["reason"] == "left early"
    services.delete_tournament(by=None, tournament=played)
    assert not Tournament.objects.filter(slug="spring").exists()

    restored = import_tournament(before)
    standings.recompute(restored.pk)
    after = as_json(export_tournament(restored))
    same_except_restore(before, after)
    assert after["tournament"]["slug"] == "spring"
    assert standings_before[3]  # ranking points were stored before, and are again
    assert stored_standings(restored) == standings_before


def test_restored_boards_have_the_same_state(played):
    from scoring.selectors import board_states

    def states_of(tournament):
        matches = list(Match.objects.filter(table__tournament=tournament).select_related("table"))
        found = board_states(matches)
        return sorted(
            (m.round, m.table.number, found[(m.pk, 1)].state, found[(m.pk, 1)].rejections)
            for m in matches
        )

    before = states_of(played)
    data = as_json(export_tournament(played))
    copy = import_tournament(data, slug="spring-copy")
    assert states_of(copy) == before
    assert Tournament.objects.filter(slug="spring").exists()  # the original is untouched
    assert copy.log_entries.filter(action="import_tournament").get().after["backup_slug"] == (
        "spring"
    )


def test_users_missing_here_are_left_out_but_named(played):
    data = as_json(export_tournament(played))
    services.delete_tournament(by=None, tournament=played)
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(username="alice").delete()
    restored = import_tournament(data)
    entries = ActionLog.objects.filter(tournament=restored, actor="alice")
    assert entries.exists() and not entries.exclude(user=None).exists()
    note = restored.log_entries.get(action="import_tournament")
    assert note.after["unknown_users"] == ["alice"]


def test_commands_round_trip_through_a_file(played, tmp_path):
    out = StringIO()
    call_command("export_tournament", "spring", stdout=out)
    path = tmp_path / "spring.json"
    path.write_text(out.getvalue(), encoding="utf-8")
    call_command("export_tournament", "spring", "-o", str(tmp_path / "o.json"), stderr=StringIO())
    assert (
        json.loads((tmp_path / "o.json").read_text())["teams"]
        == json.loads(out.getvalue())["teams"]
    )
    with pytest.raises(CommandError, match="exists already"):
        call_command("import_tournament", str(path), stdout=StringIO())
    done = StringIO()
    call_command("import_tournament", str(path), "--slug", "copy", stdout=done)
    assert "Restored 'Cup spring' as 'copy': 6 teams, 3 tables, status running" in done.getvalue()
    copy = Tournament.objects.get(slug="copy")
    state = StandingsState.objects.get(tournament=copy)
    assert state.computed_version == state.results_version  # recomputed by the command
    assert stored_standings(copy) == stored_standings(played)


def broken(data: dict, change) -> dict:
    data = json.loads(json.dumps(data))
    change(data)
    return data


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.update(format="other"), "not a tournament backup"),
        (lambda d: d.update(version=99), "version 99 is not supported"),
        (lambda d: d.pop("results"), "lacks 1 section: results"),
        (
            lambda d: d["tournament"]["game_settings"].update(ruleset="chess"),
            "ruleset: 'chess' is not one of",
        ),
        (lambda d: d["tournament"].update(ties="coin"), "ties"),
        (lambda d: d["matches"][0].update(ns=99), "matches\\[0\\]: there is no team 99"),
        (lambda d: d["boards"][0].update(deal="N:nonsense"), "boards\\[0\\]"),
        (lambda d: d["teams"][1].pop("name"), "teams\\[1\\]: the field 'name' is missing"),
        (
            lambda d: d["reviews"][0].update(created_at="yesterday"),
            "reviews\\[0\\]: created_at: 'yesterday' is not a date",
        ),
        (lambda d: d["results"][0].update(review=999), "results\\[0\\]: there is no review 999"),
        (lambda d: d["matches"].append(dict(d["matches"][0])), "matches\\[9\\]: .* appears twice"),
        (lambda d: d["teams"][1].update(number=1), "teams\\[1\\]: the team 1 appears twice"),
        (
            lambda d: d["teams"][1].update(access_code=d["teams"][0]["access_code"]),
            "database refused",
        ),
    ],
)
def test_bad_backups_restore_nothing(played, change, message):
    data = broken(as_json(export_tournament(played)), change)
    data["tournament"]["slug"] = "restored"
    with pytest.raises(BackupError, match=message):
        import_tournament(data)
    assert not Tournament.objects.filter(slug="restored").exists()
    assert Result.objects.count() == Result.objects.filter(match__table__tournament=played).count()


def test_import_command_explains_unreadable_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_tournament", str(bad))
    with pytest.raises(CommandError, match="No such file"):
        call_command("import_tournament", str(tmp_path / "missing.json"))
    bad.write_text("[]", encoding="utf-8")
    with pytest.raises(CommandError, match="nothing restored: a backup is a JSON object"):
        call_command("import_tournament", str(bad))
