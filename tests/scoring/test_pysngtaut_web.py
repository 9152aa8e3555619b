"""A Pys'ngtaut event over HTTP: North's entry through the API, its preview, East's check and a
rejection; bad entries refused with a clear 400 and nothing stored; the entry form and every
answer to the table the same whatever the deal (nothing of it before the board is played);
an entry whose turned-up card is not the deal's stored and sent to the director, the table
told only that; the director's entry through the board page as the entry script fills it; the
public pages showing the winner's sets by row; standings in duplicate and in totals, with
tables of 2, 3 and 4; the workbook; the printed deals."""

from __future__ import annotations

import io
import json
import random

import openpyxl
import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from engine.core.errors import RecordError
from engine.games import get_game
from operations.simulation import simulate_tournament
from publishing import services as publishing
from scoring import services as scoring
from scoring import standings as scoring_standings
from scoring.models import Result, Review, StandingsState, Submission
from tests.scoring.test_api import as_entrant, post
from tests.scoring.test_individual_web import board_url, first_match, seated
from tests.tournaments.test_individual_events import new_id
from tournaments import services
from tournaments.imports import EntrantRow

pytestmark = pytest.mark.django_db

GAME = get_game("pysngtaut")


@pytest.fixture(autouse=True)
def export_root(settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"


def pysngtaut_event(
    *, players=12, tables=3, size=4, slug="pys", seed="pysngtaut-tests", **settings
):
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
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, players + 1)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=seed)
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
    north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
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
    assert created.json()["record"]["up"] == up_of(match.table.boards.get(number=1))
    assert Submission.objects.get(pk=entry).deal_disagreement == ""  # agrees: East checks it
    rejected = post(
        east,
        board_url(tournament, match, 1, f"entries/{entry}/reject/"),
        {"client_id": new_id(), "reason": "the god card was in front of South"},
    )
    assert rejected.status_code == 200, rejected.content
    page = as_entrant(seated(match, "N")).get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
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
        ({key: value for key, value in facts.items() if key != "up"}, "up"),
        ({**facts, "up": "10H"}, "up"),
    ]


def test_bad_entries_are_a_clear_400_and_store_nothing():
    tournament = pysngtaut_event(slug="pys-bad")
    match = first_match(tournament)
    north = as_entrant(seated(match, "N"))
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


def up_of(board) -> str:
    return GAME.format_deal(GAME.parse_deal(board.deal)).split()[0][2:]


def scorer_forms(client, tournament, match, north) -> dict[int, dict]:
    """The entry forms the scorer page gives North, by board."""
    page = client.get(
        reverse("scorer-entry", args=[tournament.slug]), {"code": north.access_code}, follow=True
    )
    assert page.status_code == 200
    html = page.content.decode()
    assert "games/pysngtaut/entry.js" in html
    forms = {}
    for board in match.table.boards.all():
        start = html.index(f'id="form-m{match.pk}-b{board.number}"')
        forms[board.number] = json.loads(html[html.index(">", start) + 1 : html.index("</", start)])
        for _whose, cards in GAME.hands_in_words(GAME.parse_deal(board.deal))[1:]:
            assert cards not in html, "a hand of the deal is on the page"
    return forms


def test_the_entry_form_and_the_answers_carry_nothing_of_the_deal(client):
    """Two events alike but for their deals, nothing played: the forms, the previews and the
    refusals North gets are the same, and the same as the engine's form without a deal."""
    events = [pysngtaut_event(slug=f"pys-deals-{seed}", seed=seed) for seed in ("one", "two")]
    matches = [first_match(tournament) for tournament in events]
    norths = [seated(match, "N") for match in matches]
    ups = [up_of(match.table.boards.get(number=1)) for match in matches]
    assert ups[0] != ups[1], "the two events turn up different cards"
    answers = []
    for tournament, match, north in zip(events, matches, norths, strict=True):
        forms = scorer_forms(client, tournament, match, north)
        for number, form in forms.items():
            dealer = match.table.boards.get(number=number).dealer
            assert form == GAME.entry_form(
                players=4, dealer=dealer, settings=tournament.rules, table=match.table.number
            )
            api = as_entrant(north).get(board_url(tournament, match, number, "entry-form/"))
            assert api.json() == form
        answers.append(forms)
    assert answers[0] == answers[1]

    # The same entry previewed, good or bad, is answered the same whatever the deal.
    facts = won_facts(events[0], matches[0], 1)
    entries = [facts, *(bad for bad, _field in bad_entries(facts, facts["up"]))]
    for entry in entries:
        for up in {facts["up"], *ups}:
            seen = [
                post(
                    as_entrant(north),
                    board_url(tournament, match, 1, "preview/"),
                    {"record": {**entry, "up": up} if "up" in entry else entry},
                )
                for tournament, match, north in zip(events, matches, norths, strict=True)
            ]
            assert seen[0].status_code == seen[1].status_code, up
            assert seen[0].json() == seen[1].json(), up
    assert not Submission.objects.exists()


