"""A game of individuals (Pyramid) through the organiser's services: settings, players,
the movement, the deals, results entered by North and checked by East, sheets and quotas,
standings per player, the simulation and the export."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from engine.games import get_game
from engine.schedule import check_individual_schedule
from operations.simulation import simulate_tournament
from scoring import services as scoring
from scoring import sheets
from scoring import standings as scoring_standings
from scoring.errors import InvalidEntry, NotAllowed
from scoring.models import Result, Standing, StandingsState
from tournaments import selectors, services
from tournaments.imports import EntrantRow
from tournaments.models import Board, Match, MatchSeat, Status
from tournaments.services import ServiceError

pytestmark = pytest.mark.django_db

PYRAMID = get_game("pyramid")


def new_id() -> str:
    return uuid.uuid4().hex


def pyramid_event(
    *, players: int = 16, tables: int = 4, per_round: int = 4, slug: str = "pyr", size: int = 4
):
    tournament = services.create_tournament(
        by=None,
        name="Pyramid evening",
        slug=slug,
        tables=tables,
        game="pyramid",
        table_size=size,
        declarations_per_round=per_round,
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, players + 1)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed="pyramid-tests")
    tournament.refresh_from_db()
    return tournament


def declaring(tournament, match: Match, seat: str) -> list[Board]:
    """The boards of a match on which the player in ``seat`` declares."""
    game, players, rules = tournament.game_rules, tournament.table_size, tournament.rules
    return [
        board
        for board in match.table.boards.order_by("number")
        if game.declarer_seat(board.dealer, players, rules) == seat
    ]


def enter(match: Match, board: Board, facts: dict) -> Result:
    entry = scoring.submit_entry(
        match_id=match.pk,
        board_number=board.number,
        entrant=match.north_entrant,
        facts=facts,
        client_id=new_id(),
    )
    return scoring.accept_entry(
        match_id=match.pk,
        board_number=board.number,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )


def test_settings_fix_the_boards_of_a_table():
    tournament = pyramid_event(per_round=4)
    assert tournament.game == "pyramid" and tournament.of_players
    assert tournament.boards_per_table == 16  # 4 declarations for each of 4 players
    assert tournament.rules == {"direction": "clockwise", "declarations_per_round": 4}
    with pytest.raises(ServiceError, match="declarations_per_round"):
        services.create_tournament(
            by=None, name="x", slug="bad", tables=1, game="pyramid", declarations_per_round=0
        )
    with pytest.raises(ServiceError, match="table_size"):
        services.create_tournament(
            by=None, name="x", slug="bad2", tables=1, game="pyramid", table_size=5
        )
    with pytest.raises(ServiceError, match="unknown tournament settings: ruleset"):
        services.create_tournament(
            by=None, name="x", slug="bad3", tables=1, game="pyramid", ruleset="manual-2016"
        )


def test_the_movement_seats_every_player_once_a_round_and_never_twice_at_a_table():
    tournament = pyramid_event()
    assert selectors.schedule_problems(tournament) == []
    movement = selectors.movement_data(tournament)
    assert check_individual_schedule(movement) == []
    seats = list(MatchSeat.objects.filter(match__table__tournament=tournament))
    rounds = {seat.round for seat in seats}
    assert len(seats) == 16 * len(rounds)
    per_round = Counter((seat.entrant_id, seat.round) for seat in seats)
    assert set(per_round.values()) == {1}
    visits = Counter((seat.entrant_id, seat.match.table_id) for seat in seats)
    assert set(visits.values()) == {1}
    for match in Match.objects.filter(table__tournament=tournament):
        by_seat = {seat.seat: seat.entrant_id for seat in match.seats.all()}
        assert sorted(by_seat) == ["E", "N", "S", "W"]
        assert (match.north_entrant_id, match.east_entrant_id) == (by_seat["N"], by_seat["E"])


def test_boards_are_dealt_by_their_fixed_dealer():
    tournament = pyramid_event()
    for board in Board.objects.filter(table__tournament=tournament):
        assert board.dealer == "NESW"[(board.number - 1) % 4]
        deal = PYRAMID.parse_deal(board.deal)
        assert PYRAMID.format_deal(deal) == board.deal
        assert board.deal.startswith(f"{board.dealer}:")


def test_north_enters_east_checks_and_the_result_holds_every_seat():
    tournament = pyramid_event()
    match = Match.objects.filter(table__tournament=tournament, round=1).first()
    board = match.table.boards.get(number=1)  # North deals, East declares
    result = enter(match, board, {"declared": 3, "trump": "hearts", "won": 2})
    assert result.seats == {"N": -8, "E": 8, "S": -8, "W": -8}
    assert (result.north_result, result.east_result) == (-8, 8)
    assert result.submission.score["declarer"] == "E"
    assert result.submission.record["dealer"] == "N"
    assert tournament.game_rules.describe(result.submission.score)


def test_south_and_west_watch_but_may_call_the_director():
    tournament = pyramid_event()
    match = Match.objects.filter(table__tournament=tournament, round=1).first()
    south = match.seats.get(seat="S").entrant
    with pytest.raises(NotAllowed):
        scoring.submit_entry(
            match_id=match.pk,
            board_number=1,
            entrant=south,
            facts={"declared": 3, "trump": "nt", "won": 3},
            client_id=new_id(),
        )
    review = scoring.call_director(
        match_id=match.pk,
        board_number=1,
        entrant=south,
        reason="a card on the floor",
        client_id=new_id(),
    )
    assert review.action == "call_director"


def test_a_wrong_entry_names_the_field_and_stores_nothing():
    tournament = pyramid_event()
    match = Match.objects.filter(table__tournament=tournament, round=1).first()
    for facts, field in (
        ({"declared": 7, "trump": "hearts", "won": 2}, "declared"),
        ({"declared": 3, "trump": "fire", "won": 2}, "trump"),
        ({"declared": 3, "trump": "hearts"}, "won"),
        ({"declared": 3, "trump": "hearts", "won": 2, "dealer": "E"}, "dealer"),
    ):
        with pytest.raises(InvalidEntry) as refusal:
            scoring.submit_entry(
                match_id=match.pk,
                board_number=1,
                entrant=match.north_entrant,
                facts=facts,
                client_id=new_id(),
            )
        assert refusal.value.field == field
    assert not match.submissions.exists()


def test_a_declaration_beyond_the_sheet_is_refused_naming_what_is_left():
    tournament = pyramid_event(per_round=4)
    match = Match.objects.filter(table__tournament=tournament, round=1).first()
    boards = declaring(tournament, match, "E")  # East declares on 4 boards this round
    assert len(boards) == 4
    enter(match, boards[0], {"declared": 6, "trump": "spades", "won": 6})
    with pytest.raises(InvalidEntry, match=r"E has no declaration of 6 left on sheet 1") as no:
        scoring.submit_entry(
            match_id=match.pk,
            board_number=boards[1].number,
            entrant=match.north_entrant,
            facts={"declared": 6, "trump": "spades", "won": 6},
            client_id=new_id(),
        )
    assert no.value.field == "declared"
    assert "legal: 0, 1, 2, 3, 4, 5" in str(no.value)
    # the page offers only what is left
    found = sheets.match_sheets(tournament, match)[boards[1].number]
    assert found["seat"] == "E" and found["sheet"] == 1 and found["used"] == [6]
    form = PYRAMID.entry_form(
        players=4,
        dealer=boards[1].dealer,
        settings=tournament.rules,
        declarer="E",
        player=found["player"].name,
        sheet=1,
        calls=found["used"],
    )
    declared = next(field for field in form["fields"] if field["name"] == "declared")
    assert [value for value, _text in declared["choices"]] == [0, 1, 2, 3, 4, 5]


def test_the_sheet_carries_over_to_the_next_round():
    tournament = pyramid_event(per_round=4)
    east = (
        Match.objects.filter(table__tournament=tournament, round=1)
        .first()
        .seats.get(seat="E")
        .entrant
    )
    first = MatchSeat.objects.get(entrant=east, round=1)
    board = declaring(tournament, first.match, first.seat)[0]
    enter(first.match, board, {"declared": 6, "trump": "clubs", "won": 5})
    later = MatchSeat.objects.get(entrant=east, round=2)
    later_board = declaring(tournament, later.match, later.seat)[0]
    if later.seat == "N":  # North enters his own declaration; East checks it
        pass
    with pytest.raises(InvalidEntry, match="no declaration of 6 left on sheet 1"):
        scoring.submit_entry(
            match_id=later.match.pk,
            board_number=later_board.number,
            entrant=later.match.north_entrant,
            facts={"declared": 6, "trump": "clubs", "won": 6},
            client_id=new_id(),
        )


def test_a_director_correction_frees_the_place_it_held():
    tournament = pyramid_event(per_round=4)
    match = Match.objects.filter(table__tournament=tournament, round=1).first()
    boards = declaring(tournament, match, "E")
    enter(match, boards[0], {"declared": 6, "trump": "spades", "won": 6})
    scoring.director_enter_result(
        match_id=match.pk,
        board_number=boards[0].number,
        user=None,
        facts={"declared": 5, "trump": "spades", "won": 6},
        client_id=new_id(),
    )
    result = enter(match, boards[1], {"declared": 6, "trump": "hearts", "won": 1})
    assert result.seats["E"] == 0


def test_standings_per_player_and_the_pyramid_on_his_card(client):
    tournament = pyramid_event()
    report = simulate_tournament(tournament, rounds=1, seed="standings")
    assert report.boards == 4 * 16
    scoring_standings.recompute(tournament.pk)
    state = StandingsState.objects.get(tournament=tournament)
    assert state.provisional
    rows = state.standings["standings"]
    assert len(rows) == 16 and all("percentage" in row for row in rows)
    assert Standing.objects.filter(tournament=tournament).count() == 16
    player = tournament.entrants.get(number=1)
    drawn = sheets.player_sheets(tournament, player)
    assert drawn[0]["declarations"] == 4 and drawn[0]["quota"] == [1, 2, 3, 4, 3, 2, 1]
    page = client.get(f"/t/{tournament.slug}/teams/1/")
    html = page.content.decode()
    assert page.status_code == 200 and 'class="score-sheet"' in html
    assert html.count('class="place filled') == 4
    standings_page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "Player 16" in standings_page and "%" in standings_page


def test_a_whole_simulated_event_never_breaks_a_quota():
    tournament = pyramid_event(per_round=4)
    simulate_tournament(tournament, rounds=None, seed="whole")
    assert (
        not Result.objects.filter(match__table__tournament=tournament, current=True)
        .filter(seats__isnull=True)
        .exists()
    )
    for player in tournament.entrants.all():
        for sheet in sheets.player_sheets(tournament, player):
            counts = sheet["counts"]
            assert all(c <= q for c, q in zip(counts, sheet["quota"], strict=True))
    scoring_standings.recompute(tournament.pk)
    state = StandingsState.objects.get(tournament=tournament)
    assert not state.provisional
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING


def test_totals_rank_by_the_players_own_sheets():
    tournament = pyramid_event()
    services.update_tournament(by=None, tournament=tournament, changes={"ranking": "totals"})
    simulate_tournament(tournament, rounds=1, seed="totals")
    scoring_standings.recompute(tournament.pk)
    rows = StandingsState.objects.get(tournament=tournament).standings["standings"]
    totals = {}
    for player in tournament.entrants.all():
        totals[str(player.pk)] = sum(s["total"] for s in sheets.player_sheets(tournament, player))
    for row in rows:
        assert row["total"] == totals[str(row["player"])]
    ordered = [row["total"] for row in rows if row["place"] is not None]
    assert ordered == sorted(ordered, reverse=True)


@pytest.mark.parametrize(("size", "players", "tables"), [(3, 10, 3), (2, 7, 3)])
def test_tables_of_three_and_two_with_a_player_sitting_out(size, players, tables):
    """Every table size plays through: East checks at 3 and at 2 (the other player), the
    leftover player sits out a round, every seat is ranked, the sheets hold."""
    tournament = pyramid_event(
        players=players, tables=tables, per_round=2, slug=f"small-{size}", size=size
    )
    assert tournament.boards_per_table == 2 * size
    assert check_individual_schedule(selectors.movement_data(tournament)) == []
    seats = set(
        MatchSeat.objects.filter(match__table__tournament=tournament).values_list("seat", flat=True)
    )
    assert seats == set("NESW"[:size])
    report = simulate_tournament(tournament, rounds=None, seed=f"small-{size}")
    assert report.boards == tables * tables * 2 * size
    results = Result.objects.filter(match__table__tournament=tournament, current=True)
    assert all(set(result.seats) == set("NESW"[:size]) for result in results)
    scoring_standings.recompute(tournament.pk)
    state = StandingsState.objects.get(tournament=tournament)
    rows = state.standings["standings"]
    assert not state.provisional and len(rows) == players
    sat_out = [row for row in rows if row["matches"] < max(r["matches"] for r in rows)]
    assert sat_out, "a leftover player sits out a round"
    for player in tournament.entrants.all():
        for sheet in sheets.player_sheets(tournament, player):
            assert all(c <= q for c, q in zip(sheet["counts"], sheet["quota"], strict=True))


def test_a_game_whose_entry_the_pages_cannot_take_is_not_offered(monkeypatch):
    from tournaments.models import game_choices, scorable_games

    shipped = ("pymtheg", "pyramid", "pysngtaut", "twenty")
    assert scorable_games(shipped) == shipped
    monkeypatch.setattr(type(PYRAMID), "entry_kind", "cards-by-voice")
    assert scorable_games(shipped) == ("pymtheg", "pysngtaut", "twenty")
    assert "pyramid" not in [game for game, _title in game_choices()]
    with pytest.raises(ServiceError, match="'pyramid' is not one of pymtheg, pysngtaut"):
        services.create_tournament(by=None, name="x", slug="later", tables=1, game="pyramid")
