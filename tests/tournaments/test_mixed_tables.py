"""Tables of several sizes drawn from the schedule page (GAMES.md "Tables of several sizes":
Pyramid and Pys'ngtaut, 2 to 4 players, duplicate ranking only): the organiser chooses such a
proposal (10 Pyramid players at 4 + 3 + 3), the page draws it, each table keeps its own
players, its boards are dealt for them, its matches seat only its seats, the validator agrees,
a board at a table of 3 is scored for three seats, and the standings rank everyone."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from operations.backup import export_tournament, import_tournament
from operations.simulation import simulate_tournament
from scoring import standings as scoring_standings
from scoring.models import Result, StandingsState
from tests.tournaments.test_proposals_pages import players_event
from tournaments import selectors, services
from tournaments.imports import EntrantRow
from tournaments.models import ActionLog, Match, MatchSeat, Status
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db

SEED = "mixed-tables"


def pyramid_players(players: int, *, slug: str):
    """A Pyramid evening in draft with ``players`` on file, one declaration a player a round
    (a table of 4 has 4 boards)."""
    tournament = services.create_tournament(
        by=None,
        name="Pyramid night",
        slug=slug,
        tables=2,
        game="pyramid",
        table_size=4,
        declarations_per_round=1,
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, players + 1)],
    )
    tournament.refresh_from_db()
    return tournament


def draw_from_the_page(client, slug: str, key: str):
    return client.post(
        reverse("tournaments:schedule_draw", args=[slug]), {"proposal": key}, follow=True
    )


def seats_by_table(tournament) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for table, seat in MatchSeat.objects.filter(match__table__tournament=tournament).values_list(
        "match__table__number", "seat"
    ):
        found.setdefault(table, set()).add(seat)
    return found


def test_ten_pyramid_players_are_drawn_at_four_three_and_three(organiser_client):
    tournament = players_event("pyramid", 10, slug="pyr-mixed")
    page = organiser_client.get(reverse("tournaments:schedule", args=["pyr-mixed"]))
    html = page.content.decode()
    # The mixed proposal is the first, chosen by default, and can be drawn.
    assert 'value="players:4-3-3" checked' in html
    assert 'value="players:4-3-3" checked disabled' not in html
    answer = draw_from_the_page(organiser_client, "pyr-mixed", "players:4-3-3")
    assert answer.status_code == 200
    assert "Movement drawn up: 2 rounds at 3 tables of 4 + 3 + 3 players." in (
        answer.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.status == Status.SCHEDULED
    assert tournament.table_size == 4  # the largest table's; each table has its own
    assert [table.size for table in tournament.tables.order_by("number")] == [4, 3, 3]
    assert seats_by_table(tournament) == {1: set("NESW"), 2: set("NES"), 3: set("NES")}
    assert Match.objects.filter(table__tournament=tournament).count() == 6  # 3 tables, 2 rounds
    assert selectors.schedule_problems(tournament) == []
    assert selectors.movement_data(tournament)["sizes"] == [4, 3, 3]
    # Every player plays every round: nobody sits out.
    assert selectors.movement_data(tournament)["byes"] == []
    assert ActionLog.objects.filter(tournament=tournament, summary__contains="table 2: 3").exists()
    # The page now says these are the tables the tournament has.
    again = organiser_client.get(reverse("tournaments:schedule", args=["pyr-mixed"]))
    assert "The tables you have now." in again.content.decode()


def test_each_table_deals_for_its_own_players_and_scores_its_own_seats(organiser_client):
    tournament = pyramid_players(10, slug="pyr-deal")
    draw_from_the_page(organiser_client, "pyr-deal", "players:4-3-3")
    tournament.refresh_from_db()
    services.deal_boards(by=None, tournament=tournament, seed=SEED)
    game = tournament.game_rules
    for table in tournament.tables.order_by("number"):
        boards = list(table.boards.order_by("number"))
        assert len(boards) == tournament.boards_per_table
        for board in boards:
            assert board.dealer == game.dealer(board.number, table.size)
            deal = game.parse_deal(board.deal)
            assert game.deal_problem(deal, players=table.size, dealer=board.dealer) is None
            if table.size == 3:
                assert game.deal_problem(deal, players=4, dealer=board.dealer)
    simulate_tournament(tournament, rounds=None, seed=SEED)
    results = Result.objects.filter(match__table__tournament=tournament, current=True)
    assert results.count() == 6 * tournament.boards_per_table
    for result in results.select_related("match__table"):
        assert set(result.seats) == set("NESW"[: [4, 3, 3][result.match.table.number - 1]])
    scoring_standings.recompute(tournament.pk)
    stored = StandingsState.objects.get(tournament=tournament).standings["standings"]
    assert len(stored) == 10 and all(entry["percentage"] is not None for entry in stored)
    assert {entry["place"] for entry in stored} >= {1}


def test_pysngtaut_draws_three_and_two_at_tables_of_several_sizes(organiser_client):
    tournament = players_event("pysngtaut", 5, slug="pys-mixed", size=3)
    found = selectors.proposals(tournament)
    mixed = [p for p in found["proposals"] if len(set(p["sizes"])) > 1]
    assert mixed and all(p["drawable"] for p in mixed)
    key = mixed[0]["key"]
    draw_from_the_page(organiser_client, "pys-mixed", key)
    tournament.refresh_from_db()
    sizes = [table.size for table in tournament.tables.order_by("number")]
    assert sizes == mixed[0]["sizes"] and sum(sizes) == 5
    assert selectors.schedule_problems(tournament) == []
    services.deal_boards(by=None, tournament=tournament, seed=SEED)
    simulate_tournament(tournament, rounds=1, seed=SEED)
    for result in Result.objects.filter(match__table__tournament=tournament, current=True):
        assert len(result.seats) == result.match.table.size


def test_tables_of_several_sizes_keep_duplicate_ranking(organiser_client):
    tournament = players_event("pyramid", 10, slug="pyr-rank")
    draw_from_the_page(organiser_client, "pyr-rank", "players:4-3-3")
    tournament.refresh_from_db()
    with pytest.raises(ServiceError, match="ranked by duplicate only"):
        services.update_tournament(by=None, tournament=tournament, changes={"ranking": "totals"})
    # Drawing tables of one size again gives every table the tournament's size back.
    services.clear_schedule(by=None, tournament=tournament)
    tournament.refresh_from_db()
    services.draw_schedule(by=None, tournament=tournament, proposal="players:2x5")
    tournament.refresh_from_db()
    assert [t.players for t in tournament.tables.all()] == [None] * 5
    assert tournament.table_size == 2
    services.update_tournament(by=None, tournament=tournament, changes={"ranking": "totals"})


def test_the_plain_draw_keeps_the_tables_own_sizes(organiser_client):
    tournament = players_event("pyramid", 10, slug="pyr-again")
    draw_from_the_page(organiser_client, "pyr-again", "players:4-3-3")
    tournament.refresh_from_db()
    services.draw_schedule(by=None, tournament=tournament)
    assert seats_by_table(tournament) == {1: set("NESW"), 2: set("NES"), 3: set("NES")}
    assert selectors.schedule_problems(tournament) == []


def test_a_backup_keeps_each_tables_players(organiser_client):
    tournament = pyramid_players(10, slug="pyr-backup")
    draw_from_the_page(organiser_client, "pyr-backup", "players:4-3-3")
    tournament.refresh_from_db()
    services.deal_boards(by=None, tournament=tournament, seed=SEED)
    simulate_tournament(tournament, rounds=1, seed=SEED)
    data = json.loads(json.dumps(export_tournament(tournament)))
    assert [row["players"] for row in data["tables"]] == [4, 3, 3]
    restored = import_tournament(data, slug="pyr-backup-copy")
    assert [table.size for table in restored.tables.order_by("number")] == [4, 3, 3]
    assert seats_by_table(restored) == seats_by_table(tournament)
    assert selectors.schedule_problems(restored) == []


def test_the_director_and_the_public_see_only_a_tables_own_seats(organiser_client):
    tournament = pyramid_players(10, slug="pyr-pages")
    draw_from_the_page(organiser_client, "pyr-pages", "players:4-3-3")
    tournament.refresh_from_db()
    services.deal_boards(by=None, tournament=tournament, seed=SEED)
    simulate_tournament(tournament, rounds=None, seed=SEED)
    for number, seats in ((1, "NESW"), (2, "NES")):
        match = Match.objects.get(table__tournament=tournament, table__number=number, round=1)
        page = organiser_client.get(
            reverse("scoring:director-board", args=[tournament.slug, match.pk, 1])
        ).content.decode()
        headers = [seat for seat in "NESW" if f'<th class="num">{seat}</th>' in page]
        assert headers == list(seats), (number, headers)
        public = organiser_client.get(f"/t/{tournament.slug}/tables/{number}/").content.decode()
        assert ("West" in public) == ("W" in seats), number
