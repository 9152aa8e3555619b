"""Backups of every game the engine knows (``engine.games.game_ids()``, the test game included).

Each game's demo tournament (``load_demo``) is played a little through the scoring services:
a round of accepted entries (the simulation), a board disputed and settled by the director, an
adjusted and an erased result, an open call for the director on an entry that disagrees with
the deal, and a disqualification. Its backup, restored under a new slug, has the same matches,
seats, results and standings. A damaged backup restores nothing (no tournament, row, log entry
or queued task) and its message names what is wrong, through the service and through the
management commands, the latter with real commits.
"""

from __future__ import annotations

import copy
import json
import uuid
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.apps import apps
from django.core.management import CommandError, call_command
from django.db import transaction

from engine.games import PLAYERS, game_ids, get_game
from operations import backup
from operations.backup import (
    DERIVED,
    RELATIONS,
    BackupError,
    export_tournament,
    import_tournament,
    own_fields,
    parse_backup,
)
from operations.management.commands.load_demo import demo_file
from operations.simulation import north_facts, simulate_tournament
from scoring import services as scoring
from scoring import standings
from scoring.models import BoardProgress, RankingPoints, Result, Review, StandingsState, Submission
from tests.tournaments.conftest import make_tournament
from tests.tournaments.factories import OrganiserFactory
from tournaments import services
from tournaments.description import load_description_file
from tournaments.models import (
    ActionLog,
    Board,
    Disqualification,
    Entrant,
    Match,
    MatchSeat,
    Table,
    Tournament,
)
from tournaments.selectors import schedule_data

# The simulation's one seed: the same play, hence the same backups, on every run.
SEED = "backup-games"
DIRECTOR = "backup-director"
DISAGREEMENT = "The entry names West as the partner; the deal on file gives the king to South."
INDIVIDUAL_GAMES = [game for game in game_ids() if get_game(game).entrants == PLAYERS]

SECTION_MODELS = {
    "tables": Table,
    "boards": Board,
    "teams": Entrant,
    "matches": Match,
    "seats": MatchSeat,
    "disqualifications": Disqualification,
    "submissions": Submission,
    "reviews": Review,
    "results": Result,
    "action_log": ActionLog,
}
COUNTED = (
    Tournament,
    Table,
    Board,
    Entrant,
    Match,
    MatchSeat,
    Disqualification,
    Submission,
    Review,
    Result,
    BoardProgress,
    StandingsState,
    ActionLog,
)


def as_json(data: Any) -> Any:
    """Through JSON text and back, as a backup file travels."""
    return json.loads(json.dumps(data))


def counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in COUNTED}


def client_id() -> str:
    return f"test-{uuid.uuid4().hex}"


# --- what must be the same after a restore, by what an organiser sees -----------------------


def views(tournament: Tournament) -> dict[str, Any]:
    """The tournament's matches, seats, results, board states and standings, keyed by round,
    table, board, seat and entrant number (never by database id)."""
    in_it = {"match__table__tournament": tournament}
    state = StandingsState.objects.get(tournament=tournament)
    return {
        "matches": sorted(
            (m.round, m.table.number, m.north_entrant.number, m.east_entrant.number)
            for m in Match.objects.filter(table__tournament=tournament).select_related(
                "table", "north_entrant", "east_entrant"
            )
        ),
        "seats": sorted(
            (s.round, s.match.table.number, s.seat, s.entrant.number)
            for s in MatchSeat.objects.filter(**in_it).select_related("match__table", "entrant")
        ),
        "results": sorted(
            (
                r.match.round,
                r.match.table.number,
                r.board.number,
                r.kind,
                r.current,
                r.north_result,
                r.east_result,
                json.dumps(r.seats, sort_keys=True),
                r.passed_out,
                r.reason,
            )
            for r in Result.objects.filter(**in_it).select_related("match__table", "board")
        ),
        "boards": sorted(
            (p.match.round, p.match.table.number, p.board.number, p.state, p.rejections)
            for p in BoardProgress.objects.filter(**in_it).select_related("match__table", "board")
        ),
        "standings": sorted(
            (s.entrant.number, s.place, s.points, s.percentage, s.matches, s.status)
            for s in tournament.standings.select_related("entrant")
        ),
        "ranking_points": sorted(
            (
                p.match.round,
                p.match.table.number,
                p.board.number,
                p.entrant.number,
                p.side,
                p.score,
                p.points,
            )
            for p in RankingPoints.objects.filter(tournament=tournament).select_related(
                "match__table", "board", "entrant"
            )
        ),
        "provisional": state.provisional,
        "stale": state.stale,
    }