def without_ids(value):
    """An answer with what names its own rows left out (ids, times, the match)."""
    if isinstance(value, dict):
        return {
            key: without_ids(item)
            for key, item in value.items()
            if key not in ("id", "match", "current_match", "created_at", "at", "pending", "slug")
        }
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def test_an_entry_that_disagrees_with_the_deal_goes_to_the_director_and_says_nothing():
    events = [pysngtaut_event(slug=f"pys-wrong-{seed}", seed=seed) for seed in ("one", "two")]
    matches = [first_match(tournament) for tournament in events]
    boards = [match.table.boards.get(number=1) for match in matches]
    facts = won_facts(events[0], matches[0], 1)
    assert facts["up"] == up_of(boards[0])
    # Another turned-up card, which the deal-less reading accepts: neither deal's.
    for wrong in (c for c in GAME.entry_form(settings={})["up_cards"] if c != facts["up"]):
        if wrong == up_of(boards[1]):
            continue
        entered = {**facts, "up": wrong}
        try:
            GAME.score(
                GAME.entry_record(
                    entered, settings=events[0].rules, table=1, players=4, dealer="N", deal=""
                )
            )
        except RecordError:
            continue
        break
    answers, pages = [], []
    for tournament, match in zip(events, matches, strict=True):
        north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
        url = board_url(tournament, match, 1, "entries/")
        created = post(north, url, {"client_id": new_id(), "record": entered})
        assert created.status_code == 201, created.content
        answer = created.json()
        assert "deal" not in answer["record"] and answer["record"]["up"] == wrong
        submission = Submission.objects.get(pk=answer["id"])
        assert submission.deal_disagreement, "the director is told why"
        assert submission.record == GAME.entry_record(
            entered, settings=tournament.rules, table=1, players=4, dealer="N", deal=""
        )
        state = scoring.board_state(match, scoring.board_of(match, 1))
        assert state.state == "disputed"
        review = Review.objects.get(match=match, board__number=1)
        assert review.action == Review.Action.CALL_DIRECTOR
        assert review.reason == scoring.DEAL_CHECK_REASON
        assert up_of(match.table.boards.get(number=1)) not in review.reason
        answers.append(without_ids(answer))
        for entrant in (north, east):
            me = entrant.get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
            board = next(b for b in me["matches"][0]["boards"] if b["board"] == 1)
            assert board["state"] == "disputed"
            pages.append(without_ids(me))
        again = post(north, url, {"client_id": new_id(), "record": facts})
        assert again.status_code == 409 and "director" in again.json()["detail"]
    assert answers[0] == answers[1], "the answer to North is the same whatever the deal"
    for one, two in zip(pages[:2], pages[2:], strict=True):
        assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)


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
    assert "games/pysngtaut/entry.js" in html and 'id="form-director-entry"' in html
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
                player = result.match.seats.get(seat=seat).entrant_id
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
    form = GAME.entry_form(players=size, dealer="N", settings={})
    assert form["seats"] == list("NESW"[:size])
    assert form["up_out_of_play"] == (size != 3)
    up = up_of(match.table.boards.get(number=1))
    copies = GAME.entry_options(players=size, up=up, settings={})["cards"]
    assert sum(copies.values()) == (93 if size == 3 else 92) - (up == "JK" and size == 3)


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
