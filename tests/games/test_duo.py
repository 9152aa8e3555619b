"""A game of pairs from outside the product (tests/games/duo) played through the generic code:
found by id, ranked by the engine from its own scores, and entered, checked and ranked by the
web application's services, with no line of the product naming it."""

from __future__ import annotations

import random

import pytest

from engine.games import GAME_IDS, game_ids, get_game, register_game
from engine.ranking import RankingInputError, rank_results
from scoring import services as scoring
from scoring.models import Result, Standing
from scoring.selectors import ranking_input
from scoring.standings import recompute
from tests.contract.events import build_event, round_one, seated_entrants
from tests.games.duo.game import GAME as DUO

SEED = 20261127


def test_the_test_game_is_registered_and_not_shipped():
    assert get_game("duo") is DUO
    assert "duo" in game_ids() and "duo" not in GAME_IDS
    assert game_ids()[: len(GAME_IDS)] == GAME_IDS
    with pytest.raises(ValueError, match="known already"):
        register_game(DUO)


def test_its_notation_round_trips_and_bad_deals_are_refused():
    rng = random.Random(SEED)
    for _ in range(50):
        deal = DUO.deal_cards(rng, players=4, dealer="N")
        assert DUO.parse_deal(DUO.format_deal(deal)) == deal
    with pytest.raises(ValueError, match="numbers 1 to 20 once"):
        DUO.parse_deal("N:1,2,3,4,5 1,2,3,4,5 11,12,13,14,15 16,17,18,19,20")


def duo_results(records):
    """A results object of two boards at one table, pairs A and B."""
    return {
        "game": "duo",
        "teams": [{"id": "A"}, {"id": "B"}, {"id": "C"}, {"id": "D"}],
        "matches": [
            {"round": 1, "table": 1, "ns": "A", "ew": "B", "record": records[0]},
            {"round": 2, "table": 1, "ns": "C", "ew": "D", "record": records[1]},
        ],
    }


def test_the_engine_ranks_a_game_of_pairs_from_the_games_own_scores():
    made = {"game": "duo", "contract": 3, "tricks": 4, "high": "N"}  # NS +30 +5
    down = {"game": "duo", "contract": 5, "tricks": 2, "high": "E"}  # NS -30 -5
    standings = rank_results(duo_results([made, down]))
    points = {row["team"]: row["points"] for row in standings["standings"]}
    # Each side is ranked against the other result on the board and side: the better gets 1
    # ranking point, the worse 2 (lower is better). A made as NS, C went down; so D beat B.
    assert points == {"A": 1, "B": 2, "C": 2, "D": 1}
    assert DUO.side_results(DUO.score(made)) == (35, -35)


def test_a_record_the_game_refuses_is_named_by_the_ranking():
    bad = {"game": "duo", "contract": 9, "tricks": 1, "high": "N"}
    with pytest.raises(RankingInputError, match=r"matches\[0\]\.record: contract: 9 is not"):
        rank_results(duo_results([bad, bad]))


@pytest.mark.django_db
def test_a_game_of_pairs_is_entered_checked_and_ranked_by_the_services():
    tournament = build_event("duo", "duo-evening")
    rng = random.Random(SEED)
    for match in round_one(tournament):
        seats = seated_entrants(match)
        for board in match.table.boards.order_by("number"):
            record = DUO.simulate_record(board.parsed(), rng, tournament.rules)
            facts = DUO.scorer_facts(record, DUO.score(record))
            entry = scoring.submit_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=seats["N"],
                facts=facts,
                client_id=f"duo-entry-{match.pk}-{board.number}",
            )
            assert entry.deal_disagreement == ""  # North entered the 20's holder as dealt
            scoring.accept_entry(
                match_id=match.pk,
                board_number=board.number,
                entrant=seats["E"],
                submission_id=entry.pk,
                client_id=f"duo-accept-{match.pk}-{board.number}",
            )
            result = Result.objects.get(match=match, board=board, current=True)
            assert (result.north_result, result.east_result) == DUO.side_results(DUO.score(record))
    recompute(tournament.pk)
    stored = {
        str(row.entrant_id): row.points for row in Standing.objects.filter(tournament=tournament)
    }
    # The stored standings are the engine's ranking of the results as the game scores them.
    expected = rank_results(ranking_input(tournament))["standings"]
    assert stored == {row["team"]: row["points"] for row in expected}
    assert len(stored) == tournament.entrants.count() and any(stored.values())


@pytest.mark.django_db
def test_the_workbook_and_backup_of_a_game_of_pairs(tmp_path):
    from io import BytesIO

    from openpyxl import load_workbook

    from operations.backup import export_tournament, import_tournament
    from operations.simulation import simulate_tournament
    from publishing import services as publishing

    tournament = build_event("duo", "duo-workbook")
    simulate_tournament(tournament, rounds=None, seed="duo-workbook")
    export, _ = publishing.request_export(
        tournament=tournament, kind="results", fmt="xlsx", enqueue=False
    )
    export = publishing.run_export(export.pk)
    assert export.state == "done", export.step
    book = load_workbook(BytesIO(publishing.export_path(export).read_bytes()))
    deals = book["Deals"]
    dealt = {
        (row[0], row[1]): row[3]
        for row in deals.iter_rows(min_row=3, values_only=True)
        if isinstance(row[0], int)
    }
    assert len(dealt) == tournament.tables.count() * tournament.boards_per_table
    assert all(text.startswith("N:") for text in dealt.values())
    standings = [row for row in book["Standings"].iter_rows(values_only=True) if row[0]]
    assert any(str(row[0]).isdigit() for row in standings)

    data = export_tournament(tournament)
    copy = import_tournament(data, slug="duo-copy")
    assert sorted(Standing.objects.filter(tournament=copy).values_list("place", "points")) == (
        sorted(Standing.objects.filter(tournament=tournament).values_list("place", "points"))
    )