# --- each game's demo, played a little, and its backup ----------------------------------------


@dataclass
class Built:
    game: str
    slug: str
    data: dict[str, Any]
    views: dict[str, Any]


def facts_of(match: Match, board: Board) -> dict[str, Any]:
    """North's entry of what was played (the simulation's play of the board)."""
    return north_facts(match, board, SEED)


def round_matches(tournament: Tournament, number: int) -> list[Match]:
    return list(
        Match.objects.filter(table__tournament=tournament, round=number)
        .select_related(
            "table__tournament", "north_entrant__tournament", "east_entrant__tournament"
        )
        .order_by("table__number")
    )


def build(game: str) -> Built:
    director = OrganiserFactory(username=DIRECTOR)
    call_command("load_demo", game=game, replace=True, stdout=StringIO())
    slug = load_description_file(demo_file(game)).slug
    tournament = Tournament.objects.get(slug=slug)
    simulate_tournament(tournament, rounds=1, seed=SEED, by=director)
    tournament.refresh_from_db()
    first, second = round_matches(tournament, 1), round_matches(tournament, 2)
    of_players = tournament.of_players

    # The director adjusts one confirmed result and erases another (both retired, kept).
    adjusted = Result.objects.get(match=first[0], board__number=1, current=True)
    if of_players:
        changed = {seat: value + 5 for seat, value in adjusted.seats.items()}
        scoring.director_adjust(
            match_id=first[0].pk, board_number=1, user=director, seats=changed, reason="slow"
        )
    else:
        scoring.director_adjust(
            match_id=first[0].pk, board_number=1, user=director, ns=40, ew=-40, reason="slow"
        )
    scoring.director_erase(match_id=first[1].pk, board_number=1, user=director, reason="wrong")

    # A disputed board: East rejects North's entry twice; the director enters the result.
    match = second[0]
    board = Board.objects.get(table=match.table, number=1)
    facts = facts_of(match, board)
    for reason in ("We counted again.", "Still wrong."):
        entry = scoring.submit_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.north_entrant,
            facts=facts,
            client_id=client_id(),
        )
        scoring.reject_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.east_entrant,
            submission_id=entry.pk,
            reason=reason,
            client_id=client_id(),
        )
    scoring.director_enter_result(
        match_id=match.pk,
        board_number=1,
        user=director,
        facts=facts,
        reason="Established at the table.",
        client_id=client_id(),
    )

    # An entry the director is called to (a disagreement with the deal kept for him), open.
    match = second[1]
    board = Board.objects.get(table=match.table, number=1)
    entry = scoring.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=facts_of(match, board),
        client_id=client_id(),
        remote_addr="192.0.2.7",
    )
    Submission.objects.filter(pk=entry.pk).update(deal_disagreement=DISAGREEMENT)
    scoring.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        reason="The partner is wrong.",
        client_id=client_id(),
    )

    last = tournament.entrants.order_by("-number").first()
    services.disqualify_entrant(by=director, entrant=last, reason="left early")
    standings.recompute(tournament.pk)
    tournament.refresh_from_db()
    return Built(game, slug, as_json(export_tournament(tournament)), views(tournament))


@pytest.fixture(scope="session")
def backups(django_db_setup, django_db_blocker) -> dict[str, Built]:
    """Every game's played demo and its backup, built once a run (the transactional test at
    the end is run apart from the others, and a module fixture would be built again for it);
    the tournaments themselves are rolled back, so each test starts without them."""
    print(f"simulation seed: {SEED!r}")
    built = {}
    with django_db_blocker.unblock():
        for game in game_ids():
            with transaction.atomic():
                built[game] = build(game)
                transaction.set_rollback(True)
    return built


