"""A Pys'ngtaut event over HTTP: North's entry through the API, its preview, East's check and a
rejection; bad entries refused with a clear 400 and nothing stored; the director's entry
through the board page as the entry script fills it; the set picker's form on the scorer
page; the public pages showing the winner's sets by row; standings in duplicate and in
totals, with tables of 2, 3 and 4; the workbook; the printed deals."""

from __future__ import annotations

import io
import json
import random

import openpyxl
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from engine.games import get_game
from publishing import services as publishing
from scoring import standings as scoring_standings
from scoring.models import Result, StandingsState, Submission
from tests.scoring.test_api import as_team, post
from tests.scoring.test_individual_web import board_url, first_match, seated
from tests.tournaments.test_individual_events import new_id
from tournaments import services
from tournaments.imports import TeamRow
from tournaments.simulation import simulate_tournament

pytestmark = pytest.mark.django_db

GAME = get_game("pysngtaut")


@pytest.fixture(autouse=True)
def export_root(settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"


def pysngtaut_event(*, players=12, tables=3, size=4, slug="pys", **settings):
    tournament = services.create_tournament(
        by=None,
        name="Pys'ngtaut evening",
        slug=slug,
        tables=tables,
        game="pysngtaut",
        table_size=size,
        boards_per_table=size,
        **settings,
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[TeamRow(n, n, f"Player {n}", "", "") for n in range(1, players + 1)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed="pysngtaut-tests")
    tournament.refresh_from_db()
    return services.start_tournament(by=None, tournament=tournament)


def won_facts(tournament, match, number: int) -> dict:
    """What a scorer enters for a won hand of this board, as the simple player plays it."""
    deal = match.table.boards.get(number=number).deal
    for seed in range(200):
        record = GAME.simulate_record(deal, random.Random(seed), tournament.rules)
        score = GAME.score(record)
        if score["winner"] is not None:
            return GAME.scorer_facts(record, score)
    raise AssertionError("no won hand in 200 plays")


def test_north_enters_east_rejects_then_accepts(django_capture_on_commit_callbacks):
    tournament = pysngtaut_event()
    match = first_match(tournament)
    north, east = as_team(seated(match, "N")), as_team(seated(match, "E"))
    facts = won_facts(tournament, match, 1)
    preview = post(north, board_url(tournament, match, 1, "preview/"), {"record": facts})
    assert preview.status_code == 200, preview.content
    score = preview.json()
    assert score["winner"] == facts["winner"] and sum(score["seats"].values()) == 0
    assert score["words"].startswith(f"{GAME_NAMES[facts['winner']]} went out with")
    assert all(entry["category"] for entry in score["sets"])
    assert not Submission.objects.exists()

    created = post(
        north, board_url(tournament, match, 1, "entries/"), {"client_id": new_id(), "record": facts}
    )
    assert created.status_code == 201, created.content
    entry = created.json()["id"]
    rejected = post(
        east,
        board_url(tournament, match, 1, f"entries/{entry}/reject/"),
        {"client_id": new_id(), "reason": "the god card was in front of South"},
    )
    assert rejected.status_code == 200, rejected.content
    page = as_team(seated(match, "N")).get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
    board = next(b for b in page["matches"][0]["boards"] if b["board"] == 1)
    assert board["state"] == "returned"

    again = post(
        north, board_url(tournament, match, 1, "entries/"), {"client_id": new_id(), "record": facts}
    )
    assert again.status_code == 201, again.content
    with django_capture_on_commit_callbacks(execute=True):
        accepted = post(
            east,
            board_url(tournament, match, 1, f"entries/{again.json()['id']}/accept/"),
            {"client_id": new_id()},
        )
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["seats"] == score["seats"]
    standings = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    assert standings["status"] == "provisional" and len(standings["standings"]) == 12


GAME_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


def bad_entries(facts: dict, up: str) -> list[tuple[dict, str]]:
    winner = facts["winner"]
    loser = next(seat for seat in "NESW" if seat != winner)
    too_many = {**facts, "hands": {**facts["hands"], loser: [*facts["hands"][loser], up, up]}}
    return [
        (too_many, "appears"),
        ({**facts, "hands": {**facts["hands"], winner: ["AS"]}}, "hands"),
        ({**facts, "hands": {**facts["hands"], "X": ["AS"]}}, "X"),
        ({**facts, "winner": "Q"}, "winner"),
        ({**facts, "melds": {winner: [["AS", "KS", "QS"]]}}, "melds"),
        ({**facts, "tricks": 3}, "tricks"),
        ({**facts, "penalties": [{"seat": winner, "kind": "improper_draw"}]}, "penalties"),
    ]


def test_bad_entries_are_a_clear_400_and_store_nothing():
    tournament = pysngtaut_event(slug="pys-bad")
    match = first_match(tournament)
    north = as_team(seated(match, "N"))
    facts = won_facts(tournament, match, 2)
    up = match.table.boards.get(number=2).deal.split()[0][2:]
    for bad, field in bad_entries(facts, up):
        for tail in ("preview/", "entries/"):
            answer = post(
                north, board_url(tournament, match, 2, tail), {"client_id": new_id(), "record": bad}
            )
            assert answer.status_code == 400, (bad, answer.content)
            detail = answer.json()["detail"]
            assert detail and field in json.dumps(answer.json()), (field, answer.json())
    assert not Submission.objects.exists() and not Result.objects.exists()


def test_the_scorer_page_gives_the_set_picker_its_form(client):
    tournament = pysngtaut_event(slug="pys-page")
    match = first_match(tournament)
    north = seated(match, "N")
    page = client.get(
        reverse("scorer-entry", args=[tournament.slug]), {"code": north.access_code}, follow=True
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert "scoring/entry-pysngtaut-entry" in html
    start = html.index(f'id="form-m{match.pk}-b1"')
    form = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    deal = GAME.parse_deal(match.table.boards.get(number=1).deal)
    assert form["up"] == GAME.format_deal(deal).split()[0][2:] and form["seats"] == list("NESW")
    assert sum(form["cards"].values()) == 92  # the turned-up card is out of play at 4
    assert len(form["categories"]) == 10 and form["problem"] is None
    api_form = as_team(north).get(board_url(tournament, match, 1, "entry-form/")).json()
    assert api_form == form


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client


def test_the_director_enters_through_the_board_page_as_the_script_fills_it(td):
    tournament = pysngtaut_event(slug="pys-td")
    match = first_match(tournament)
    page = td.get(reverse("scoring:director-board", args=[tournament.slug, match.pk, 3]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "scoring/entry-pysngtaut-entry" in html and 'id="form-director-entry"' in html
    url = reverse("scoring:director-enter", args=[tournament.slug, match.pk, 3])
    facts = won_facts(tournament, match, 3)
    winner = facts["winner"]
    bad = {**facts, "hands": {**facts["hands"], winner: ["2C"]}}
    refused = td.post(url, {"client_id": new_id(), "record_json": json.dumps(bad), "reason": ""})
    assert refused.status_code == 400 and "hands" in refused.content.decode()
    assert not Result.objects.exists()
    done = td.post(
        url, {"client_id": new_id(), "record_json": json.dumps(facts), "reason": "phone died"}
    )
    assert done.status_code == 302
    result = Result.objects.get(board__number=3, match=match, current=True)
    assert result.kind == "director" and sum(result.seats.values()) == 0
    shown = td.get(reverse("scoring:director-board", args=[tournament.slug, match.pk, 3]))
    assert f"{GAME_NAMES[winner]} went out" in shown.content.decode()


def played_event(**kwargs):
    tournament = pysngtaut_event(**kwargs)
    simulate_tournament(tournament, rounds=None, seed="pys-web")
    scoring_standings.recompute(tournament.pk)
    tournament.refresh_from_db()
    return tournament


@pytest.mark.parametrize("ranking", ["duplicate", "totals"])
def test_standings_rank_every_player_both_ways(ranking):
    tournament = played_event(slug=f"pys-{ranking}", ranking=ranking)
    state = StandingsState.objects.get(tournament=tournament)
    rows = state.standings["standings"]
    assert not state.provisional and len(rows) == 12
    assert all(row["place"] is not None for row in rows)
    if ranking == "totals":
        totals = {}
        for result in Result.objects.filter(match__table__tournament=tournament, current=True):
            for seat in result.seats:
                player = result.match.seats.get(seat=seat).team_id
                totals[str(player)] = totals.get(str(player), 0) + result.seats[seat]
        assert {str(row["player"]): row["total"] for row in rows} == totals
    else:
        assert all(0 <= row["percentage"] <= 100 for row in rows)


@pytest.mark.parametrize(("size", "players", "tables"), [(2, 6, 3), (3, 9, 3)])
def test_tables_of_two_and_three_play_through(size, players, tables):
    tournament = played_event(slug=f"pys-small-{size}", size=size, players=players, tables=tables)
    results = Result.objects.filter(match__table__tournament=tournament, current=True)
    assert results.exists()
    assert all(set(result.seats) == set("NESW"[:size]) for result in results)
    state = StandingsState.objects.get(tournament=tournament)
    assert len(state.standings["standings"]) == players
    match = first_match(tournament)
    form = GAME.entry_form(
        players=size, dealer="N", deal=match.table.boards.get(number=1).deal, settings={}
    )
    assert form["seats"] == list("NESW"[:size])
    assert sum(form["cards"].values()) == (93 if size == 3 else 92)


def test_public_pages_show_the_winners_sets_and_the_workbook_downloads(client, director):
    tournament = played_event(slug="pys-public")
    result = (
        Result.objects.filter(match__table__tournament=tournament, current=True)
        .exclude(submission__score__winner=None)
        .select_related("submission", "match__table", "board")
        .first()
    )
    score = result.submission.score
    page = client.get(f"/t/{tournament.slug}/tables/{result.match.table.number}/")
    html = page.content.decode()
    assert page.status_code == 200
    first_set = score["sets"][0]
    row = GAME.entry_form(settings={})["categories"]
    rows = {c["id"]: c["row"] for c in row}
    assert rows[first_set["category"]] in html, "the traveller names each set's row"
    client.force_login(director)
    export, _ = publishing.request_export(
        tournament=tournament, kind="results", fmt="xlsx", enqueue=False
    )
    export = publishing.run_export(export.pk)
    download = client.get(reverse("publishing:export-download", args=[tournament.slug, export.pk]))
    assert download.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(b"".join(download.streaming_content)))
    assert book.sheetnames[0] == "Standings"
    boards = book["Boards"]
    texts = [str(cell.value) for row in boards.iter_rows() for cell in row if cell.value]
    assert any(rows[first_set["category"]] in text for text in texts)


def test_the_printed_deals_show_the_prepared_pack(td):
    tournament = pysngtaut_event(slug="pys-print")
    page = td.get(reverse("tournaments:print_tables", args=[tournament.slug]))
    html = page.content.decode()
    assert page.status_code == 200
    board = first_match(tournament).table.boards.get(number=1)
    rows = GAME.hands_in_words(GAME.parse_deal(board.deal))
    assert [whose for whose, _cards in rows][:2] == ["Turned up", "North (dealer)"]
    assert rows[-2][0] == "Pile 1 (top first)" and len(rows[-1][1].split()) == 32
    for whose, cards in rows:
        assert whose in html and cards in html
