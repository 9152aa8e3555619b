"""The charts follow the rule of who may see what (RULES.md §10): they are drawn from complete
tables only, for every game of the registry.

Each game gets an event of two tables (two matches or more at each), built and played through the
organiser's and the scorers' services (every board's entry a simulated play of its deal, from
the fixed seed ``SEED``). Table 1 is played to the end, table 2 all but its last match: the
charts page, its SVG and the stored chart JSON show table 1 and nothing of table 2, and name
table 2 as still being played. Once table 2's last match is entered and accepted (the real
chain: standings task, then chart task), table 2 appears."""

from __future__ import annotations

import re
from collections import defaultdict

import pytest
from django.urls import reverse

from engine.games import PAIRS, game_ids, get_game
from publishing import selectors
from publishing.models import ChartData
from publishing.services import refresh_chart_data
from scoring import services as scoring
from scoring.models import Result
from scoring.selectors import standings_bookkeeping
from scoring.standings import recompute
from scoring.visibility import complete_tables
from tests.contract.events import board_facts
from tests.scoring.conftest import new_id
from tournaments import services
from tournaments.imports import EntrantRow
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

SEED = "charts-complete-tables"
TITLE = re.compile(r"<title>([^<]*)</title>")


def event_of(game_id: str) -> Tournament:
    """Two tables of the game's smallest size, two entrants a side or a seat each, as few
    boards a table as the game's settings allow, every board dealt from ``SEED``; started."""
    game = get_game(game_id)
    size = min(game.table_sizes)
    entrants = 4 if game.entrants == PAIRS else 2 * size
    fewest_boards = {
        setting.name: setting.minimum
        for setting in game.setting_fields
        if setting.structural and setting.minimum is not None
    }
    tournament = services.create_tournament(
        by=None,
        name=f"{game.title} charts",
        slug=f"charts-{game_id}",
        tables=2,
        game=game_id,
        table_size=size,
        **fewest_boards,
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Entrant {n}", "Ann", "Bo") for n in range(1, entrants + 1)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=SEED)
    tournament.refresh_from_db()
    return services.start_tournament(by=None, tournament=tournament)


def matches_at(tournament: Tournament, table: int) -> list[Match]:
    return list(
        Match.objects.filter(table__tournament=tournament, table__number=table)
        .select_related("table__tournament", "north_entrant", "east_entrant")
        .order_by("round")
    )


def play(match: Match) -> None:
    """Every board of the match: North's team enters the simulated play, East's accepts."""
    for board in match.table.boards.order_by("number"):
        entry = scoring.submit_entry(
            match_id=match.pk,
            board_number=board.number,
            entrant=match.north_entrant,
            facts=board_facts(match, board.number, SEED),
            client_id=new_id(),
        )
        scoring.accept_entry(
            match_id=match.pk,
            board_number=board.number,
            entrant=match.east_entrant,
            submission_id=entry.pk,
            client_id=new_id(),
        )


def table_scores(tournament: Tournament, table: int) -> dict[tuple[int, str], list[float]]:
    """{(board, side or seat): the table results there, sorted}, read from the results."""
    found: dict[tuple[int, str], list[float]] = defaultdict(list)
    for result in Result.objects.filter(
        match__table__tournament=tournament, match__table__number=table, current=True
    ).select_related("board"):
        if tournament.of_players:
            for seat, score in (result.seats or {}).items():
                found[(result.board.number, seat)].append(score)
        else:
            found[(result.board.number, "NS")].append(result.north_result)
            found[(result.board.number, "EW")].append(result.east_result)
    return {key: sorted(scores) for key, scores in found.items()}


def drawn_scores(chart: ChartData, table: int) -> dict[tuple[int, str], list[float]]:
    return {
        (group["board"], group["side"]): group["scores"]
        for group in chart.spread
        if group["table"] == table
    }


def charts_page(client, tournament: Tournament) -> str:
    response = client.get(reverse("publishing:charts", args=[tournament.slug]))
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("game_id", game_ids())
def test_the_charts_show_complete_tables_only(game_id, client, django_capture_on_commit_callbacks):
    print(f"seed {SEED!r}, game {game_id}")
    tournament = event_of(game_id)
    first, second = matches_at(tournament, 1), matches_at(tournament, 2)
    assert len(second) >= 2, "table 2 needs a match played and one to come"
    # In round order, as the tables play: a team acts on no later match than its current one.
    before = sorted(first + second[:-1], key=lambda match: (match.round, match.table.number))
    for match in before[:-1]:
        play(match)
    with django_capture_on_commit_callbacks(execute=True):
        play(before[-1])
    assert complete_tables(tournament) == {1}
    held_back = table_scores(tournament, 2)
    assert held_back, "table 2 has results, to be held back"

    chart = ChartData.objects.get(tournament=tournament)
    assert chart.tables == [1]
    assert {group["table"] for group in chart.spread} == {1}
    assert drawn_scores(chart, 1) == table_scores(tournament, 1)
    assert chart.rounds == [] and chart.places_svg == ""  # round 1 was played at table 2 too
    titles = TITLE.findall(chart.spread_svg)[1:]  # the first is the chart's own
    assert len(titles) == len(drawn_scores(chart, 1)) > 0
    assert all(title.startswith("Table 1, board ") for title in titles)
    assert chart.spread_svg.count('class="strip') == len(titles)
    page = charts_page(client, tournament)
    assert chart.spread_svg in page
    assert "Table 2 is still being played: its results are not shown yet." in page
    assert "Table 2," not in page and ">T2 " not in page
    assert "Table 1 is still being played" not in page

    with django_capture_on_commit_callbacks(execute=True):
        play(second[-1])
    assert complete_tables(tournament) == {1, 2}
    chart.refresh_from_db()
    assert chart.tables == [1, 2]
    assert drawn_scores(chart, 2) == table_scores(tournament, 2)
    assert drawn_scores(chart, 1) == table_scores(tournament, 1)
    if not tournament.of_players:
        rounds = sorted({match.round for match in first + second})
        assert chart.rounds == rounds and chart.places_svg
    page = charts_page(client, tournament)
    assert chart.spread_svg in page and "Table 2, board " in page
    assert "still being played" not in page


@pytest.mark.parametrize("game_id", game_ids())
def test_the_page_checks_the_stored_charts_against_the_tables_complete_now(game_id, client):
    """A table complete when the charts were drawn and no longer complete (here a match
    added there straight in the database, so that no chart task follows) is left out of the
    page at once: the spread is drawn again without it, the places wait for the chart task."""
    tournament = event_of(game_id)
    for match in sorted(
        matches_at(tournament, 1) + matches_at(tournament, 2),
        key=lambda match: (match.round, match.table.number),
    ):
        play(match)
    recompute(tournament.pk)
    tournament.refresh_from_db()
    chart = refresh_chart_data(tournament, standings_bookkeeping(tournament))
    assert chart.tables == [1, 2] and {g["table"] for g in chart.spread} == {1, 2}
    last = matches_at(tournament, 2)[-1]
    added = Match.objects.create(
        round=last.round + 1,
        table=last.table,
        north_entrant=last.north_entrant,
        east_entrant=last.east_entrant,
    )
    for seat in last.seats.all():
        added.seats.create(seat=seat.seat, entrant=seat.entrant, round=added.round)
    assert complete_tables(tournament) == {1}
    shown = selectors.public_charts(tournament, ChartData.objects.get(pk=chart.pk))
    assert shown.tables_out == [2] and shown.places_svg == "" and shown.rounds == []
    titles = TITLE.findall(shown.spread_svg)[1:]
    assert titles and all(title.startswith("Table 1, board ") for title in titles)
    page = charts_page(client, tournament)
    assert "Table 2," not in page and "Table 2 is still being played" in page
    assert ("being redrawn" in page) == (not tournament.of_players)  # the places wait