def restore(data: Any, slug: str) -> Tournament:
    OrganiserFactory(username=DIRECTOR)
    return import_tournament(copy.deepcopy(data), slug=slug)


# --- the backups hold everything, and restore it ---------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("game", game_ids())
def test_a_backup_holds_every_kind_of_row_of_its_game(backups, game):
    data = backups[game].data
    assert data["version"] == backup.VERSION
    assert data["tournament"]["game"] == game
    assert data["tournament"]["game_settings"] == get_game(game).settings(
        data["tournament"]["game_settings"]
    )
    # Every column of every row is in the file under its own name.
    for section, model in SECTION_MODELS.items():
        names = {field.name for field in own_fields(model)}
        for row in data[section]:
            assert names <= set(row), (section, names - set(row))
    assert {r["kind"] for r in data["results"]} == {"confirmed", "director", "adjusted"}
    assert any(not r["current"] for r in data["results"])  # retired results are kept
    assert {"accept", "reject", "call_director", "director_entry", "adjust", "erase"} <= {
        r["action"] for r in data["reviews"]
    }
    assert [s["deal_disagreement"] for s in data["submissions"] if s["deal_disagreement"]] == [
        DISAGREEMENT
    ]
    assert len(data["disqualifications"]) == 1
    assert DIRECTOR in {r["user"] for r in data["reviews"]}
    players = get_game(game).entrants == PLAYERS
    table_size = data["tournament"]["table_size"]
    if players:
        assert len(data["seats"]) == len(data["matches"]) * table_size
        assert all(len(r["seats"]) == table_size for r in data["results"])
    else:
        assert data["seats"] == []
        assert all(r["seats"] is None for r in data["results"])


@pytest.mark.django_db
@pytest.mark.parametrize("game", game_ids())
def test_a_restored_copy_has_the_same_seats_results_and_standings(backups, game):
    built = backups[game]
    restored = restore(built.data, f"{built.slug}-copy")
    assert (restored.slug, restored.game) == (f"{built.slug}-copy", game)
    after = views(restored)
    assert after["standings"] and after["results"] and after["matches"]
    assert bool(after["seats"]) == (game in INDIVIDUAL_GAMES)
    assert not after["stale"]  # ranked in the restore's own transaction
    for name, expected in built.views.items():
        assert after[name] == expected, name
    # The file written again from the copy is the file it came from, but for the slug and the
    # restore's own log entry.
    again = as_json(export_tournament(restored))
    for section in backup.SECTIONS:
        if section == "tournament":
            assert {**again[section], "slug": built.slug} == built.data[section]
        elif section == "action_log":
            assert again[section][:-1] == built.data[section]
            assert again[section][-1]["action"] == "import_tournament"
        else:
            assert again[section] == built.data[section], section


@pytest.mark.django_db
def test_byes_are_written_and_checked():
    """Five teams at two tables: some sit out each round."""
    cup = make_tournament(entrants=5, tables=2, slug="odd")
    services.draw_schedule(by=None, tournament=cup)
    services.deal_boards(by=None, tournament=cup, seed="byes")
    data = as_json(export_tournament(cup))
    assert data["byes"] and data["byes"] == schedule_data(cup)["byes"]
    assert import_tournament(copy.deepcopy(data), slug="odd-copy").entrants.count() == 5
    before = counts()
    playing = {data["matches"][0]["ns"]}
    data["byes"] = [b if b["round"] != 1 else {**b, "team": min(playing)} for b in data["byes"]]
    with pytest.raises(BackupError, match=r"byes: round 1 lists byes for .*, but its matches"):
        import_tournament(data, slug="odd-other")
    assert counts() == before


def as_version_2(data: dict) -> dict:
    """A copy of a backup as version 2 wrote it: table results under ``ns_result`` and
    ``ew_result``."""
    older = copy.deepcopy(data)
    older["version"] = 2
    for section in ("submissions", "results"):
        for row in older[section]:
            row["ns_result"] = row.pop("north_result")
            row["ew_result"] = row.pop("east_result")
    return older


@pytest.mark.django_db
@pytest.mark.parametrize("game", game_ids())
def test_a_version_2_backup_restores_its_table_results(backups, game):
    built = backups[game]
    older = as_version_2(built.data)
    assert any(row["ns_result"] is not None for row in older["results"])
    after = views(restore(older, "version-2"))
    for name, expected in built.views.items():
        assert after[name] == expected, name


@pytest.mark.django_db
@pytest.mark.parametrize("game", game_ids())
def test_a_version_1_backup_restores_pairs_and_explains_individuals(backups, game):
    """Version 1 had no seats, byes, dealers, disagreements or seat results, and named the
    game's settings 'settings'."""
    built = backups[game]
    older = as_version_2(built.data)
    older["version"] = 1
    older["tournament"]["settings"] = older["tournament"].pop("game_settings")
    for section in ("seats", "byes"):
        del older[section]
    for section, column in (
        ("boards", "dealer"),
        ("submissions", "deal_disagreement"),
        ("results", "seats"),
    ):
        for row in older[section]:
            del row[column]
    before = counts()
    if game in INDIVIDUAL_GAMES:
        with pytest.raises(BackupError, match="a version 1 backup does not hold them"):
            restore(older, "older")
        assert counts() == before
        assert not Tournament.objects.filter(slug="older").exists()
        return
    restored = restore(older, "older")
    after = views(restored)
    for name, expected in built.views.items():
        assert after[name] == expected, name
    # The dealers come back from the game's rule.
    dealers = [b["dealer"] for b in export_tournament(restored)["boards"]]
    assert dealers == [b["dealer"] for b in built.data["boards"]]


# --- damaged backups restore nothing ---------------------------------------------------------


def truncated(data: dict) -> str:
    text = json.dumps(data)
    return text[: len(text) * 2 // 3]


def drop_a_seat(data: dict) -> str:
    """The seat S of round 1, table 2 is gone."""
    data["seats"] = [s for s in data["seats"] if (s["round"], s["table"], s["seat"]) != (1, 2, "S")]
    return json.dumps(data)


def unknown_game(data: dict) -> str:
    data["tournament"]["game"] = "chess"
    return json.dumps(data)


def missing_table(data: dict) -> str:
    data["matches"][3]["table"] = 99
    return json.dumps(data)


def missing_entrant(data: dict) -> str:
    data["matches"][2]["ew"] = 99
    return json.dumps(data)


def missing_board(data: dict) -> str:
    data["submissions"][0]["board"] = 99
    return json.dumps(data)


def result_without_seats(data: dict) -> str:
    data["results"][0]["seats"] = None
    return json.dumps(data)


DAMAGES = [
    (truncated, "the file is truncated", False),
    (unknown_game, r"tournament: unknown game 'chess': this program plays pymtheg", False),
    (missing_table, r"matches\[3\]: there is no table 99 in the backup", False),
    (missing_entrant, r"matches\[2\]: there is no (team|player) 99 in the backup", False),
    (missing_board, r"submissions\[0\]: there is no board \(table, board\) \(\d+, 99\)", False),
    (
        drop_a_seat,
        r"matches\[\d+\] \(round 1, table 2\): no player in seat S: a match of .* seats a "
        r"player at each of N, E, S, W",
        True,
    ),
    (result_without_seats, r"results\[0\]: a result of .* this one gives none", True),
]
DAMAGE_CASES = [
    pytest.param(game, damage, message, id=f"{game}-{damage.__name__}")
    for game in game_ids()
    for damage, message, individuals_only in DAMAGES
    if game in INDIVIDUAL_GAMES or not individuals_only
]


@pytest.mark.django_db
@pytest.mark.parametrize("game, damage, message", DAMAGE_CASES)
def test_a_damaged_backup_restores_nothing_and_says_why(
    backups, game, damage, message, django_capture_on_commit_callbacks
):
    built = backups[game]
    text = damage(copy.deepcopy(built.data))
    before = counts()
    with (
        django_capture_on_commit_callbacks() as queued,
        pytest.raises(BackupError, match=message),
    ):
        import_tournament(parse_backup(text), slug="damaged")
    assert counts() == before
    assert not Tournament.objects.filter(slug="damaged").exists()
    assert queued == []  # no standings task or publication waits for a commit


@pytest.mark.django_db
@pytest.mark.parametrize("game", game_ids())
def test_results_that_cannot_be_ranked_restore_nothing(backups, game, monkeypatch):
    """The last step, ranking, fails after every row and the log entry are written: the
    transaction takes them all back."""
    from engine.ranking import RankingInputError

    def refuse(tournament_id: int) -> str:
        assert ActionLog.objects.filter(tournament_id=tournament_id).exists()
        raise RankingInputError("matches[0].seats: must map seats (N, E, S, W) to player ids")

    monkeypatch.setattr(standings, "recompute", refuse)
    before = counts()
    with pytest.raises(BackupError, match=r"cannot be ranked: matches\[0\]\.seats"):
        restore(backups[game].data, "unranked")
    assert counts() == before


def test_parse_backup_names_what_is_wrong_with_the_text():
    with pytest.raises(BackupError, match="the file is empty"):
        parse_backup(" \n")
    for cut in ('{"format": [', '{"format": "pymt', '{"a": [1, 2]\n, "b": tr', '{"a": 1, '):
        with pytest.raises(BackupError, match="the file is truncated: it ends at line"):
            parse_backup(cut)
    with pytest.raises(BackupError, match="truncated: it ends at line 2 column 6"):
        parse_backup('{"a":\n [1, ')
    with pytest.raises(BackupError, match="not JSON: Expecting property name"):
        parse_backup("{not json}")
    assert parse_backup('{"a": 1}') == {"a": 1}


# --- the format keeps up with the models -----------------------------------------------------


def test_the_backup_knows_every_relation_of_the_rows_it_writes():
    for model, names in RELATIONS.items():
        found = {field.name for field in model._meta.concrete_fields if field.is_relation}
        assert found == set(names), model.__name__


def test_every_model_that_holds_a_tournaments_rows_is_backed_up_or_derived():
    written = set(RELATIONS)
    for model in apps.get_models():
        if model in written:
            continue
        refers = {field.related_model for field in model._meta.concrete_fields}
        if refers & written:
            assert model._meta.label in DERIVED, model._meta.label


# --- through the management commands, with real commits ---------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_commands_restore_a_game_of_individuals_or_nothing(backups, tmp_path):
    """The restore of a game of individuals through the commands, committed for real: a
    backup without a seat, and one too old to hold seats, leave nothing; a whole one gives a
    running copy with its standings, whose backup is the one it came from."""
    game = INDIVIDUAL_GAMES[0]
    built = backups[game]
    OrganiserFactory(username=DIRECTOR)
    path = tmp_path / "whole.json"
    path.write_text(json.dumps(built.data), encoding="utf-8")
    seatless = tmp_path / "seatless.json"
    seatless.write_text(drop_a_seat(copy.deepcopy(built.data)), encoding="utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(truncated(built.data), encoding="utf-8")

    before = counts()
    with pytest.raises(CommandError, match=r"seatless\.json: nothing restored: .*no player in"):
        call_command("import_tournament", str(seatless), stdout=StringIO())
    with pytest.raises(CommandError, match=r"cut\.json: nothing restored: the file is truncated"):
        call_command("import_tournament", str(cut), stdout=StringIO())
    assert counts() == before

    out = StringIO()
    call_command("import_tournament", str(path), "--slug", "copy", stdout=out)
    header = built.data["tournament"]
    assert (
        f"Restored {header['name']!r} as 'copy': {len(built.data['teams'])} players, "
        f"{len(built.data['tables'])} tables, status {header['status']}"
    ) in out.getvalue()
    restored = Tournament.objects.get(slug="copy")
    assert restored.status == built.data["tournament"]["status"]
    after = views(restored)
    for name, expected in built.views.items():
        assert after[name] == expected, name
    written = StringIO()
    call_command("export_tournament", "copy", stdout=written)
    again = json.loads(written.getvalue())
    for section in ("teams", "matches", "seats", "submissions", "reviews", "results"):
        assert again[section] == built.data[section], section
